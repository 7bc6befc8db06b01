package search

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/terms"
)

// Index is the search index of one layer of a publication: the entries
// of its search records, their words' postings, and where each entry is
// and serves, placed by the gazetteer when the index is built. It is
// immutable once built and safe for concurrent queries. Built at
// publish, it is written to a file (WriteTo) that the server maps and
// opens (OpenIndex): every array of the index opened that grows with the
// entries is then the file's bytes, nothing the garbage collector scans
// and no heap.
type Index struct {
	ents []ent
	// idHashes are the hashes of the IDs the index holds, sorted: its
	// entries' and the hidden ones' (of this layer, with no entry);
	// idRefs are those IDs, in the same order. An ID is held when one of
	// the IDs of its hash is it: a few IDs may share a hash. Arrays, not
	// maps, so that a file can hold them as they are.
	idHashes []uint64
	idRefs   []ref
	arena    []byte // the entries' strings, and the hidden IDs
	texts    []langText
	cats     []uint16
	locs     []loc
	rules    []rule
	excs     []exception
	areas    []servedPlace
	radii    []circle
	zones    []*time.Location

	// Postings of the entries' words: word i's entries are
	// post[start[i]:start[i+1]], each ordinal<<1 | 1 when strong.
	words wordSet
	start []uint32
	post  []uint32

	// catPost are the entries of each category (and of each sector: its
	// categories' entries).
	catStart []uint32
	catPost  []uint32

	// known are the folded town names entries give (their locations' and
	// served places'): the gazetteer never reads such a name as a
	// misspelling, and an unknown place is matched by them.
	known map[string]bool

	// Where entries are and serve, for tier 1 without a scan: by town
	// (located in it or serving it by name), served region and country,
	// postal code (per country, sorted), the names entries give; and the
	// entries with a service radius or working anywhere.
	byTown     map[uint32][]int32 // located in the town
	servesTown map[uint32][]int32 // serving the town by name
	byRegion   map[string][]int32
	byCountry  map[[2]byte][]int32
	byName     map[string][]int32
	postal     map[[2]byte][]postalRef
	// radiusCells are the entries with a service radius by the 1°×1°
	// cells their circles reach.
	radiusCells map[int32][]int32
	anywhere    []int32

	cw *categoryWords

	scratch chan *scratch // for reuse by queries (run.go)

	// flags and hashes are what a query reads of every entry it looks
	// at, kept dense apart from ents so that filtering and ordering a
	// hundred thousand entries costs a cache line each, not several.
	flags  []uint16
	hashes []uint64
	points []point
}

// Entry flags.
const (
	flagStatus    = 7      // the status's number
	flagPerson    = 1 << 3 // kind person
	flagHours     = 1 << 4 // a location states hours
	flagAccepting = 1 << 5 // capacity accepting or limited (expiry apart)
	flagStates    = 1 << 6 // a location or a service area
	flagAnywhere  = 1 << 7
	flagOnePoint  = 1 << 8 // one location with a point: its distance is points[at]'s
)

// idHash is an ID's hash: FNV-1a, but a variable, so that a test can
// make IDs share a hash, which real IDs too rarely do to test.
var idHash = fnvHash

func fnvHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// ref is a string in the arena.
type ref struct {
	off uint32
	n   uint32
}

func (ix *Index) str(r ref) string { return string(ix.arena[r.off : r.off+r.n]) }

func (ix *Index) bytes(r ref) []byte { return ix.arena[r.off : r.off+r.n] }

func (ix *Index) add(s string) ref {
	r := ref{uint32(len(ix.arena)), uint32(len(s))}
	ix.arena = append(ix.arena, s...)
	return r
}

type ent struct {
	id, slug         ref
	idHash           uint64
	texts, cats      uint32 // first of the entry's in texts, cats
	locs, areas      uint32
	radii            uint32
	ntexts, ncats    uint8
	nlocs, nareas    uint8
	nradii, primary  uint8
	kind, status     uint8
	level, capStatus uint8
	anywhere         bool
	hours            bool  // a location states hours
	capExpires       int64 // Unix seconds
}

