package render

import "github.com/daawid/registry/schemas"

// facts are what the projections derive from a revision besides its fields
// (the lists and answers of schemas/entry_funcs.go): computed once per
// entry, in this one place, before any projection is written, and read by
// every builder of the entry (Documents shares one set across all its
// formats and languages).
type facts struct {
	enabled         []schemas.Action       // enabled actions, in entry order
	public          []schemas.ContactPoint // public contact points
	credentials     []schemas.Credential   // still valid at the revision's instant (D31)
	verifiedHosts   []string
	primary         *schemas.Location
	media           map[string]*schemas.Media
	operatorCountry string // "" without an operator block (MD-37)
	capacityActive  bool
	belowDomain     bool // links are user content (rel=ugc)
	noindex, follow bool // the page's robots directives (HTML-14)
}

func factsOf(e *schemas.Entry) *facts {
	f := &facts{enabled: e.EnabledActions(), public: e.PublicContactPoints(), credentials: e.ActiveCredentials(),
		verifiedHosts: e.VerifiedHosts(), primary: e.PrimaryLocation(), operatorCountry: e.OperatorCountry(),
		capacityActive: e.CapacityActive(), belowDomain: e.BelowDomain()}
	f.noindex, f.follow = e.HTMLNoindex()
	if len(e.Media) > 0 {
		f.media = make(map[string]*schemas.Media, len(e.Media))
		for i := len(e.Media) - 1; i >= 0; i-- { // the first of a repeated ID wins, as in Entry.MediaItem
			f.media[e.Media[i].ID] = &e.Media[i]
		}
	}
	return f
}

// mediaItem is the media item with the ID, or nil.
func (f *facts) mediaItem(id string) *schemas.Media { return f.media[id] }

// newBuilder starts a projection of an entry in a language; f are the
// entry's facts when the caller has them (nil: made here).
func newBuilder(e *schemas.Entry, lang string, site Site, f *facts) *builder {
	if f == nil {
		f = factsOf(e)
	}
	return &builder{e: e, lang: lang, site: site, f: f}
}
