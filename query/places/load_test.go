package places

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func open(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// sample is a gazetteer of the testdata files in GeoNames' own formats:
// nine real cities500 rows (Wuppertal, Munich, both Frankfurts, Paris
// and Paris, Texas, London, Westminster, Manchester), a few regions in
// admin1CodesASCII's four columns, alternate names in alternateNamesV2's
// ten, and GB postal codes in GeoNames' postal format.
func sample(t testing.TB) *Gazetteer {
	t.Helper()
	g := New()
	for _, step := range []struct {
		file string
		load func(r *os.File) error
	}{
		{"testdata/admin1CodesASCII_sample.txt", func(r *os.File) error { return g.LoadAdmin1(r) }},
		{"testdata/cities_sample.txt", func(r *os.File) error { return g.LoadCities(r) }},
		{"testdata/alternateNamesV2_sample.txt", func(r *os.File) error { return g.LoadAlternateNames(r) }},
		{"testdata/gb_postal.txt", func(r *os.File) error { return g.LoadPostal(r) }},
	} {
		if err := step.load(open(t, step.file)); err != nil {
			t.Fatalf("%s: %v", step.file, err)
		}
	}
	return g
}

// TestLoaders_GeoNamesFormats: the loaders read GeoNames' official dumps,
// so an operator can load the full world (issue 6).
func TestLoaders_GeoNamesFormats(t *testing.T) {
	g := sample(t)
	if g.Len() != 9 {
		t.Fatalf("%d towns, want 9", g.Len())
	}
	cases := []struct {
		text   string
		want   int64
		region string
	}{
		{"Wuppertal", wuppertal, "North Rhine-Westphalia"},
		{"Barmen-Elberfeld", wuppertal, ""}, // a historic name from alternateNamesV2
		{"Münchn", munich, "Bavaria"},       // a Bavarian one
		{"Paris", paris, "Île-de-France"},
		{"Paris, Texas", parisTexas, "Texas"},
		{"Paris, TX", parisTexas, ""},
		{"Frankfurt, Brandenburg", frankfurtOder, ""},
		{"Q2107", 0, ""}, // a Wikidata ID is not a name
		{"QMU", 0, ""},   // nor an airport code
		{"Mchn.", 0, ""}, // nor an abbreviation
		{"https://en.wikipedia.org/wiki/Wuppertal", 0, ""},
		{"Nowhere", 0, ""}, // a name of a town not loaded
	}
	for _, c := range cases {
		m, ok := g.Find(c.text, nil)
		if ok != (c.want != 0) || m.Place.ID != c.want || (c.region != "" && m.Place.Region != c.region) {
			t.Errorf("%q: %v %+v, want %d %q", c.text, ok, m.Place, c.want, c.region)
		}
	}
	// "post" alternate names are postal codes.
	if m, ok := g.FindPostal("DE", "42103"); !ok || m.Place.ID != wuppertal || m.PostalCode != "42103" {
		t.Errorf("DE 42103: %v %+v", ok, m)
	}
}

// TestFindPostal_S75GB: §7.5 "near.postalCode is found by the whole code
// or its first part": "SW1A" for "SW1A 1AA" (SearchPlace.postalCode), from
// a file in GeoNames' postal format with outward codes (as GB.txt has
// them) and whole codes (as GB_full.txt has them).
func TestFindPostal_S75GB(t *testing.T) {
	g := sample(t)
	cases := []struct {
		country, code string
		want          int64
		found         string
		lat, lng      float64 // the code's own point
	}{
		{"GB", "SW1A 1AA", london, "SW1A 1AA", 51.501009, -0.141588}, // a ward's name: the big town within 5 km
		{"GB", "sw1a1aa", london, "SW1A 1AA", 51.501009, -0.141588},
		{"gb", " SW1A  1AA ", london, "SW1A 1AA", 51.501009, -0.141588},
		{"GB", "SW1A", london, "SW1A", 51.501, -0.1416},
		{"GB", "SW1A 9ZZ", london, "SW1A", 51.501, -0.1416}, // not in the data: its outward code
		{"GB", "SW1A9ZZ", london, "SW1A", 51.501, -0.1416},
		{"GB", "W1A", london, "W1A", 51.518561, -0.143799},     // gathered from W1A 1AA
		{"GB", "W1A 0AX", london, "W1A", 51.518561, -0.143799}, // and its first part
		{"GB", "M1 1AE", manchester, "M1 1AE", 53.479252, -2.236353},
		{"GB", "M1 7ED", manchester, "M1", 53.4794, -2.2383},
		{"GB", "M2", manchester, "M2", 53.480712, -2.245446},
		{"GB", "ZZ9 9ZZ", 0, "", 0, 0},
		{"FR", "SW1A 1AA", 0, "", 0, 0}, // the country is part of the code
		{"", "SW1A 1AA", 0, "", 0, 0},
	}
	for _, c := range cases {
		m, ok := g.FindPostal(c.country, c.code)
		if ok != (c.want != 0) || m.Place.ID != c.want || m.PostalCode != c.found ||
			(ok && (m.Place.Lat != c.lat || m.Place.Lng != c.lng || m.Place.Region != "England")) {
			t.Errorf("%s %q: %v %+v, want %d %q at %v,%v", c.country, c.code, ok, m, c.want, c.found, c.lat, c.lng)
		}
	}
}

// lineNumbers are the lines of the *LineErrors in err.
func lineNumbers(err error) []int {
	var lines []int
	var walk func(error)
	walk = func(err error) {
		var le *LineError
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		} else if errors.As(err, &le) {
			lines = append(lines, le.Line)
		}
	}
	walk(err)
	return lines
}

