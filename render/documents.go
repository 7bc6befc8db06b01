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
// the order of Table: per language (default first) the markdown, the page,
// the view, the offerings markdown when it has offerings, the legal page
// when it has an operator block and the privacy notice when Daawid hosts
// it; then once the JSON-LD; the card of every language; the search
// record of a listed entry and the revision of an entry the server may
// need whole. The pipeline writes them; the server's time guard makes them
// again for an entry time has changed (D66), so the two can never list
// different documents. It also returns the EntryView of every language,
// the default first: the exports are made of the default's, the search
// record of all.
func Documents(e *schemas.Entry, site Site) ([]Document, []schemas.EntryView) {
	j := &docJob{e: e, site: site, shared: true, f: factsOf(e)}
	langs := Languages(e)
	var out []Document
	for start := 0; start < len(Table); {
		end := start + 1
		for end < len(Table) && Table[end].PerLanguage == Table[start].PerLanguage {
			end++
		}
		run := Table[start:end]
		if !run[0].PerLanguage {
			for _, f := range run {
				out = j.add(out, f, "")
			}
		}
		for _, lang := range langs {
			if run[0].PerLanguage {
				for _, f := range run {
					out = j.add(out, f, lang)
				}
			}
		}
		start = end
	}
	return out, j.views()
}

// add renders one format's document when the entry has it.
func (j *docJob) add(out []Document, f Format, lang string) []Document {
	if f.Applies != nil && !f.Applies(j.e, lang, j.site) {
		return out
	}
	body := f.make(j, lang, nil)
	if body == nil {
		return out
	}
	path := ""
	if f.Path != nil {
		path = f.Path(j.e, lang, j.site)
	}
	return append(out, Document{Kind: f.Name, Lang: lang, Path: path, MediaType: f.MediaType, Body: body})
}

// docJob is one entry's rendering: the per-language projections that
// share an intermediate document are made once, when a format first asks.
type docJob struct {
	e    *schemas.Entry
	site Site
	// shared: several formats are rendered (Documents), so the markdown,
	// the page and the view of a language are made together; a format
	// rendered alone makes only itself.
	shared bool
	// f are the entry's facts, made once for every format and language.
	f     *facts
	langs map[string]*Rendered
}

func (j *docJob) language(lang string) *Rendered {
	if r, ok := j.langs[lang]; ok {
		return r
	}
	if j.langs == nil {
		j.langs = map[string]*Rendered{}
	}
	r := renderLanguage(j.e, lang, j.site, j.f)
	j.langs[lang] = &r
	return &r
}

// views are the EntryViews of every language, the default first.
func (j *docJob) views() []schemas.EntryView {
	langs := Languages(j.e)
	out := make([]schemas.EntryView, len(langs))
	for i, l := range langs {
		out[i] = j.language(l).EntryView
	}
	return out
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
