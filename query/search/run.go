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
	"github.com/daawid/registry/schemas/taxonomy"
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

	Category string // a category or sector code
	Kind     schemas.EntryKind
	// OpenAt is the instant an entry must be open at when HasOpenAt is
	// set; a flag rather than the zero time, because 0001-01-01T00:00:00Z
	// is an instant openAt may name (SEARCH-33).
	OpenAt        time.Time
	HasOpenAt     bool
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
	// browse are Browse's counts, made at its first call.
	browseOnce sync.Once
	browse     *facetCounts
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
	cats   []bool // by category number; nil: any
	noCat  bool   // the category filter names no category
	hour   uint64
	now    int64
	radius float64
	place  point
	kind   int // the kind filter's number; -1 any
	// An entry's flags must have reqVal under reqMask to be found: the
	// filters that the flags say (hours, capacity, kind, status, saying
	// where it is), read before anything else of it.
	reqMask, reqVal uint16
}

// eligible reports whether an entry's flags pass the query's filters.
func (r *runner) eligible(f uint16) bool {
	return f&r.reqMask == r.reqVal && f&flagStatus != statusSuspended
}

// fitted is an entry found, with its words and fit.
type fitted struct {
	at  int32
	fit uint16 // fit << 5 | outcome fit, each at most 31
	acc uint64
}

func (r *runner) prepare() {
	q := r.q
	n := min(len(q.Words), maxWords)
	r.needed = min(2, (n+1)/2)
	if q.Category != "" {
		cw := loadCategories()
		r.cats = make([]bool, len(cw.codes))
		r.noCat = true
		for i, c := range cw.codes {
			if c == q.Category || strings.HasPrefix(c, q.Category+".") {
				r.cats[i], r.noCat = true, false
			}
		}
	}
	r.hour = mix(uint64(q.Hour))
	r.now = q.Now.Unix()
	r.radius = q.RadiusKm
	if q.Place != nil {
		r.place = pointOf(q.Place.Place.Lat, q.Place.Place.Lng)
	}
	r.kind = -1
	if q.Kind != "" {
		k, _ := number(kinds, q.Kind)
		r.kind = int(k)
		r.reqMask |= flagPerson
		if q.Kind == schemas.KindPerson {
			r.reqVal |= flagPerson
		}
	}
	if q.HasOpenAt {
		r.reqMask, r.reqVal = r.reqMask|flagHours, r.reqVal|flagHours
	}
	if q.AcceptingWork {
		r.reqMask, r.reqVal = r.reqMask|flagAccepting, r.reqVal|flagAccepting
	}
	if q.VerifiedOnly {
		r.reqMask, r.reqVal = r.reqMask|flagStatus, r.reqVal|statusVerified
	}
	if q.Place != nil || q.PlaceName != "" || q.Postal != "" {
		r.reqMask, r.reqVal = r.reqMask|flagStates, r.reqVal|flagStates
	}
}

const (
	statusVerified  = 2 // in statuses
	statusSuspended = 4
	capAccepting    = 1 // in capacities
	capLimited      = 2
)

// scratch is what a query over an index works in: a word tally per
// entry (all zero between queries), the entries touched, the entries
// found by fit. An index keeps a few for reuse: a pool the garbage
// collector empties would make a query allocate megabytes.
type scratch struct {
	acc     []uint64
	touched []int32
	byFit   []fitted
	// sure and maybe mark the entries of a tier being weighed (surely
	// in it, or maybe: where decides) by weighMarked; all zero between
	// queries.
	sure, maybe []uint64
	cursors     []cursor
	clean       bool // the query using it finished
}

func (ix *Index) getScratch() *scratch {
	select {
	case sc := <-ix.scratch:
		return sc
	default:
		return &scratch{acc: make([]uint64, len(ix.ents))}
	}
}

// putScratch keeps a scratch for the next query, unless the query did
// not finish (a panic left its tally dirty: it is dropped).
func (ix *Index) putScratch(sc *scratch) {
	if !sc.clean {
		return
	}
	sc.clean = false
	select {
	case ix.scratch <- sc:
	default:
	}
}