type langText struct {
	lang          ref
	name, summary ref
}

// The structs an index file holds as they are in memory (OpenIndex
// aliases them): their fields are ordered so that none needs padding,
// and where one would, a blank field takes its place, so that every byte
// written is a field's, the same for the same index
// (TestIndexFile_NoPadding).

// loc is a location placed: its point (from the entry, else its postal
// code, else its town), its town and region in the gazetteer, and its
// hours.
type loc struct {
	lat, lng         float32
	pt               point
	town             uint32 // GeoNames ID; 0 when not found
	region           ref    // admin1 key
	locality, folded ref
	postal           ref // compact, upper case
	rules, excs      uint32
	zone             uint16
	country          [2]byte
	nrules, nexcs    uint8
	hasPoint         bool
	hasHours         bool
}

// servedPlace is a place a service area names.
type servedPlace struct {
	town     uint32
	region   ref
	folded   ref
	pt       point
	country  [2]byte
	kind     uint8 // placeTown, placeRegion, placeCountry
	hasPoint bool
}

const (
	placeTown = iota
	placeRegion
	placeCountry
)

type circle struct {
	pt point
	_  [4]byte // where km's alignment would pad
	km float64
}

// point is a place on the unit sphere: distances are then a dot product
// and one arcsine, not four trigonometric functions.
type point struct{ x, y, z float32 }

func pointOf(lat, lng float64) point {
	φ, λ := lat*math.Pi/180, lng*math.Pi/180
	return point{float32(math.Cos(φ) * math.Cos(λ)), float32(math.Cos(φ) * math.Sin(λ)), float32(math.Sin(φ))}
}

// cellOf is the 1°×1° cell of a point.
func cellOf(lat, lng float64) int32 {
	la := int32(math.Floor(min(max(lat, -90), 89.999)))
	lo := int32(math.Floor(min(max(lng, -180), 179.999)))
	return (la+90)<<9 | (lo + 180)
}

// latLng is a point's latitude and longitude in degrees.
func (a point) latLng() (float64, float64) {
	return math.Asin(float64(a.z)) * 180 / math.Pi, math.Atan2(float64(a.y), float64(a.x)) * 180 / math.Pi
}

