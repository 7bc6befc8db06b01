package search

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"
)

// The spatial order (D125). An index numbers its entries in the order of
// where they are, not the order they came in: the entries with one
// point first, by the Z-order of their point's cell, then by town; then
// every other entry (several locations, service areas only, nowhere),
// in the order they came. The entries of a square of cells (a quadtree
// cell) are then one run of ordinals, and of a town mostly a few: a
// query near a place reads, of a word's postings, only the runs of the
// cells around the place, nearest first, by binary search, instead of
// tallying them whole, and the entries it weighs one by one lie near
// each other in every array (run.go). zs are the spatial entries'
// cells, in order.

// zBits are the bits of a cell's coordinate on each axis: 2^16 cells of
// 360/65536 degrees (about 0.6 km of latitude) each way; a Z-order key
// interleaves them.
const zBits = 16

// cellDeg is a cell's side in degrees.
const cellDeg = 360.0 / (1 << zBits)

// zCell is a point's cell on each axis (x by longitude, y by latitude;
// latitudes fill the lower half of the y range).
func zCell(lat, lng float64) (x, y uint32) {
	fx := math.Floor((lng + 180) / cellDeg)
	fy := math.Floor((lat + 90) / cellDeg)
	return uint32(min(max(fx, 0), 1<<zBits-1)), uint32(min(max(fy, 0), 1<<(zBits-1)-1))
}

// spread puts a 16-bit number's bits in the even bits of a 32-bit one.
func spread(v uint32) uint32 {
	v &= 0xFFFF
	v = (v | v<<8) & 0x00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F
	v = (v | v<<2) & 0x33333333
	v = (v | v<<1) & 0x55555555
	return v
}

// zOf is a cell's Z-order key.
func zOf(x, y uint32) uint32 { return spread(x) | spread(y)<<1 }

// notSpatial is the key of an entry ordered after the spatial ones.
const notSpatial = math.MaxUint64

// spatialKey is an entry's key in the spatial order: its point's cell,
// then its town.
func (b *Builder) spatialKey(e *ent, f uint16) uint64 {
	if f&flagOnePoint == 0 {
		return notSpatial
	}
	for _, l := range b.locs.Span(e.locs, e.nlocs) {
		if l.hasPoint {
			return uint64(zOf(zCell(float64(l.lat), float64(l.lng))))<<32 | uint64(l.town)
		}
	}
	return notSpatial
}

// reorderBlock is how many bytes of a spilled column a reordering holds.
const reorderBlock = 128 << 20

// reorder numbers the entries in the spatial order: every array of the
// entries is put in it, and every list of ordinals renumbered and sorted
// again. The order is the same for the same records, whatever the
// builder (spilling or not).
func (b *Builder) reorder() {
	n := len(b.keys)
	type keyed struct {
		key uint64
		at  int32
	}
	order := make([]keyed, n)
	for i, k := range b.keys {
		order[i] = keyed{k, int32(i)}
	}
	b.keys = nil
	slices.SortFunc(order, func(a, c keyed) int {
		if d := cmp.Compare(a.key, c.key); d != 0 {
			return d
		}
		return cmp.Compare(a.at, c.at)
	})
	to := make([]int32, n)
	ix := b.ix
	ix.zs = nil
	for i, o := range order {
		to[o.at] = int32(i)
		if o.key != notSpatial {
			ix.zs = append(ix.zs, uint32(o.key>>32))
		}
	}
	order = nil
	for _, c := range []interface{ Reorder([]int32, int) error }{&b.ents, &b.flags, &b.hashes, &b.points} {
		if err := c.Reorder(to, reorderBlock); err != nil && b.err == nil {
			b.err = err
		}
	}
	post := func(l []uint32) {
		for i, p := range l {
			l[i] = uint32(to[p>>1])<<1 | p&1
		}
		slices.Sort(l)
	}
	for _, l := range b.lists {
		post(l)
	}
	for _, l := range b.catList {
		post(l)
	}
	ents := func(l []int32) {
		for i, at := range l {
			l[i] = to[at]
		}
		slices.Sort(l)
	}
	for _, m := range []map[uint32][]int32{ix.byTown, ix.servesTown} {
		for _, l := range m {
			ents(l)
		}
	}
	for _, m := range []map[string][]int32{ix.byRegion, ix.byName} {
		for _, l := range m {
			ents(l)
		}
	}
	for _, l := range ix.byCountry {
		ents(l)
	}
	for _, l := range ix.radiusCells {
		ents(l)
	}
	ents(ix.anywhere)
	for _, l := range ix.postal {
		for i := range l {
			l[i].at = to[l[i].at]
		}
	}
}

