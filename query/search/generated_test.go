package search_test

// The generated registry: about 150 entries built from small tables, so
// that the relevance cases (testdata/relevance.json) have something to tell
// apart besides the 15 fixtures: carpenters in several towns of the
// Bergisches Land and beyond, the two Frankfurts, Paris in France and in
// Texas, London and Manchester postcodes, Turkish and Arabic entries, hours
// in several time zones across the 2026 DST changes and the Christmas
// holidays, every capacity status, every status, people with and without a
// place, and every kind of service area.
//
// Everything is deterministic: IDs are ULIDs whose time is the entry's
// createdAt and whose entropy is a hash of the slug, and no map order
// reaches the output. Towns and postal codes are real and belong together;
// names, streets and domains (*.example) are invented.

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/schemas"
)

// gtx is a localized text.
type gtx = map[string]string

// gTown is a real town with a real postal code of it and a point near that
// postal code's area.
type gTown struct {
	town, region, cc, postal, tz string
	lat, lng                     float64
}

var (
	tWuppertalElberfeld = gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42103", "Europe/Berlin", 51.2562, 7.1508}
	tWuppertalBarmen    = gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42275", "Europe/Berlin", 51.2717, 7.1968}
	tWuppertalRonsdorf  = gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42369", "Europe/Berlin", 51.2270, 7.2030}
	tWuppertalVohwinkel = gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42327", "Europe/Berlin", 51.2330, 7.0710}
	tWuppertalSued      = gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42283", "Europe/Berlin", 51.2600, 7.1800}
	tSolingenOhligs     = gTown{"Solingen", "Nordrhein-Westfalen", "DE", "42697", "Europe/Berlin", 51.1650, 7.0100}
	tSolingenMitte      = gTown{"Solingen", "Nordrhein-Westfalen", "DE", "42651", "Europe/Berlin", 51.1717, 7.0830}
	tRemscheidLennep    = gTown{"Remscheid", "Nordrhein-Westfalen", "DE", "42897", "Europe/Berlin", 51.1920, 7.2560}
	tHilden             = gTown{"Hilden", "Nordrhein-Westfalen", "DE", "40721", "Europe/Berlin", 51.1690, 6.9380}
	tDuesseldorfPemp    = gTown{"Düsseldorf", "Nordrhein-Westfalen", "DE", "40477", "Europe/Berlin", 51.2400, 6.7900}
	tDuesseldorfAlt     = gTown{"Düsseldorf", "Nordrhein-Westfalen", "DE", "40213", "Europe/Berlin", 51.2254, 6.7763}
	tKoelnEhrenfeld     = gTown{"Köln", "Nordrhein-Westfalen", "DE", "50823", "Europe/Berlin", 50.9500, 6.9180}
	tKoelnSuelz         = gTown{"Köln", "Nordrhein-Westfalen", "DE", "50937", "Europe/Berlin", 50.9230, 6.9230}
	tKoelnNeustadt      = gTown{"Köln", "Nordrhein-Westfalen", "DE", "50672", "Europe/Berlin", 50.9400, 6.9400}
	tKoelnAltstadt      = gTown{"Köln", "Nordrhein-Westfalen", "DE", "50667", "Europe/Berlin", 50.9384, 6.9584}
	tDortmundHoerde     = gTown{"Dortmund", "Nordrhein-Westfalen", "DE", "44263", "Europe/Berlin", 51.4850, 7.5000}
	tDortmundMitte      = gTown{"Dortmund", "Nordrhein-Westfalen", "DE", "44135", "Europe/Berlin", 51.5130, 7.4700}
	tBielefeld          = gTown{"Bielefeld", "Nordrhein-Westfalen", "DE", "33602", "Europe/Berlin", 52.0220, 8.5320}
	tKasselNord         = gTown{"Kassel", "Hessen", "DE", "34127", "Europe/Berlin", 51.3300, 9.5000}
	tFrankfurtMain      = gTown{"Frankfurt am Main", "Hessen", "DE", "60311", "Europe/Berlin", 50.1109, 8.6821}
	tFrankfurtSachs     = gTown{"Frankfurt am Main", "Hessen", "DE", "60594", "Europe/Berlin", 50.1030, 8.6900}
	tFrankfurtOder      = gTown{"Frankfurt (Oder)", "Brandenburg", "DE", "15230", "Europe/Berlin", 52.3420, 14.5500}
	tFrankfurtOderSued  = gTown{"Frankfurt (Oder)", "Brandenburg", "DE", "15232", "Europe/Berlin", 52.3300, 14.5300}
	tMuenchenHaidh      = gTown{"München", "Bayern", "DE", "81667", "Europe/Berlin", 48.1300, 11.5950}
	tMuenchenSchwabing  = gTown{"München", "Bayern", "DE", "80797", "Europe/Berlin", 48.1600, 11.5600}
	tMuenchenIsarvorst  = gTown{"München", "Bayern", "DE", "80469", "Europe/Berlin", 48.1300, 11.5700}
	tMuenchenAltstadt   = gTown{"München", "Bayern", "DE", "80331", "Europe/Berlin", 48.1372, 11.5755}
	tRosenheim          = gTown{"Rosenheim", "Bayern", "DE", "83022", "Europe/Berlin", 47.8560, 12.1280}
	tErlangen           = gTown{"Erlangen", "Bayern", "DE", "91054", "Europe/Berlin", 49.5970, 11.0040}
	tBerlinKreuzberg    = gTown{"Berlin", "Berlin", "DE", "10999", "Europe/Berlin", 52.4990, 13.4230}
	tBerlinPrenzlBerg   = gTown{"Berlin", "Berlin", "DE", "10437", "Europe/Berlin", 52.5400, 13.4200}
	tBerlinNeukoelln    = gTown{"Berlin", "Berlin", "DE", "12043", "Europe/Berlin", 52.4810, 13.4350}
	tBerlinMitte        = gTown{"Berlin", "Berlin", "DE", "10115", "Europe/Berlin", 52.5320, 13.3850}
	tBerlinAlex         = gTown{"Berlin", "Berlin", "DE", "10178", "Europe/Berlin", 52.5220, 13.4050}
	tHamburg            = gTown{"Hamburg", "Hamburg", "DE", "20095", "Europe/Berlin", 53.5500, 10.0000}
	tLeipzig            = gTown{"Leipzig", "Sachsen", "DE", "04109", "Europe/Berlin", 51.3400, 12.3750}
	tHalle              = gTown{"Halle (Saale)", "Sachsen-Anhalt", "DE", "06108", "Europe/Berlin", 51.4820, 11.9700}
	tParis11            = gTown{"Paris", "Île-de-France", "FR", "75011", "Europe/Paris", 48.8590, 2.3800}
	tParis3             = gTown{"Paris", "Île-de-France", "FR", "75003", "Europe/Paris", 48.8630, 2.3600}
	tParis18            = gTown{"Paris", "Île-de-France", "FR", "75018", "Europe/Paris", 48.8920, 2.3480}
	tParis5             = gTown{"Paris", "Île-de-France", "FR", "75005", "Europe/Paris", 48.8460, 2.3470}
	tLyon2              = gTown{"Lyon", "Auvergne-Rhône-Alpes", "FR", "69002", "Europe/Paris", 45.7580, 4.8320}
	tLyon3              = gTown{"Lyon", "Auvergne-Rhône-Alpes", "FR", "69003", "Europe/Paris", 45.7600, 4.8550}
	tMarseille1         = gTown{"Marseille", "Provence-Alpes-Côte d'Azur", "FR", "13001", "Europe/Paris", 43.2970, 5.3810}
	tMarseille6         = gTown{"Marseille", "Provence-Alpes-Côte d'Azur", "FR", "13006", "Europe/Paris", 43.2880, 5.3800}
	tParisTexas         = gTown{"Paris", "Texas", "US", "75460", "America/Chicago", 33.6609, -95.5555}
	tNewYork            = gTown{"New York", "New York", "US", "10014", "America/New_York", 40.7340, -74.0060}
	tNewYorkEast        = gTown{"New York", "New York", "US", "10003", "America/New_York", 40.7310, -73.9890}
	tLondonSW1A         = gTown{"London", "Greater London", "GB", "SW1A 2AA", "Europe/London", 51.5034, -0.1276}
	tLondonW1A          = gTown{"London", "Greater London", "GB", "W1A 1AA", "Europe/London", 51.5186, -0.1438}
	tLondonEC1A         = gTown{"London", "Greater London", "GB", "EC1A 1BB", "Europe/London", 51.5203, -0.0976}
	tLondonNW1          = gTown{"London", "Greater London", "GB", "NW1 2DB", "Europe/London", 51.5300, -0.1270}
	tLondonWC2N         = gTown{"London", "Greater London", "GB", "WC2N 5DN", "Europe/London", 51.5089, -0.1283}
	tManchesterM1       = gTown{"Manchester", "Greater Manchester", "GB", "M1 1AE", "Europe/London", 53.4793, -2.2364}
	tManchesterM2       = gTown{"Manchester", "Greater Manchester", "GB", "M2 5DB", "Europe/London", 53.4807, -2.2454}
	tIstanbulKadikoy    = gTown{"İstanbul", "İstanbul", "TR", "34710", "Europe/Istanbul", 40.9900, 29.0280}
	tIstanbulSisli      = gTown{"İstanbul", "İstanbul", "TR", "34363", "Europe/Istanbul", 41.0600, 28.9870}
	tAnkaraKizilay      = gTown{"Ankara", "Ankara", "TR", "06420", "Europe/Istanbul", 39.9200, 32.8540}
	tAnkaraCankaya      = gTown{"Ankara", "Ankara", "TR", "06690", "Europe/Istanbul", 39.9000, 32.8600}
	tDubaiDeira         = gTown{"دبي", "دبي", "AE", "", "Asia/Dubai", 25.2650, 55.3090}
	tDubaiAlQuoz        = gTown{"دبي", "دبي", "AE", "", "Asia/Dubai", 25.1500, 55.2300}
	tDubaiJumeirah      = gTown{"دبي", "دبي", "AE", "", "Asia/Dubai", 25.2000, 55.2600}
	tCairo              = gTown{"القاهرة", "القاهرة", "EG", "11511", "Africa/Cairo", 30.0444, 31.2357}
)

