package compile

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/daawid/registry/schemas/taxonomy"
)

// TestActivityTable checks activities.tsv (D99): every row names a
// category of the taxonomy, and every UK SIC 2007 code the fixtures and
// the labelled set use has a row, as itself or as its NACE class.
func TestActivityTable(t *testing.T) {
	acts, err := parseActivities(activitiesTSV)
	if err != nil {
		t.Fatal(err)
	}
	tax := taxonomy.Default()
	for code, a := range acts {
		if a.category == "" {
			continue
		}
		if c, ok := tax.Lookup(a.category); !ok || c.IsSector() {
			t.Errorf("activities.tsv: %s → %q is not a category of the taxonomy", code, a.category)
		}
	}
	sicRE := regexp.MustCompile(`(?m)(?:^|[",\t])(\d{5})(?: - |[,\t])`)
	files := []string{"register/testdata/labelled.tsv"}
	csvs, _ := filepath.Glob("../fixtures/registers/companies-house-*.csv")
	files = append(files, csvs...)
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range sicRE.FindAllStringSubmatch(string(b), -1) {
			sic := m[1]
			seen++
			if _, ok := acts.lookup(sic, sic[:2]+"."+sic[2:4]); !ok {
				t.Errorf("%s: SIC %s has no row in activities.tsv (as itself or as NACE %s.%s)", f, sic, sic[:2], sic[2:4])
			}
		}
	}
	if seen < 100 {
		t.Errorf("found only %d SIC codes in the fixtures; the pattern no longer matches them", seen)
	}
	// Florist (SIC 47760) is retail, not farm supply (issue 16).
	if a, _ := acts.lookup("47760", "47.76"); a.category != "retail.florist" {
		t.Errorf("SIC 47760 → %q, want retail.florist", a.category)
	}
}

// TestNameWordTable checks namewords.tsv (D99): every row names a category
// of the taxonomy, in a language a register compiles in, with no stem
// listed twice for one language and match.
func TestNameWordTable(t *testing.T) {
	names, err := parseNameWords(namewordsTSV)
	if err != nil {
		t.Fatal(err)
	}
	tax := taxonomy.Default()
	for lang, rows := range names {
		if lang != "de" && lang != "en" && lang != "fr" {
			t.Errorf("namewords.tsv: language %q is none a register compiles in", lang)
		}
		seen := map[string]bool{}
		for _, w := range rows {
			if c, ok := tax.Lookup(w.category); !ok || c.IsSector() {
				t.Errorf("namewords.tsv: %s %q → %q is not a category of the taxonomy", lang, w.stem, w.category)
			}
			if seen[w.match+" "+w.stem] {
				t.Errorf("namewords.tsv: %s %s %q is listed twice", lang, w.match, w.stem)
			}
			seen[w.match+" "+w.stem] = true
		}
	}
}

// TestParseTables_BadRows: a bad row is an error naming its line and field.
func TestParseTables_BadRows(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"4776\tretail.florist\n", `activities.tsv:1: code "4776" is neither`},
		{"47.76\tretail.florist\n47.76\tretail.gift\n", "activities.tsv:2: code 47.76 is listed twice"},
	} {
		if _, err := parseActivities(tc.text); err == nil || !regexp.MustCompile(regexp.QuoteMeta(tc.want)).MatchString(err.Error()) {
			t.Errorf("parseActivities(%q) = %v, want %q", tc.text, err, tc.want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"de\tBlumen\tprefix\tretail.florist\n", `namewords.tsv:1: stem "Blumen" must be lower case`},
		{"de\tblumen\tinfix\tretail.florist\n", `namewords.tsv:1: match "infix" is not`},
		{"de\tblumen\n", "namewords.tsv:1: want lang, stem, match and category"},
	} {
		if _, err := parseNameWords(tc.text); err == nil || !regexp.MustCompile(regexp.QuoteMeta(tc.want)).MatchString(err.Error()) {
			t.Errorf("parseNameWords(%q) = %v, want %q", tc.text, err, tc.want)
		}
	}
}
