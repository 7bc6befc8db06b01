package render

import (
	"encoding/json"

	"github.com/daawid/registry/schemas"
)

// The kinds of an entry's documents: the names of the rows of Table, as a
// publication's document index and the server name them (D59). These are
// the only spelling of them; the publication adds two kinds of its own
// (publication.KindSite, publication.KindRemoved).
const (
	KindMarkdown  = "md"
	KindHTML      = "html"
	KindView      = "view"
	KindOfferings = "offerings-md"
	KindLegal     = "legal-html"
	KindPrivacy   = "privacy-html" // the privacy notice Daawid hosts (HTTP-33, D17)
	KindJSONLD    = "jsonld"
	// KindCard is the MCP Apps entry card of a language (§7.7: made at
	// publish).
	KindCard = "card"
	// KindSearch is the record search finds a listed entry by (§7.5).
	KindSearch = "search"
	// KindEntry is the entry's public revision (JSON,
	// schemas.Entry.PublicRevision), kept for an entry with a nextChangeAt
	// so the server can re-render it when the pipeline is late
	// (ARCHITECTURE decision 2, D66), and for an entry that takes requests,
	// whose runs need its actions (D75); it has no path and is never
	// served. It holds no private part (issue 15): where a request goes is
	// in the publication's private routing file (publication.Routing).
	KindEntry = "entry"
)

// Format is one document of an entry: a table row, not a switch (STYLE 4,
// in the manner of Hugo's output.Format). Render is pure: (revision,
// language, site) in, bytes out; sections applies to the formats that can
// be cut to sections (md, view).
type Format struct {
	// Name is the document's kind.
	Name      string
	MediaType string
	// Ext is the extension `daawid render` and the golden files use.
	Ext string
	// PerLanguage is false for a document that holds every language at
	// once (the standalone JSON-LD) or none.
	PerLanguage bool
	// Public: a projection of the entry anyone may read (in Formats, with
	// a golden file for every fixture); the others are the publication's
	// own documents for the server (the card, the search record, the
	// revision).
	Public bool
	// Path is where the document is served; nil: it is not served.
	Path func(e *schemas.Entry, lang string, site Site) string
	// Applies reports whether an entry has the document; nil: every entry.
	Applies func(e *schemas.Entry, lang string, site Site) bool
	// make renders the document within one entry's rendering, sharing the
	// work several formats have in common (docJob).
	make func(j *docJob, lang string, sections []schemas.SectionKey) []byte
}

// Render renders the document of one revision in one language (""
// for a format that is not per language) on its own.
func (f Format) Render(e *schemas.Entry, lang string, site Site, sections []schemas.SectionKey) []byte {
	return f.make(&docJob{e: e, site: site}, lang, sections)
}

// langSuffix is "" for the default language and "/{lang}" for another (the
// contract's paths of a language's documents).
func langSuffix(e *schemas.Entry, lang string) string {
	if lang == e.DefaultLanguage {
		return ""
	}
	return "/" + lang
}

