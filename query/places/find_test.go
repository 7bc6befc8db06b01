package places

import (
	"sync"
	"testing"
)

// bundled is a gazetteer of the bundled data of the test binary's own,
// loaded once: tests read it and never load into it.
var bundled = sync.OnceValues(loadBundled)

func testGazetteer(t testing.TB) *Gazetteer {
	t.Helper()
	g, err := bundled()
	if err != nil {
		t.Fatalf("bundled data: %v", err)
	}
	return g
}

// GeoNames IDs of the towns the tests expect.
const (
	munich          = 2867714
	paris           = 2988507
	parisTexas      = 4717560
	frankfurtMain   = 2925533
	frankfurtOder   = 2925535
	istanbul        = 745044
	cologne         = 2886242
	wuppertal       = 2805753
	cairo           = 360630
	dubai           = 292223
	toronto         = 6167865
	springfieldIll  = 4250542
	brooklyn        = 5110302
	moscow          = 524901
	marseille       = 2995469
	london          = 2643743
	manchester      = 2643123
	diyarbakir      = 316541
	uskudar         = 738329
	springfieldMiss = 4409896
)

// TestFind_S75Places: §7.5 "Places": near.place is a town by any of its
// names, in any language, narrowed by what follows a comma; a name nobody
// knows may be read as a misspelling, big enough for its length, and
// correctedFrom then has the name as written.
func TestFind_S75Places(t *testing.T) {
	g := testGazetteer(t)
	knows := func(names ...string) func(string) bool {
		return func(f string) bool {
			for _, n := range names {
				if n == f {
					return true
				}
			}
			return false
		}
	}
	cases := []struct {
		name      string
		text      string
		known     func(string) bool
		want      int64 // 0: not found
		corrected string
		region    string
	}{
		// Any of its names, any language or script, folded.
		{"German name", "München", nil, munich, "", "Bavaria"},
		{"English name", "Munich", nil, munich, "", ""},
		{"Italian name", "Monaco di Baviera", nil, munich, "", ""},
		{"ue for ü", "muenchen", nil, munich, "", ""},
		{"capitals", "MÜNCHEN", nil, munich, "", ""},
		{"spaces around", "  München  ", nil, munich, "", ""},
		{"Cyrillic", "Мюнхен", nil, munich, "", ""},
		{"Köln", "Köln", nil, cologne, "", "North Rhine-Westphalia"},
		{"Cologne", "Cologne", nil, cologne, "", ""},
		{"Polish Kolonia", "Kolonia", nil, cologne, "", ""},
		{"oe for ö", "Koeln", nil, cologne, "", ""},
		{"Turkish dotted capital I", "İstanbul", nil, istanbul, "", ""},
		{"ASCII Istanbul", "istanbul", nil, istanbul, "", ""},
		{"Arabic with hamza below", "إسطنبول", nil, istanbul, "", ""},
		{"Arabic without hamza", "اسطنبول", nil, istanbul, "", ""},
		{"Arabic Cairo", "القاهرة", nil, cairo, "", ""},
		{"Arabic Dubai", "دبي", nil, dubai, "", ""},
		{"Turkish dotless i", "Diyarbakır", nil, diyarbakir, "", ""},
		{"Turkish Ü and ü", "Üsküdar", nil, uskudar, "", ""},
		{"Turkish Ü and ü folded", "uskudar", nil, uskudar, "", ""},
		{"Russian", "Москва", nil, moscow, "", ""},

		// The most populous, unless narrowed after a comma.
		{"Paris is the French one", "Paris", nil, paris, "", "Île-de-France"},
		{"Paris, Texas", "Paris, Texas", nil, parisTexas, "", "Texas"},
		{"Paris, TX", "Paris, TX", nil, parisTexas, "", "Texas"},
		{"Paris, Texas, USA", "Paris, Texas, USA", nil, parisTexas, "", ""},
		{"Paris Texas without a comma", "Paris Texas", nil, parisTexas, "", ""},
		{"Paris, US", "Paris, US", nil, parisTexas, "", ""},
		{"Paris, France", "Paris, France", nil, paris, "", ""},
		{"Paris, FR", "Paris, FR", nil, paris, "", ""},
		{"an unknown qualifier is ignored", "Paris, Frnce", nil, paris, "", ""},
		{"a country without that town", "Paris, Germany", nil, 0, "", ""},
		{"Frankfurt is am Main", "Frankfurt", nil, frankfurtMain, "", "Hesse"},
		{"Frankfurt (Oder)", "Frankfurt (Oder)", nil, frankfurtOder, "", "Brandenburg"},
		{"Frankfurt, Brandenburg", "Frankfurt, Brandenburg", nil, frankfurtOder, "", ""},
		{"Frankfurt, Oder", "Frankfurt, Oder", nil, frankfurtOder, "", ""},
		{"Frankfurt an der Oder", "Frankfurt an der Oder", nil, frankfurtOder, "", ""},
		{"Frankfurt, Hessen", "Frankfurt, Hessen", nil, frankfurtMain, "", ""},
		{"a Land by its German name", "München, Bayern", nil, munich, "", ""},
		{"a Land by its abbreviation", "Köln, NRW", nil, cologne, "", ""},
		{"a town and its country", "Wuppertal, Deutschland", nil, wuppertal, "", ""},
		{"Springfield", "Springfield", nil, springfieldMiss, "", ""},
		{"Springfield, IL", "Springfield, IL", nil, springfieldIll, "", "Illinois"},
		{"Toronto, ON", "Toronto, ON", nil, toronto, "", "Ontario"},
		{"a town near a bigger one", "Brooklyn, New York", nil, brooklyn, "", ""},
		// Barmen is a quarter of Wuppertal that cities500 doesn't have: the
		// answer is Wuppertal itself (documented on Find).
		{"Barmen, Wuppertal", "Barmen, Wuppertal", nil, wuppertal, "", ""},
		{"Barmen, Wuppertal, known", "Barmen, Wuppertal", knows("barmen"), wuppertal, "", ""},
		// Elberfeld is in the data, but only in Indiana, far from Wuppertal.
		{"Elberfeld, Wuppertal", "Elberfeld, Wuppertal", nil, wuppertal, "", ""},
		{"Texas is a state here, not a town", "Frankfurt, Texas", nil, 0, "", ""},
		{"Berlin is a state and its town", "Nirgendwo, Berlin", nil, 2950159, "", ""},
		{"a postal code is no misspelling", "42285", nil, 0, "", ""},

		// Misspellings.
		{"frnakfurt", "frnakfurt", nil, frankfurtMain, "frnakfurt", ""},
		{"as written", "Frnakfurt", nil, frankfurtMain, "Frnakfurt", ""},
		{"two edits, long name", "Frankfrut am Mian", nil, frankfurtMain, "Frankfrut am Mian", ""},
		{"narrowed misspelling", "Frnakfurt, Brandenburg", nil, frankfurtOder, "Frnakfurt", ""},
		{"one edit, five letters", "Berln", nil, 2950159, "Berln", ""},
		{"a transposition", "Parsi", nil, paris, "Parsi", ""},
		{"Pariz is a name of Paris, not a misspelling", "Pariz", nil, paris, "", ""},
		{"Marseile", "Marseile", nil, marseille, "Marseile", ""},
		{"an entry names it", "frnakfurt", knows("frnakfurt"), 0, "", ""},
		{"an entry names it, five letters", "Berln", knows("berln"), 0, "", ""},
		{"an exact name is never corrected", "Paris", knows("paris"), paris, "", ""},
		{"under five letters", "Prsi", nil, 0, "", ""},
		{"two edits is too far for seven letters", "Hmburgg", nil, 0, "", ""},
		{"nonsense", "Xqzvbnmkw", nil, 0, "", ""},

		// Nothing to find.
		{"empty", "", nil, 0, "", ""},
		{"commas only", " , , ", nil, 0, "", ""},
		{"punctuation only", "--", nil, 0, "", ""},
	}
	for _, c := range cases {
		m, ok := g.Find(c.text, c.known)
		switch {
		case c.want == 0 && ok:
			t.Errorf("%s: %q found %d %q %s, want nothing", c.name, c.text, m.Place.ID, m.Place.Name, m.Place.Country)
		case c.want != 0 && (!ok || m.Place.ID != c.want):
			t.Errorf("%s: %q found %v %d %q %s, want %d", c.name, c.text, ok, m.Place.ID, m.Place.Name, m.Place.Country, c.want)
		case m.CorrectedFrom != c.corrected:
			t.Errorf("%s: %q correctedFrom %q, want %q", c.name, c.text, m.CorrectedFrom, c.corrected)
		case c.region != "" && m.Place.Region != c.region:
			t.Errorf("%s: %q region %q, want %q", c.name, c.text, m.Place.Region, c.region)
		case ok && (m.Place.TimeZone == "" || m.Place.Country == "" || m.PostalCode != ""):
			t.Errorf("%s: %q answered %+v", c.name, c.text, m)
		}
	}
}

