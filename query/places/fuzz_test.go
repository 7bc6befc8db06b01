package places

import (
	"github.com/daawid/registry/schemas/terms"
	"testing"
	"unicode/utf8"
)

// FuzzFind: no text makes Find panic, and what it finds is a loaded town;
// a correction names the text as written. The seed corpus is in
// testdata/fuzz/FuzzFind.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"München", "Paris, Texas", "frnakfurt", "Barmen, Wuppertal", ",,,", "إسطنبول", "\xff\xfe", "a, b, c, d, e, f, g, h, i, j"} {
		f.Add(s, false)
	}
	g := testGazetteer(f)
	f.Fuzz(func(t *testing.T, text string, known bool) {
		m, ok := g.Find(text, func(string) bool { return known })
		if !ok {
			if m != (Match{}) {
				t.Fatalf("%q: not found, but %+v", text, m)
			}
			return
		}
		if m.Place.ID == 0 || m.Place.Name == "" || len(m.Place.Country) != 2 {
			t.Fatalf("%q: %+v", text, m)
		}
		if m.CorrectedFrom != "" && (known || !utf8.ValidString(m.CorrectedFrom)) {
			t.Fatalf("%q: corrected from %q though known=%v", text, m.CorrectedFrom, known)
		}
	})
}

// FuzzFindPostal: no code makes FindPostal panic; what it finds has the
// code as found. The seed corpus is in testdata/fuzz/FuzzFindPostal.
func FuzzFindPostal(f *testing.F) {
	for _, s := range [][2]string{{"DE", "42285"}, {"FR", "75001"}, {"GB", "SW1A 1AA"}, {"de", "٤٢٢٨٥"}, {"", ""}, {"DE", "-"}} {
		f.Add(s[0], s[1])
	}
	g := testGazetteer(f)
	f.Fuzz(func(t *testing.T, country, code string) {
		m, ok := g.FindPostal(country, code)
		if ok && (m.PostalCode == "" || m.Place.Name == "") {
			t.Fatalf("%q %q: %+v", country, code, m)
		}
	})
}

// FuzzFold: folding never panics, is idempotent, and gives words of
// letters and digits joined by single spaces.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"München", "Frankfurt (Oder)", "İstanbul", "ǅ", "ﷺ", "\u0308a", "Nⁱ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := terms.Fold(s)
		if b := terms.Fold(a); a != b {
			t.Fatalf("terms.Fold(%q) = %q, Fold of that %q", s, a, b)
		}
		if len(a) > 0 && (a[0] == ' ' || a[len(a)-1] == ' ') {
			t.Fatalf("terms.Fold(%q) = %q", s, a)
		}
	})
}
