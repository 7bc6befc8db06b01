package render_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
)

// TestMarkdown_MD01_MD76_SpecExamples renders the two worked examples of
// the contract and compares them byte for byte with §3.6 and §3.7, as
// extracted verbatim into fixtures/spec (MD-01..MD-76, PRIV-06).
func TestMarkdown_MD01_MD76_SpecExamples(t *testing.T) {
	site := testSite(t)
	for _, tc := range []struct{ slug, lang, spec string }{
		{"holzwerk-krause", "de", "holzwerk-krause.de.md"},           // §3.6
		{"schreinerei-beispiel", "de", "schreinerei-beispiel.de.md"}, // §3.7
	} {
		t.Run(tc.slug, func(t *testing.T) {
			got := render.Markdown(fixtures.Entry(tc.slug), tc.lang, site)
			want := fixtures.Spec(tc.spec)
			if !bytes.Equal(got, want) {
				t.Errorf("markdown differs from the contract's example:\n%s", lineDiff(string(want), string(got)))
			}
		})
	}
}

// TestJSONLD_LD01_LD62_SpecExample renders Holzwerk Krause's standalone
// JSON-LD and compares it with §4.3 as JSON values (LD-01..LD-62); the key
// order is the example's too (LD-62).
func TestJSONLD_LD01_LD62_SpecExample(t *testing.T) {
	got := render.JSONLD(fixtures.Entry("holzwerk-krause"), testSite(t))
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("JSON-LD does not parse: %v", err)
	}
	if err := json.Unmarshal(fixtures.Spec("holzwerk-krause.jsonld"), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.MarshalIndent(g, "", "  ")
		wb, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("JSON-LD differs from §4.3:\n%s", lineDiff(string(wb), string(gb)))
	}
	// LD-62: same key order as the example, checked on the compact forms.
	var cg, cw bytes.Buffer
	_ = json.Compact(&cg, got)
	_ = json.Compact(&cw, fixtures.Spec("holzwerk-krause.jsonld"))
	if cg.String() != cw.String() {
		t.Errorf("JSON-LD has the example's values but not its key order")
	}
}
