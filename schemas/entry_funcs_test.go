package schemas

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

func fixture(t *testing.T, slug string) *Entry {
	t.Helper()
	b, err := os.ReadFile("../fixtures/entries/" + slug + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

// TestNextChangeAt_PRIV11 checks the instant time alone would change a
// projection (decision D4).
func TestNextChangeAt_PRIV11(t *testing.T) {
	hk := fixture(t, "holzwerk-krause")
	if got := hk.NextChangeAt(); !got.Equal(time.Date(2026, 11, 27, 9, 14, 3, 0, time.UTC)) {
		t.Errorf("Holzwerk Krause: next change %v, want the capacity's expiry", got)
	}
	if !hk.CapacityActive() {
		t.Error("capacity is active at the revision")
	}
	// A revision issued after the expiry drops the capacity and has nothing
	// scheduled: it is verified (no noindex window) and has no grace period.
	hk.Record.UpdatedAt = "2026-11-27T09:14:03Z"
	if hk.CapacityActive() {
		t.Error("capacity is shown at its expiry instant")
	}
	if got := hk.NextChangeAt(); !got.IsZero() {
		t.Errorf("after the expiry: next change %v, want none", got)
	}
	miriam := fixture(t, "person-miriam-hoffmann")
	if got, want := miriam.NextChangeAt(), miriam.NoindexWindowEnd(); !got.Equal(want) && !got.Before(want) {
		t.Errorf("a new entry below domain: next change %v, want at most the end of its noindex window %v", got, want)
	}
	deniz := fixture(t, "firin-deniz")
	var grace time.Time
	for _, d := range deniz.Verification.Domains {
		if d.Status == DomainGrace {
			grace = ParseTime(d.GraceUntil)
		}
	}
	if got := deniz.NextChangeAt(); grace.IsZero() || got.After(grace) {
		t.Errorf("a domain in grace: next change %v, want at most %v", got, grace)
	}
}

// TestHTMLNoindex_HTTP23_HTTP27 checks the robots rules of §2.2.
func TestHTMLNoindex_HTTP23_HTTP27(t *testing.T) {
	for _, tc := range []struct {
		slug            string
		noindex, follow bool
	}{
		{"holzwerk-krause", false, true},
		{"schreinerei-beispiel", true, true},
		{"person-miriam-hoffmann", true, true},
		{"injection-werkstatt-probe", true, true},
		{"elektro-sommer-kassel", true, false},
		{"kfz-rasant-dortmund", true, false},
		{"person-sanne-de-vries", false, true},
	} {
		n, f := fixture(t, tc.slug).HTMLNoindex()
		if n != tc.noindex || f != tc.follow {
			t.Errorf("%s: noindex %v follow %v, want %v %v", tc.slug, n, f, tc.noindex, tc.follow)
		}
	}
}