// TestLoaders_BadLines: a loader reports a bad line with its number and
// reads on; a bad row loses nothing else.
func TestLoaders_BadLines(t *testing.T) {
	rows, err := os.ReadFile("testdata/cities_sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	good := strings.Split(strings.TrimSpace(string(rows)), "\n")
	badCoord := strings.Replace(good[1], "\t48.13743\t", "\tnorth\t", 1)
	if badCoord == good[1] {
		t.Fatal("the sample's Munich row changed")
	}

	cases := []struct {
		name  string
		load  func(g *Gazetteer, r *strings.Reader) error
		input string
		lines []int
		check func(g *Gazetteer) bool
	}{
		{
			"cities",
			func(g *Gazetteer, r *strings.Reader) error { return g.LoadCities(r) },
			strings.Join([]string{good[0], "just one column", badCoord, "", good[2], strings.Replace(good[3], "\t57015\t", "\tmany\t", 1), good[4]}, "\n"),
			[]int{2, 3, 6},
			func(g *Gazetteer) bool {
				_, munich := g.Find("Munich", nil)
				_, ffo := g.Find("Frankfurt (Oder)", nil)
				m, ok := g.Find("Wuppertal", nil)
				return g.Len() == 3 && !munich && !ffo && ok && m.Place.ID == wuppertal
			},
		},
		{
			"admin1",
			func(g *Gazetteer, r *strings.Reader) error { return g.LoadAdmin1(r) },
			"code\tname\nDE.07\tNorth Rhine-Westphalia\nno code here\nDE\tGermany\nDE.02\tBavaria\n",
			[]int{3, 4},
			func(g *Gazetteer) bool { return len(g.admin1) == 2 && g.admin1["DE.02"] == "Bavaria" },
		},
		{
			"alternate names",
			func(g *Gazetteer, r *strings.Reader) error { return g.LoadAlternateNames(r) },
			"1\t2805753\tde\tWupperstadt\n2\tx\tde\tWrong\n3\n4\t2805753\t\tTalstadt\n",
			[]int{2, 3},
			func(g *Gazetteer) bool {
				_, a := g.Find("Wupperstadt", nil)
				_, b := g.Find("Talstadt", nil)
				_, c := g.Find("Wrong", nil)
				return a && b && !c
			},
		},
		{
			"postal",
			func(g *Gazetteer, r *strings.Reader) error { return g.LoadPostal(r) },
			"DE\t42103\tWuppertal\tNRW\tNW\t\t\t\t\t51.2562\t7.1508\t4\n" +
				"DE\t42105\tWuppertal\tNRW\tNW\t\t\t\t\tnowhere\t7.15\t4\n" +
				"Germany\t42107\tWuppertal\tNRW\tNW\t\t\t\t\t51.26\t7.15\t4\n" +
				"DE\t42109\tWuppertal\n" +
				"DE\t42111\tWuppertal\tNRW\tNW\t\t\t\t\t51.29\t7.13\t4\n",
			[]int{2, 3, 4},
			func(g *Gazetteer) bool {
				_, a := g.FindPostal("DE", "42103")
				_, b := g.FindPostal("DE", "42105")
				_, c := g.FindPostal("DE", "42111")
				return a && !b && c
			},
		},
		{
			"postal table",
			func(g *Gazetteer, r *strings.Reader) error { return g.LoadPostalTable("DE", r) },
			"postal_code\tplace\n42103\tWuppertal\n42105\n\tWuppertal\n42111\tWuppertal\n42999\tNirgendwo\n",
			[]int{3, 4},
			func(g *Gazetteer) bool {
				_, a := g.FindPostal("DE", "42103")
				_, b := g.FindPostal("DE", "42111")
				_, c := g.FindPostal("DE", "42999")
				return a && b && !c && slices.Equal(g.Unplaced("DE"), []string{"42999"})
			},
		},
	}
	for _, c := range cases {
		g := New()
		if c.name != "cities" {
			if err := g.LoadCities(strings.NewReader(strings.Join(good, "\n"))); err != nil {
				t.Fatal(err)
			}
		}
		err := c.load(g, strings.NewReader(c.input))
		if got := lineNumbers(err); !slices.Equal(got, c.lines) {
			t.Errorf("%s: bad lines %v (%v), want %v", c.name, got, err, c.lines)
		}
		if !c.check(g) {
			t.Errorf("%s: a bad line lost good ones", c.name)
		}
	}
}

// TestLoaders_ManyBadLines: past maxLineErrors the bad lines are counted.
func TestLoaders_ManyBadLines(t *testing.T) {
	g := New()
	err := g.LoadAdmin1(strings.NewReader(strings.Repeat("bad\n", 50) + "DE.07\tNorth Rhine-Westphalia\n"))
	if n := len(lineNumbers(err)); n != maxLineErrors || !strings.Contains(err.Error(), "30 more bad lines") {
		t.Errorf("%d line errors: %v", n, err)
	}
	if g.admin1["DE.07"] == "" {
		t.Error("the good line after them was lost")
	}
	if err := g.LoadPostalTable("Deutschland", strings.NewReader("")); err == nil {
		t.Error("a postal table for a country that is not a code")
	}
}