// TestFind_S75KnownNeverCorrected: "a name Daawid doesn't know, and no
// entry names, may be read as a misspelling": known is asked only for a
// name the gazetteer doesn't know, with the name folded.
func TestFind_S75KnownNeverCorrected(t *testing.T) {
	g := testGazetteer(t)
	var asked []string
	known := func(f string) bool { asked = append(asked, f); return false }
	for _, text := range []string{"Paris", "München", "Paris, Texas", "Barmen, Wuppertal"} {
		g.Find(text, known)
	}
	if len(asked) != 1 || asked[0] != "barmen" {
		t.Errorf("known asked %q, want only barmen", asked)
	}
	asked = nil
	if m, ok := g.Find("Frnäkfurt", known); !ok || m.CorrectedFrom != "Frnäkfurt" || len(asked) != 1 || asked[0] != "frnakfurt" {
		t.Errorf("Frnäkfurt: %+v %v, asked %q", m, ok, asked)
	}
}

// TestFind_Concurrent: Find and FindPostal are safe for concurrent use
// once loading is done, the first correction building the misspelling
// index (run with -race).
func TestFind_Concurrent(t *testing.T) {
	g := sample(t)
	var wg sync.WaitGroup
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if m, ok := g.Find([]string{"Frnakfurt", "Paris, TX", "Wuppertal"}[k%3], nil); !ok || m.Place.ID == 0 {
					t.Error("not found")
				}
				if _, ok := g.FindPostal("GB", "SW1A 1AA"); !ok {
					t.Error("SW1A 1AA not found")
				}
			}
		}()
	}
	wg.Wait()
}
