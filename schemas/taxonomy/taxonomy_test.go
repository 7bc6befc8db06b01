package taxonomy

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The generated list of presets that categories.tsv uses. It is embedded here, not in the
// package, because only the tests need it: it lets them check presets without the upstream data.
//
//go:embed osm-presets.tsv
var osmPresetsTSV string

// schemaOrgTypes are real schema.org subtypes of Organization, LocalBusiness included, as listed
// on schema.org. The taxonomy may only use these: a typo or an invented type ("Carpenter") would
// produce JSON-LD that consumers ignore. Attorney is left out on purpose because schema.org
// deprecates it in favour of LegalService; place-only types (Museum, Church) are left out because
// the registry describes organizations.
var schemaOrgTypes = strings.Fields(`
	Organization Airline Consortium Cooperative Corporation FundingScheme GovernmentOrganization
	LibrarySystem NGO NewsMediaOrganization OnlineBusiness OnlineStore PoliticalParty Project
	FundingAgency ResearchProject ResearchOrganization SearchRescueOrganization SportsOrganization
	SportsTeam WorkersUnion PerformingGroup DanceGroup MusicGroup TheaterGroup
	EducationalOrganization CollegeOrUniversity ElementarySchool HighSchool MiddleSchool Preschool School
	MedicalOrganization DiagnosticLab Hospital MedicalClinic Pharmacy Physician VeterinaryCare Dentist
	LocalBusiness AnimalShelter ArchiveOrganization ChildCare DryCleaningOrLaundry EmploymentAgency
	InternetCafe Library ProfessionalService RadioStation RealEstateAgent RecyclingCenter SelfStorage
	ShoppingCenter TelevisionStation TouristInformationCenter TravelAgency
	AutomotiveBusiness AutoBodyShop AutoDealer AutoPartsStore AutoRental AutoRepair AutoWash GasStation
	MotorcycleDealer MotorcycleRepair
	EmergencyService FireStation PoliceStation
	EntertainmentBusiness AdultEntertainment AmusementPark ArtGallery Casino ComedyClub MovieTheater NightClub
	FinancialService AccountingService AutomatedTeller BankOrCreditUnion InsuranceAgency
	FoodEstablishment Bakery BarOrPub Brewery CafeOrCoffeeShop Distillery FastFoodRestaurant IceCreamShop
	Restaurant Winery
	GovernmentOffice PostOffice
	HealthAndBeautyBusiness BeautySalon DaySpa HairSalon HealthClub NailSalon TattooParlor
	HomeAndConstructionBusiness Electrician GeneralContractor HVACBusiness HousePainter Locksmith
	MovingCompany Plumber RoofingContractor
	LegalService Notary
	LodgingBusiness BedAndBreakfast Campground Hostel Hotel Motel Resort SkiResort VacationRental
	MedicalBusiness Optician
	SportsActivityLocation BowlingAlley ExerciseGym GolfCourse PublicSwimmingPool SportsClub
	StadiumOrArena TennisComplex
	Store BikeStore BookStore ClothingStore ComputerStore ConvenienceStore DepartmentStore ElectronicsStore
	Florist FurnitureStore GardenStore GroceryStore HardwareStore HobbyShop HomeGoodsStore JewelryStore
	LiquorStore MensClothingStore MobilePhoneStore MovieRentalStore MusicStore OfficeEquipmentStore
	OutletStore PawnShop PetStore ShoeStore SportingGoodsStore TireShop ToyStore WholesaleStore
`)

var (
	categoryCodeRE = regexp.MustCompile(`^[a-z]+\.[a-z_]+$`)
	sectorCodeRE   = regexp.MustCompile(`^[a-z]+$`)
	naceRE         = regexp.MustCompile(`^\d{2}\.\d{1,2}$`)
)

// requiredLanguages must label every sector and category: the languages of the registry's first
// markets plus English, the fallback.
var requiredLanguages = []string{"de", "en", "fr", "es", "tr", "it", "nl", "pl"}

// TestEmbeddedDataParses guards Default: it panics only on corrupt embedded data, so the data
// must parse, including the lazily parsed search words.
func TestEmbeddedDataParses(t *testing.T) {
	tx, err := parse(categoriesTSV, osmTermsGz)
	if err != nil {
		t.Fatalf("categories.tsv: %v", err)
	}
	if err := tx.parseTerms(); err != nil {
		t.Fatalf("osm-terms.tsv.gz: %v", err)
	}
	if Default() != Default() {
		t.Error("Default returns a different taxonomy on the second call; it must parse once")
	}
}