// gLoc is a location: the town, and what of it the entry states.
type gLoc struct {
	t      gTown
	name   string
	street string
	noGeo  bool // no point: placed by postal code, else town
	noCode bool // no postal code
	hours  []schemas.HoursRule
	exc    []schemas.HoursException
}

// gOff is an offering.
type gOff struct {
	name, desc gtx
	cat        string
}

// gCap is a capacity statement.
type gCap struct {
	status      schemas.CapacityStatus
	asOf, until string
}

// gSpec is one generated entry.
type gSpec struct {
	slug, name string
	person     bool
	status     schemas.EntryStatus // verified when empty
	unlisted   bool
	langs      []string // the first is the default language
	alt        []string
	summary    gtx
	desc       gtx
	cats       []string
	locs       []gLoc
	area       *schemas.ServiceArea
	offers     []gOff
	capacity   *gCap
}

// Hours helpers.
func gDays(s string) []schemas.DayOfWeek {
	all := schemas.DaysOfWeek
	idx := func(d string) int {
		for i, x := range all {
			if string(x) == d {
				return i
			}
		}
		panic("bad day " + d)
	}
	var out []schemas.DayOfWeek
	for _, part := range strings.Split(s, ",") {
		if a, b, ok := strings.Cut(part, "-"); ok {
			for i := idx(a); i <= idx(b); i++ {
				out = append(out, all[i])
			}
			continue
		}
		out = append(out, all[idx(part)])
	}
	return out
}

func gOpen(d, opens, closes string) schemas.HoursRule {
	return schemas.HoursRule{Days: gDays(d), Opens: opens, Closes: closes}
}

func gClosedOn(d string) schemas.HoursRule { return schemas.HoursRule{Days: gDays(d), Closed: true} }

func gClosedDates(from, to string, note gtx) schemas.HoursException {
	return schemas.HoursException{From: from, To: to, Closed: true, Note: note}
}

func gCities(cc string, names ...string) *schemas.ServiceArea {
	sa := &schemas.ServiceArea{}
	for _, n := range names {
		sa.Places = append(sa.Places, schemas.ServicePlace{Type: "city", Name: n, Country: cc})
	}
	return sa
}

func gRadius(km float64) *schemas.ServiceArea {
	return &schemas.ServiceArea{Radius: &schemas.ServiceRadius{Km: km, Center: schemas.RadiusCenter{LocationID: "first"}}}
}

var gAnywhere = &schemas.ServiceArea{Anywhere: true}

// The dated holiday closures (2026-12-24..26) in Berlin and New York, in
// the languages of the entries that have them.
var (
	gXmasEN = gClosedDates("2026-12-24", "2026-12-26", gtx{"en": "Christmas"})
	gXmasDN = gClosedDates("2026-12-24", "2026-12-26", gtx{"de": "Weihnachten", "en": "Christmas"})
)