// within are a posting list's postings (sorted) of the entries from lo
// to hi (excluded).
func within(l []uint32, lo, hi int32) []uint32 {
	if lo <= 0 && len(l) > 0 && int64(l[len(l)-1]>>1) < int64(hi) {
		return l
	}
	a, _ := slices.BinarySearch(l, uint32(lo)<<1)
	b, _ := slices.BinarySearch(l[a:], uint32(hi)<<1)
	return l[a : a+b]
}

// noRings, when a test sets it, makes queries near a place tally the
// postings whole, as before the spatial order, for comparing the two;
// ringStops counts the rings that stopped before the whole world while a
// test watches (non-nil), of ringRuns.
var (
	noRings             bool
	ringRuns, ringStops *atomic.Int64
)

// byRings reports whether tier 3 is found by rings in this index: near a
// point, in an index in the spatial order.
func (r *runner) byRings(ix *Index) bool {
	return r.q.Place != nil && len(ix.zs) > 0 && !noRings
}

// anywhereByLookUp weighs tier 2's entries (those working anywhere)
// alone, as tier 1's, and considers them; it reports whether the page is
// full.
func (r *runner) anywhereByLookUp(lr *layerRun, words, outcome []wordPostings) bool {
	mk := r.marker(lr)
	for _, at := range lr.ix.anywhere {
		mk.mark(at, false)
	}
	r.weighMarked(lr, &mk, words, outcome, tierUnknown)
	return len(r.top) == r.limit
}

// ringFirst is the level of the first ring's cells: 2^2 cells, about
// 2.4 km of latitude.
const ringFirst = 2

// zRange is a run of cells' Z-order keys, from lo to hi (excluded).
type zRange struct{ lo, hi uint64 }

// rings finds tier 3 (entries the words find, in neither tier 1 nor 2)
// nearest first: the entries outside the spatial order whole, then the
// 3×3 square of cells around the place's, of cells of 2^ringFirst, then
// twice as large, and so on, each time only the cells not read before.
// A square's entries are a few runs of ordinals, whose postings are
// found by binary search. Once the page is full and its last hit comes
// before any entry beyond the square could (of the best fit the query
// allows and at the square's reach), or the square reaches past the
// query's radius, the rest cannot enter the page.
func (r *runner) rings(lr *layerRun, words, outcome []wordPostings) {
	ix := lr.ix
	if ringRuns != nil {
		ringRuns.Add(1)
	}
	ns := int32(len(ix.zs))
	from := len(lr.touched)
	r.tally(lr, words, outcome, ns, int32(len(ix.ents)))
	r.considerFound(lr, from)
	p := &r.q.Place.Place
	px, py := zCell(p.Lat, p.Lng)
	bestFit, bestOfit := 2*len(words), 2*len(outcome)
	var done []zRange
	for level := ringFirst; level <= zBits; level++ {
		nx, ny := max(1, int64(1)<<zBits>>level), max(1, int64(1)<<(zBits-1)>>level)
		cx, cy := int64(px)>>level, int64(py)>>level
		for dy := int64(-1); dy <= 1; dy++ {
			y := cy + dy
			if y < 0 || y >= ny {
				continue
			}
			for dx := int64(-1); dx <= 1; dx++ {
				x := ((cx+dx)%nx + nx) % nx
				lo := uint64(zOf(uint32(x<<level), uint32(y<<level)))
				cell := zRange{lo, lo + 1<<(2*level)}
				for _, g := range gaps(done, cell) {
					from := len(lr.touched)
					r.tally(lr, words, outcome, zOrdinal(ix.zs, g.lo), zOrdinal(ix.zs, g.hi))
					r.considerFound(lr, from)
				}
				done = addRange(done, cell)
			}
		}
		reach := ringReach(level, cx, cy, p.Lat, p.Lng)
		n := len(r.top)
		if (r.radius > 0 && reach > r.radius) || (n == r.limit && r.top[n-1].Key.Rank < rank(tierThree, bestFit, bestOfit, int(reach/10), 0)) {
			if ringStops != nil && level < zBits {
				ringStops.Add(1)
			}
			return
		}
	}
}