func TestSize(t *testing.T) {
	tx := Default()
	if n := len(tx.Categories()); n < 170 {
		t.Errorf("%d categories, want at least 170", n)
	}
	if n := len(tx.Sectors()); n < 15 {
		t.Errorf("%d sectors, want at least 15", n)
	}
}

func TestCodesAndSectors(t *testing.T) {
	tx := Default()
	sectors := tx.Sectors()
	if !sort.StringsAreSorted(sectors) {
		t.Errorf("Sectors() not sorted: %v", sectors)
	}
	for _, s := range sectors {
		if !sectorCodeRE.MatchString(s) {
			t.Errorf("sector code %q does not match %s", s, sectorCodeRE)
		}
		c, ok := tx.Lookup(s)
		if !ok || !c.IsSector() || c.Sector != s || c.SchemaType != "" || c.NACE != nil || c.OSMPresets != nil {
			t.Errorf("Lookup(%q) = %+v, %v; want a bare sector entry", s, c, ok)
		}
		if len(tx.InSector(s)) == 0 {
			t.Errorf("sector %q has no categories", s)
		}
	}

	cats := tx.Categories()
	if !slices.IsSortedFunc(cats, func(a, b Category) int { return strings.Compare(a.Code, b.Code) }) {
		t.Error("Categories() not sorted by code")
	}
	inSectors := 0
	for _, s := range sectors {
		for _, c := range tx.InSector(s) {
			if c.Sector != s {
				t.Errorf("InSector(%q) returned %s of sector %s", s, c.Code, c.Sector)
			}
			inSectors++
		}
	}
	if inSectors != len(cats) {
		t.Errorf("sectors hold %d categories, Categories() returns %d", inSectors, len(cats))
	}
	for _, c := range cats {
		if !categoryCodeRE.MatchString(c.Code) {
			t.Errorf("code %q does not match %s", c.Code, categoryCodeRE)
		}
		if !strings.HasPrefix(c.Code, c.Sector+".") {
			t.Errorf("%s: sector %q is not the code's prefix", c.Code, c.Sector)
		}
		if !slices.Contains(sectors, c.Sector) {
			t.Errorf("%s: sector %q is not a sector", c.Code, c.Sector)
		}
		if c.IsSector() {
			t.Errorf("%s: IsSector() = true for a category", c.Code)
		}
	}
}

func TestLabelsComplete(t *testing.T) {
	tx := Default()
	codes := tx.Sectors()
	for _, c := range tx.Categories() {
		codes = append(codes, c.Code)
	}
	for _, code := range codes {
		labels := tx.Labels(code)
		for _, lang := range requiredLanguages {
			l := labels[lang]
			if l == "" {
				t.Errorf("%s: no %s label", code, lang)
				continue
			}
			if got := tx.Label(code, lang); got != l {
				t.Errorf("Label(%q, %q) = %q, Labels has %q", code, lang, got, l)
			}
			if l == code || strings.ContainsAny(l, "\t|=") {
				t.Errorf("%s: suspicious %s label %q", code, lang, l)
			}
		}
	}
}

func TestLabel(t *testing.T) {
	tx := Default()
	tests := []struct {
		code, lang, want string
	}{
		{"trades.carpentry", "de", "Tischlerei"}, // golden: other packages depend on it
		{"trades.carpentry", "de-AT", "Tischlerei"},
		{"trades.carpentry", "DE_ch", "Tischlerei"},
		{"trades.carpentry", "en", "Joinery"},
		{"trades.carpentry", "fr", "Menuiserie"},
		{"trades.carpentry", "tr", "Marangoz"},
		{"trades.carpentry", "pt-BR", "Joinery"}, // no Portuguese label: English
		{"trades.carpentry", "", "Joinery"},
		{"trades", "de", "Handwerk"},
		{"trades", "en-GB", "Trades and crafts"},
		{"health.dentist", "nl", "Tandarts"},
		{"no.such_code", "de", "no.such_code"},
		{"", "de", ""},
	}
	for _, tc := range tests {
		if got := tx.Label(tc.code, tc.lang); got != tc.want {
			t.Errorf("Label(%q, %q) = %q, want %q", tc.code, tc.lang, got, tc.want)
		}
	}
}

