package search

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/terms"
)

// maxWords is how many words of a query (and of an outcome) count.
const maxWords = 16

// maxExpand is how many entry words a query word finds by their start or
// end, at most, in each of the index and the category words.
const maxExpand = 256

// Query is a checked search, ready to run.
type Query struct {
	Words   []string // the query's folded words
	Outcome []string // the outcome's folded words
	Lang    string   // the language the user writes in; "" unknown

	// Place is the place found for near; PlaceName the folded name of a
	// place nobody knows, matched by the names entries give.
	Place     *places.Match
	PlaceName string
	// Postal is the postal code searched (compact), with Place its town
	// when the gazetteer knows it, else in Country.
	Postal   string
	Country  string
	RadiusKm float64 // 0: no limit

	Category      string // a category or sector code
	Kind          schemas.EntryKind
	OpenAt        time.Time // zero: any time
	AcceptingWork bool
	VerifiedOnly  bool

	Limit int
	After *Key // from the cursor
	// Hour is the hour whose turns order ties (Unix hours).
	Hour int64
	Now  time.Time
}

// Key is a hit's place in the order: smaller first.
type Key struct {
	Rank uint64 // tier, fit, outcome fit, distance band, turn
	ID   string
}

func (k Key) less(o Key) bool {
	if k.Rank != o.Rank {
		return k.Rank < o.Rank
	}
	return k.ID < o.ID
}

// rank packs the order's keys: tier (2 bits), fit and outcome fit (8 bits
// each, higher first), distance band (16 bits), turn (30 bits).
func rank(tier int, fit, ofit int, band int, turn uint64) uint64 {
	return uint64(tier)<<62 | uint64(255-min(fit, 255))<<54 | uint64(255-min(ofit, 255))<<46 |
		uint64(min(band, 0xFFFF))<<30 | turn&(1<<30-1)
}

// Tier is a rank's tier (0 without a place).
func (k Key) Tier() int { return int(k.Rank >> 62) }

// Found is an entry a query found, in an index.
type Found struct {
	ix         *Index
	at         int32
	Key        Key
	tier       int
	distanceKm float64 // NaN: unknown
}

// Searcher runs queries over the layers of a publication: a later layer's
// entry replaces an earlier one's.
type Searcher struct {
	Layers []*Index // the latest first
	Gaz    *places.Gazetteer
}

// Knows reports whether an entry of any layer gives a town by this
// folded name.
func (s *Searcher) Knows(folded string) bool {
	for _, ix := range s.Layers {
		if ix != nil && ix.Knows(folded) {
			return true
		}
	}
	return false
}

// Run finds the page of hits after q.After, and whether more follow.
func (s *Searcher) Run(q *Query) (page []Found, more bool) {
	top := make([]Found, 0, q.Limit+1)
	r := runner{q: q, top: top, limit: q.Limit + 1}
	r.prepare()
	for li, ix := range s.Layers {
		if ix == nil {
			continue
		}
		r.layer(ix, s.Layers[:li])
	}
	if len(r.top) > q.Limit {
		return r.top[:q.Limit], true
	}
	return r.top, false
}

type runner struct {
	q     *Query
	top   []Found
	limit int
	// needed is how many of the query's words an entry must match.
	needed int
	// cats are the categories the category filter keeps (nil: any).
	cats    map[uint16]bool
	noCat   bool // the category filter names no category
	hour    uint64
	now     int64
	radius  float64
	placeLL [2]float64
}

func (r *runner) prepare() {
	q := r.q
	n := min(len(q.Words), maxWords)
	r.needed = min(2, (n+1)/2)
	if q.Category != "" {
		cw := loadCategories()
		r.cats = map[uint16]bool{}
		for i, c := range cw.codes {
			if c == q.Category || strings.HasPrefix(c, q.Category+".") {
				r.cats[uint16(i)] = true
			}
		}
		r.noCat = len(r.cats) == 0
	}
	r.hour = mix(uint64(q.Hour))
	r.now = q.Now.Unix()
	r.radius = q.RadiusKm
	if q.Place != nil {
		r.placeLL = [2]float64{q.Place.Place.Lat, q.Place.Place.Lng}
	}
}

var accPool sync.Pool // *[]uint64

