package places

import (
	"slices"
	"testing"
)

// TestFindPostal_S75Bundled: §7.5 "near.postalCode is found by the whole
// code or its first part", with the country required (Near), from the
// bundled German and French tables: a code stands at its town.
func TestFindPostal_S75Bundled(t *testing.T) {
	g := testGazetteer(t)
	cases := []struct {
		country, code string
		want          int64 // 0: not found
		region        string
	}{
		{"DE", "42285", wuppertal, "North Rhine-Westphalia"},
		{"de", " 42285 ", wuppertal, ""},
		{"DE", "80331", munich, "Bavaria"},
		{"DE", "60311", frankfurtMain, "Hesse"},
		{"DE", "15230", frankfurtOder, "Brandenburg"},
		{"DE", "50667", cologne, ""},
		{"DE", "٤٢٢٨٥", wuppertal, ""}, // Arabic-Indic digits
		{"DE", "４２２８５", wuppertal, ""}, // full-width digits
		{"FR", "75001", paris, "Île-de-France"},
		{"FR", "75116", paris, ""},
		{"FR", "13001", marseille, ""},
		{"FR", "69002", 2996944, ""}, // Lyon 2e Arrondissement is Lyon
		{"FR", "20000", 3038334, "Corsica"},
		{"DE", "75001", 0, ""},              // a French code in Germany
		{"FR", "42285", 0, ""},              // and the other way round
		{"DE", "99999", 0, ""},              // no such code
		{"XX", "42285", 0, ""},              // no such country
		{"", "42285", 0, ""},                // the country is required
		{"DEU", "42285", 0, ""},             // as a two-letter code
		{"DE", "", 0, ""},                   // and a code
		{"DE", "4228", 0, ""},               // a German code has no first part
		{"DE", "42285-1234", wuppertal, ""}, // its first part, as a ZIP+4
		{"US", "10001", 0, ""},              // no US codes are bundled
	}
	for _, c := range cases {
		m, ok := g.FindPostal(c.country, c.code)
		switch {
		case ok != (c.want != 0) || m.Place.ID != c.want:
			t.Errorf("%s %q: %v %d %q, want %d", c.country, c.code, ok, m.Place.ID, m.Place.Name, c.want)
		case c.region != "" && m.Place.Region != c.region:
			t.Errorf("%s %q: region %q, want %q", c.country, c.code, m.Place.Region, c.region)
		case ok && m.PostalCode == "":
			t.Errorf("%s %q: no postal code in %+v", c.country, c.code, m)
		}
	}
}

// TestUnplaced: the bundled codes whose place isn't among cities500's
// towns are noted, sorted, and not found.
func TestUnplaced(t *testing.T) {
	g := testGazetteer(t)
	for _, c := range []struct {
		country string
		max     int
		example string
	}{{"DE", 600, "02739"}, {"FR", 400, "01280"}} {
		u := g.Unplaced(c.country)
		if len(u) == 0 || len(u) > c.max || !slices.IsSorted(u) || !slices.Contains(u, c.example) {
			t.Errorf("%s: %d unplaced codes (%v…)", c.country, len(u), u[:min(5, len(u))])
		}
		for _, code := range u[:min(20, len(u))] {
			if _, ok := g.FindPostal(c.country, code); ok {
				t.Errorf("%s %s is unplaced and found", c.country, code)
			}
		}
	}
}