// layer runs the query over one index; later are the layers that replace
// its entries. With words, it tallies each entry's words in the index's
// scratch and looks at the entries found tier by tier (tiered), then the
// rest by fit (byFit).
func (r *runner) layer(ix *Index, later []*Index) {
	q := r.q
	if r.noCat {
		return
	}
	if len(q.Words) == 0 {
		for at := range ix.ents {
			r.consider(ix, int32(at), 0, later, tierUnknown)
		}
		return
	}
	sc := ix.getScratch()
	defer ix.putScratch(sc)
	// The words' postings stay in this frame, passed to each step rather
	// than kept in layerRun, which would put them on the heap.
	words := q.Words[:min(len(q.Words), maxWords)]
	wps := make([]wordPostings, len(words))
	for i, w := range words {
		wps[i] = r.postings(ix, w)
	}
	var owps []wordPostings
	for _, w := range q.Outcome[:min(len(q.Outcome), maxWords-1)] { // bit 63 marks an entry seen
		owps = append(owps, r.postings(ix, w))
	}
	lr := layerRun{ix: ix, later: later, sc: sc, acc: sc.acc, touched: sc.touched[:0]}
	lr.needed, lr.mask = r.rareWords(len(ix.ents), wps)
	full := r.tiered(&lr, wps, owps)
	r.byFit(&lr, full)
	sc.touched = lr.touched
	sc.clean = true // every entry touched was set back to 0
}

// seen marks, in an entry's tally, an entry already considered.
const seen = 1 << 63

// layerRun is a query's run over one index: how many words an entry must
// match (of those mask keeps), and the tally of each entry touched, in
// the scratch. It holds no runner (each step is the runner's method): a
// runner kept in it would go to the heap, one allocation more a query.
type layerRun struct {
	ix    *Index
	later []*Index
	sc    *scratch
	// acc is each entry's tally: 2 bits a word (1 weak, 2 strong), the
	// query's words from bit 0, the outcome's from bit 32, seen at bit 63.
	acc     []uint64
	touched []int32
	needed  int
	mask    uint32
}

// rareWords says how many words an entry must match, and which words
// (mask, 2 bits a word) count for it: with a rare word, found in at most
// a fiftieth of the n entries (and at most 2,000), only rare words find
// entries and count for the words needed; common ones ("shop",
// "entreprise") add to the fit of the entries found.
func (r *runner) rareWords(n int, wps []wordPostings) (needed int, mask uint32) {
	limit := max(2000, n/50)
	nrare := 0
	rare := make([]bool, len(wps))
	for i := range wps {
		n := 0
		for _, l := range wps[i].all {
			n += len(l)
		}
		if rare[i] = n <= limit; rare[i] {
			nrare++
		}
	}
	needed, mask = r.needed, uint32(0xFFFFFFFF)
	if nrare > 0 && nrare < len(wps) {
		needed = min(2, (nrare+1)/2)
		mask = 0
		for i := range wps {
			if rare[i] {
				mask |= 3 << (2 * i)
			}
		}
	}
	return needed, mask
}

// visit considers an entry found by its tally, once (seen marks it).
func (r *runner) visit(lr *layerRun, at int32, known int) {
	v := lr.acc[at]
	if v == 0 || v&seen != 0 {
		return
	}
	lr.acc[at] = v | seen
	if matched(uint32(v)&lr.mask) >= lr.needed {
		r.consider(lr.ix, at, v, lr.later, known)
	}
}

// tiered considers the entries of tier 1 and 2 (with a place) and
// reports whether byFit has nothing left to consider. With a place, tier
// 1 comes first, its entries weighed alone from the place index: when it
// fills the page, nothing after it can come before (the tier leads the
// order). With a point in the spatial order, tiers 2 and 3 follow
// (rings); otherwise every posting is tallied, and byFit takes the rest
// best fit first.
func (r *runner) tiered(lr *layerRun, words, outcome []wordPostings) (full bool) {
	ix, q := lr.ix, r.q
	hasPlace := q.Place != nil || q.PlaceName != "" || q.Postal != ""
	if hasPlace {
		var looked bool
		full, looked = r.tierOneByLookUp(lr, words, outcome)
		if looked && r.byRings(ix) {
			// Tier 2 looked up too, then tier 3 nearest first by the
			// spatial order: every entry the page needs is considered,
			// and byFit only sets the tallies back (D125).
			if !full {
				full = r.anywhereByLookUp(lr, words, outcome)
			}
			if !full {
				r.rings(lr, words, outcome)
			}
			return true
		}
	}
	if !full {
		r.tally(lr, words, outcome, 0, int32(len(ix.ents)))
		if hasPlace {
			r.tierOne(ix, func(at int32, sure bool) { r.visit(lr, at, tierIf(sure)) })
			full = len(r.top) == r.limit
		}
	}
	if !full && hasPlace {
		// Tier 2: those that work anywhere.
		for _, at := range ix.anywhere {
			r.visit(lr, at, tierUnknown)
		}
		full = len(r.top) == r.limit
	}
	return full
}