// layer runs the query over one index; later are the layers that replace
// its entries.
func (r *runner) layer(ix *Index, later []*Index) {
	q := r.q
	if r.noCat {
		return
	}
	if len(q.Words) == 0 {
		for at := range ix.ents {
			r.consider(ix, int32(at), 0, later)
		}
		return
	}
	var acc []uint64
	if p, ok := accPool.Get().(*[]uint64); ok && cap(*p) >= len(ix.ents) {
		acc = (*p)[:len(ix.ents)]
	} else {
		acc = make([]uint64, len(ix.ents))
	}
	var touched []int32
	mark := func(word int, shift int, p uint32) {
		e := p >> 1
		w := uint64(1 + p&1)
		b := uint(word*2 + shift)
		cur := acc[e]
		if cur == 0 {
			touched = append(touched, int32(e))
		}
		if (cur>>b)&3 < w {
			acc[e] = cur&^(3<<b) | w<<b
		}
	}
	for i, w := range q.Words[:min(len(q.Words), maxWords)] {
		r.lookup(ix, w, func(p uint32) { mark(i, 0, p) })
	}
	for i, w := range q.Outcome[:min(len(q.Outcome), maxWords)] {
		r.lookup(ix, w, func(p uint32) { mark(i, 32, p) })
	}
	for _, at := range touched {
		v := acc[at]
		acc[at] = 0
		words := uint32(v)
		if matched(words) < r.needed {
			continue
		}
		r.consider(ix, at, v, later)
	}
	clear(acc) // nothing is left set, but be sure when a lookup panicked
	accPool.Put(&acc)
}

// matched is how many words a packed set of 2-bit weights names.
func matched(w uint32) int {
	return bits.OnesCount32((w | w>>1) & 0x55555555)
}

// fitOf is the sum of the packed weights.
func fitOf(w uint32) int {
	return bits.OnesCount32(w&0x55555555) + 2*bits.OnesCount32(w&0xAAAAAAAA)
}

// lookup calls fn with the postings of every entry word and category
// word a query word matches: by any of its readings, and for a reading
// of four letters or more, the words it starts or ends.
func (r *runner) lookup(ix *Index, word string, fn func(p uint32)) {
	cw := ix.cw
	var buf [24]string
	for _, rd := range terms.Readings(buf[:0], r.q.Lang, word) {
		emitTerm := func(t int32) {
			for _, p := range ix.post[ix.start[t]:ix.start[t+1]] {
				fn(p)
			}
		}
		emitCats := func(w string) {
			for _, c := range cw.words[w] {
				for _, p := range ix.catPost[ix.catStart[c]:ix.catStart[c+1]] {
					fn(p)
				}
			}
		}
		if t, ok := ix.terms[rd]; ok {
			emitTerm(t)
		}
		emitCats(rd)
		if len([]rune(rd)) < 4 {
			continue
		}
		for i, n := prefixRange(ix.vocab, rd); n > 0; i, n = i+1, n-1 {
			if ix.vocab[i] != rd {
				emitTerm(int32(i))
			}
		}
		rev := reversed(rd)
		for i, n := prefixRange(ix.reverse, rev); n > 0; i, n = i+1, n-1 {
			if ix.reverse[i] != rev {
				emitTerm(ix.rterm[i])
			}
		}
		for i, n := prefixRange(cw.vocab, rd); n > 0; i, n = i+1, n-1 {
			if cw.vocab[i] != rd {
				emitCats(cw.vocab[i])
			}
		}
		for i, n := prefixRange(cw.reverse, rev); n > 0; i, n = i+1, n-1 {
			if cw.reverse[i] != rev {
				emitCats(reversed(cw.reverse[i]))
			}
		}
	}
}

// prefixRange is where the sorted words starting with p are: from i, n
// of them (at most maxExpand).
func prefixRange(sorted []string, p string) (int, int) {
	i, _ := slices.BinarySearch(sorted, p)
	n := 0
	for j := i; j < len(sorted) && n < maxExpand && strings.HasPrefix(sorted[j], p); j++ {
		n++
	}
	return i, n
}

