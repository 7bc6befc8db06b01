package render

import (
	"encoding/json"

	"github.com/daawid/registry/schemas"
)

// Format is one projection of an entry: a table row, not a switch (STYLE 4).
// Render is pure: (revision, language, site) in, bytes out. Sections
// applies to the formats that can be cut to sections (md, view).
type Format struct {
	Name      string
	MediaType string
	Ext       string
	// PerLanguage is false for the standalone JSON-LD, which holds every
	// language at once.
	PerLanguage bool
	Render      func(e *schemas.Entry, lang string, site Site, sections []schemas.SectionKey) []byte
}

// Formats are every per-entry projection.
var Formats = []Format{
	{Name: "md", MediaType: "text/markdown; charset=utf-8", Ext: ".md", PerLanguage: true,
		Render: func(e *schemas.Entry, lang string, site Site, sections []schemas.SectionKey) []byte {
			if sections != nil {
				return MarkdownSections(e, lang, site, sections)
			}
			return Markdown(e, lang, site)
		}},
	{Name: "offerings-md", MediaType: "text/markdown; charset=utf-8", Ext: ".md", PerLanguage: true,
		Render: func(e *schemas.Entry, lang string, site Site, _ []schemas.SectionKey) []byte {
			return OfferingsMarkdown(e, lang, site)
		}},
	{Name: "jsonld", MediaType: "application/ld+json", Ext: ".json",
		Render: func(e *schemas.Entry, _ string, site Site, _ []schemas.SectionKey) []byte { return JSONLD(e, site) }},
	{Name: "html", MediaType: "text/html; charset=utf-8", Ext: ".html", PerLanguage: true,
		Render: func(e *schemas.Entry, lang string, site Site, _ []schemas.SectionKey) []byte {
			return HTML(e, lang, site)
		}},
	{Name: "legal-html", MediaType: "text/html; charset=utf-8", Ext: ".html", PerLanguage: true,
		Render: func(e *schemas.Entry, lang string, site Site, _ []schemas.SectionKey) []byte {
			b, _ := LegalPage(e, lang, site)
			return b
		}},
	{Name: "view", MediaType: "application/json", Ext: ".json", PerLanguage: true,
		Render: ViewJSON},
}

// FormatByName finds a format by its name.
func FormatByName(name string) (Format, bool) {
	for _, f := range Formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
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
	b := &builder{e: e, lang: lang, site: site}
	d := b.document(nil)
	v := View(e, lang, site, nil)
	vb, err := json.Marshal(v)
	if err != nil {
		panic("render: EntryView does not marshal: " + err.Error())
	}
	return Rendered{
		Markdown:  writeMarkdown(b, d),
		HTML:      writeHTML(b, d),
		View:      append(vb, '\n'),
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