// tierOneByLookUp weighs tier 1's entries alone, not every entry the
// words find, and reports whether they filled the page (and whether it
// weighed them: not when a test forces the postings' way). The entries
// are marked in bitsets (they come from several lists, some more than
// once) and weighed by weighMarked (D125).
func (r *runner) tierOneByLookUp(lr *layerRun, words, outcome []wordPostings) (full, looked bool) {
	ix := lr.ix
	if weighPath == 2 {
		return false, false
	}
	mk := r.marker(lr)
	r.tierOne(ix, mk.mark)
	r.weighMarked(lr, &mk, words, outcome, tierOne)
	return len(r.top) == r.limit, true
}

// marker marks entries in the scratch's bitsets: surely of a tier, or
// maybe (where decides); lo and hi are the first and last words marked,
// n the marks.
type marker struct {
	sure, maybe []uint64
	lo, hi      int32
	n           int
}

func (r *runner) marker(lr *layerRun) marker {
	sc := lr.sc
	if n := (len(lr.ix.ents) + 63) / 64; len(sc.sure) < n {
		sc.sure, sc.maybe = make([]uint64, n), make([]uint64, n)
	}
	return marker{sure: sc.sure, maybe: sc.maybe, lo: int32(len(sc.sure)), hi: -1}
}

func (m *marker) mark(at int32, isSure bool) {
	w := at >> 6
	if isSure {
		m.sure[w] |= 1 << (at & 63)
	} else {
		m.maybe[w] |= 1 << (at & 63)
	}
	m.lo, m.hi, m.n = min(m.lo, w), max(m.hi, w), m.n+1
}

// weighMarked tallies the words of the entries marked, visits those the
// words find (as tier tier when marked sure, else as where decides), and
// leaves the bitsets all zero. Two ways give the same tallies, and the
// cheaper by count is taken (a test may force one): reading the lists'
// postings between the first and the last entry marked, each tested
// against the bitsets (in the spatial order a town's entries lie near
// each other, so this reads a few runs of each list); or looking each
// entry up in every list, in the order of the ordinals, each list's
// cursor only moving forward (weighInOrder).
func (r *runner) weighMarked(lr *layerRun, mk *marker, words, outcome []wordPostings, tier int) {
	ix, sc, acc := lr.ix, lr.sc, lr.acc
	if mk.hi < mk.lo {
		return
	}
	first, end := mk.lo<<6, min(int32(len(ix.ents)), (mk.hi+1)<<6)
	nlists, walk := 0, 0
	for _, wps := range [][]wordPostings{words, outcome} {
		for i := range wps {
			for _, l := range wps[i].all {
				nlists++
				walk += len(within(l, first, end))
			}
		}
	}
	from := len(lr.touched)
	byWalk := walk < 8*mk.n*nlists
	if weighPath == 1 {
		byWalk = false
	} else if weighPath == 3 {
		byWalk = true
	}
	if byWalk {
		marked := func(e uint32) bool { return (mk.sure[e>>6]|mk.maybe[e>>6])&(1<<(e&63)) != 0 }
		for k, wps := range [][]wordPostings{words, outcome} {
			for i := range wps {
				b := uint(32*k + 2*i) // the outcome's words from bit 32
				for _, l := range wps[i].all {
					for _, p := range within(l, first, end) {
						e := p >> 1
						if !marked(e) {
							continue
						}
						cur := acc[e]
						if cur == 0 {
							if !r.eligible(ix.flags[e]) {
								continue
							}
							lr.touched = append(lr.touched, int32(e))
						}
						if cur&seen == 0 {
							if w := uint64(1 + p&1); (cur>>b)&3 < w {
								acc[e] = cur&^(3<<b) | w<<b
							}
						}
					}
				}
			}
		}
	} else {
		cur := cursorsOf(sc, words, outcome)
		for w := mk.lo; w <= mk.hi; w++ {
			for set := mk.sure[w] | mk.maybe[w]; set != 0; set &= set - 1 {
				at := w<<6 | int32(bits.TrailingZeros64(set))
				if acc[at] != 0 || !r.eligible(ix.flags[at]) {
					continue
				}
				if acc[at] = weighInOrder(cur, at); acc[at] != 0 {
					lr.touched = append(lr.touched, at)
				}
			}
		}
		clear(sc.cursors[:cap(sc.cursors)])
	}
	for _, at := range lr.touched[from:] {
		t := tierUnknown
		if mk.sure[at>>6]&(1<<(at&63)) != 0 {
			t = tier
		}
		r.visit(lr, at, t)
	}
	clear(mk.sure[mk.lo : mk.hi+1])
	clear(mk.maybe[mk.lo : mk.hi+1])
}

