package schemas_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

func renderSite(t *testing.T) render.Site {
	s, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExpire_PRIV11_Capacity expires Holzwerk Krause's capacity: before
// its expiresAt nothing happens; from then on a new revision without
// capacity is issued, and no projection shows the capacity.
func TestExpire_PRIV11_Capacity(t *testing.T) {
	e := fixtures.Entry("holzwerk-krause")
	exp := schemas.ParseTime(e.Capacity.ExpiresAt)
	if same, changed := schemas.Expire(e, exp.Add(-time.Second)); changed || same != e {
		t.Fatal("an entry was re-issued before anything expired")
	}
	n, changed := schemas.Expire(e, exp.Add(30*time.Second))
	if !changed {
		t.Fatal("nothing issued after the capacity expired")
	}
	if n.Record.Revision != 43 || n.Record.UpdatedAt != schemas.FormatTime(exp) || n.Capacity != nil {
		t.Errorf("revision %d at %s, capacity %v", n.Record.Revision, n.Record.UpdatedAt, n.Capacity)
	}
	if e.Capacity == nil || e.Record.Revision != 42 {
		t.Error("Expire changed the revision it was given")
	}
	for _, f := range render.Formats {
		for _, lang := range n.Languages {
			out := string(f.Render(n, lang, renderSite(t), nil))
			if strings.Contains(out, "limited") || strings.Contains(out, "Reparaturen meist innerhalb") {
				t.Errorf("%s/%s still shows the expired capacity", f.Name, lang)
			}
		}
	}
	if _, issues := schemas.Validate(mustJSON(t, n)); len(issues) > 0 {
		t.Errorf("the expired revision does not validate: %v", issues)
	}
	if again, changed := schemas.Expire(n, exp.Add(time.Hour)); changed || again != n {
		t.Error("expiring twice issued another revision")
	}
}

// TestExpire_HTTP24_NoindexWindowEnds re-issues a new entry below level
// domain when its 30-day window ends: same data, a new date, no noindex.
func TestExpire_HTTP24_NoindexWindowEnds(t *testing.T) {
	e := fixtures.Entry("person-miriam-hoffmann")
	e.Capacity = nil // leave only the noindex window scheduled
	end := e.NoindexWindowEnd()
	if noindex, _ := e.HTMLNoindex(); !noindex {
		t.Fatal("fixture should be inside its noindex window")
	}
	n, changed := schemas.Expire(e, end)
	if !changed {
		t.Fatal("the end of the noindex window issued no revision")
	}
	if noindex, _ := n.HTMLNoindex(); noindex {
		t.Error("the new revision is still noindex")
	}
	if !n.NextChangeAt().IsZero() {
		t.Errorf("nothing else is scheduled, yet nextChangeAt = %v", n.NextChangeAt())
	}
}

// TestExpire_DomainGraceLapses lapses a verified entry whose only verified
// domain's grace period ends.
func TestExpire_DomainGraceLapses(t *testing.T) {
	e := fixtures.Entry("holzwerk-krause")
	e.Capacity = nil
	e.Verification.Domains[0].Status = schemas.DomainGrace
	e.Verification.Domains[0].GraceUntil = "2026-11-10T00:00:00Z"
	n, changed := schemas.Expire(e, time.Date(2026, 11, 10, 0, 5, 0, 0, time.UTC))
	if !changed || n.Status != schemas.StatusLapsed || n.Verification.LapsedAt != "2026-11-10T00:00:00Z" || n.Verification.Level != schemas.LevelNone {
		t.Fatalf("status %s, lapsedAt %s, level %s", n.Status, n.Verification.LapsedAt, n.Verification.Level)
	}
	md := string(render.Markdown(n, "de", renderSite(t)))
	if !strings.Contains(md, "Its verification lapsed on 2026-11-10") || strings.Contains(md, "verified_domains: [holzwerk") {
		t.Error("the lapsed revision does not say so")
	}
	if _, issues := schemas.Validate(mustJSON(t, n)); len(issues) > 0 {
		t.Errorf("the lapsed revision does not validate: %v", issues)
	}
}

func mustJSON(t *testing.T, e *schemas.Entry) []byte {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