// Table is every document a publication holds of an entry, in the order it
// writes them: a run of per-language rows is written language by language
// (the default first), then the next run (Documents). Documents, `daawid
// render`, the publication's kinds and the server's media types are all
// made from it.
var Table = []Format{
	{Name: KindMarkdown, MediaType: "text/markdown; charset=utf-8", Ext: ".md", PerLanguage: true, Public: true,
		Path: func(e *schemas.Entry, lang string, site Site) string { return URLPath(MarkdownURL(site, e, lang)) },
		make: func(j *docJob, lang string, sections []schemas.SectionKey) []byte {
			switch {
			case sections != nil:
				return MarkdownSections(j.e, lang, j.site, sections)
			case !j.shared:
				return Markdown(j.e, lang, j.site)
			}
			return j.language(lang).Markdown
		}},
	{Name: KindHTML, MediaType: "text/html; charset=utf-8", Ext: ".html", PerLanguage: true, Public: true,
		Path: func(e *schemas.Entry, lang string, site Site) string { return URLPath(HTMLPageURL(site, e, lang)) },
		make: func(j *docJob, lang string, _ []schemas.SectionKey) []byte {
			if !j.shared {
				return HTML(j.e, lang, j.site)
			}
			return j.language(lang).HTML
		}},
	{Name: KindView, MediaType: "application/json", Ext: ".json", PerLanguage: true, Public: true,
		Path: func(e *schemas.Entry, _ string, _ Site) string { return "/v1/entries/" + e.ID },
		make: func(j *docJob, lang string, sections []schemas.SectionKey) []byte {
			if sections != nil || !j.shared {
				return ViewJSON(j.e, lang, j.site, sections)
			}
			return j.language(lang).View
		}},
	{Name: KindOfferings, MediaType: "text/markdown; charset=utf-8", Ext: ".md", PerLanguage: true, Public: true,
		Path: func(e *schemas.Entry, lang string, _ Site) string {
			return "/" + e.Slug + langSuffix(e, lang) + "/offerings.md"
		},
		Applies: func(e *schemas.Entry, _ string, _ Site) bool { return len(e.Offerings) > 0 },
		make: func(j *docJob, lang string, _ []schemas.SectionKey) []byte {
			return offeringsMarkdown(j.e, lang, j.site, j.f)
		}},
	{Name: KindLegal, MediaType: "text/html; charset=utf-8", Ext: ".html", PerLanguage: true, Public: true,
		Path: func(e *schemas.Entry, lang string, site Site) string {
			return URLPath(LegalURL(site, e)) + langSuffix(e, lang)
		},
		make: func(j *docJob, lang string, _ []schemas.SectionKey) []byte {
			b, _ := legalPage(j.e, lang, j.site, j.f)
			return b
		}},
	{Name: KindPrivacy, MediaType: "text/html; charset=utf-8", Ext: ".html", PerLanguage: true, Public: true,
		Path: func(e *schemas.Entry, lang string, site Site) string {
			return URLPath(PrivacyURL(site, e)) + langSuffix(e, lang)
		},
		make: func(j *docJob, lang string, _ []schemas.SectionKey) []byte {
			b, _ := privacyPage(j.e, lang, j.site, j.f)
			return b
		}},
	{Name: KindJSONLD, MediaType: "application/ld+json", Ext: ".json", Public: true,
		Path: func(e *schemas.Entry, _ string, _ Site) string { return "/" + e.Slug + ".json" },
		make: func(j *docJob, _ string, _ []schemas.SectionKey) []byte { return jsonLD(j.e, j.site, j.f) }},
	{Name: KindCard, MediaType: "application/json", Ext: ".json", PerLanguage: true,
		make: func(j *docJob, lang string, _ []schemas.SectionKey) []byte {
			v := j.language(lang).EntryView
			return marshal(Card(&v))
		}},
	{Name: KindSearch, MediaType: "application/json", Ext: ".json",
		Applies: func(e *schemas.Entry, _ string, _ Site) bool { return Searchable(e) },
		make: func(j *docJob, _ string, _ []schemas.SectionKey) []byte {
			rec, ok := SearchRecord(j.e, j.views())
			if !ok {
				return nil
			}
			return marshal(rec)
		}},
	{Name: KindEntry, MediaType: "application/json", Ext: ".json",
		Applies: func(e *schemas.Entry, _ string, _ Site) bool {
			return !e.NextChangeAt().IsZero() || len(e.EnabledActions()) > 0
		},
		make: func(j *docJob, _ string, _ []schemas.SectionKey) []byte { return marshal(j.e.PublicRevision()) }},
}

// Formats are the public projections of an entry: the rows of Table
// anyone may read.
var Formats = publicFormats()

func publicFormats() []Format {
	var out []Format
	for _, f := range Table {
		if f.Public {
			out = append(out, f)
		}
	}
	return out
}

// FormatByName finds a row of Table by its name (its kind).
func FormatByName(name string) (Format, bool) {
	for _, f := range Table {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// MediaTypes are the media types of the kinds of Table.
func MediaTypes() map[string]string {
	out := make(map[string]string, len(Table))
	for _, f := range Table {
		out[f.Name] = f.MediaType
	}
	return out
}

func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("render: " + err.Error()) // only our own types are marshalled
	}
	return b
}

// Rendered are the per-language projections of one revision that a
// publication stores: the markdown document, the HTML page and the view.
// The markdown and the HTML are written from one intermediate document.
type Rendered struct {
	Markdown, HTML, View []byte
	// EntryView is the view the View bytes encode (the publication's
	// tables are made from it).
	EntryView schemas.EntryView
}

// RenderLanguage renders the per-language projections of a revision at
// once, sharing the work the markdown and the HTML have in common.
func RenderLanguage(e *schemas.Entry, lang string, site Site) Rendered {
	return renderLanguage(e, lang, site, nil)
}

func renderLanguage(e *schemas.Entry, lang string, site Site, f *facts) Rendered {
	b := newBuilder(e, lang, site, f)
	d, md := b.budgetedDocument(nil)
	v := view(e, lang, site, nil, b.f)
	return Rendered{
		Markdown:  md,
		HTML:      writeHTML(b, d),
		View:      append(marshal(v), '\n'),
		EntryView: v,
	}
}

// sizeHint estimates a revision's markdown size from how many items it
// has, so output buffers are allocated once, at about the right size.
func sizeHint(e *schemas.Entry) int {
	n := 1 + len(e.Offerings) + len(e.Actions) + len(e.ContactPoints) + len(e.Locations) +
		len(e.FAQs) + len(e.Policies) + len(e.Credentials)
	return 1500 + 450*n
}
