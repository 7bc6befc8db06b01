package query

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// Service is the one read API (ARCHITECTURE decision 5): the REST routes
// and the MCP tools call it with the same inputs and get the same
// structures and error codes. It reads the current publication and
// renders nothing, except an entry whose nextChangeAt has come before a
// publication re-issued it (the time guard, D66).
type Service struct {
	snaps *Snapshots
	site  render.Site
	// standInMu serialises the making of stand-ins: they are rare (a late
	// pipeline), and one render per entry is enough.
	standInMu sync.Mutex
	standIns  atomic.Uint64 // made since the server started
}

// StandIns is how many entries the time guard has re-issued in memory
// since the server started (D66): a pipeline that runs late shows here.
func (s *Service) StandIns() uint64 { return s.standIns.Load() }

// NewService serves the publications snaps opens; site must be the
// publications' own (the time guard renders with it).
func NewService(snaps *Snapshots, site render.Site) *Service {
	return &Service{snaps: snaps, site: site}
}

// Fallback reports whether the server serves an older publication
// because the current one did not verify when it started (issue 15).
func (s *Service) Fallback() *Fallback { return s.snaps.Fallback() }

// Site is the registry's base URLs and vocabulary.
func (s *Service) Site() render.Site { return s.site }

// Begin starts the reads of one request at the instant now: they all see
// the same publication, which stays open until End (STYLE 3: one getter
// per request, where a new snapshot swaps in). Before the first
// publication it fails with unavailable.
func (s *Service) Begin(now time.Time) (*Read, error) {
	sn := s.snaps.Acquire()
	if sn == nil {
		return nil, &Error{Code: CodeUnavailable, Message: "no publication is loaded yet; try again shortly", RetryAfterSeconds: 5}
	}
	return &Read{svc: s, sn: sn, now: now}, nil
}

// Read is one request's view of the registry.
type Read struct {
	svc *Service
	sn  *Snapshot
	now time.Time
}

// End releases the publication.
func (r *Read) End() { r.sn.Release() }

// Publication is the manifest of the publication the reads see.
func (r *Read) Publication() *publication.Manifest { return &r.sn.Manifest }

// PublicationDir is the directory of the publication the reads see.
func (r *Read) PublicationDir() string { return r.sn.Dir }

// Doc is a document to serve: how (its index row) and where its bytes
// are (AppendBody, Reader).
type Doc struct {
	publication.DocRow
	// Langs are the entry's languages, default first (the Link and
	// Content-Language headers); none for a registry-level file.
	Langs []string
	pack  *pack  // the pack the bytes are in, or
	body  []byte // the bytes, for a stand-in
}

// Document finds the document served at a path: an entry's page or
// document ("/holzwerk-krause", "/holzwerk-krause/en.md") or a
// registry-level file ("/llms.txt"). A removed entry's paths are gone.
func (r *Read) Document(path string) (*Doc, error) {
	d, langs, ok := r.sn.docAt(path)
	if !ok {
		if slug := pathSlug(path); slug != "" {
			if id, ok := r.sn.reg.removedSlug[slug]; ok {
				return nil, r.goneError(id)
			}
		}
		return nil, notFound("nothing is published at %s", path)
	}
	return r.doc(d, langs)
}

// EntryDoc finds an entry's document of a kind in a language (lang "" for
// the JSON-LD).
func (r *Read) EntryDoc(entryID, kind, lang string) (*Doc, error) {
	d, langs, ok := r.sn.entryDoc(entryID, kind, lang)
	if !ok {
		return nil, notFound("entry %s has no %s document in %q", entryID, kind, lang)
	}
	return r.doc(d, langs)
}

// doc serves a document from its pack, or from the entry's stand-in when
// time has changed the entry since it was published (D66).
func (r *Read) doc(d publication.DocRow, langs []string) (*Doc, error) {
	if d.EntryID != "" && !d.NextChangeAt.IsZero() && !r.now.Before(d.NextChangeAt) {
		st, err := r.standIn(d.EntryID)
		if err != nil {
			return nil, err
		}
		if sd, ok := st.doc(d.Kind, d.Lang); ok {
			sd.Langs = langs
			return sd, nil
		}
		return nil, notFound("entry %s no longer has a %s document in %q", d.EntryID, d.Kind, d.Lang)
	}
	p, err := r.sn.pack(d.Pack)
	if err != nil {
		return nil, err
	}
	return &Doc{DocRow: d, Langs: langs, pack: p}, nil
}

