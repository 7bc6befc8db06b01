package render_test

import (
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
)

// The targets (issue 2, docs/performance.md): all four projections of
// Holzwerk Krause under 300 µs together on one core, an unclaimed entry
// under 60 µs.

func benchFormat(b *testing.B, slug, format string) {
	e := fixtures.Entry(slug)
	site := testSite(b)
	f, ok := render.FormatByName(format)
	if !ok {
		b.Fatal(format)
	}
	b.ReportAllocs()
	for b.Loop() {
		f.Render(e, e.DefaultLanguage, site, nil)
	}
}

func BenchmarkMarkdown(b *testing.B) { benchFormat(b, "holzwerk-krause", "md") }
func BenchmarkJSONLD(b *testing.B)   { benchFormat(b, "holzwerk-krause", "jsonld") }
func BenchmarkHTML(b *testing.B)     { benchFormat(b, "holzwerk-krause", "html") }
func BenchmarkView(b *testing.B)     { benchFormat(b, "holzwerk-krause", "view") }

// benchAllFour renders markdown, HTML (with its embedded JSON-LD), the view
// and the standalone JSON-LD, as a publication does per entry.
func benchAllFour(b *testing.B, slug string) {
	e := fixtures.Entry(slug)
	site := testSite(b)
	b.ReportAllocs()
	for b.Loop() {
		render.RenderLanguage(e, e.DefaultLanguage, site)
		render.JSONLD(e, site)
	}
}

func BenchmarkAllFour_HolzwerkKrause(b *testing.B) { benchAllFour(b, "holzwerk-krause") }
func BenchmarkAllFour_Unclaimed(b *testing.B)      { benchAllFour(b, "schreinerei-beispiel") }
