package render_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestSelectMarkdownSections_TOOL_GetEntrySections: cutting the published
// document to some sections gives the bytes rendering those sections
// gives (§7.4: get_entry_sections' text), for every fixture, language,
// single section and a few combinations.
func TestSelectMarkdownSections_TOOL_GetEntrySections(t *testing.T) {
	site := testSite(t)
	sets := [][]schemas.SectionKey{{"contact", "hours"}, {"facts", "legal", "offerings"}, {"actions", "brand", "voice", "faqs"}, schemas.SectionKeys}
	for _, k := range schemas.SectionKeys {
		sets = append(sets, []schemas.SectionKey{k})
	}
	for _, e := range fixtures.Entries() {
		name := e.Slug
		for _, lang := range e.Languages {
			md := render.Markdown(e, lang, site)
			for _, set := range sets {
				want := render.MarkdownSections(e, lang, site, set)
				if got := render.SelectMarkdownSections(md, set); !bytes.Equal(got, want) {
					t.Errorf("%s/%s %v: the cut differs from the rendering\n--- cut\n%s\n--- rendered\n%s", name, lang, set, got, want)
				}
			}
		}
	}
}

// TestSelectView_VIEW06: the view cut to some sections keeps the identity
// and drops the rest, and a view rendered whole then cut marshals to the
// same bytes for every set of sections.
func TestSelectView_VIEW06(t *testing.T) {
	site := testSite(t)
	e := fixtures.Entry("holzwerk-krause")
	v := render.View(e, "de", site, []schemas.SectionKey{"hours"})
	if v.ID != e.ID || v.Kind == "" || v.Verification.Level == "" || len(v.Locations) == 0 {
		t.Errorf("identity or hours missing: %+v", v)
	}
	if v.Offerings != nil || v.Actions != nil || v.Operator != nil || v.Description != "" || v.Capacity != nil {
		t.Error("sections that were not asked for are in the view")
	}
	full := render.View(e, "de", site, nil)
	b, _ := json.Marshal(full)
	var again schemas.EntryView
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatal(err)
	}
	render.SelectView(&again, []schemas.SectionKey{"offerings", "legal"})
	got, _ := json.Marshal(again)
	want, _ := json.Marshal(render.View(e, "de", site, []schemas.SectionKey{"offerings", "legal"}))
	if !bytes.Equal(got, want) {
		t.Errorf("a decoded view cut differs:\n%s\n%s", got, want)
	}
}

// TestOfferingBlocks_TOOL14: the offerings document splits into one block
// per offering, in order, each naming its ID.
func TestOfferingBlocks_TOOL14(t *testing.T) {
	site := testSite(t)
	for _, e := range fixtures.Entries() {
		name := e.Slug
		if len(e.Offerings) == 0 || e.Status == schemas.StatusSuspended {
			continue
		}
		ids, blocks := render.OfferingBlocks(render.OfferingsMarkdown(e, e.DefaultLanguage, site))
		if len(ids) != len(e.Offerings) {
			t.Fatalf("%s: %d blocks for %d offerings", name, len(ids), len(e.Offerings))
		}
		for i, o := range e.Offerings {
			if ids[i] != o.ID || !bytes.HasPrefix(blocks[i], []byte("### ")) || bytes.HasSuffix(blocks[i], []byte("\n\n")) {
				t.Errorf("%s: block %d is %q for %s", name, i, blocks[i], o.ID)
			}
		}
	}
}