// consider filters an entry and, when it is kept, files it in the page.
func (r *runner) consider(ix *Index, at int32, acc uint64, later []*Index) {
	q := r.q
	e := &ix.ents[at]
	if schemas.EntryStatus(statuses[e.status]) == schemas.StatusSuspended {
		return
	}
	if q.Kind != "" && kinds[e.kind] != q.Kind {
		return
	}
	if q.VerifiedOnly && statuses[e.status] != schemas.StatusVerified {
		return
	}
	if q.AcceptingWork {
		c := capacities[e.capStatus]
		if (c != "accepting" && c != "limited") || e.capExpires <= r.now {
			return
		}
	}
	if r.cats != nil {
		ok := false
		for _, c := range ix.cats[e.cats : e.cats+uint32(e.ncats)] {
			if r.cats[c] {
				ok = true
				break
			}
		}
		if !ok {
			return
		}
	}
	tier, dist := 0, math.NaN()
	if q.Place != nil || q.PlaceName != "" || q.Postal != "" {
		var states bool
		tier, dist, states = r.where(ix, e)
		if !states {
			return
		}
		if r.radius > 0 && tier == 3 && !(dist <= r.radius) && q.Place != nil {
			return
		}
	}
	if !q.OpenAt.IsZero() && !openAtAny(ix, e, q.OpenAt) {
		return
	}
	if len(later) > 0 {
		id := ix.str(e.id)
		for _, l := range later {
			if l != nil && l.Has(id) {
				return
			}
		}
	}
	band := 0
	if tier == 3 {
		band = 0xFFFF
		if !math.IsNaN(dist) {
			band = int(dist / 10)
		}
	}
	k := Key{Rank: rank(tier, fitOf(uint32(acc)), fitOf(uint32(acc>>32)), band, mix(e.idHash^r.hour))}
	if q.After != nil && !q.After.less(Key{Rank: k.Rank, ID: ix.str(e.id)}) {
		return
	}
	// File it in the page: the smallest keys, in order.
	n := len(r.top)
	if n == r.limit && !k.lessFound(r.top[n-1], ix, e) {
		return
	}
	k.ID = ix.str(e.id)
	f := Found{ix: ix, at: at, Key: k, tier: tier, distanceKm: dist}
	i, _ := slices.BinarySearchFunc(r.top, f, func(a, b Found) int {
		if a.Key.less(b.Key) {
			return -1
		}
		if b.Key.less(a.Key) {
			return 1
		}
		return 0
	})
	if n == r.limit {
		r.top = r.top[:n-1]
	}
	r.top = slices.Insert(r.top, i, f)
}

// lessFound compares a rank not yet given its ID with a filed hit.
func (k Key) lessFound(f Found, ix *Index, e *ent) bool {
	if k.Rank != f.Key.Rank {
		return k.Rank < f.Key.Rank
	}
	return ix.str(e.id) < f.Key.ID
}

// where is an entry's tier for the query's place, its distance, and
// whether it states where it is at all.
func (r *runner) where(ix *Index, e *ent) (tier int, dist float64, states bool) {
	q := r.q
	states = e.nlocs > 0 || e.nareas > 0 || e.nradii > 0 || e.anywhere
	if !states {
		return 0, math.NaN(), false
	}
	tier, dist = 3, math.Inf(1)
	locs := ix.locs[e.locs : e.locs+uint32(e.nlocs)]
	areas := ix.areas[e.areas : e.areas+uint32(e.nareas)]
	radii := ix.radii[e.radii : e.radii+uint32(e.nradii)]
	if q.Place == nil {
		for i := range locs {
			l := &locs[i]
			if q.Postal != "" {
				if string(l.country[:]) == q.Country && strings.HasPrefix(ix.str(l.postal), q.Postal) {
					tier = 1
				}
			} else if ix.str(l.folded) == q.PlaceName {
				tier = 1
			}
		}
		for i := range areas {
			if ix.str(areas[i].folded) == q.PlaceName {
				tier = 1
			}
		}
		if tier != 1 && e.anywhere {
			tier = 2
		}
		return tier, math.NaN(), true
	}
	p := &q.Place.Place
	lat, lng := r.placeLL[0], r.placeLL[1]
	for i := range locs {
		l := &locs[i]
		if q.Postal != "" {
			if string(l.country[:]) == p.Country && strings.HasPrefix(ix.str(l.postal), q.Postal) {
				tier = 1
			}
		} else if l.town != 0 && int64(l.town) == p.ID {
			tier = 1
		}
		if l.hasPoint {
			dist = min(dist, places.DistanceKm(lat, lng, float64(l.lat), float64(l.lng)))
		}
	}
	near := math.Inf(1)
	for i := range areas {
		a := &areas[i]
		switch a.kind {
		case placeCountry:
			if string(a.country[:]) == p.Country {
				tier = 1
			}
		case placeRegion:
			if p.RegionKey != "" && ix.str(a.region) == p.RegionKey {
				tier = 1
			}
		default:
			if a.town != 0 && int64(a.town) == p.ID {
				tier = 1
			}
			if a.hasPoint {
				near = min(near, places.DistanceKm(lat, lng, float64(a.lat), float64(a.lng)))
			}
		}
	}
	for i := range radii {
		c := &radii[i]
		d := places.DistanceKm(lat, lng, float64(c.lat), float64(c.lng))
		if d <= float64(c.km) {
			tier = 1
		}
		near = min(near, d)
	}
	if tier != 1 && e.anywhere {
		tier = 2
	}
	if math.IsInf(dist, 1) {
		dist = near
	}
	if math.IsInf(dist, 1) {
		dist = math.NaN()
	}
	return tier, dist, true
}

