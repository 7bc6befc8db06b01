package search

import (
	"bytes"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/schemas"
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

	// zs are the cells of the entries ordered by where they are, the
	// first len(zs) (spatial.go, D125).
	zs []uint32
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
	chord := math.Sqrt(a.chord2(b))
	return 2 * earthKm * math.Asin(min(1, chord/2))
}

// chord2 is the squared chord between two points: km grows with it, so
// it orders points by distance without an arcsine.
func (a point) chord2(b point) float64 {
	dx, dy, dz := float64(a.x-b.x), float64(a.y-b.y), float64(a.z-b.z)
	return dx*dx + dy*dy + dz*dz
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
