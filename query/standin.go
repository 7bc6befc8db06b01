package query

import (
	"fmt"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// The time guard (ARCHITECTURE decision 2, D66): the server never serves a
// document past its entry's nextChangeAt. When that instant has come and
// the publication still holds the older revision, the entry is re-issued
// in memory with schemas.Expire, which dates it at the change itself, and
// rendered whole: the stand-in is the revision the pipeline issues next,
// byte for byte, and it serves until a publication brings that revision
// (or the stand-in's own nextChangeAt comes).

// standIn is an entry re-rendered in memory.
type standIn struct {
	next time.Time // the stand-in's own nextChangeAt
	docs map[string]*standInDoc
}

type standInDoc struct {
	row  publication.DocRow
	body []byte
}

func (s *standIn) doc(kind, lang string) (*Doc, bool) {
	d, ok := s.docs[kind+"\x00"+lang]
	if !ok {
		return nil, false
	}
	return &Doc{DocRow: d.row, body: d.body}, true
}

func (r *Read) standIn(id string) (*standIn, error) {
	if v, ok := r.sn.standIns.Load(id); ok {
		if st := v.(*standIn); st.next.IsZero() || r.now.Before(st.next) {
			return st, nil
		}
	}
	r.svc.standInMu.Lock()
	defer r.svc.standInMu.Unlock()
	if v, ok := r.sn.standIns.Load(id); ok {
		if st := v.(*standIn); st.next.IsZero() || r.now.Before(st.next) {
			return st, nil
		}
	}
	e, _, err := r.storedRevision(id)
	if err != nil {
		return nil, fmt.Errorf("time guard: %w", err)
	}
	n, _ := schemas.Expire(e, r.now)
	st := renderStandIn(n, r.svc.site)
	r.svc.standIns.Add(1)
	r.sn.standIns.Store(id, st)
	return st, nil
}

// renderStandIn renders an entry's documents as a publication holds them
// (render.Documents), with the same paths, media types and ETags.
func renderStandIn(e *schemas.Entry, site render.Site) *standIn {
	st := &standIn{next: e.NextChangeAt(), docs: map[string]*standInDoc{}}
	modified := schemas.ParseTime(e.Record.UpdatedAt)
	key := site.Key()
	docs, _ := render.Documents(e, site)
	for _, d := range docs {
		st.docs[d.Kind+"\x00"+d.Lang] = &standInDoc{body: d.Body, row: publication.DocRow{EntryID: e.ID, Slug: e.Slug, Kind: d.Kind, Lang: d.Lang,
			Path: d.Path, Length: int64(len(d.Body)), MediaType: d.MediaType, ETag: publication.DocETag(e.ID, e.Record.Revision, d.Kind, d.Lang, key),
			LastModified: modified, Revision: int32(e.Record.Revision), NextChangeAt: st.next}}
	}
	return st
}
