package compile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/schemas/taxonomy"
)

func TestCategorizer(t *testing.T) {
	c := compile.NewCategorizer(taxonomy.Default())
	for _, tc := range []struct {
		nace, desc []string
		want       string
	}{
		{[]string{"43.32", "16.23"}, []string{"43320 - Joinery installation", "16230 - Manufacture of other builders' carpentry and joinery"}, "trades.carpentry"},
		{[]string{"56.10"}, []string{"56101 - Licensed restaurants"}, "food.restaurant"},
		{[]string{"69.20"}, []string{"69201 - Accounting and auditing activities"}, "professional.accountant"},
	} {
		if got := c.FromNACE(tc.nace, tc.desc, "en"); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%v %v → %v, want %s first", tc.nace, tc.desc, got, tc.want)
		}
	}
	for name, want := range map[string]string{
		"Schreinerei Beispiel":  "trades.carpentry",
		"Tischlerei Meyer":      "trades.carpentry",
		"Bäckerei Sonnenschein": "food.bakery",
		"Elektro Sommer":        "",
	} {
		got, ok := c.FromName(name, "de")
		if want == "" {
			continue // only the found ones are asserted; "Elektro" is not a word of the taxonomy's
		}
		if !ok || got != want {
			t.Errorf("FromName(%q) = %q, %v; want %s", name, got, ok, want)
		}
	}
	if got, ok := c.FromName("Krause Holding", "de"); ok && !strings.HasPrefix(got, "finance") {
		t.Logf("Krause Holding → %s", got)
	}
}

// TestSlugs_NeverReused checks slug rules: readable, unique, never reused,
// deterministic whatever the order, and no endless search on long names.
func TestSlugs_NeverReused(t *testing.T) {
	long := strings.Repeat("Sehr Lange Firmenbezeichnung ", 5)
	news := []compile.NewCompany{
		{Key: "k3", Name: "Bäckerei Müller & Söhne", Locality: "Köln"},
		{Key: "k1", Name: "Bäckerei Müller & Söhne", Locality: "Köln"},
		{Key: "k2", Name: "Bäckerei Müller & Söhne", Locality: "Bonn"},
		{Key: "k4", Name: long, Locality: "Berlin"},
		{Key: "k5", Name: long, Locality: "Berlin"},
		{Key: "k6", Name: long, Locality: "Berlin"},
		{Key: "k7", Name: "Claim", Locality: ""},
	}
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	a := compile.NewIdentities()
	got := map[string]string{}
	for _, id := range a.AssignNew(append([]compile.NewCompany(nil), news...), now) {
		got[id.Key] = id.Slug
	}
	b := compile.NewIdentities()
	reversed := make([]compile.NewCompany, len(news))
	for i := range news {
		reversed[i] = news[len(news)-1-i]
	}
	// Worked out ahead on every core (compile.Prepare), the same.
	compile.Prepare(reversed, now, func(n int, fn func(int)) {
		for i := n - 1; i >= 0; i-- {
			fn(i)
		}
	})
	gotIDs := map[string]string{}
	for _, id := range a.All() {
		gotIDs[id.Key] = id.EntryID
	}
	for _, id := range b.AssignNew(reversed, now) {
		if got[id.Key] != id.Slug || gotIDs[id.Key] != id.EntryID {
			t.Errorf("%s: %s %s in one order, %s %s in the other, prepared", id.Key, got[id.Key], gotIDs[id.Key], id.Slug, id.EntryID)
		}
	}
	if got["k1"] != "baeckerei-mueller-soehne" || got["k2"] != "baeckerei-mueller-soehne-bonn" || got["k3"] != "baeckerei-mueller-soehne-koeln" {
		t.Errorf("slugs %v", got)
	}
	seen := map[string]bool{}
	for k, s := range got {
		if seen[s] || len(s) > 63 || s == "claim" {
			t.Errorf("%s: slug %q repeated, too long or reserved", k, s)
		}
		seen[s] = true
	}
	id, _ := a.ByKey("k1")
	if !a.Rename(id, "Müller Backwaren", "Köln") || id.Slug != "mueller-backwaren" || id.OldSlugs[0] != "baeckerei-mueller-soehne" {
		t.Errorf("rename: %+v", id)
	}
	n := a.AssignNew([]compile.NewCompany{{Key: "k9", Name: "Bäckerei Müller & Söhne", Locality: ""}}, now)
	if n[0].Slug == "baeckerei-mueller-soehne" {
		t.Error("a slug that now redirects was given again")
	}
}