// gDesigned are the entries the relevance cases name.
func gDesigned() []gSpec {
	berlinWeekdays := []schemas.HoursRule{gOpen("mon-thu", "07:00", "16:00"), gOpen("fri", "07:00", "13:00"), gClosedOn("sat,sun")}
	return []gSpec{
		// --- Carpenters and joiners (trades.carpentry) ---------------------------------------
		{slug: "tischlerei-wolff-ronsdorf", name: "Tischlerei Wolff", langs: []string{"de"},
			summary: gtx{"de": "Tischlerei in Wuppertal-Ronsdorf: Möbel nach Maß, Einbauschrank für jede Nische, Treppen und Innenausbau."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tWuppertalRonsdorf, name: "Werkstatt", street: "Erbschlöer Straße 40", hours: berlinWeekdays}},
			area:    gRadius(20),
			offers: []gOff{
				{name: gtx{"de": "Möbel nach Maß"}},
				{name: gtx{"de": "Treppenbau"}, desc: gtx{"de": "Wangentreppen und Faltwerktreppen aus Eiche und Buche."}},
				{name: gtx{"de": "Innenausbau"}},
			},
			capacity: &gCap{"accepting", "2026-11-16T08:00:00Z", "2026-12-16T08:00:00Z"}},
		{slug: "schreinerei-brandt-solingen", name: "Schreinerei Brandt", status: "published", langs: []string{"de"},
			summary:  gtx{"de": "Schreinerei in Solingen-Ohligs: Möbelbau, Fenster und Reparaturen."},
			cats:     []string{"trades.carpentry"},
			locs:     []gLoc{{t: tSolingenOhligs, street: "Düsseldorfer Straße 112"}},
			area:     gRadius(8),
			offers:   []gOff{{name: gtx{"de": "Möbelbau"}}, {name: gtx{"de": "Holzfenster"}}},
			capacity: &gCap{"limited", "2026-11-20T07:30:00Z", "2026-12-20T07:30:00Z"}},
		{slug: "moebeltischlerei-engel-duesseldorf", name: "Möbeltischlerei Engel", langs: []string{"de", "en"},
			summary: gtx{"de": "Möbeltischlerei in Düsseldorf-Pempelfort: Einbauküchen, Regale und Türen nach Maß.",
				"en": "Cabinet maker in Düsseldorf: fitted kitchens, shelving and doors made to measure."},
			cats:     []string{"trades.carpentry"},
			locs:     []gLoc{{t: tDuesseldorfPemp, name: "Werkstatt", street: "Schwerinstraße 9"}},
			area:     gRadius(10),
			offers:   []gOff{{name: gtx{"de": "Regale nach Maß", "en": "Made-to-measure shelving"}}},
			capacity: &gCap{"waitlist", "2026-11-10T09:00:00Z", "2026-12-10T09:00:00Z"}},
		{slug: "holzbau-berger-koeln", name: "Holzbau Berger", status: "published", langs: []string{"de"},
			summary:  gtx{"de": "Tischlerei und Holzbau aus Köln-Ehrenfeld: Möbel, Türen und Dachausbau, auch im Bergischen Land."},
			cats:     []string{"trades.carpentry"},
			locs:     []gLoc{{t: tKoelnEhrenfeld, street: "Vogelsanger Straße 210"}},
			area:     gCities("DE", "Haan", "Mettmann", "Wuppertal"),
			offers:   []gOff{{name: gtx{"de": "Dachausbau"}}, {name: gtx{"de": "Türen"}}},
			capacity: &gCap{"not_accepting", "2026-11-18T10:00:00Z", "2026-12-18T10:00:00Z"}},
		{slug: "tischlerei-kaya-hilden", name: "Tischlerei Kaya", langs: []string{"de", "tr"},
			summary: gtx{"de": "Tischlerei in Hilden: Küchenfronten, Schiebetüren und Möbelreparatur.",
				"tr": "Hilden'de ahşap atölyesi: mutfak kapakları, sürgülü kapılar ve mobilya tamiri."},
			cats:     []string{"trades.carpentry"},
			locs:     []gLoc{{t: tHilden, street: "Mittelstraße 31"}},
			area:     gRadius(4),
			offers:   []gOff{{name: gtx{"de": "Schiebetüren", "tr": "Sürgülü kapılar"}}},
			capacity: &gCap{"accepting", "2026-10-28T08:00:00Z", "2026-11-25T08:00:00Z"}},
		{slug: "schreinerei-vogel-koeln", name: "Schreinerei Vogel", status: "lapsed", langs: []string{"de"},
			summary: gtx{"de": "Schreinerei in Köln-Sülz: Möbelrestaurierung und Einzelstücke."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tKoelnSuelz, street: "Berrenrather Straße 300"}}},
		{slug: "schreinerei-huber-muenchen", name: "Schreinerei Huber", langs: []string{"de", "en"},
			summary: gtx{"de": "Schreinerei in München-Haidhausen: Einbauküchen, Einbauschränke und Wohnmöbel nach Maß.",
				"en": "Joinery in Munich: fitted kitchens, built-in wardrobes and furniture made to measure."},
			cats: []string{"trades.carpentry"},
			locs: []gLoc{{t: tMuenchenHaidh, name: "Werkstatt", street: "Wörthstraße 12",
				hours: []schemas.HoursRule{gOpen("mon-fri", "08:00", "17:00")}}},
			offers: []gOff{
				{name: gtx{"de": "Einbauküche nach Maß", "en": "Made-to-measure fitted kitchen"}},
				{name: gtx{"de": "Einbauschränke", "en": "Built-in wardrobes"}},
			}},
		{slug: "tischlerei-lindner-muenchen", name: "Tischlerei Lindner", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Tischlerei in München-Schwabing: Möbelrestaurierung, Reparaturen und Einzelanfertigungen."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tMuenchenSchwabing, street: "Clemensstraße 60"}}},
		{slug: "tischlerei-weiss-berlin", name: "Tischlerei Weiß", langs: []string{"de"},
			summary: gtx{"de": "Tischlerei in Berlin-Prenzlauer Berg: Dielenböden, Kastendoppelfenster und Altbautüren."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tBerlinPrenzlBerg, street: "Stargarder Straße 70"}}},
		{slug: "holzmanufaktur-spree-berlin", name: "Holzmanufaktur Spree", status: "published", langs: []string{"de", "en"},
			summary: gtx{"de": "Möbelwerkstatt in Berlin-Neukölln: Tische, Regale und Einbauten aus Massivholz.",
				"en": "Furniture workshop in Berlin-Neukölln: tables, shelves and fitted units in solid wood."},
			cats: []string{"trades.carpentry"},
			locs: []gLoc{{t: tBerlinNeukoelln, street: "Weserstraße 150"}}},
		{slug: "holzkante-massmoebel-bielefeld", name: "Holzkante Maßmöbel", langs: []string{"de"},
			summary: gtx{"de": "Maßmöbel aus unserer Tischlerei in Bielefeld, deutschlandweit geliefert und montiert."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tBielefeld, street: "Herforder Straße 5"}},
			area:    gAnywhere,
			offers:  []gOff{{name: gtx{"de": "Maßanfertigung von Regalen"}}, {name: gtx{"de": "Versand und Montage"}}}},
		{slug: "menuiserie-rhone-lyon", name: "Menuiserie Rhône", langs: []string{"fr"},
			summary: gtx{"fr": "Menuiserie à Lyon : placards sur mesure, escaliers et fenêtres en bois."},
			cats:    []string{"trades.carpentry"},
			locs: []gLoc{{t: tLyon3, street: "Rue Paul Bert 80",
				hours: []schemas.HoursRule{gOpen("mon-fri", "08:00", "18:00")}}}},
		{slug: "menuiserie-du-marais-paris", name: "Menuiserie du Marais", status: "published", langs: []string{"fr"},
			summary: gtx{"fr": "Menuisier ébéniste dans le Marais : meubles sur mesure et restauration."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tParis3, street: "Rue de Saintonge 15"}}},
		{slug: "red-river-carpentry-paris-tx", name: "Red River Carpentry", status: "published", langs: []string{"en"},
			summary: gtx{"en": "Carpenter in Paris, Texas: decks, cabinets and trim work."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tParisTexas, street: "Lamar Avenue 400"}}},
		{slug: "ancoats-joinery-manchester", name: "Ancoats Joinery", langs: []string{"en"},
			summary: gtx{"en": "Joiners in Manchester city centre: fitted wardrobes, doors and staircases."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tManchesterM1, street: "Piccadilly Yard 3"}}},
		{slug: "yilmaz-marangoz-istanbul", name: "Yılmaz Marangoz Atölyesi", langs: []string{"tr", "en"},
			summary: gtx{"tr": "Kadıköy'de marangoz atölyesi: ısmarlama mobilya, mutfak dolabı ve ahşap kapı.",
				"en": "Carpentry workshop in Kadıköy: bespoke furniture, kitchen cabinets and wooden doors."},
			cats: []string{"trades.carpentry"},
			locs: []gLoc{{t: tIstanbulKadikoy, street: "Moda Caddesi No: 20"}},
			offers: []gOff{
				{name: gtx{"tr": "Mutfak dolabı", "en": "Kitchen cabinets"}},
				{name: gtx{"tr": "Ahşap kapı", "en": "Wooden doors"}},
			}},
		{slug: "cankaya-ahsap-ankara", name: "Çankaya Ahşap Atölyesi", status: "published", langs: []string{"tr"},
			summary: gtx{"tr": "Ankara'da ahşap atölyesi: gömme dolap, vestiyer ve mobilya onarımı."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tAnkaraCankaya, street: "Tunalı Hilmi Caddesi No: 50"}}},
		{slug: "najjarat-al-khaleej-dubai", name: "نجارة الخليج", langs: []string{"ar", "en"},
			alt: []string{"Al Khaleej Carpentry"},
			summary: gtx{"ar": "ورشة نجارة في دبي: أثاث حسب الطلب وخزائن مطابخ وأبواب خشبية.",
				"en": "Carpentry workshop in Dubai: made-to-order furniture, kitchen cabinets and wooden doors."},
			cats: []string{"trades.carpentry"},
			locs: []gLoc{{t: tDubaiAlQuoz, street: "Al Quoz Industrial Area 3"}}},
		{slug: "warshat-alnil-cairo", name: "ورشة النيل للأثاث", status: "published", langs: []string{"ar"},
			summary: gtx{"ar": "ورشة أثاث خشبي في القاهرة: غرف نوم ومطابخ وأبواب حسب المقاس."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tCairo, street: "شارع محمد علي 12"}}},
		{slug: "tischlerei-nagel-wuppertal", name: "Tischlerei Nagel", status: "suspended", langs: []string{"de"},
			summary: gtx{"de": "Tischlerei in Wuppertal-Barmen: Innentüren und Einbauschränke."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tWuppertalBarmen, street: "Werth 80"}},
			area:    gRadius(25)},
		{slug: "tischlerei-stern-wuppertal", name: "Tischlerei Stern", unlisted: true, langs: []string{"de"},
			summary: gtx{"de": "Tischlerei in Wuppertal-Vohwinkel: Fenster, Haustüren und Einbauschränke."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tWuppertalVohwinkel, street: "Kaiserstraße 20"}},
			area:    gRadius(25)},
		{slug: "tischlerei-alt-remscheid", name: "Tischlerei Alt", status: "unclaimed", langs: []string{"de"},
			summary: gtx{"de": "Tischlerei in Remscheid-Lennep."},
			cats:    []string{"trades.carpentry"},
			locs:    []gLoc{{t: tRemscheidLennep, noGeo: true}}},

		// --- Electricians ---------------------------------------------------------------------
		{slug: "elektro-blitz-frankfurt", name: "Elektro Blitz", langs: []string{"de"},
			summary: gtx{"de": "Elektrofachbetrieb in der Frankfurter Innenstadt: Elektroinstallation, Sicherungskästen und Smart Home."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: tFrankfurtMain, street: "Töngesgasse 8"}}},
		{slug: "elektro-oderblick-frankfurt-oder", name: "Elektro Oderblick", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Elektrofachbetrieb an der Oder: Installation, E-Check und Beleuchtung."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: tFrankfurtOder, street: "Karl-Marx-Straße 50"}}},
		{slug: "elektro-fuchs-wuppertal", name: "Elektro Fuchs", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Elektroinstallation und Reparaturen in Wuppertal."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: tWuppertalSued, noGeo: true}}},
		{slug: "elektro-nordstadt-kassel", name: "Elektro Nordstadt", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Elektroinstallation in Kassel: Altbausanierung, Zählerschränke und Wallboxen."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: tKasselNord, street: "Holländische Straße 90"}}},
		{slug: "lumiere-electricite-lyon", name: "Lumière Électricité", langs: []string{"fr"},
			summary: gtx{"fr": "Électricien à Lyon : mise aux normes, tableaux électriques et éclairage."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: tLyon2, street: "Rue Mercière 30"}}},
		{slug: "baskent-elektrik-ankara", name: "Başkent Elektrik", langs: []string{"tr"},
			summary: gtx{"tr": "Ankara'da elektrikçi: tesisat, pano montajı ve arıza onarımı."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: tAnkaraKizilay, street: "Atatürk Bulvarı No: 100"}}},
		{slug: "kahraba-alnil-cairo", name: "كهرباء النيل", status: "published", langs: []string{"ar"},
			summary: gtx{"ar": "فني كهرباء في القاهرة: تمديدات وإصلاح الأعطال وتركيب الإنارة."},
			cats:    []string{"trades.electrician"},
			locs:    []gLoc{{t: gTown{"القاهرة", "القاهرة", "EG", "11511", "Africa/Cairo", 30.0500, 31.2400}, street: "شارع الجمهورية 30"}}},

		// --- Plumbers ------------------------------------------------------------------------
		{slug: "sanitaer-schulz-wuppertal", name: "Sanitär Schulz", langs: []string{"de"},
			summary: gtx{"de": "Sanitär und Heizung in Wuppertal-Elberfeld: Bäder, Fußbodenheizung und Notdienst."},
			cats:    []string{"trades.plumbing"},
			locs: []gLoc{{t: tWuppertalElberfeld, street: "Luisenstraße 70",
				hours: []schemas.HoursRule{gOpen("mon-fri", "07:00", "17:00")}}},
			offers: []gOff{{name: gtx{"de": "Badsanierung"}}, {name: gtx{"de": "Fußbodenheizung nachrüsten"}}}},
		{slug: "plomberie-vieux-port-marseille", name: "Plomberie du Vieux-Port", langs: []string{"fr"},
			summary: gtx{"fr": "Plombier à Marseille : dépannage, chauffe-eau et salles de bains."},
			cats:    []string{"trades.plumbing"},
			locs:    []gLoc{{t: tMarseille1, street: "Rue de la République 20"}}},
		{slug: "whitehall-plumbing-london", name: "Whitehall Plumbing & Heating", langs: []string{"en"},
			summary: gtx{"en": "Plumbers in Westminster, London: boilers, bathrooms and emergency repairs."},
			cats:    []string{"trades.plumbing"},
			locs:    []gLoc{{t: tLondonSW1A, street: "Whitehall Court 4"}}},

		// --- Bakeries and cafés ------------------------------------------------------------------
		{slug: "kiezbaeckerei-kreuzberg-berlin", name: "Kiezbäckerei Kreuzberg", langs: []string{"de", "en"},
			summary: gtx{"de": "Handwerksbäckerei in Berlin-Kreuzberg: Sauerteigbrot, Schrippen und Gebäck.",
				"en": "Craft bakery in Berlin-Kreuzberg: sourdough bread, rolls and pastries."},
			cats: []string{"food.bakery"},
			locs: []gLoc{{t: tBerlinKreuzberg, street: "Oranienstraße 160",
				hours: []schemas.HoursRule{gOpen("mon-sat", "06:00", "18:00"), gOpen("sun", "07:00", "12:00")},
				exc:   []schemas.HoursException{gXmasDN}}},
			offers: []gOff{
				{name: gtx{"de": "Sauerteigbrot", "en": "Sourdough bread"}},
				{name: gtx{"de": "Glutenfreies Brot", "en": "Gluten-free bread"}, desc: gtx{"de": "In einer eigenen Backstube gebacken."}},
			}},
		{slug: "baeckerei-sonnenkorn-berlin", name: "Bäckerei Sonnenkorn", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Bio-Bäckerei in Berlin-Mitte: Vollkornbrot, Brötchen und Kuchen."},
			cats:    []string{"food.bakery"},
			locs:    []gLoc{{t: tBerlinMitte, street: "Invalidenstraße 20"}}},
		{slug: "baeckerei-am-roemer-frankfurt", name: "Bäckerei am Römer", langs: []string{"de"},
			summary: gtx{"de": "Bäckerei in der Frankfurter Altstadt: Brezeln, Brot und Frankfurter Kranz."},
			cats:    []string{"food.bakery"},
			locs:    []gLoc{{t: gTown{"Frankfurt am Main", "Hessen", "DE", "60311", "Europe/Berlin", 50.1100, 8.6830}, street: "Markt 10"}}},
		{slug: "baeckerei-mueller-wuppertal", name: "Bäckerei Müller", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Familienbäckerei in Wuppertal-Vohwinkel seit 1952: Brot, Brötchen und Torten."},
			cats:    []string{"food.bakery"},
			locs:    []gLoc{{t: tWuppertalVohwinkel, street: "Vohwinkeler Straße 1"}}},
		{slug: "boulangerie-oberkampf-paris", name: "Boulangerie Oberkampf", langs: []string{"fr"},
			summary: gtx{"fr": "Boulangerie artisanale à Paris 11e : baguettes de tradition, viennoiseries et pain au levain."},
			cats:    []string{"food.bakery"},
			locs: []gLoc{{t: gTown{"Paris", "Île-de-France", "FR", "75011", "Europe/Paris", 48.8650, 2.3790}, street: "Rue Oberkampf 90",
				hours: []schemas.HoursRule{gClosedOn("mon"), gOpen("tue-sun", "07:00", "20:00")}}}},
		{slug: "boulangerie-des-abbesses-paris", name: "Boulangerie des Abbesses", status: "published", langs: []string{"fr"},
			summary: gtx{"fr": "Boulangerie de quartier à Montmartre : pain, croissants et tartes."},
			cats:    []string{"food.bakery"},
			locs:    []gLoc{{t: tParis18, noGeo: true}}},
		{slug: "main-street-bakery-paris-tx", name: "Main Street Bakery", status: "published", langs: []string{"en"},
			summary: gtx{"en": "Bakery in downtown Paris, Texas: kolaches, pies and sourdough."},
			cats:    []string{"food.bakery"},
			locs: []gLoc{{t: gTown{"Paris", "Texas", "US", "75460", "America/Chicago", 33.6610, -95.5560}, street: "Clarksville Street 20",
				hours: []schemas.HoursRule{gOpen("mon-sat", "06:00", "14:00")}}}},
		{slug: "smithfield-bakehouse-london", name: "Smithfield Bakehouse", langs: []string{"en"},
			summary: gtx{"en": "Bakery and café near Smithfield Market, London: sourdough, buns and coffee."},
			cats:    []string{"food.bakery", "food.cafe"},
			locs:    []gLoc{{t: tLondonEC1A, street: "Long Lane 12"}}},
		{slug: "makhbaz-al-ahram-cairo", name: "مخبز الأهرام", langs: []string{"ar"},
			summary: gtx{"ar": "مخبز في القاهرة: عيش بلدي وفينو ومعجنات طازجة كل صباح."},
			cats:    []string{"food.bakery"},
			locs:    []gLoc{{t: gTown{"القاهرة", "القاهرة", "EG", "11511", "Africa/Cairo", 30.0450, 31.2350}, street: "شارع قصر النيل 5"}}},
		{slug: "cafe-lindenblatt-berlin", name: "Café Lindenblatt", langs: []string{"de", "en"},
			summary: gtx{"de": "Café in Berlin-Mitte: Frühstück, Kuchen und Kaffee, täglich geöffnet.",
				"en": "Café in Berlin-Mitte: breakfast, cake and coffee, open every day."},
			cats: []string{"food.cafe"},
			locs: []gLoc{{t: tBerlinAlex, street: "Rathausstraße 5",
				hours: []schemas.HoursRule{gOpen("mon-sun", "08:00", "20:00")},
				exc:   []schemas.HoursException{gXmasDN}}}},
		{slug: "bleecker-street-coffee-new-york", name: "Bleecker Street Coffee", status: "published", langs: []string{"en"},
			summary: gtx{"en": "Coffee shop in the West Village, New York: espresso, bagels and pastries, open every day."},
			cats:    []string{"food.cafe"},
			locs: []gLoc{{t: gTown{"New York", "New York", "US", "10014", "America/New_York", 40.7330, -74.0030}, street: "Bleecker Street 300",
				hours: []schemas.HoursRule{gOpen("mon-sun", "08:00", "20:00")},
				exc:   []schemas.HoursException{gXmasEN}}}},

		// --- Hairdressers ------------------------------------------------------------------------
		{slug: "friseursalon-schnittpunkt-berlin", name: "Friseursalon Schnittpunkt", langs: []string{"de"},
			summary: gtx{"de": "Friseur in Berlin-Prenzlauer Berg: Schnitt, Farbe und Hochsteckfrisuren."},
			cats:    []string{"services.hairdresser"},
			locs: []gLoc{{t: gTown{"Berlin", "Berlin", "DE", "10437", "Europe/Berlin", 52.5380, 13.4150}, street: "Kastanienallee 40",
				hours: []schemas.HoursRule{gOpen("mon-fri", "09:00", "18:00"), gOpen("sat", "09:00", "14:00")}}}},
		{slug: "portland-place-hair-london", name: "Portland Place Hair", langs: []string{"en"},
			summary: gtx{"en": "Hair salon in the West End of London: cuts, colour and blow-dries."},
			cats:    []string{"services.hairdresser"},
			locs: []gLoc{{t: tLondonW1A, street: "Portland Place 2",
				hours: []schemas.HoursRule{gOpen("mon-sat", "09:00", "18:00")}}}},
		{slug: "hudson-street-hair-new-york", name: "Hudson Street Hair Studio", status: "published", langs: []string{"en"},
			summary: gtx{"en": "Hairdresser in the West Village, New York: cuts, colour and beard trims."},
			cats:    []string{"services.hairdresser"},
			locs: []gLoc{{t: tNewYork, street: "Hudson Street 500",
				hours: []schemas.HoursRule{gOpen("mon-sat", "09:00", "18:00")}}}},
		{slug: "salon-bastille-coiffure-paris", name: "Salon Bastille Coiffure", langs: []string{"fr"},
			summary: gtx{"fr": "Salon de coiffure à Paris 11e : coupes, couleurs et soins."},
			cats:    []string{"services.hairdresser"},
			locs: []gLoc{{t: gTown{"Paris", "Île-de-France", "FR", "75011", "Europe/Paris", 48.8550, 2.3700}, street: "Rue de la Roquette 40",
				hours: []schemas.HoursRule{gOpen("tue-sat", "09:30", "19:00")}}}},
		{slug: "kuafor-sahin-ankara", name: "Kuaför Şahin", langs: []string{"tr"},
			summary: gtx{"tr": "Kızılay'da kuaför: saç kesimi, boya ve gelin saçı."},
			cats:    []string{"services.hairdresser"},
			locs: []gLoc{{t: gTown{"Ankara", "Ankara", "TR", "06420", "Europe/Istanbul", 39.9210, 32.8550}, street: "Meşrutiyet Caddesi No: 10",
				hours: []schemas.HoursRule{gOpen("mon-sat", "09:00", "20:00")}}}},
		{slug: "salon-alward-dubai", name: "صالون الورد", status: "published", langs: []string{"ar", "en"},
			summary: gtx{"ar": "صالون تجميل وتصفيف شعر للسيدات في دبي.", "en": "Ladies' hair and beauty salon in Dubai."},
			cats:    []string{"services.hairdresser"},
			locs:    []gLoc{{t: tDubaiJumeirah, street: "Jumeirah Beach Road 100"}}},
		{slug: "haarwerk-elberfeld-wuppertal", name: "Haarwerk Elberfeld", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Friseur in Wuppertal-Elberfeld: Damen, Herren und Kinder."},
			cats:    []string{"services.hairdresser"},
			locs:    []gLoc{{t: gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42103", "Europe/Berlin", 51.2570, 7.1450}, street: "Friedrich-Ebert-Straße 20"}}},
		{slug: "lena-vogt-mobile-friseurin", name: "Lena Vogt", person: true, status: "published", langs: []string{"de"},
			summary: gtx{"de": "Mobile Friseurin: Haarschnitte und Färben bei Ihnen zu Hause, in ganz Wuppertal."},
			cats:    []string{"services.hairdresser"},
			// Ronsdorf and Barmen are quarters of Wuppertal that the
			// gazetteer doesn't know as towns (SEARCH-30); "Barmen" would
			// otherwise be read as a misspelling of Bergen (SEARCH-26).
			area: gCities("DE", "Wuppertal", "Ronsdorf", "Barmen")},

		// --- Restaurants and takeaways ----------------------------------------------------------------
		{slug: "kadikoy-esnaf-lokantasi-istanbul", name: "Kadıköy Esnaf Lokantası", langs: []string{"tr", "en"},
			summary: gtx{"tr": "Kadıköy'de esnaf lokantası: günlük ev yemekleri, çorbalar ve zeytinyağlılar.",
				"en": "Tradesmen's restaurant in Kadıköy: daily home cooking, soups and olive-oil dishes."},
			cats: []string{"food.restaurant"},
			locs: []gLoc{{t: gTown{"İstanbul", "İstanbul", "TR", "34710", "Europe/Istanbul", 40.9910, 29.0250}, street: "Güneşlibahçe Sokak No: 5",
				hours: []schemas.HoursRule{gOpen("mon-sat", "11:00", "21:00")}}}},
		{slug: "albait-aldimashqi-dubai", name: "مطعم البيت الدمشقي", langs: []string{"ar", "en"},
			summary: gtx{"ar": "مطعم شامي في دبي: مشاوي ومقبلات وحلويات شرقية.", "en": "Levantine restaurant in Dubai: grills, mezze and sweets."},
			cats:    []string{"food.restaurant"},
			locs: []gLoc{{t: tDubaiDeira, street: "Al Rigga Road 20",
				hours: []schemas.HoursRule{gOpen("mon-sun", "12:00", "23:30")}}}},
		{slug: "deansgate-kitchen-manchester", name: "Deansgate Kitchen", status: "published", langs: []string{"en"},
			summary: gtx{"en": "Restaurant on Deansgate, Manchester: seasonal British cooking and Sunday roasts."},
			cats:    []string{"food.restaurant"},
			locs:    []gLoc{{t: tManchesterM2, street: "Deansgate 100"}}},
		{slug: "bouchon-des-canuts-lyon", name: "Bouchon des Canuts", langs: []string{"fr"},
			summary: gtx{"fr": "Bouchon lyonnais : quenelles, andouillette et tarte aux pralines."},
			cats:    []string{"food.restaurant"},
			locs:    []gLoc{{t: gTown{"Lyon", "Auvergne-Rhône-Alpes", "FR", "69002", "Europe/Paris", 45.7620, 4.8300}, street: "Rue des Marronniers 4"}}},
		{slug: "kotti-doener-berlin", name: "Kotti Döner", status: "published", langs: []string{"de", "tr"},
			summary: gtx{"de": "Dönerimbiss am Kottbusser Tor: Döner, Dürüm und Lahmacun, am Wochenende bis 3 Uhr nachts.",
				"tr": "Kottbusser Tor'da dönerci: döner, dürüm ve lahmacun, hafta sonu gece 3'e kadar açık."},
			cats: []string{"food.kebab"},
			locs: []gLoc{{t: gTown{"Berlin", "Berlin", "DE", "10999", "Europe/Berlin", 52.4990, 13.4180}, street: "Adalbertstraße 10",
				hours: []schemas.HoursRule{gOpen("mon-thu", "11:00", "23:00"), gOpen("fri,sat", "11:00", "03:00"), gOpen("sun", "12:00", "22:00")}}}},
		{slug: "rheinufer-foodtruck-duesseldorf", name: "Rheinufer Foodtruck", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Foodtruck an der Rheinuferpromenade in Düsseldorf: Currywurst, Pommes und Reibekuchen."},
			cats:    []string{"food.fast_food"},
			locs:    []gLoc{{t: gTown{"Düsseldorf", "", "DE", "", "Europe/Berlin", 51.2270, 6.7700}, noCode: true}}},

		// --- Car repair --------------------------------------------------------------------------
		{slug: "kfz-meisterbetrieb-hoerde-dortmund", name: "Kfz-Meisterbetrieb Hörde", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Kfz-Werkstatt in Dortmund-Hörde: Inspektion, Bremsen und Klimaservice für alle Marken."},
			cats:    []string{"automotive.car_repair"},
			locs:    []gLoc{{t: tDortmundHoerde, street: "Hermannstraße 70"}}},

		// --- Translators --------------------------------------------------------------------------
		{slug: "uebersetzungsbuero-hanse-hamburg", name: "Übersetzungsbüro Hanse", langs: []string{"de", "en"},
			summary: gtx{"de": "Beglaubigte Übersetzungen Englisch, Türkisch und Arabisch für ganz Deutschland, per Post und online.",
				"en": "Certified translations of English, Turkish and Arabic for all of Germany, by post and online."},
			cats: []string{"professional.translator"},
			locs: []gLoc{{t: tHamburg, street: "Mönckebergstraße 7"}},
			area: &schemas.ServiceArea{Places: []schemas.ServicePlace{{Type: "country", Name: "Deutschland", Country: "DE"}}}},
		{slug: "uebersetzungsdienst-saale-halle", name: "Übersetzungsdienst Saale", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Übersetzungen in Halle (Saale): Urkunden, Zeugnisse und Dolmetschen bei Behörden."},
			cats:    []string{"professional.translator"},
			locs:    []gLoc{{t: tHalle, street: "Leipziger Straße 30"}}},
		{slug: "jana-petersen-uebersetzerin", name: "Jana Petersen", person: true, status: "published", langs: []string{"de"},
			summary: gtx{"de": "Übersetzerin für Niederländisch und Deutsch in Köln: Verträge, Websites und Untertitel."},
			cats:    []string{"professional.translator"},
			locs:    []gLoc{{t: tKoelnNeustadt, noGeo: true}}},
		{slug: "tobias-kern-uebersetzer", name: "Tobias Kern", person: true, status: "published", langs: []string{"de"},
			summary: gtx{"de": "Freier Übersetzer für Englisch und Deutsch: Fachtexte aus Technik und Recht, komplett online."},
			cats:    []string{"professional.translator"}},

		// --- Roofers ---------------------------------------------------------------------------------
		{slug: "dachdeckerei-alpenblick-rosenheim", name: "Dachdeckerei Alpenblick", langs: []string{"de"},
			summary: gtx{"de": "Dachdeckerei aus Rosenheim: Steildach, Flachdach und Dachfenster, in ganz Bayern."},
			cats:    []string{"trades.roofing"},
			locs:    []gLoc{{t: tRosenheim, street: "Kufsteiner Straße 50"}},
			area:    &schemas.ServiceArea{Places: []schemas.ServicePlace{{Type: "administrative_area", Name: "Bayern", Country: "DE"}}}},
		{slug: "dachdeckerei-frank-erlangen", name: "Dachdeckerei Frank", status: "published", langs: []string{"de"},
			summary: gtx{"de": "Dachdeckerei in Erlangen: Ziegeldächer, Dachrinnen und Reparaturen."},
			cats:    []string{"trades.roofing"},
			locs:    []gLoc{{t: tErlangen, street: "Nürnberger Straße 40"}}},

		// --- Kitchens, software, photographers, bicycles -------------------------------------------
		{slug: "kuechenstudio-isar-muenchen", name: "Küchenstudio Isar", langs: []string{"de"},
			summary: gtx{"de": "Küchenstudio in München: Einbauküchen, Elektrogeräte und Küchenplanung."},
			cats:    []string{"retail.kitchen_studio"},
			locs:    []gLoc{{t: tMuenchenIsarvorst, street: "Fraunhoferstraße 20"}}},
		{slug: "thames-code-london", name: "Thames Code", status: "published", langs: []string{"en"},
			summary: gtx{"en": "Software development studio in London: web apps and APIs for charities."},
			cats:    []string{"it.software_development"},
			locs:    []gLoc{{t: gTown{"London", "", "GB", "", "", 0, 0}, noGeo: true, noCode: true}}},
		{slug: "mara-koenig-fotografin", name: "Mara König", person: true, status: "published", langs: []string{"de"},
			summary: gtx{"de": "Fotografin in Wuppertal: Hochzeiten, Familienporträts und Businessfotos."},
			cats:    []string{"creative.photographer"},
			locs:    []gLoc{{t: gTown{"Wuppertal", "", "DE", "42105", "", 0, 0}, noGeo: true}}},
		{slug: "fotostudio-lichtblick-wuppertal", name: "Fotostudio Lichtblick", langs: []string{"de"},
			summary: gtx{"de": "Fotostudio in Wuppertal-Barmen: Passbilder, Bewerbungsfotos und Produktfotos."},
			cats:    []string{"creative.photographer"},
			locs:    []gLoc{{t: gTown{"Wuppertal", "Nordrhein-Westfalen", "DE", "42275", "Europe/Berlin", 51.2720, 7.1950}, street: "Werth 40"}}},
		{slug: "nils-brandt-fahrradmechaniker", name: "Nils Brandt", person: true, status: "published", langs: []string{"de"},
			summary: gtx{"de": "Mobiler Fahrradmechaniker in Leipzig: Reparatur und Inspektion vor Ihrer Haustür."},
			cats:    []string{"retail.bicycle"},
			area: &schemas.ServiceArea{Radius: &schemas.ServiceRadius{Km: 15,
				Center: schemas.RadiusCenter{Place: "Leipzig", Geo: &schemas.Geo{Lat: 51.3400, Lng: 12.3750}}}}},
	}
}

// Fillers: everyday businesses in the same towns, so that the cases have
// other entries to leave out and to rank below.
type gFillerKind struct {
	cat, name, summary string // name and summary are formats of the name and the town
}

var gFillerKinds = map[string][]gFillerKind{
	"de": {
		{"health.dentist", "Zahnarztpraxis Dr. %s", "Zahnarztpraxis in %s: Prophylaxe, Füllungen und Zahnersatz."},
		{"retail.florist", "Blumen %s", "Blumenladen in %s: Sträuße, Trauerfloristik und Hochzeitsschmuck."},
		{"health.pharmacy", "%s-Apotheke", "Apotheke in %s: Rezepte, Beratung und Botendienst."},
		{"education.driving_school", "Fahrschule %s", "Fahrschule in %s: Führerschein Klasse B, A und BE."},
		{"professional.tax_advisor", "Steuerkanzlei %s", "Steuerkanzlei in %s: Buchhaltung, Jahresabschluss und Lohnabrechnung."},
	},
	"fr": {
		{"health.dentist", "Cabinet dentaire %s", "Cabinet dentaire à %s : soins, détartrage et prothèses."},
		{"retail.florist", "Fleurs %s", "Fleuriste à %s : bouquets, mariages et deuil."},
		{"health.pharmacy", "Pharmacie %s", "Pharmacie à %s : ordonnances, conseils et parapharmacie."},
	},
	"en": {
		{"health.dentist", "%s Dental Practice", "Dental practice in %s: check-ups, hygiene and crowns."},
		{"retail.florist", "%s Flowers", "Florist in %s: bouquets, weddings and funeral flowers."},
		{"health.pharmacy", "%s Pharmacy", "Pharmacy in %s: prescriptions, advice and travel vaccinations."},
	},
	"tr": {
		{"health.dentist", "%s Diş Kliniği", "%s diş kliniği: dolgu, implant ve diş beyazlatma."},
		{"retail.florist", "%s Çiçekçilik", "%s çiçekçisi: buketler, düğün ve açılış çiçekleri."},
		{"health.pharmacy", "%s Eczanesi", "%s eczanesi: reçete, danışmanlık ve nöbet hizmeti."},
	},
	"ar": {
		{"health.dentist", "عيادة %s للأسنان", "عيادة أسنان في %s: حشوات وتقويم وتبييض."},
		{"retail.florist", "زهور %s", "محل زهور في %s: باقات وتنسيق حفلات."},
		{"health.pharmacy", "صيدلية %s", "صيدلية في %s: وصفات طبية واستشارات."},
	},
}

// gFillerTowns are the towns fillers are placed in, with the language of
// their texts, the names they use and how many kinds each gets.
var gFillerTowns = []struct {
	lang  string
	towns []gTown
	names []string
	kinds int
}{
	{"de", []gTown{tWuppertalElberfeld, tWuppertalBarmen, tSolingenMitte}, []string{"Albrecht", "Brinkmann", "Claßen", "Dörner", "Eickhoff"}, 5},
	{"de", []gTown{tDuesseldorfAlt, tKoelnAltstadt, tMuenchenAltstadt, tBerlinMitte, tFrankfurtSachs}, []string{"Graf", "Hartmann", "Ilgen", "Jansen", "Kühn"}, 4},
	{"de", []gTown{tFrankfurtOderSued, tHamburg, tLeipzig, tDortmundMitte}, []string{"Lorenz", "Mertens", "Nowak", "Ostermann"}, 3},
	{"fr", []gTown{tParis5, tLyon2, tMarseille6}, []string{"Lefèvre", "Moreau", "Garnier"}, 3},
	{"en", []gTown{tLondonNW1, tLondonWC2N, tManchesterM2, tNewYorkEast, tParisTexas}, []string{"Ashworth", "Bramley", "Cotton", "Dunmore", "Ellery"}, 3},
	{"tr", []gTown{tIstanbulSisli, tAnkaraKizilay}, []string{"Güneş", "Aydın"}, 3},
	{"ar", []gTown{tDubaiDeira, tCairo}, []string{"الريان", "النور"}, 3},
}

func gFillers() []gSpec {
	var out []gSpec
	statuses := []schemas.EntryStatus{"verified", "published", "unclaimed"}
	n := 0
	for _, ft := range gFillerTowns {
		kinds := gFillerKinds[ft.lang]
		for ti, town := range ft.towns {
			for k := 0; k < ft.kinds && k < len(kinds); k++ {
				kind := kinds[k]
				name := ft.names[(ti+k)%len(ft.names)]
				display := fmt.Sprintf(kind.name, name)
				// A little apart from each other, within a kilometre or two.
				t := town
				t.lat += float64((n%7)-3) * 0.004
				t.lng += float64((n%5)-2) * 0.006
				loc := gLoc{t: t, street: gFillerStreet(ft.lang, n)}
				switch n % 9 {
				case 4: // postal code and town only
					loc = gLoc{t: town, noGeo: true}
				case 7: // the town only
					loc = gLoc{t: town, noGeo: true, noCode: true}
				}
				townName := town.town
				out = append(out, gSpec{
					slug:    fmt.Sprintf("%s-%s-%d", gFillerSlugs[kind.cat], gTownSlug(town), n+1),
					name:    display,
					status:  statuses[n%len(statuses)],
					langs:   []string{ft.lang},
					summary: gtx{ft.lang: fmt.Sprintf(kind.summary, townName)},
					cats:    []string{kind.cat},
					locs:    []gLoc{loc},
				})
				n++
			}
		}
	}
	return out
}

var gFillerSlugs = map[string]string{
	"health.dentist":           "dental",
	"retail.florist":           "florist",
	"health.pharmacy":          "pharmacy",
	"education.driving_school": "driving-school",
	"professional.tax_advisor": "tax-office",
}

// gTownSlug is a town's name as a slug.
func gTownSlug(t gTown) string {
	switch t.town {
	case "Düsseldorf":
		return "duesseldorf"
	case "Köln":
		return "koeln"
	case "München":
		return "muenchen"
	case "Frankfurt am Main":
		return "frankfurt"
	case "Frankfurt (Oder)":
		return "frankfurt-oder"
	case "İstanbul":
		return "istanbul"
	case "دبي":
		return "dubai"
	case "القاهرة":
		return "cairo"
	case "New York":
		return "new-york"
	case "Paris":
		if t.cc == "US" {
			return "paris-tx"
		}
	}
	return strings.ToLower(t.town)
}

func gFillerStreet(lang string, n int) string {
	switch lang {
	case "de":
		return fmt.Sprintf("Hauptstraße %d", 10+n)
	case "fr":
		return fmt.Sprintf("Rue Principale %d", 10+n)
	case "en":
		return fmt.Sprintf("%d High Street", 10+n)
	case "tr":
		return fmt.Sprintf("Cumhuriyet Caddesi No: %d", 10+n)
	default:
		return fmt.Sprintf("Street %d", 10+n)
	}
}

// generatedEntries returns the generated registry, the same on every call.
func generatedEntries() []*schemas.Entry {
	specs := append(gDesigned(), gFillers()...)
	out := make([]*schemas.Entry, 0, len(specs))
	for i, s := range specs {
		out = append(out, s.build(i))
	}
	return out
}

// genID is a ULID of the prefix at t whose entropy is a hash of seed.
func gID(p schemas.IDPrefix, t time.Time, seed string) string {
	h := sha256.Sum256([]byte(seed))
	id, err := schemas.NewID(p, t, strings.NewReader(string(h[:])))
	if err != nil {
		panic(err)
	}
	return id
}

func gStamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

func (s gSpec) build(i int) *schemas.Entry {
	// Created between September and early November 2026, updated a few
	// weeks later, always before the cases' now (2026-11-30T10:00:00Z).
	created := time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC).Add(time.Duration(i) * 9 * time.Hour)
	updated := created.Add(time.Duration(5+i%20) * 24 * time.Hour)
	if s.capacity != nil {
		if asOf, _ := time.Parse(time.RFC3339, s.capacity.asOf); asOf.After(updated) {
			updated = asOf
		}
	}
	status := s.status
	if status == "" {
		status = schemas.StatusVerified
	}
	kind := schemas.KindOrganization
	if s.person {
		kind = schemas.KindPerson
	}
	host := s.slug + ".example"
	e := &schemas.Entry{
		SchemaVersion:   schemas.SchemaVersion,
		ID:              gID(schemas.PrefixEntry, created, s.slug),
		Slug:            s.slug,
		Kind:            kind,
		Status:          status,
		Listed:          !s.unlisted,
		DefaultLanguage: s.langs[0],
		Languages:       s.langs,
		Record:          schemas.Record{Revision: 1 + i%4, CreatedAt: gStamp(created), UpdatedAt: gStamp(updated)},
		Verification:    schemas.Verification{Level: schemas.LevelNone, Domains: []schemas.DomainCheck{}},
		DisplayName:     s.name,
		AlternateNames:  s.alt,
		Summary:         s.summary,
		Description:     s.desc,
		Categories:      s.cats,
	}
	switch status {
	case schemas.StatusVerified, schemas.StatusSuspended:
		e.Verification = schemas.Verification{Level: schemas.LevelDomain, Domains: []schemas.DomainCheck{{
			Host: host, Status: schemas.DomainVerified, Method: "dns_txt",
			VerifiedAt: gStamp(created.Add(2 * time.Hour)), LastCheckedAt: gStamp(updated),
		}}}
		e.Record.LastConfirmedAt = gStamp(updated)
	case schemas.StatusPublished:
		e.Record.LastConfirmedAt = gStamp(updated)
	case schemas.StatusLapsed:
		e.Verification.LapsedAt = gStamp(updated)
	}
	if !s.person || status == schemas.StatusVerified {
		e.Domains = []schemas.Domain{{Host: host, Primary: true}}
	}
	display := schemas.DisplayFull
	if s.person {
		display = schemas.DisplayLocalityOnly
	}
	for j, l := range s.locs {
		loc := schemas.Location{
			ID:              gID(schemas.PrefixLocation, created, fmt.Sprintf("%s/loc/%d", s.slug, j)),
			Name:            l.name,
			Address:         schemas.Address{Locality: l.t.town, Region: l.t.region, Country: l.t.cc},
			AddressDisplay:  display,
			Hours:           l.hours,
			HoursExceptions: l.exc,
		}
		if !s.person {
			loc.Address.Street = l.street
		}
		if !l.noCode {
			loc.Address.PostalCode = l.t.postal
		}
		if !l.noGeo {
			loc.Geo = &schemas.Geo{Lat: l.t.lat, Lng: l.t.lng}
		}
		if len(l.hours) > 0 || len(l.exc) > 0 {
			loc.TimeZone = l.t.tz
		}
		e.Locations = append(e.Locations, loc)
	}
	if len(e.Locations) > 0 {
		e.PrimaryLocationID = e.Locations[0].ID
	}
	if s.area != nil {
		sa := *s.area
		if sa.Radius != nil && sa.Radius.Center.LocationID == "first" {
			r := *sa.Radius
			r.Center = schemas.RadiusCenter{LocationID: e.PrimaryLocationID}
			sa.Radius = &r
		}
		e.ServiceArea = &sa
	}
	for j, o := range s.offers {
		e.Offerings = append(e.Offerings, schemas.Offering{
			ID:          gID(schemas.PrefixOffering, created, fmt.Sprintf("%s/off/%d", s.slug, j)),
			Kind:        "service",
			Name:        o.name,
			Description: o.desc,
			Category:    o.cat,
			Audience:    "all",
		})
	}
	if c := s.capacity; c != nil {
		e.Capacity = &schemas.Capacity{Status: c.status, AsOf: c.asOf, ExpiresAt: c.until}
	}
	if !s.person {
		e.ContactPoints = []schemas.ContactPoint{{
			ID:         gID(schemas.PrefixContact, created, s.slug+"/cp"),
			Name:       gContactName[s.langs[0]],
			Visibility: "public",
			Email:      "info@" + host,
		}}
	}
	source := schemas.SourceOwner
	if status == schemas.StatusUnclaimed {
		source = schemas.SourceRegister
	}
	e.Provenance = []schemas.Provenance{{Path: "/", Source: source, ObservedAt: gStamp(updated)}}
	return e
}

var gContactName = map[string]string{"de": "Kontakt", "en": "Contact", "fr": "Contact", "tr": "İletişim", "ar": "اتصل بنا"}

func TestGeneratedEntries_Valid(t *testing.T) {
	gen := generatedEntries()
	if n := len(gen); n < 120 || n > 200 {
		t.Errorf("generated %d entries; want 120 to 200", n)
	}
	ids, slugs := map[string]string{}, map[string]string{}
	for _, e := range fixtures.Entries() {
		ids[e.ID], slugs[e.Slug] = "fixture "+e.Slug, "fixture"
	}
	for _, e := range gen {
		if issues := e.Check(); len(issues) > 0 {
			t.Errorf("%s: Check:\n%v", e.Slug, issues)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%s: %v", e.Slug, err)
		}
		if _, issues := schemas.Validate(b); len(issues) > 0 {
			t.Errorf("%s: Validate:\n%v", e.Slug, issues)
		}
		if !schemas.ValidID(schemas.PrefixEntry, e.ID) {
			t.Errorf("%s: id %s is not an entry ID", e.Slug, e.ID)
		}
		if other, dup := ids[e.ID]; dup {
			t.Errorf("%s: id %s is already used by %s", e.Slug, e.ID, other)
		}
		ids[e.ID] = e.Slug
		if other, dup := slugs[e.Slug]; dup {
			t.Errorf("slug %s is used twice (%s)", e.Slug, other)
		}
		slugs[e.Slug] = "generated"
		for _, d := range e.Domains {
			if !strings.HasSuffix(d.Host, ".example") {
				t.Errorf("%s: domain %s is not an .example domain", e.Slug, d.Host)
			}
		}
	}
	if again := generatedEntries(); !reflect.DeepEqual(gen, again) {
		t.Error("generatedEntries is not deterministic")
	}
}
