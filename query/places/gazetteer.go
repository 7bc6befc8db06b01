package places

import (
	"github.com/daawid/registry/schemas/terms"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Place is a town as GeoNames knows it.
type Place struct {
	ID         int64  // GeoNames geonameid
	Name       string // GeoNames' name: "Wuppertal", "Munich", "Köln"
	Country    string // ISO 3166-1 alpha-2: "DE"
	Region     string // the admin1 region's English name: "North Rhine-Westphalia"; "" when unknown
	RegionKey  string // the admin1 region's GeoNames key: "DE.07"; "" when unknown
	Lat, Lng   float64
	Population int64
	TimeZone   string // IANA: "Europe/Berlin"
}

// Match is the place the gazetteer found for what a user wrote: the
// answer's SearchPlace in §7.5.
type Match struct {
	Place Place
	// CorrectedFrom is the name as written, when it was read as a
	// misspelling of Place's ("frnakfurt").
	CorrectedFrom string
	// PostalCode is the code as the gazetteer found it: "SW1A" for
	// "SW1A 1AA" when only the outward code is known.
	PostalCode string
}

// Gazetteer finds towns by name and postal code. Load it first (LoadAdmin1
// and LoadCities, then LoadAlternateNames, LoadPostal and LoadPostalTable,
// which join to the towns loaded); Find and FindPostal are then safe for
// concurrent use. A loader must not run concurrently with anything else.
type Gazetteer struct {
	places []place
	byID   map[uint32]int32

	// names maps every folded name to its towns: an index into places, or
	// with listBit set, an index into lists.
	names *nameTable
	lists [][]int32

	admin1    map[string]string   // "DE.07" → "North Rhine-Westphalia"
	regions   map[string][]string // folded region name or letter code → admin1 keys
	countries map[string]bool     // ISO codes of the loaded towns

	// The towns' strings, each kept once.
	ccs    interned[uint16] // country codes
	zones  interned[uint16] // time zones
	a1keys interned[uint32] // admin1 keys: "DE.07"
	codes  []byte           // admin2 and admin4 codes

	postal   map[string]postalEntry // country + compact code
	outward  map[string]postalEntry // country + first part, gathered from whole codes
	extra    []Place                // places of postal codes no town was found for
	unplaced map[string][]string    // country → codes whose place wasn't found

	// The loaders' scratch: a folding buffer, and the names waiting to be
	// filed.
	scratch []byte
	pending pendingNames

	fuzzyMu sync.Mutex
	fuzzy   atomic.Pointer[fuzzyIndex]
}

const listBit = 1 << 31

// place is a town, kept small: a quarter of a million of them, with a
// million names, make a gazetteer of about 80 MB.
type place struct {
	name     string
	id       uint32 // GeoNames geonameid
	pop      uint32
	lat, lng int32  // degrees × 1e5 (GeoNames gives five decimals)
	folded   uint32 // the names entry of name's fold
	admin1   uint32 // an index into a1keys
	admin2   code   // "75" (France: the département)
	admin4   code   // "75056" (France: the INSEE commune code)
	cc, tz   uint16 // indexes into ccs and zones
	rank     uint8  // featureRank
}

// code is a string in Gazetteer.codes.
type code struct {
	off uint32
	n   uint32
}

const coordScale = 1e5

func (p *place) point() (lat, lng float64) {
	return float64(p.lat) / coordScale, float64(p.lng) / coordScale
}

// interned keeps each string once and names it by a number; 0 is "". A
// table of uint16 names refuses (names 0 for) more strings than it counts.
type interned[T uint16 | uint32] struct {
	idx  map[string]T
	vals []string
}

func (s *interned[T]) id(v string) T {
	if i, ok := s.idx[v]; ok {
		return i
	}
	if s.idx == nil {
		s.idx, s.vals = map[string]T{"": 0}, []string{""}
	}
	if uint64(len(s.vals)) > uint64(^T(0)) {
		return 0
	}
	v = strings.Clone(v)
	s.idx[v] = T(len(s.vals))
	s.vals = append(s.vals, v)
	return T(len(s.vals) - 1)
}

func (s *interned[T]) at(i T) string {
	if uint64(i) >= uint64(len(s.vals)) {
		return ""
	}
	return s.vals[i]
}

func (g *Gazetteer) code(c code) []byte { return g.codes[c.off : c.off+c.n] }

func (g *Gazetteer) addCode(s string) code {
	c := code{off: uint32(len(g.codes)), n: uint32(len(s))}
	g.codes = append(g.codes, s...)
	return c
}

// country, admin1Key and foldedName read a town's strings.
func (g *Gazetteer) country(i int32) string   { return g.ccs.at(g.places[i].cc) }
func (g *Gazetteer) admin1Key(i int32) string { return g.a1keys.at(g.places[i].admin1) }
func (g *Gazetteer) foldedName(i int32) []byte {
	if e := g.places[i].folded; e != noName {
		return g.names.key(int(e))
	}
	return nil
}

// noName is the folded name of a town whose name folds to nothing.
const noName = ^uint32(0)

// New returns an empty gazetteer.
func New() *Gazetteer { return newSized(0) }

// newSized returns an empty gazetteer with room for about names names.
func newSized(names int) *Gazetteer {
	return &Gazetteer{
		byID:      map[uint32]int32{},
		names:     newNameTable(names),
		places:    make([]place, 0, names/4),
		admin1:    map[string]string{},
		regions:   map[string][]string{},
		countries: map[string]bool{},
		postal:    map[string]postalEntry{},
		outward:   map[string]postalEntry{},
		unplaced:  map[string][]string{},
	}
}

// Len is the number of towns loaded.
func (g *Gazetteer) Len() int { return len(g.places) }

// addName files town i under the folded name key (not empty) and
// answers its entry.
func (g *Gazetteer) addName(key []byte, h uint64, i int32) int {
	e, added := g.names.insert(key, h, uint32(i))
	if added {
		return e
	}
	v := g.names.ents[e].v
	if v&listBit == 0 {
		if int32(v) != i {
			g.lists = append(g.lists, []int32{int32(v), i})
			g.names.ents[e].v = uint32(len(g.lists)-1) | listBit
		}
		return e
	}
	l := g.lists[v&^listBit]
	if l[len(l)-1] == i || slices.Contains(l, i) {
		return e
	}
	g.lists[v&^listBit] = append(l, i)
	return e
}

// towns appends the towns filed under a folded name to dst.
func (g *Gazetteer) towns(key string, dst []int32) []int32 {
	e := g.names.find(key)
	if e < 0 {
		return dst
	}
	return g.entTowns(e, dst)
}

func (g *Gazetteer) entTowns(e int, dst []int32) []int32 {
	v := g.names.ents[e].v
	if v&listBit == 0 {
		return append(dst, int32(v))
	}
	return append(dst, g.lists[v&^listBit]...)
}

func (g *Gazetteer) hasName(key string) bool {
	return g.names.find(key) >= 0
}

// answer is the public Place of town i.
func (g *Gazetteer) answer(i int32) Place {
	p := &g.places[i]
	lat, lng := p.point()
	return Place{
		ID: int64(p.id), Name: p.name, Country: g.ccs.at(p.cc),
		Region: g.admin1[g.a1keys.at(p.admin1)], RegionKey: g.a1keys.at(p.admin1),
		Lat: lat, Lng: lng, Population: int64(p.pop), TimeZone: g.zones.at(p.tz),
	}
}

// better reports whether town a ranks above town b when a name fits both:
// the more populous, then the higher feature (capital, seat, town,
// section), then the lower GeoNames ID, so that the answer never depends
// on load order.
func (g *Gazetteer) better(a, b int32) bool {
	pa, pb := &g.places[a], &g.places[b]
	if pa.pop != pb.pop {
		return pa.pop > pb.pop
	}
	if pa.rank != pb.rank {
		return pa.rank > pb.rank
	}
	return pa.id < pb.id
}

// distanceKm is the great-circle distance between two points.
func distanceKm(lat1, lng1, lat2, lng2 float64) float64 {
	const r = 6371.0088
	φ1, φ2 := lat1*math.Pi/180, lat2*math.Pi/180
	dφ := φ2 - φ1
	dλ := (lng2 - lng1) * math.Pi / 180
	a := math.Sin(dφ/2)*math.Sin(dφ/2) + math.Cos(φ1)*math.Cos(φ2)*math.Sin(dλ/2)*math.Sin(dλ/2)
	return 2 * r * math.Asin(math.Sqrt(math.Min(1, a)))
}

func (g *Gazetteer) distance(a, b int32) float64 {
	lat1, lng1 := g.places[a].point()
	lat2, lng2 := g.places[b].point()
	return distanceKm(lat1, lng1, lat2, lng2)
}

// distanceTo is the distance from town i to a point.
func (g *Gazetteer) distanceTo(i int32, lat, lng float64) float64 {
	plat, plng := g.places[i].point()
	return distanceKm(lat, lng, plat, plng)
}

// RegionKeys are the GeoNames keys ("DE.07") of the regions (admin1) of a
// country that go by a name: their English or ASCII name or their code,
// folded: "North Rhine-Westphalia", and the local names and letter codes
// the gazetteer knows besides ("Nordrhein-Westfalen", "NRW", "TX").
func (g *Gazetteer) RegionKeys(name, country string) []string {
	var out []string
	f := terms.Fold(name)
	keys := g.regions[f]
	if k, ok := regionNames[f]; ok {
		keys = append(keys[:len(keys):len(keys)], k)
	}
	for _, k := range keys {
		if (country == "" || strings.HasPrefix(k, country+".")) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// DistanceKm is the great-circle distance between two points.
func DistanceKm(lat1, lng1, lat2, lng2 float64) float64 { return distanceKm(lat1, lng1, lat2, lng2) }
