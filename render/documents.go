package render

import (
	"strings"

	"github.com/daawid/registry/schemas"
)

// Document is one of an entry's published documents (D59): its kind and
// language (schemas.Doc*), the path it is served at ("" when it is not
// served), its media type and bytes.
type Document struct {
	Kind, Lang, Path, MediaType string
	Body                        []byte
}

// Languages are the languages an entry is published in, its default
// first.
func Languages(e *schemas.Entry) []string {
	out := []string{e.DefaultLanguage}
	for _, l := range e.Languages {
		if l != e.DefaultLanguage {
			out = append(out, l)
		}
	}
	return out
}

// Documents renders every document of an entry a publication holds, in
// the order the publication writes them: per language (default first) the
// markdown, the page, the view, the offerings markdown when it has
// offerings, the legal page when it has an operator block and the privacy
// notice when Daawid hosts it; then once the JSON-LD. The pipeline writes
// them; the server's time guard makes them again for an entry time has
// changed (D66), so the two can never list different documents. It also
// returns the EntryView of every language, the default first: the
// exports are made of the default's, the search record of all.
func Documents(e *schemas.Entry, site Site) ([]Document, []schemas.EntryView) {
	var out []Document
	var views []schemas.EntryView
	add := func(kind, lang, path, media string, body []byte) {
		out = append(out, Document{Kind: kind, Lang: lang, Path: path, MediaType: media, Body: body})
	}
	const md, html = "text/markdown; charset=utf-8", "text/html; charset=utf-8"
	for _, lang := range Languages(e) {
		suffix := ""
		if lang != e.DefaultLanguage {
			suffix = "/" + lang
		}
		r := RenderLanguage(e, lang, site)
		views = append(views, r.EntryView)
		add(schemas.DocMarkdown, lang, URLPath(MarkdownURL(site, e, lang)), md, r.Markdown)
		add(schemas.DocHTML, lang, URLPath(HTMLPageURL(site, e, lang)), html, r.HTML)
		add(schemas.DocView, lang, "/v1/entries/"+e.ID, "application/json", r.View)
		if len(e.Offerings) > 0 {
			add(schemas.DocOfferings, lang, "/"+e.Slug+suffix+"/offerings.md", md, OfferingsMarkdown(e, lang, site))
		}
		if b, ok := LegalPage(e, lang, site); ok {
			add(schemas.DocLegal, lang, URLPath(LegalURL(site, e))+suffix, html, b)
		}
		if b, ok := PrivacyPage(e, lang, site); ok {
			add(schemas.DocPrivacy, lang, URLPath(PrivacyURL(site, e))+suffix, html, b)
		}
	}
	add(schemas.DocJSONLD, "", "/"+e.Slug+".json", "application/ld+json", JSONLD(e, site))
	return out, views
}

// URLPath is the path of an absolute URL ("https://daawid.example/x" →
// "/x").
func URLPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[i+3+j:]
		}
		return "/"
	}
	return u
}