// TestLabelFallsBackToCode needs a taxonomy whose entry lacks the requested language and
// English; parse refuses labels without English, so the entry is built by hand.
func TestLabelFallsBackToCode(t *testing.T) {
	tx := &Taxonomy{entries: map[string]*entry{"x.y": {cat: Category{Code: "x.y", Sector: "x"}, labels: map[string]string{"de": "Ix"}}}}
	if got := tx.Label("x.y", "fr"); got != "x.y" {
		t.Errorf("Label without fr and en = %q, want the code", got)
	}
	if got := tx.Label("x.y", "de-DE"); got != "Ix" {
		t.Errorf("Label(de-DE) = %q, want Ix", got)
	}
}

func TestNACE(t *testing.T) {
	// NACE Rev. 2 divisions; a class outside them is a typo.
	divisions := map[string]bool{}
	for _, r := range [][2]int{{1, 3}, {5, 9}, {10, 33}, {35, 35}, {36, 39}, {41, 43}, {45, 47}, {49, 53}, {55, 56}, {58, 63}, {64, 66}, {68, 68}, {69, 75}, {77, 82}, {84, 84}, {85, 85}, {86, 88}, {90, 93}, {94, 96}, {97, 98}, {99, 99}} {
		for d := r[0]; d <= r[1]; d++ {
			divisions[fmt.Sprintf("%02d", d)] = true
		}
	}
	for _, c := range Default().Categories() {
		if len(c.NACE) == 0 && c.Code != "other.business" { // the catch-all has no activity
			t.Errorf("%s: no NACE class", c.Code)
		}
		for _, n := range c.NACE {
			if !naceRE.MatchString(n) || len(n) != 5 {
				t.Errorf("%s: NACE %q is not a class written dd.dd", c.Code, n)
			}
			if !divisions[n[:2]] {
				t.Errorf("%s: NACE %q is in no NACE Rev. 2 division", c.Code, n)
			}
		}
	}
}

func TestByNACE(t *testing.T) {
	tx := Default()
	tests := []struct {
		code        string
		mustContain []string
		empty       bool
	}{
		{code: "43.32", mustContain: []string{"trades.carpentry", "trades.windows"}},
		{code: "4332", mustContain: []string{"trades.carpentry"}},
		{code: "43.32.0", mustContain: []string{"trades.carpentry"}}, // German WZ 2008 subclass
		{code: "F43.32", mustContain: []string{"trades.carpentry"}},
		{code: " 96.02 ", mustContain: []string{"services.hairdresser", "services.barber"}},
		{code: "10.71", mustContain: []string{"food.bakery", "food.pastry"}},
		{code: "43.3", empty: true}, // a group, not a class
		{code: "", empty: true},
		{code: "bakery", empty: true},
		{code: "00.00", empty: true},
	}
	for _, tc := range tests {
		got := tx.ByNACE(tc.code)
		if tc.empty != (len(got) == 0) {
			t.Errorf("ByNACE(%q) = %d categories, want empty=%v", tc.code, len(got), tc.empty)
		}
		var codes []string
		for _, c := range got {
			codes = append(codes, c.Code)
			class, _ := naceClass(tc.code)
			if !slices.Contains(c.NACE, class) {
				t.Errorf("ByNACE(%q) returned %s, which lists %v", tc.code, c.Code, c.NACE)
			}
		}
		if !sort.StringsAreSorted(codes) {
			t.Errorf("ByNACE(%q) not sorted: %v", tc.code, codes)
		}
		for _, want := range tc.mustContain {
			if !slices.Contains(codes, want) {
				t.Errorf("ByNACE(%q) = %v, want it to contain %s", tc.code, codes, want)
			}
		}
	}
}

// presetIDs returns the preset IDs of the embedded osm-presets.tsv.
func presetIDs(t *testing.T) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for _, line := range strings.Split(osmPresetsTSV, "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "preset\t") {
			continue
		}
		id, tags, ok := strings.Cut(line, "\t")
		if !ok || !strings.HasPrefix(tags, "{") {
			t.Fatalf("osm-presets.tsv: bad line %q", line)
		}
		ids[id] = true
	}
	return ids
}