// pathSlug is the slug a page path names: "/holzwerk-krause.md" and
// "/holzwerk-krause/en" name holzwerk-krause.
func pathSlug(path string) string {
	p := strings.TrimPrefix(path, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".md"), ".json")
	if !slugRe.MatchString(p) {
		return ""
	}
	return p
}

var (
	slugRe = regexp.MustCompile(schemas.SlugPattern)
	langRe = regexp.MustCompile(schemas.LanguageTagPattern)
)

// goneError is a removed entry's answer: gone (410), saying when.
func (r *Read) goneError(id string) error {
	rm := r.sn.reg.removed[id]
	msg := fmt.Sprintf("entry %s (%s) was removed from the registry", id, rm.Slug)
	if !rm.At.IsZero() && rm.At.Year() > 1970 {
		msg += " on " + rm.At.UTC().Format(time.DateOnly)
	}
	return &Error{Code: CodeGone, Message: msg}
}

// Resolved is an entry found by ID, slug or domain.
type Resolved struct {
	ID, Slug string
	// Renamed: the entry was asked for by a slug it had before.
	Renamed bool
	info    entryInfo
}

// Languages are the entry's languages, its default first.
func (e *Resolved) Languages() []string { return e.info.Langs }

// DefaultLanguage is the entry's default language.
func (e *Resolved) DefaultLanguage() string { return e.info.DefaultLang }

// Lang is the language an answer is in: the one asked for if the entry
// has it (a region-less match counts: de-AT finds de), else the entry's
// default language (§6).
func (e *Resolved) Lang(asked string) string {
	if asked == "" {
		return e.info.DefaultLang
	}
	for _, l := range e.info.Langs {
		if strings.EqualFold(l, asked) {
			return l
		}
	}
	primary, _, _ := strings.Cut(asked, "-")
	for _, l := range e.info.Langs {
		if strings.EqualFold(l, primary) {
			return l
		}
	}
	return e.info.DefaultLang
}

// ByID finds an entry by its ID: not_found, or gone when it was removed.
func (r *Read) ByID(id string) (*Resolved, error) {
	if e, ok := r.sn.ix.byID(id); ok {
		info := e.ix.info(e.at)
		return &Resolved{ID: info.ID, Slug: info.Slug, info: info}, nil
	}
	if _, ok := r.sn.reg.removed[id]; ok {
		return nil, r.goneError(id)
	}
	return nil, notFound("no entry has the ID %s", id)
}

// BySlug finds an entry by its slug or a slug it had before (Renamed).
func (r *Read) BySlug(slug string) (*Resolved, error) {
	if e, ok := r.sn.ix.bySlug(slug); ok {
		info := e.ix.info(e.at)
		return &Resolved{ID: info.ID, Slug: info.Slug, info: info}, nil
	}
	if id, ok := r.sn.reg.oldSlugs[slug]; ok {
		if e, ok := r.sn.ix.byID(id); ok {
			info := e.ix.info(e.at)
			return &Resolved{ID: info.ID, Slug: info.Slug, Renamed: true, info: info}, nil
		}
		if _, ok := r.sn.reg.removed[id]; ok {
			return nil, r.goneError(id)
		}
	}
	if id, ok := r.sn.reg.removedSlug[slug]; ok {
		return nil, r.goneError(id)
	}
	return nil, notFound("no entry has the slug %s", slug)
}

// ByDomain finds the entry that has verified a host, in or out of its
// grace period (§7.5): the host may come as AI apps write it (an address,
// capitals, an IDN, with or without www.). No verified entry: not_found.
func (r *Read) ByDomain(domain string) (*Resolved, error) {
	host, err := normalizeHost(domain)
	if err != nil {
		return nil, &Error{Code: CodeInvalidInput, Message: "domain: " + err.Error(), Issues: []Issue{{Field: "domain", Message: err.Error()}}}
	}
	for _, h := range hostCandidates(host) {
		if id, ok := r.sn.reg.hosts[h]; ok {
			return r.ByID(id)
		}
	}
	return nil, notFound("no entry has verified the domain %s", host)
}

// entryDocBytes reads one of an entry's documents whole.
func (r *Read) entryDocBytes(id, kind, lang string) (*Doc, []byte, error) {
	d, err := r.EntryDoc(id, kind, lang)
	if err != nil {
		return nil, nil, err
	}
	b, err := d.Bytes()
	if err != nil {
		return nil, nil, fmt.Errorf("entry %s %s/%s: %w", id, kind, lang, err)
	}
	return d, b, nil
}