// cursorsOf are cursors at the start of every list of the words and of
// the outcome's words, in the scratch (cleared after use, as they hold
// the index's lists).
func cursorsOf(sc *scratch, words, outcome []wordPostings) []cursor {
	cur := sc.cursors[:0]
	for i := range words {
		for _, l := range words[i].all {
			cur = append(cur, cursor{l: l, bit: uint8(2 * i)})
		}
	}
	for i := range outcome {
		for _, l := range outcome[i].all {
			cur = append(cur, cursor{l: l, bit: uint8(32 + 2*i)})
		}
	}
	sc.cursors = cur
	return cur
}

// cursor is where weighInOrder is in one posting list (sorted by entry),
// and the bit of the tally its word's weight goes to.
type cursor struct {
	l   []uint32
	pos int
	bit uint8
}

// weighInOrder is an entry's word tally, found in each list from its
// cursor on: the cursor gallops (1, 2, 4, ... postings ahead) past the
// entries before at, then a binary search ends between the last two
// steps. Entries must come in increasing order. Each list holds every
// word's entries once (a category's entries are strong), so this is the
// tally that reading the postings whole gives.
func weighInOrder(cur []cursor, at int32) uint64 {
	var v uint64
	key := uint32(at) << 1
	for i := range cur {
		c := &cur[i]
		l, pos := c.l, c.pos
		if pos < len(l) && l[pos] < key {
			// l[pos] < key: gallop to a step at or past it.
			step, prev := 1, pos
			for pos+step < len(l) && l[pos+step] < key {
				prev = pos + step
				step <<= 1
			}
			hi := min(pos+step, len(l))
			j, _ := slices.BinarySearch(l[prev+1:hi], key)
			pos = prev + 1 + j
			c.pos = pos
		}
		if pos < len(l) && l[pos]>>1 == uint32(at) {
			b := uint(c.bit)
			if w := uint64(1 + l[pos]&1); (v>>b)&3 < w {
				v = v&^(3<<b) | w<<b
			}
		}
	}
	return v
}

// tally reads the words' postings of the entries from lo to hi
// (excluded) into the entries' tallies: the rare
// words first, which find the entries (those that pass the filters), then
// the common ones, which only add to the entries found; then the
// outcome's words, which only order what the query found.
func (r *runner) tally(lr *layerRun, words, outcome []wordPostings, lo, hi int32) {
	acc, touched, mask := lr.acc, lr.touched, lr.mask
	flags := lr.ix.flags
	for pass := range 2 {
		for i := range words {
			// Rare words first: they find the entries.
			if (pass == 0) != (mask&(3<<(2*i)) != 0) {
				continue
			}
			b := uint(2 * i)
			for _, l := range words[i].all {
				for _, p := range within(l, lo, hi) {
					e := p >> 1
					if pass == 0 && !r.eligible(flags[e]) {
						continue
					}
					cur := acc[e]
					if cur == 0 {
						if pass == 1 {
							continue
						}
						touched = append(touched, int32(e))
					}
					if cur&seen == 0 {
						if w := uint64(1 + p&1); (cur>>b)&3 < w {
							acc[e] = cur&^(3<<b) | w<<b
						}
					}
				}
			}
		}
	}
	lr.touched = touched
	for i := range outcome {
		b := uint(32 + 2*i)
		for _, l := range outcome[i].all {
			for _, p := range within(l, lo, hi) {
				e := p >> 1
				if cur := acc[e]; cur != 0 && cur&seen == 0 {
					if w := uint64(1 + p&1); (cur>>b)&3 < w {
						acc[e] = cur&^(3<<b) | w<<b
					}
				}
			}
		}
	}
}

