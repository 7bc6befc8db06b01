package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// hugeEntry is Holzwerk Krause with 25 offerings whose descriptions are
// 2,000 characters in both its languages, the schema's limits: its full
// document would be about 110,000 bytes.
func hugeEntry(t *testing.T) *schemas.Entry {
	t.Helper()
	e := fixtures.Entry("holzwerk-krause").Clone()
	base := e.Offerings[0]
	e.Offerings = nil
	e.Actions = nil // actions name offerings by ID
	for i := range 25 {
		o := base
		o.ID = fmt.Sprintf("off_01k8r2m6aa1b2c3d4e5f6g7h%02d", i)
		o.Description = schemas.Text[schemas.Max2000]{"de": strings.Repeat("Massivholz nach Maß. ", 95), "en": strings.Repeat("Solid wood, made to measure. ", 68)}
		e.Offerings = append(e.Offerings, o)
	}
	return e
}

// TestMarkdown_MD34_SizeBudget: a document that would pass ~8k tokens
// lists as many offerings as fit within render.MarkdownBudget and points
// to offerings.md, which lists every one; the page for people lists the
// same ones (MD-34, MD-35).
func TestMarkdown_MD34_SizeBudget(t *testing.T) {
	site := testSite(t)
	e := hugeEntry(t)
	for _, lang := range e.Languages {
		r := render.RenderLanguage(e, lang, site)
		md := string(r.Markdown)
		if len(md) > render.MarkdownBudget {
			t.Errorf("%s: %d bytes, over the budget of %d", lang, len(md), render.MarkdownBudget)
		}
		listed := strings.Count(md, "\n### ")
		if listed == 0 || listed >= 25 {
			t.Errorf("%s: %d offerings inline, want some but not all 25", lang, listed)
		}
		if !strings.Contains(md, fmt.Sprintf("Showing %d of 25 offerings. All offerings: %s/holzwerk-krause/offerings.md", listed, site.BaseURL)) {
			t.Errorf("%s: no pointer to offerings.md", lang)
		}
		// As many as fit are listed: one offering here is about 2,500
		// bytes, so the document fills more than three quarters.
		if len(md) < render.MarkdownBudget*3/4 {
			t.Errorf("%s: %d bytes is far below the budget", lang, len(md))
		}
		if all := string(render.OfferingsMarkdown(e, lang, site)); strings.Count(all, "\n### ") != 25 {
			t.Errorf("%s: offerings.md lists %d, want 25", lang, strings.Count(all, "\n### "))
		}
		if got := strings.Count(string(r.HTML), "<h3"); got < listed {
			t.Errorf("%s: the page lists %d offerings, the markdown %d", lang, got, listed)
		}
		if md2 := string(render.Markdown(e, lang, site)); md2 != md {
			t.Errorf("%s: Markdown and RenderLanguage differ", lang)
		}
	}
	// A document within the budget is untouched: all 25 inline.
	small := hugeEntry(t)
	for i := range small.Offerings {
		small.Offerings[i].Description = nil
	}
	if md := string(render.Markdown(small, "de", site)); strings.Count(md, "\n### ") != 25 || len(md) > render.MarkdownBudget {
		t.Errorf("a small document lists %d offerings in %d bytes", strings.Count(md, "\n### "), len(md))
	}
}