// openAtAny reports whether one of an entry's locations is open at t
// (SEARCH-33); a location that doesn't state its hours for that date
// says nothing.
func openAtAny(ix *Index, e *ent, t time.Time) bool {
	for _, l := range ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
		if !l.hasHours {
			continue
		}
		if open, _ := openAt(ix.rules[l.rules:l.rules+uint32(l.nrules)], ix.excs[l.excs:l.excs+uint32(l.nexcs)], ix.zones[l.zone], t); open {
			return true
		}
	}
	return false
}

// openNow is a hit's openNow at an instant: whether a location stating
// its hours for its own today is open; nil when none states them.
func openNow(ix *Index, e *ent, t time.Time) *bool {
	var stated, open bool
	for _, l := range ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
		if !l.hasHours {
			continue
		}
		o, s := openAt(ix.rules[l.rules:l.rules+uint32(l.nrules)], ix.excs[l.excs:l.excs+uint32(l.nexcs)], ix.zones[l.zone], t)
		stated = stated || s
		open = open || o
	}
	if !stated {
		return nil
	}
	return &open
}

// mix is a 64-bit finalizer (SplitMix64's): a turn from an entry's hash
// and the hour.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// Hit is what a found entry shows (SEARCH-13).
func (f *Found) Hit(q *Query, baseURL string) schemas.SearchHit {
	ix, e := f.ix, &f.ix.ents[f.at]
	h := schemas.SearchHit{
		ID: ix.str(e.id), Kind: kinds[e.kind], Slug: ix.str(e.slug),
		Status: statuses[e.status], VerificationLevel: levels[e.level], Categories: []string{},
	}
	h.URL = baseURL + "/" + h.Slug
	texts := ix.texts[e.texts : e.texts+uint32(e.ntexts)]
	if len(texts) > 0 {
		t := texts[0]
		if q.Lang != "" {
			want := primaryTag(q.Lang)
			for _, c := range texts {
				if primaryTag(ix.str(c.lang)) == want {
					t = c
					break
				}
			}
		}
		h.DisplayName, h.Summary = ix.str(t.name), ix.str(t.summary)
	}
	for _, c := range ix.cats[e.cats : e.cats+uint32(e.ncats)] {
		h.Categories = append(h.Categories, ix.cw.codes[c])
	}
	if e.nlocs > 0 {
		h.Locality = ix.str(ix.locs[e.locs+uint32(min(e.primary, e.nlocs-1))].locality)
	}
	if !math.IsNaN(f.distanceKm) && q.Place != nil {
		d := math.Round(f.distanceKm*10) / 10
		h.DistanceKm = &d
	}
	if q.Place != nil || q.PlaceName != "" || q.Postal != "" {
		serves := f.tier == 1 || f.tier == 2
		h.ServesQueryLocation = &serves
	}
	if c := capacities[e.capStatus]; c != "" && e.capExpires > q.Now.Unix() {
		h.CapacityStatus = c
	}
	h.OpenNow = openNow(ix, e, q.Now)
	return h
}

func primaryTag(lang string) string {
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	return strings.ToLower(lang)
}
