package render

import "github.com/daawid/registry/schemas"

// facts are what the projections derive from a revision besides its fields
// (the lists and answers of schemas/entry_funcs.go): computed once per
// entry, in this one place, before any projection is written, and read by
// every builder of the entry (Documents shares one set across all its
// formats and languages).
type facts struct {
	e               *schemas.Entry
	enabled         []schemas.Action       // enabled actions, in entry order
	public          []schemas.ContactPoint // public contact points
	credentials     []schemas.Credential   // still valid at the revision's instant (D31)
	verifiedHosts   []string
	primary         *schemas.Location
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
	f.e = e
	return f
}

// mediaItem is the media item with the ID, or nil. An entry has a handful
// of media items: a scan costs less than a map made for every entry.
func (f *facts) mediaItem(id string) *schemas.Media { return f.e.MediaItem(id) }

// newBuilder starts a projection of an entry in a language; f are the
// entry's facts when the caller has them (nil: made here).
func newBuilder(e *schemas.Entry, lang string, site Site, f *facts) *builder {
	if f == nil {
		f = factsOf(e)
	}
	return &builder{e: e, lang: lang, site: site, f: f, inline: MaxOfferingsInline}
}