// cells are the 1°×1° cells a circle reaches (its bounding box, with a
// margin; every longitude near a pole).
func (c circle) cells() []int32 {
	lat, lng := c.pt.latLng()
	dLat := c.km/111.0 + 0.01
	cos := math.Cos(lat * math.Pi / 180)
	dLng := 360.0
	if cos > 0.05 {
		dLng = min(360, c.km/(111.0*cos)+0.01)
	}
	var out []int32
	for la := math.Floor(lat - dLat); la <= lat+dLat; la++ {
		if la < -90 || la >= 90 {
			continue
		}
		if dLng >= 180 {
			for lo := -180.0; lo < 180; lo++ {
				out = append(out, cellOf(la, lo))
			}
			continue
		}
		for lo := math.Floor(lng - dLng); lo <= lng+dLng; lo++ {
			w := lo
			if w < -180 {
				w += 360
			} else if w >= 180 {
				w -= 360
			}
			out = append(out, cellOf(la, w))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// earthKm is the mean Earth radius GeoNames' distances use.
const earthKm = 6371.0088

// km is the great-circle distance between two points.
func (a point) km(b point) float64 {
	dx, dy, dz := float64(a.x-b.x), float64(a.y-b.y), float64(a.z-b.z)
	chord := math.Sqrt(dx*dx + dy*dy + dz*dz)
	return 2 * earthKm * math.Asin(min(1, chord/2))
}

// Entry kinds, statuses, verification levels and capacity statuses by
// number.
var (
	kinds      = []schemas.EntryKind{schemas.KindOrganization, schemas.KindPerson}
	statuses   = []schemas.EntryStatus{schemas.StatusUnclaimed, schemas.StatusPublished, schemas.StatusVerified, schemas.StatusLapsed, schemas.StatusSuspended}
	levels     = []schemas.VerificationLevel{schemas.LevelNone, schemas.LevelContact, schemas.LevelDomain, schemas.LevelBusiness, schemas.LevelIdentity}
	capacities = []schemas.CapacityStatus{"", "accepting", "limited", "waitlist", "not_accepting"}
)

func number[T comparable](list []T, v T) (uint8, bool) {
	i := slices.Index(list, v)
	return uint8(max(i, 0)), i >= 0
}

// Builder makes an Index from search records, one at a time.
type Builder struct {
	ix      *Index
	gaz     *places.Gazetteer
	lists   [][]uint32       // postings while building, by term
	terms   map[string]int32 // a word's list in lists
	catList [][]uint32
	zoneIDs map[string]uint16
	towns   map[string]townInfo // "country\x00folded town" → what the gazetteer said
	postals map[string]townInfo
	// held finds an ID added (an entry's or a hidden one) by its hash, the
	// first of that hash; clash holds the rare IDs whose hash another ID
	// has. heldIDs are all of them, for the index's sorted table.
	held    map[uint64]ref
	clash   map[string]bool
	heldIDs []heldID
}

// heldID is an ID the index holds, by its hash.
type heldID struct {
	hash uint64
	id   ref
}

type townInfo struct {
	id       uint32
	lat, lng float32
	ok       bool
	zone     string
	region   string
}

// NewBuilder starts an index; gaz places the entries.
func NewBuilder(gaz *places.Gazetteer) *Builder {
	cw := loadCategories()
	return &Builder{
		ix: &Index{known: map[string]bool{}, cw: cw,
			byTown: map[uint32][]int32{}, servesTown: map[uint32][]int32{}, byRegion: map[string][]int32{}, byCountry: map[[2]byte][]int32{},
			byName: map[string][]int32{}, postal: map[[2]byte][]postalRef{}, radiusCells: map[int32][]int32{},
			zones: []*time.Location{time.UTC}},
		gaz: gaz, catList: make([][]uint32, len(cw.codes)), terms: map[string]int32{},
		zoneIDs: map[string]uint16{"": 0, "UTC": 0}, towns: map[string]townInfo{}, postals: map[string]townInfo{},
		held: map[uint64]ref{}, clash: map[string]bool{},
	}
}

// Add adds an entry's search record. A record of an ID added before
// replaces nothing: it is an error.
func (b *Builder) Add(r *schemas.SearchRecord) error {
	ix := b.ix
	if b.has(idHash(r.ID), r.ID) {
		return fmt.Errorf("search: entry %s twice", r.ID)
	}
	if len(ix.ents) >= math.MaxInt32>>1 {
		return fmt.Errorf("search: too many entries")
	}
	at := int32(len(ix.ents))
	e, err := b.newEnt(r)
	if err != nil {
		return err
	}
	b.addTexts(&e, r)
	b.addCategories(at, &e, r)
	b.addPlaces(&e, r)
	b.addWords(at, r)
	b.hold(e.idHash, e.id)
	ix.ents = append(ix.ents, e)
	f, pt := b.flagsOf(&e)
	ix.flags = append(ix.flags, f)
	ix.hashes = append(ix.hashes, e.idHash)
	ix.points = append(ix.points, pt)
	b.placeIndex(at, &e)
	return nil
}

// newEnt is a record's entry with its ID, slug, kind, status, level and
// capacity; its texts, categories and places are added after it.
func (b *Builder) newEnt(r *schemas.SearchRecord) (ent, error) {
	ix := b.ix
	e := ent{id: ix.add(r.ID), slug: ix.add(r.Slug), texts: uint32(len(ix.texts)), cats: uint32(len(ix.cats)),
		locs: uint32(len(ix.locs)), areas: uint32(len(ix.areas)), radii: uint32(len(ix.radii))}
	e.idHash = idHash(r.ID)
	var ok bool
	if e.kind, ok = number(kinds, r.Kind); !ok {
		return e, fmt.Errorf("search: entry %s: kind %q", r.ID, r.Kind)
	}
	if e.status, ok = number(statuses, r.Status); !ok {
		return e, fmt.Errorf("search: entry %s: status %q", r.ID, r.Status)
	}
	e.level, _ = number(levels, r.VerificationLevel)
	if r.CapacityStatus != "" {
		if t, err := time.Parse(time.RFC3339, r.CapacityExpiresAt); err == nil {
			e.capStatus, _ = number(capacities, r.CapacityStatus)
			e.capExpires = t.Unix()
		}
	}
	return e, nil
}

// addTexts adds an entry's names and summaries by language, the default
// first; a language without a name or summary of its own takes the
// default's.
func (b *Builder) addTexts(e *ent, r *schemas.SearchRecord) {
	ix := b.ix
	langs := []string{}
	for _, t := range r.Names {
		if !slices.Contains(langs, t.Lang) {
			langs = append(langs, t.Lang)
		}
	}
	for _, t := range r.Summaries {
		if !slices.Contains(langs, t.Lang) {
			langs = append(langs, t.Lang)
		}
	}
	var def langText
	for i, l := range langs {
		lt := langText{lang: ix.add(l)}
		lt.name, lt.summary = def.name, def.summary
		for _, t := range r.Names {
			if t.Lang == l {
				lt.name = ix.add(t.Text)
			}
		}
		for _, t := range r.Summaries {
			if t.Lang == l {
				lt.summary = ix.add(t.Text)
			}
		}
		if i == 0 {
			def = lt
		}
		ix.texts = append(ix.texts, lt)
	}
	e.ntexts = uint8(min(len(langs), 255))
}

// addCategories adds an entry's categories, and the entry to each one's
// and its sector's postings.
func (b *Builder) addCategories(at int32, e *ent, r *schemas.SearchRecord) {
	ix := b.ix
	seen := map[uint16]bool{}
	for _, c := range r.Categories {
		id, ok := ix.cw.ids[c]
		if !ok || len(ix.cats)-int(e.cats) >= 255 {
			continue
		}
		ix.cats = append(ix.cats, id)
		for _, p := range []uint16{id, ix.cw.sector[id]} {
			if !seen[p] {
				seen[p] = true
				b.catList[p] = append(b.catList[p], uint32(at)<<1|1)
			}
		}
	}
	e.ncats = uint8(int(uint32(len(ix.cats)) - e.cats))
}

// addPlaces adds an entry's locations (at most 255) and its service
// area: the places it names and its radius.
func (b *Builder) addPlaces(e *ent, r *schemas.SearchRecord) {
	ix := b.ix
	for i, l := range r.Locations {
		if i >= 255 {
			break
		}
		ix.locs = append(ix.locs, b.place(l))
		if i == r.PrimaryLocation {
			e.primary = uint8(i)
		}
	}
	e.nlocs = uint8(len(ix.locs) - int(e.locs))
	for _, l := range ix.locs[e.locs:] {
		e.hours = e.hours || l.hasHours
	}
	if sa := r.ServiceArea; sa != nil {
		e.anywhere = sa.Anywhere
		for _, p := range sa.Places {
			if len(ix.areas)-int(e.areas) >= 255 {
				break
			}
			ix.areas = append(ix.areas, b.served(p))
		}
		if rd := sa.Radius; rd != nil {
			if c, ok := b.center(rd, r, ix.locs[e.locs:]); ok {
				ix.radii = append(ix.radii, c)
			}
		}
	}
	e.nareas = uint8(len(ix.areas) - int(e.areas))
	e.nradii = uint8(len(ix.radii) - int(e.radii))
}

// addWords posts an entry's strong and weak words.
func (b *Builder) addWords(at int32, r *schemas.SearchRecord) {
	for _, w := range r.Strong {
		b.post(w, uint32(at)<<1|1)
	}
	for _, w := range r.Weak {
		b.post(w, uint32(at)<<1)
	}
}

// flagsOf are an entry's flags, and its point when it has one location
// with a point (flagOnePoint), else the zero point.
func (b *Builder) flagsOf(e *ent) (uint16, point) {
	f := uint16(e.status)
	if e.kind == 1 {
		f |= flagPerson
	}
	if e.hours {
		f |= flagHours
	}
	if e.capStatus == capAccepting || e.capStatus == capLimited {
		f |= flagAccepting
	}
	if e.nlocs > 0 || e.nareas > 0 || e.nradii > 0 || e.anywhere {
		f |= flagStates
	}
	if e.anywhere {
		f |= flagAnywhere
	}
	var pt point
	n := 0
	for _, l := range b.ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
		if l.hasPoint {
			pt = l.pt
			n++
		}
	}
	if n == 1 {
		f |= flagOnePoint
	} else {
		pt = point{}
	}
	return f, pt
}

// Hide records an entry of this layer that search must not find, nor
// find in the layers below it: removed, unlisted or suspended since.
func (b *Builder) Hide(id string) {
	if h := idHash(id); !b.has(h, id) {
		b.hold(h, b.ix.add(id))
	}
}

// has reports whether an ID was added or hidden before, as Has does once
// the index is built.
func (b *Builder) has(hash uint64, id string) bool {
	if r, ok := b.held[hash]; ok && string(b.ix.bytes(r)) == id {
		return true
	}
	return len(b.clash) > 0 && b.clash[id]
}

// hold records an ID (in the arena) the index holds.
func (b *Builder) hold(hash uint64, id ref) {
	if _, taken := b.held[hash]; taken {
		b.clash[b.ix.str(id)] = true
	} else {
		b.held[hash] = id
	}
	b.heldIDs = append(b.heldIDs, heldID{hash, id})
}

func (b *Builder) post(w string, p uint32) {
	id, ok := b.terms[w]
	if !ok {
		id = int32(len(b.lists))
		b.terms[strings.Clone(w)] = id
		b.lists = append(b.lists, nil)
	}
	l := b.lists[id]
	if n := len(l); n > 0 && l[n-1]>>1 == p>>1 {
		l[n-1] |= p & 1
		return
	}
	b.lists[id] = append(l, p)
}

func (b *Builder) zone(name string) uint16 {
	if id, ok := b.zoneIDs[name]; ok {
		return id
	}
	z, err := time.LoadLocation(name)
	if err != nil || len(b.ix.zones) >= math.MaxUint16 {
		b.zoneIDs[name] = 0
		return 0
	}
	id := uint16(len(b.ix.zones))
	b.ix.zones = append(b.ix.zones, z)
	b.zoneIDs[name] = id
	return id
}

// town finds a town by its name in a country, once per name.
func (b *Builder) town(name, country string) townInfo {
	k := country + "\x00" + terms.Fold(name)
	if t, ok := b.towns[k]; ok {
		return t
	}
	var t townInfo
	if b.gaz != nil {
		q := name
		if country != "" {
			q += ", " + country
		}
		if m, ok := b.gaz.Find(q, nil); ok && (country == "" || m.Place.Country == country) && m.CorrectedFrom == "" {
			t = townInfo{id: uint32(m.Place.ID), lat: float32(m.Place.Lat), lng: float32(m.Place.Lng), ok: true,
				zone: m.Place.TimeZone, region: m.Place.RegionKey}
		}
	}
	b.towns[k] = t
	return t
}

func (b *Builder) postal(code, country string) townInfo {
	k := country + "\x00" + code
	if t, ok := b.postals[k]; ok {
		return t
	}
	var t townInfo
	if b.gaz != nil && country != "" {
		if m, ok := b.gaz.FindPostal(country, code); ok {
			t = townInfo{id: uint32(m.Place.ID), lat: float32(m.Place.Lat), lng: float32(m.Place.Lng), ok: true,
				zone: m.Place.TimeZone, region: m.Place.RegionKey}
		}
	}
	b.postals[k] = t
	return t
}

// place places a location (SEARCH-23): by the point it states, else its
// postal code, else its town.
func (b *Builder) place(l schemas.SearchLocation) loc {
	ix := b.ix
	folded := terms.Fold(l.Locality)
	out := loc{locality: ix.add(l.Locality), folded: ix.add(folded), postal: ix.add(compactCode(l.PostalCode))}
	copy(out.country[:], l.Country)
	if folded != "" {
		ix.known[folded] = true
	}
	town := b.town(l.Locality, l.Country)
	var pc townInfo
	if l.PostalCode != "" {
		pc = b.postal(l.PostalCode, l.Country)
	}
	switch {
	case l.Geo != nil:
		out.lat, out.lng, out.hasPoint = float32(l.Geo.Lat), float32(l.Geo.Lng), true
	case pc.ok:
		out.lat, out.lng, out.hasPoint = pc.lat, pc.lng, true
	case town.ok:
		out.lat, out.lng, out.hasPoint = town.lat, town.lng, true
	}
	if out.hasPoint {
		out.pt = pointOf(float64(out.lat), float64(out.lng))
	}
	if town.ok {
		out.town, out.region = town.id, ix.add(town.region)
	} else if pc.ok {
		out.region = ix.add(pc.region)
	}
	zone := l.TimeZone
	if zone == "" {
		zone = town.zone
	}
	if zone == "" {
		zone = pc.zone
	}
	out.zone = b.zone(zone)
	out.rules = uint32(len(ix.rules))
	rules := makeRules(l.Hours)
	ix.rules = append(ix.rules, rules[:min(len(rules), 255)]...)
	out.nrules = uint8(min(len(rules), 255))
	out.excs = uint32(len(ix.excs))
	excs := makeExceptions(l.Exceptions)
	ix.excs = append(ix.excs, excs[:min(len(excs), 255)]...)
	out.nexcs = uint8(min(len(excs), 255))
	out.hasHours = out.nrules > 0 || out.nexcs > 0
	return out
}

// served is a place a service area names: a town, a region (GeoNames'
// admin1, by its name or code; else read as a town) or a country.
func (b *Builder) served(p schemas.ServicePlace) servedPlace {
	ix := b.ix
	folded := terms.Fold(p.Name)
	if folded != "" {
		ix.known[folded] = true
	}
	out := servedPlace{kind: placeTown, folded: ix.add(folded)}
	copy(out.country[:], p.Country)
	switch p.Type {
	case "country":
		out.kind = placeCountry
		if p.Country == "" && len(p.Name) == 2 {
			copy(out.country[:], strings.ToUpper(p.Name))
		}
		return out
	case "administrative_area":
		if b.gaz != nil {
			if keys := b.gaz.RegionKeys(p.Name, p.Country); len(keys) > 0 {
				out.kind, out.region = placeRegion, ix.add(keys[0])
				return out
			}
		}
	}
	if t := b.town(p.Name, p.Country); t.ok {
		out.town, out.pt, out.hasPoint = t.id, pointOf(float64(t.lat), float64(t.lng)), true
	}
	return out
}

// center is a service radius's circle: around one of the entry's
// locations, or a point or place it names.
func (b *Builder) center(rd *schemas.ServiceRadius, r *schemas.SearchRecord, locs []loc) (circle, bool) {
	c := circle{km: rd.Km}
	switch {
	case rd.Center.Geo != nil:
		c.pt = pointOf(rd.Center.Geo.Lat, rd.Center.Geo.Lng)
		return c, true
	case rd.Center.LocationID != "":
		for i, l := range r.Locations {
			if l.ID == rd.Center.LocationID && i < len(locs) && locs[i].hasPoint {
				c.pt = locs[i].pt
				return c, true
			}
		}
	case rd.Center.Place != "":
		if t := b.town(rd.Center.Place, ""); t.ok {
			c.pt = pointOf(float64(t.lat), float64(t.lng))
			return c, true
		}
	}
	return c, false
}

// compactCode is a postal code as codes are compared: upper case,
// without spaces or dashes ("sw1a 1aa" → "SW1A1AA").
func compactCode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r != ' ' && r != '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// postalRef is an entry's location by its postal code.
type postalRef struct {
	code ref // compact, upper case
	at   int32
}

// placeIndex files an entry where it is and serves.
func (b *Builder) placeIndex(at int32, e *ent) {
	ix := b.ix
	add := func(l []int32) []int32 {
		if n := len(l); n > 0 && l[n-1] == at {
			return l
		}
		return append(l, at)
	}
	for _, l := range ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
		if l.town != 0 {
			ix.byTown[l.town] = add(ix.byTown[l.town])
		}
		if f := ix.str(l.folded); f != "" {
			ix.byName[f] = add(ix.byName[f])
		}
		if l.postal.n > 0 {
			ix.postal[l.country] = append(ix.postal[l.country], postalRef{l.postal, at})
		}
	}
	for _, a := range ix.areas[e.areas : e.areas+uint32(e.nareas)] {
		switch a.kind {
		case placeCountry:
			ix.byCountry[a.country] = add(ix.byCountry[a.country])
		case placeRegion:
			k := ix.str(a.region)
			ix.byRegion[k] = add(ix.byRegion[k])
		default:
			if a.town != 0 {
				ix.servesTown[a.town] = add(ix.servesTown[a.town])
			}
		}
		if f := ix.str(a.folded); f != "" {
			ix.byName[f] = add(ix.byName[f])
		}
	}
	for _, c := range ix.radii[e.radii : e.radii+uint32(e.nradii)] {
		for _, cell := range c.cells() {
			ix.radiusCells[cell] = add(ix.radiusCells[cell])
		}
	}
	if e.anywhere {
		ix.anywhere = append(ix.anywhere, at)
	}
}

// Build finishes the index.
func (b *Builder) Build() *Index {
	ix := b.ix
	for c, l := range ix.postal {
		slices.SortFunc(l, func(a, b postalRef) int {
			if c := bytes.Compare(ix.bytes(a.code), ix.bytes(b.code)); c != 0 {
				return c
			}
			return int(a.at - b.at)
		})
		ix.postal[c] = l
	}
	words := make([]string, len(b.lists))
	for w, id := range b.terms {
		words[id] = w
	}
	// Renumber terms in sorted order, so prefixes are ranges.
	order := make([]int32, len(words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, c int32) int { return strings.Compare(words[a], words[c]) })
	sorted := make([]string, len(order))
	total := 0
	for _, l := range b.lists {
		total += len(l)
	}
	ix.start = make([]uint32, len(order)+1)
	ix.post = make([]uint32, 0, total)
	for i, old := range order {
		sorted[i] = words[old]
		ix.start[i] = uint32(len(ix.post))
		ix.post = append(ix.post, b.lists[old]...)
		b.lists[old] = nil
	}
	ix.start[len(order)] = uint32(len(ix.post))
	ix.words = newWordSet(sorted)
	b.terms = nil
	ix.catStart = make([]uint32, len(b.catList)+1)
	for i, l := range b.catList {
		ix.catStart[i] = uint32(len(ix.catPost))
		ix.catPost = append(ix.catPost, l...)
	}
	ix.catStart[len(b.catList)] = uint32(len(ix.catPost))
	// The IDs by hash, and those of a hash by their bytes: the same table
	// whatever the order they came in.
	slices.SortFunc(b.heldIDs, func(a, c heldID) int {
		if a.hash != c.hash {
			return cmp.Compare(a.hash, c.hash)
		}
		return bytes.Compare(ix.bytes(a.id), ix.bytes(c.id))
	})
	ix.idHashes = make([]uint64, len(b.heldIDs))
	ix.idRefs = make([]ref, len(b.heldIDs))
	for i, h := range b.heldIDs {
		ix.idHashes[i], ix.idRefs[i] = h.hash, h.id
	}
	b.held, b.clash, b.heldIDs = nil, nil, nil
	ix.scratch = make(chan *scratch, 8)
	b.ix = nil
	return ix
}

// Len is how many entries the index holds.
func (ix *Index) Len() int { return len(ix.ents) }

// Has reports whether the index holds an entry (a later layer's entry
// replaces an earlier layer's).
func (ix *Index) Has(id string) bool {
	return ix.holds(idHash(id), []byte(id))
}

// holds is Has for an ID and its hash (of an entry of another layer).
func (ix *Index) holds(hash uint64, id []byte) bool {
	i, _ := slices.BinarySearch(ix.idHashes, hash)
	for ; i < len(ix.idHashes) && ix.idHashes[i] == hash; i++ {
		if bytes.Equal(ix.bytes(ix.idRefs[i]), id) {
			return true
		}
	}
	return false
}

// wordSet is a sorted vocabulary (an index's words, the category words)
// that finds a word by any reading, and for a reading of four letters or
// more the words it starts or ends, as search compares words.
type wordSet struct {
	forward  sortedWords
	backward sortedWords // the words spelled backwards, sorted
	back     []int32     // backward i → the word's place in forward
}

func newWordSet(sorted []string) wordSet {
	backwards := make([]string, len(sorted))
	order := make([]int32, len(sorted))
	for i, w := range sorted {
		backwards[i], order[i] = reversed(w), int32(i)
	}
	slices.SortFunc(order, func(a, c int32) int { return strings.Compare(backwards[a], backwards[c]) })
	rs := make([]string, len(order))
	for i, t := range order {
		rs[i] = backwards[t]
	}
	return wordSet{forward: newSortedWords(sorted), backward: newSortedWords(rs), back: order}
}

// match calls fn with the place of every word a reading finds: the word
// itself, and for four letters or more the words it starts or ends (at
// most maxExpand each way). A word may come more than once.
func (s *wordSet) match(rd string, fn func(int32)) {
	if i, ok := s.forward.search(rd); ok {
		fn(int32(i))
	}
	if utf8.RuneCountInString(rd) < 4 {
		return
	}
	for i, n := s.forward.prefix(rd); n > 0; i, n = i+1, n-1 {
		fn(int32(i))
	}
	for i, n := s.backward.prefix(reversed(rd)); n > 0; i, n = i+1, n-1 {
		fn(s.back[i])
	}
}

// sortedWords are sorted words kept in one arena: a million words cost
// no pointer the garbage collector would follow.
type sortedWords struct {
	arena []byte
	off   []uint32 // word i is arena[off[i]:off[i+1]]
}

func newSortedWords(ws []string) sortedWords {
	n := 0
	for _, w := range ws {
		n += len(w)
	}
	s := sortedWords{arena: make([]byte, 0, n), off: make([]uint32, 0, len(ws)+1)}
	for _, w := range ws {
		s.off = append(s.off, uint32(len(s.arena)))
		s.arena = append(s.arena, w...)
	}
	s.off = append(s.off, uint32(len(s.arena)))
	return s
}

func (s *sortedWords) len() int { return len(s.off) - 1 }

func (s *sortedWords) at(i int) []byte { return s.arena[s.off[i]:s.off[i+1]] }

// search is where w is, or would be, in the words.
func (s *sortedWords) search(w string) (int, bool) {
	i, j := 0, s.len()
	for i < j {
		h := int(uint(i+j) >> 1)
		if string(s.at(h)) < w {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i < s.len() && string(s.at(i)) == w
}

// prefix is where the words starting with p are: from i, n of them (at
// most maxExpand).
func (s *sortedWords) prefix(p string) (int, int) {
	i, _ := s.search(p)
	n := 0
	for j := i; j < s.len() && n < maxExpand && bytes.HasPrefix(s.at(j), []byte(p)); j++ {
		n++
	}
	return i, n
}

// Knows reports whether an entry gives a town by this folded name.
func (ix *Index) Knows(folded string) bool { return ix.known[folded] }