// byFit considers the rest, best fit first, and sets every tally touched
// back to 0: an entry of a lesser fit never comes before one of a better
// fit in the same tier, so once the page is full after a fit, the lesser
// ones are only set back.
func (r *runner) byFit(lr *layerRun, full bool) {
	acc, sc := lr.acc, lr.sc
	byFit := sc.byFit[:0]
	for _, at := range lr.touched {
		v := acc[at]
		acc[at] = 0
		if full || v&seen != 0 || matched(uint32(v)&lr.mask) < lr.needed {
			continue
		}
		byFit = append(byFit, fitted{at: at, acc: v, fit: uint16(min(fitOf(uint32(v)), 31))<<5 | uint16(min(fitOf(uint32(v>>32)), 31))})
	}
	// The fits present, best first (a few: fit and outcome fit are small
	// sums); each is one pass over the entries found.
	var counts [1 << 10]int32
	for i := range byFit {
		counts[byFit[i].fit] = counts[byFit[i].fit] + 1
	}
	for k := len(counts) - 1; k >= 0 && len(r.top) < r.limit; k-- {
		if counts[k] == 0 {
			continue
		}
		for i := range byFit {
			if byFit[i].fit == uint16(k) {
				r.consider(lr.ix, byFit[i].at, byFit[i].acc, lr.later, tierThree)
			}
		}
	}
	sc.byFit = byFit
}

// tierOne calls fn with every entry of the index that may be in the
// query's place or serve it (where decides): located in the town or
// serving it by name, its region or its country; with a postal code
// that starts with the one searched; with a radius (each is looked at);
// or, for a place nobody knows, giving its name. An entry may come more
// than once.
func (r *runner) tierOne(ix *Index, fn func(at int32, sure bool)) {
	q := r.q
	each := func(l []int32, sure bool) {
		for _, at := range l {
			fn(at, sure)
		}
	}
	sure := func(at int32) { fn(at, true) }
	if q.Place == nil {
		if q.Postal != "" {
			r.postalRange(ix, q.Country, sure)
		} else {
			each(ix.byName[q.PlaceName], true)
		}
		return
	}
	p := &q.Place.Place
	if q.Postal != "" {
		r.postalRange(ix, p.Country, sure)
	} else {
		each(ix.byTown[uint32(p.ID)], true)
	}
	each(ix.servesTown[uint32(p.ID)], true)
	if p.RegionKey != "" {
		each(ix.byRegion[p.RegionKey], true)
	}
	var cc [2]byte
	copy(cc[:], p.Country)
	each(ix.byCountry[cc], true)
	// A circle reaching the place's cell may not reach the place: where
	// decides.
	each(ix.radiusCells[cellOf(p.Lat, p.Lng)], false)
}

// postalRange calls fn with the entries of a country whose postal code
// starts with the one searched.
func (r *runner) postalRange(ix *Index, country string, fn func(int32)) {
	ix.postalFrom(country, r.q.Postal, func(at int32) bool { fn(at); return true })
}

// postalFrom calls fn with the entries of a country whose postal code
// starts with code, in the order of their codes, while fn returns true.
func (ix *Index) postalFrom(country, code string, fn func(at int32) bool) {
	var cc [2]byte
	copy(cc[:], country)
	l := ix.postal[cc]
	i, _ := slices.BinarySearchFunc(l, code, func(a postalRef, code string) int { return strings.Compare(string(ix.bytes(a.code)), code) })
	for ; i < len(l) && strings.HasPrefix(string(ix.bytes(l[i].code)), code); i++ {
		if !fn(l[i].at) {
			return
		}
	}
}