func TestOSMPresets(t *testing.T) {
	tx := Default()
	ids := presetIDs(t)
	used := map[string]bool{}
	withPreset := 0
	for _, c := range tx.Categories() {
		if len(c.OSMPresets) > 0 {
			withPreset++
			if tx.Terms(c.Code) == nil {
				t.Errorf("%s: presets %v but no terms; run go run ./schemas/taxonomy/internal/gen", c.Code, c.OSMPresets)
			}
		}
		for _, p := range c.OSMPresets {
			used[p] = true
			if !ids[p] {
				t.Errorf("%s: preset %q is not in osm-presets.tsv (typo, or run the generator)", c.Code, p)
			}
		}
	}
	for id := range ids {
		if !used[id] {
			t.Errorf("osm-presets.tsv lists %q, which no category uses; run the generator", id)
		}
	}
	if withPreset < 150 {
		t.Errorf("%d categories have an OSM preset, want at least 150", withPreset)
	}
}

func TestByOSMPreset(t *testing.T) {
	tx := Default()
	tests := []struct {
		preset string
		want   []string
	}{
		{"craft/joiner", []string{"trades.carpentry"}},
		{"craft/carpenter", []string{"trades.carpentry", "trades.timber_framing"}},
		{"shop/bakery", []string{"food.bakery"}},
		{"craft/cleaning", []string{"home.cleaning", "home.window_cleaning"}},
		{"shop/no_such_thing", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, c := range tx.ByOSMPreset(tc.preset) {
			got = append(got, c.Code)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ByOSMPreset(%q) = %v, want %v", tc.preset, got, tc.want)
		}
	}
}

func TestSchemaTypes(t *testing.T) {
	valid := map[string]bool{}
	for _, s := range schemaOrgTypes {
		valid[s] = true
	}
	tx := Default()
	for _, c := range tx.Categories() {
		if !valid[c.SchemaType] {
			t.Errorf("%s: SchemaType %q is not a known schema.org Organization subtype", c.Code, c.SchemaType)
		}
	}
	// Spot checks of the mapping the brief fixed: the most specific type, never an invented one.
	for code, want := range map[string]string{
		"trades.carpentry":        "HomeAndConstructionBusiness",
		"trades.plumbing":         "Plumber",
		"trades.electrician":      "Electrician",
		"health.dentist":          "Dentist",
		"food.bakery":             "Bakery",
		"services.hairdresser":    "HairSalon",
		"professional.lawyer":     "LegalService",
		"hospitality.hotel":       "Hotel",
		"food.restaurant":         "Restaurant",
		"trades.locksmith":        "Locksmith",
		"retail.bookshop":         "BookStore",
		"automotive.car_repair":   "AutoRepair",
		"professional.notary":     "Notary",
		"health.pharmacy":         "Pharmacy",
		"transport.moving":        "MovingCompany",
		"education.childcare":     "ChildCare",
		"sports.gym":              "ExerciseGym",
		"it.software_development": "ProfessionalService",
	} {
		c, ok := tx.Lookup(code)
		if !ok || c.SchemaType != want {
			t.Errorf("Lookup(%q).SchemaType = %q (found %v), want %q", code, c.SchemaType, ok, want)
		}
	}
}

func TestSchemaTypeFor(t *testing.T) {
	tx := Default()
	tests := []struct {
		codes []string
		want  string
	}{
		{[]string{"trades.carpentry"}, "HomeAndConstructionBusiness"},
		{nil, "LocalBusiness"},
		{[]string{}, "LocalBusiness"},
		{[]string{"no.such_code"}, "LocalBusiness"},
		{[]string{"trades"}, "LocalBusiness"}, // a sector has no type
		{[]string{"no.such_code", "health.dentist"}, "Dentist"},
		{[]string{"trades", "food.bakery"}, "Bakery"},
		{[]string{"food.bakery", "food.cafe"}, "Bakery"}, // the first category decides
		{[]string{"food.cafe", "food.bakery"}, "CafeOrCoffeeShop"},
	}
	for _, tc := range tests {
		if got := tx.SchemaTypeFor(tc.codes); got != tc.want {
			t.Errorf("SchemaTypeFor(%q) = %q, want %q", tc.codes, got, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	tx := Default()
	c, ok := tx.Lookup("trades.carpentry")
	if !ok {
		t.Fatal("Lookup(trades.carpentry) not found")
	}
	if c.Sector != "trades" || !slices.Contains(c.NACE, "43.32") || !slices.Contains(c.OSMPresets, "craft/joiner") {
		t.Errorf("Lookup(trades.carpentry) = %+v", c)
	}
	// The taxonomy is shared: changing a returned slice must not change it.
	c.NACE[0] = "99.99"
	c.OSMPresets[0] = "changed"
	again, _ := tx.Lookup("trades.carpentry")
	if again.NACE[0] == "99.99" || again.OSMPresets[0] == "changed" {
		t.Error("Lookup returned slices that alias the taxonomy")
	}
	if _, ok := tx.Lookup("trades.no_such_trade"); ok {
		t.Error("Lookup of an unknown code succeeded")
	}
	if _, ok := tx.Lookup(""); ok {
		t.Error("Lookup of the empty code succeeded")
	}
}

func TestTerms(t *testing.T) {
	tx := Default()
	de := tx.Terms("trades.carpentry")["de"]
	lower := strings.ToLower(strings.Join(de, "|"))
	for _, w := range []string{"tischler", "schreiner", "tischlerei"} {
		if !slices.Contains(strings.Split(lower, "|"), w) {
			t.Errorf("German terms of trades.carpentry = %v, want %q among them", de, w)
		}
	}
	// The category's first preset (craft/joiner) comes first, starting with its name.
	if len(de) == 0 || de[0] != "Tischlerei" {
		t.Errorf("German terms of trades.carpentry start with %v, want the craft/joiner name Tischlerei", de)
	}
	if got := tx.Terms("food.bakery")["fr"]; !slices.Contains(got, "Boulangerie") {
		t.Errorf("French terms of food.bakery = %v, want Boulangerie", got)
	}

	// Returned maps are copies.
	m := tx.Terms("trades.carpentry")
	m["de"][0] = "changed"
	delete(m, "en")
	if again := tx.Terms("trades.carpentry"); again["de"][0] != "Tischlerei" || again["en"] == nil {
		t.Error("Terms returned data that aliases the taxonomy")
	}

	for _, code := range []string{"trades", "no.such_code", "trades.construction"} {
		if got := tx.Terms(code); got != nil {
			t.Errorf("Terms(%q) = %d locales, want nil (sector, unknown or no preset)", code, len(got))
		}
	}

	// Words are trimmed and unique per locale, ignoring case.
	for _, c := range tx.Categories() {
		for loc, words := range tx.Terms(c.Code) {
			seen := map[string]bool{}
			for _, w := range words {
				k := strings.ToLower(w)
				if w == "" || w != strings.TrimSpace(w) || seen[k] {
					t.Errorf("%s/%s: bad or repeated word %q in %v", c.Code, loc, w, words)
				}
				seen[k] = true
			}
		}
	}
}

// TestTermsCoverage measures how many locales are useful for search: a locale counts when it
// has words for at least 100 categories.
func TestTermsCoverage(t *testing.T) {
	tx := Default()
	perLocale := map[string]int{}
	for _, c := range tx.Categories() {
		for loc := range tx.Terms(c.Code) {
			perLocale[loc]++
		}
	}
	var good []string
	for loc, n := range perLocale {
		if n >= 100 {
			good = append(good, loc)
		}
	}
	sort.Strings(good)
	t.Logf("%d locales have terms for at least 100 categories: %v", len(good), good)
	if len(good) < 47 {
		t.Errorf("%d locales have terms for at least 100 categories, want at least 47", len(good))
	}
	for _, loc := range []string{"de", "en", "fr", "es", "tr", "it", "nl", "pl"} {
		if perLocale[loc] < 250 {
			t.Errorf("locale %s has terms for %d categories, want at least 250", loc, perLocale[loc])
		}
	}

	locales := tx.Locales()
	if !sort.StringsAreSorted(locales) || len(locales) != len(perLocale) {
		t.Errorf("Locales() = %d sorted=%v, categories use %d locales", len(locales), sort.StringsAreSorted(locales), len(perLocale))
	}
	for _, loc := range locales {
		if perLocale[loc] == 0 {
			t.Errorf("Locales() lists %q, which has no terms", loc)
		}
	}
}

// TestConcurrentUse exercises the lazy loading from many goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	tx, err := parse(categoriesTSV, osmTermsGz)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for i := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i] = len(tx.Terms("food.bakery")) + len(tx.Locales())
			_ = tx.Label("food.bakery", "de")
		}()
	}
	wg.Wait()
	for i, n := range counts {
		if n == 0 || n != counts[0] {
			t.Errorf("goroutine %d saw %d, goroutine 0 saw %d", i, n, counts[0])
		}
	}
}

func TestParseRejectsBadData(t *testing.T) {
	const sector = "trades\t\t\t\tde=Handwerk|en=Trades\n"
	const row = "trades.carpentry\tHomeAndConstructionBusiness\t43.32\tcraft/joiner\tde=Tischlerei|en=Joinery\n"
	tests := []struct {
		name, data, wantErr string
	}{
		{"valid", sector + row, ""},
		{"comments and blank lines", "# c\n\n" + sector + "\r\n" + row, ""},
		{"empty", "# nothing\n", "no categories"},
		{"four fields", sector + "trades.x\tStore\t47.11\tde=X|en=X\n", "5 tab-separated fields"},
		{"category before sector", row + sector, "not defined above"},
		{"duplicate", sector + row + row, "duplicate code"},
		{"upper-case code", sector + strings.Replace(row, "trades.carpentry", "trades.Carpentry", 1), "invalid code"},
		{"digit in code", sector + strings.Replace(row, "trades.carpentry", "trades.carpentry2", 1), "invalid code"},
		{"underscore in sector", "my_trades\t\t\t\ten=X\n", "invalid code"},
		{"three levels", sector + strings.Replace(row, "trades.carpentry", "trades.carpentry.x", 1), "invalid code"},
		{"sector with type", "trades\tStore\t\t\ten=X\n", "must not have"},
		{"missing type", sector + strings.Replace(row, "HomeAndConstructionBusiness", "", 1), "schema.org type"},
		{"lower-case type", sector + strings.Replace(row, "HomeAndConstructionBusiness", "homeBusiness", 1), "schema.org type"},
		{"NACE without dot", sector + strings.Replace(row, "43.32", "4332", 1), "invalid NACE"},
		{"NACE group", sector + strings.Replace(row, "43.32", "43.3", 1), "invalid NACE"},
		{"NACE twice", sector + strings.Replace(row, "43.32", "43.32,43.32", 1), "listed twice"},
		{"preset with space", sector + strings.Replace(row, "craft/joiner", "craft/joiner x", 1), "invalid OSM preset"},
		{"preset without slash", sector + strings.Replace(row, "craft/joiner", "joiner", 1), "invalid OSM preset"},
		{"empty label", sector + strings.Replace(row, "de=Tischlerei", "de=", 1), "invalid label"},
		{"label without language", sector + strings.Replace(row, "de=Tischlerei", "Tischlerei", 1), "invalid label"},
		{"label twice", sector + strings.Replace(row, "en=Joinery", "en=Joinery|en=Carpentry", 1), "twice"},
		{"no English", sector + strings.Replace(row, "|en=Joinery", "", 1), "no English label"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tx, err := parse([]byte(tc.data), nil)
			if tc.wantErr == "" {
				if err != nil || tx == nil {
					t.Fatalf("parse: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("parse error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestParseTermsRejectsBadData(t *testing.T) {
	tx, err := parse(categoriesTSV, []byte("not gzip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.parseTerms(); err == nil {
		t.Error("parseTerms accepted data that is not gzip")
	}
	defer func() {
		if recover() == nil {
			t.Error("Terms did not panic on corrupt terms data")
		}
	}()
	tx.Terms("food.bakery")
}

// BenchmarkDefaultLoad measures what Default costs at start-up: a fresh parse of the embedded
// categories (the search words are parsed later, on first use).
func BenchmarkDefaultLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(categoriesTSV, osmTermsGz); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTermsLoad measures the first call of Terms or Locales: decompressing and indexing the
// OpenStreetMap words.
func BenchmarkTermsLoad(b *testing.B) {
	b.ReportAllocs()
	tx, err := parse(categoriesTSV, osmTermsGz)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := tx.parseTerms(); err != nil {
			b.Fatal(err)
		}
	}
}
