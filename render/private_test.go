package render_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestPublicRevision_PRIV05_SameDocuments holds the public revision a
// publication stores (issue 15) to the entry it comes from: for every
// fixture, render.Documents of the entry and of its PublicRevision give
// the same documents, byte for byte, in every kind of render.Table but the
// stored revision itself — the public projections (PRIV-05, PRIV-06) and
// the publication's own card and search record alike — so the time guard's
// stand-in (D66), rendered from the stored revision, is what the pipeline
// would publish. It holds at the entry's nextChangeAt too, where the
// stand-in re-issues the entry with schemas.Expire.
func TestPublicRevision_PRIV05_SameDocuments(t *testing.T) {
	site := testSite(t)
	compared := 0
	for _, e := range allEntries(t) {
		p := e.PublicRevision()
		if !e.NextChangeAt().Equal(p.NextChangeAt()) {
			t.Errorf("%s: nextChangeAt %v, public revision's %v", e.Slug, e.NextChangeAt(), p.NextChangeAt())
		}
		pairs := [][2]*schemas.Entry{{e, p}}
		if next := e.NextChangeAt(); !next.IsZero() {
			full, _ := schemas.Expire(e, next)
			pub, _ := schemas.Expire(p, next)
			pairs = append(pairs, [2]*schemas.Entry{full, pub})
		}
		for _, pair := range pairs {
			want, _ := render.Documents(pair[0], site)
			got, _ := render.Documents(pair[1], site)
			if len(got) != len(want) {
				t.Fatalf("%s: %d documents from the public revision, %d from the entry", e.Slug, len(got), len(want))
			}
			for i := range want {
				w, g := want[i], got[i]
				if w.Kind != g.Kind || w.Lang != g.Lang || w.Path != g.Path {
					t.Fatalf("%s: document %d is %s/%s %s, want %s/%s %s", e.Slug, i, g.Kind, g.Lang, g.Path, w.Kind, w.Lang, w.Path)
				}
				if w.Kind == render.KindEntry {
					continue
				}
				if !bytes.Equal(w.Body, g.Body) {
					t.Errorf("%s: %s/%s differs when rendered from the public revision", e.Slug, w.Kind, w.Lang)
				}
				compared++
			}
		}
	}
	if compared == 0 {
		t.Fatal("no document compared")
	}
}

// TestPublicRevision_VIEW05_StoredRevisionHoldsNoPrivateValue checks the
// revision a publication stores (render.KindEntry) of every fixture: none
// of the entry's private values (private contact points, VIEW-05; delivery
// addresses, D15; the street of a locality-only location, PRIV-18) is in
// it, while what the server needs is: every action, with its delivery's
// mode and a handoff's URL (ACT-49).
func TestPublicRevision_VIEW05_StoredRevisionHoldsNoPrivateValue(t *testing.T) {
	site := testSite(t)
	f, _ := render.FormatByName(render.KindEntry)
	sentinels := 0
	for _, e := range allEntries(t) {
		before, _ := json.Marshal(e)
		stored := f.Render(e, "", site, nil)
		// The public revision shares what it does not change with the
		// entry (issue 18): taking it must leave the entry as it was.
		if after, _ := json.Marshal(e); !bytes.Equal(before, after) {
			t.Errorf("%s: taking the public revision changed the entry", e.Slug)
		}
		for _, v := range fixtures.PrivateValues(e) {
			sentinels++
			if bytes.Contains(stored, []byte(v)) {
				t.Errorf("%s: the stored revision holds the private value %q", e.Slug, v)
			}
		}
		back := new(schemas.Entry)
		if err := json.Unmarshal(stored, back); err != nil {
			t.Fatalf("%s: the stored revision does not decode: %v", e.Slug, err)
		}
		if len(back.Actions) != len(e.Actions) {
			t.Fatalf("%s: %d actions stored, the entry has %d", e.Slug, len(back.Actions), len(e.Actions))
		}
		for i, a := range e.Actions {
			b := back.Actions[i]
			if a.Handoff() != b.Handoff() || (a.Handoff() && a.Delivery.URL != b.Delivery.URL) {
				t.Errorf("%s: action %s stored as %+v, was %+v", e.Slug, a.ID, b.Delivery, a.Delivery)
			}
		}
		for _, c := range back.ContactPoints {
			if c.Visibility != "public" {
				t.Errorf("%s: the stored revision keeps the private contact point %s", e.Slug, c.ID)
			}
		}
	}
	// The fixtures have private contact points, delivery addresses and a
	// locality-only street (entries/README.md); a check that found none
	// would check nothing.
	if sentinels < 10 {
		t.Fatalf("only %d private values in the fixtures", sentinels)
	}
	for _, want := range []string{"directors-private@thornbury-hale.example", "Geheimweg 99", "quotes@thornbury-hale.example"} {
		if !strings.Contains(strings.Join(fixtures.PrivateValues(allEntries(t)...), "\n"), want) {
			t.Errorf("PrivateValues misses %q", want)
		}
	}
}
