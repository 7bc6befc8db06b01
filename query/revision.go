package query

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// Revision is an entry's whole revision as the publication holds it,
// private parts included (an action's delivery address, private contact
// points): the action runs need them to deliver a request, and nothing
// that shows a revision to a reader may use this. When time has changed
// the entry since it was published, it is the revision the time guard
// re-issues (D66), so a request follows what the entry says now.
func (r *Read) Revision(id string) (*schemas.Entry, error) {
	e, d, err := r.storedRevision(id)
	if err != nil {
		return nil, err
	}
	if !d.NextChangeAt.IsZero() && !r.now.Before(d.NextChangeAt) {
		n, _ := schemas.Expire(e, r.now)
		return n, nil
	}
	return e, nil
}

// storedRevision is an entry's revision as the publication stores it
// (render.KindEntry), with its document row.
func (r *Read) storedRevision(id string) (*schemas.Entry, publication.DocRow, error) {
	d, ok := r.sn.EntryDoc(id, render.KindEntry, "")
	if !ok {
		return nil, d, notFound("entry %s has no stored revision", id)
	}
	b, err := r.sn.Bytes(d)
	if err != nil {
		return nil, d, fmt.Errorf("entry %s: %w", id, err)
	}
	var e schemas.Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, d, fmt.Errorf("entry %s: %w", id, err)
	}
	return &e, d, nil
}

// Now is the instant of the request the reads belong to.
func (r *Read) Now() time.Time { return r.now }