// heldBy reports whether one of the later layers holds an entry's ID
// (replacing or hiding it).
func heldBy(later []*Index, hash uint64, id []byte) bool {
	for _, l := range later {
		if l != nil && l.holds(hash, id) {
			return true
		}
	}
	return false
}

func tierIf(sure bool) int {
	if sure {
		return tierOne
	}
	return tierUnknown
}

// weighPath forces tier 1's way in tests: 1 looks each entry up, 2
// tallies the postings whole, 3 reads the lists between the first and
// the last entry; 0 chooses by cost.
var weighPath int

// matched is how many words a packed set of 2-bit weights names.
func matched(w uint32) int {
	return bits.OnesCount32((w | w>>1) & 0x55555555)
}

// flagsAdmit reports whether an entry's flags pass the query's filters
// of status, kind, verification, capacity (not its expiry) and hours.
func (r *runner) flagsAdmit(f uint16) bool {
	q := r.q
	status := f & flagStatus
	if status == statusSuspended || (r.kind >= 0 && (f&flagPerson != 0) != (r.kind == 1)) || (q.VerifiedOnly && status != statusVerified) {
		return false
	}
	return !(q.AcceptingWork && f&flagAccepting == 0) && !(q.HasOpenAt && f&flagHours == 0)
}

// catsAdmit reports whether an entry is in the category searched, if any.
func (r *runner) catsAdmit(ix *Index, e *ent) bool {
	if r.cats == nil {
		return true
	}
	for _, c := range ix.cats[e.cats : e.cats+uint32(e.ncats)] {
		if int(c) < len(r.cats) && r.cats[c] {
			return true
		}
	}
	return false
}

// fitOf is the sum of the packed weights.
func fitOf(w uint32) int {
	return bits.OnesCount32(w&0x55555555) + 2*bits.OnesCount32(w&0xAAAAAAAA)
}

// wordPostings are what a query word matches: the posting lists of the
// entry words (terms) and the categories (and sectors) whose words it
// matches (cats); all holds every list, the categories' too.
type wordPostings struct {
	all   [][]uint32
	terms [][]uint32
	cats  []uint16
}

// postings are the posting lists of every entry word and category word
// a query word matches: by any of its readings, and for a reading of four
// letters or more, the words it starts or ends. Each list once.
func (r *runner) postings(ix *Index, word string) wordPostings {
	cw := ix.cw
	var out wordPostings
	termSeen := map[int32]bool{}
	catSeen := map[uint16]bool{}
	term := func(t int32) {
		if !termSeen[t] {
			termSeen[t] = true
			l := ix.post[ix.start[t]:ix.start[t+1]]
			out.all = append(out.all, l)
			out.terms = append(out.terms, l)
		}
	}
	cats := func(w int32) {
		for _, c := range cw.cats[w] {
			if !catSeen[c] {
				catSeen[c] = true
				out.cats = append(out.cats, c)
				out.all = append(out.all, ix.catPost[ix.catStart[c]:ix.catStart[c+1]])
			}
		}
	}
	var buf [24]string
	for _, rd := range terms.Readings(buf[:0], r.q.Lang, word) {
		ix.words.match(rd, term)
		cw.set.match(rd, cats)
	}
	return out
}

// What consider knows of an entry's tier before looking (with a place):
// nothing, surely tier 1 (its distance is then only found if it makes
// the page), or surely tier 3 (tiers 1 and 2 were all looked at first).
const (
	tierUnknown = 0
	tierOne     = 1
	tierThree   = 3
)