// considerFound considers, as tier 3, the entries touched from from on
// that the words found and no tier has seen. Once the page is full, an
// entry that cannot enter it is left before anything else of it is read:
// of a lesser fit than the page's last, or of its fit and one point at
// least as far as the band after the last's (a squared chord against a
// threshold, not an arcsine).
func (r *runner) considerFound(lr *layerRun, from int) {
	ix, acc := lr.ix, lr.acc
	var last uint64 // the page's last rank the threshold is of
	thr := math.Inf(1)
	for _, at := range lr.touched[from:] {
		v := acc[at]
		if v == 0 || v&seen != 0 {
			continue
		}
		acc[at] = v | seen
		if matched(uint32(v)&lr.mask) < lr.needed {
			continue
		}
		if n := len(r.top); n == r.limit {
			l := r.top[n-1].Key.Rank
			const bandTurn = 1<<46 - 1
			fits := rank(tierThree, fitOf(uint32(v)), fitOf(uint32(v>>32)), 0, 0)
			if fits > l&^bandTurn {
				continue
			}
			if fits == l&^bandTurn && ix.flags[at]&flagOnePoint != 0 {
				if l != last {
					last = l
					km := float64(l>>30&0xFFFF+1)*10 + 0.001 // a metre for rounding: only farther ones are left
					c := 2 * math.Sin(min(km/earthKm, math.Pi)/2)
					thr = c * c
				}
				if r.place.chord2(ix.points[at]) >= thr {
					continue
				}
			}
		}
		r.consider(ix, at, v, lr.later, tierThree)
	}
}

// zOrdinal is the first entry in the spatial order whose cell's key is
// at least z.
func zOrdinal(zs []uint32, z uint64) int32 {
	if z > math.MaxUint32 {
		return int32(len(zs))
	}
	i, _ := slices.BinarySearch(zs, uint32(z))
	return int32(i)
}

// gaps are the parts of c that no range of done (sorted, apart) covers.
func gaps(done []zRange, c zRange) []zRange {
	var out []zRange
	at := c.lo
	for _, d := range done {
		if d.hi <= at || d.lo >= c.hi {
			continue
		}
		if d.lo > at {
			out = append(out, zRange{at, d.lo})
		}
		at = max(at, d.hi)
	}
	if at < c.hi {
		out = append(out, zRange{at, c.hi})
	}
	return out
}

// addRange adds c to done, merging what touches it.
func addRange(done []zRange, c zRange) []zRange {
	out := done[:0:0]
	for _, d := range done {
		if d.hi < c.lo || d.lo > c.hi {
			out = append(out, d)
			continue
		}
		c = zRange{min(c.lo, d.lo), max(c.hi, d.hi)}
	}
	out = append(out, c)
	slices.SortFunc(out, func(a, b zRange) int { return cmp.Compare(a.lo, b.lo) })
	return out
}

// ringReach is how far (km) from the place every point outside the 3×3
// square of cells of a level around the place's cell (cx, cy) is at
// least, less a metre for the rounding of points: the distance to the
// nearest of the square's sides. Across a parallel, the difference of
// latitudes; across a meridian Δλ away, the distance to that meridian's
// great circle, asin(cos φ · sin Δλ). A side at a pole has nothing
// beyond it; a square as wide as the world has no side east or west.
func ringReach(level int, cx, cy int64, lat, lng float64) float64 {
	s := cellDeg * float64(int64(1)<<level)
	reach := math.Inf(1)
	if south := float64(cy-1)*s - 90; south > -90 {
		reach = min(reach, (lat-south)*math.Pi/180*earthKm)
	}
	if north := float64(cy+2)*s - 90; north < 90 {
		reach = min(reach, (north-lat)*math.Pi/180*earthKm)
	}
	if 3*s < 360 {
		if 2*s >= 90 {
			return 0 // a side may be 90° or more away: no bound here
		}
		cosφ := math.Cos(lat * math.Pi / 180)
		for _, dλ := range []float64{float64(cx+2)*s - 180 - lng, lng - (float64(cx-1)*s - 180)} {
			reach = min(reach, earthKm*math.Asin(min(1, cosφ*math.Sin(dλ*math.Pi/180))))
		}
	}
	return max(0, reach-0.001)
}
