package compile_test

import (
	"strings"
	"testing"

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