// consider filters an entry and, when it is kept, files it in the page.
func (r *runner) consider(ix *Index, at int32, acc uint64, later []*Index, known int) {
	q := r.q
	f := ix.flags[at]
	if !r.flagsAdmit(f) || (q.AcceptingWork && ix.ents[at].capExpires <= r.now) {
		return
	}
	hasPlace := q.Place != nil || q.PlaceName != "" || q.Postal != ""
	if hasPlace && f&flagStates == 0 {
		return
	}
	hash := ix.hashes[at]
	tier, dist := 0, math.NaN()
	if hasPlace {
		tier = known
	}
	// The rank so far, to leave early what cannot make the page.
	n := len(r.top)
	turn := mix(hash ^ r.hour)
	if tier == tierThree && q.Place != nil && f&flagOnePoint != 0 {
		dist = r.place.km(ix.points[at])
		if r.radius > 0 && !(dist <= r.radius) {
			return
		}
	}
	if tier != tierUnknown || !hasPlace {
		band := 0
		if tier == tierThree {
			band = 0xFFFF
			if !math.IsNaN(dist) {
				band = int(dist / 10)
			} else if q.Place != nil && f&flagOnePoint == 0 {
				// Not placed yet: where may find it near, so its band
				// may be any (a page must not lose it for being looked at
				// after the page filled: TestNearestFirst_*).
				band = 0
			}
		}
		k := rank(tier, fitOf(uint32(acc)), fitOf(uint32(acc>>32)), band, turn)
		if n == r.limit && k > r.top[n-1].Key.Rank {
			return
		}
	}
	e := &ix.ents[at]
	if !r.catsAdmit(ix, e) {
		return
	}
	if q.HasOpenAt && !openAtAny(ix, e, q.OpenAt) {
		return
	}
	switch {
	case !hasPlace, tier == tierOne:
	case tier == tierThree && (q.Place == nil || f&flagOnePoint != 0):
		// Placed above, or no place to be far from.
	default:
		var t int
		t, dist, _ = r.where(ix, e)
		if tier == tierUnknown {
			tier = t
		}
		if r.radius > 0 && tier == 3 && !(dist <= r.radius) && q.Place != nil {
			return
		}
	}
	band := 0
	if tier == 3 {
		band = 0xFFFF
		if !math.IsNaN(dist) {
			band = int(dist / 10)
		}
	}
	k := Key{Rank: rank(tier, fitOf(uint32(acc)), fitOf(uint32(acc>>32)), band, turn)}
	if a := q.After; a != nil && (k.Rank < a.Rank || (k.Rank == a.Rank && string(ix.bytes(e.id)) <= a.ID)) {
		return
	}
	// File it in the page: the smallest keys, in order.
	if n == r.limit && !k.lessFound(r.top[n-1], ix, e) {
		return
	}
	// A later layer's entry replaces or hides this one: asked only of an
	// entry that would make the page, as every test above only removes.
	if heldBy(later, hash, ix.bytes(e.id)) {
		return
	}
	k.ID = ix.str(e.id)
	found := Found{ix: ix, at: at, Key: k, tier: tier, distanceKm: dist}
	i, _ := slices.BinarySearchFunc(r.top, found, func(a, b Found) int {
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
	r.top = slices.Insert(r.top, i, found)
}

// lessFound compares a rank not yet given its ID with a filed hit.
func (k Key) lessFound(f Found, ix *Index, e *ent) bool {
	if k.Rank != f.Key.Rank {
		return k.Rank < f.Key.Rank
	}
	return string(ix.bytes(e.id)) < f.Key.ID
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
			dist = min(dist, r.place.km(l.pt))
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
				near = min(near, r.place.km(a.pt))
			}
		}
	}
	for i := range radii {
		c := &radii[i]
		d := r.place.km(c.pt)
		if d <= c.km {
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
func (f *Found) Hit(q *Query, opt Options) schemas.SearchHit {
	ix, e := f.ix, &f.ix.ents[f.at]
	h := schemas.SearchHit{
		ID: ix.str(e.id), Kind: kinds[e.kind], Slug: ix.str(e.slug),
		Status: statuses[e.status], VerificationLevel: levels[e.level], Categories: []string{}, CategoryNames: []string{},
	}
	h.URL = opt.BaseURL + "/" + h.Slug
	h.MarkdownURL, h.JSONLDURL, h.APIURL = h.URL+".md", h.URL+".json", opt.APIURL+"/v1/entries/"+h.ID
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
		h.CategoryNames = append(h.CategoryNames, taxonomy.Default().Label(ix.cw.codes[c], q.Lang))
	}
	if e.nlocs > 0 {
		h.Locality = ix.str(ix.locs[e.locs+uint32(min(e.primary, e.nlocs-1))].locality)
	}
	if math.IsNaN(f.distanceKm) && f.tier == 1 && q.Place != nil {
		// Surely in tier 1, so not placed while filtering.
		r := runner{q: q, place: pointOf(q.Place.Place.Lat, q.Place.Place.Lng)}
		_, f.distanceKm, _ = r.where(ix, e)
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
