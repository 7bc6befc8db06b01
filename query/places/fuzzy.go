package places

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// Misspellings (§7.5 "Places": a name nobody knows "may be read as a
// misspelling of a town's, near enough and big enough for its length").
// Distances are Damerau-Levenshtein (optimal string alignment: an
// insertion, a deletion, a substitution or two neighbours swapped count
// one each) over the folded names, in runes.
const (
	// minFuzzyLen: shorter names are never corrected.
	minFuzzyLen = 5
	// longFuzzyLen: names this long may be two edits away; shorter, one.
	longFuzzyLen = 8
	// maxFuzzyLen: longer texts are not corrected (Near.place is at most
	// 100 characters; no town name is this long and misspelled).
	maxFuzzyLen = 48
	// popOneEdit and popTwoEdits: how big a town must be to be read from
	// a name one or two edits away.
	popOneEdit  = 20_000
	popTwoEdits = 100_000
	// fuzzyPrefix: names are filed by the deletions of their first
	// fuzzyPrefix runes only (SymSpell's prefix): two names within d edits
	// have prefixes within d deletions of a common string too.
	fuzzyPrefix = 7
)

// maxEdits is how many edits a name of n runes may be from a town's.
func maxEdits(n int) int {
	switch {
	case n < minFuzzyLen:
		return 0
	case n < longFuzzyLen:
		return 1
	default:
		return 2
	}
}

func minPopulation(d int) int64 {
	if d <= 1 {
		return popOneEdit
	}
	return popTwoEdits
}

// fuzzyIndex is a deletion neighbourhood (SymSpell): every folded name of
// a town of popOneEdit people or more (as people write names: not a
// machine transliteration, not a vowelless skeleton), filed under the hash of its first
// fuzzyPrefix runes and of every string one deletion away from them, and
// for names of longFuzzyLen runes or more of towns of popTwoEdits or more
// two deletions away too. A name within two edits of a query shares one
// of those strings with one of the deletions of the query's prefix, so a
// query looks up at most 29 buckets and checks the few names it finds
// there with the full distance, instead of every name.
type fuzzyIndex struct {
	table   *nameTable
	names   []uint32 // entries of table
	shift   uint     // bucket = mix(hash) >> shift
	offsets []uint32 // bucket b's names are ids[offsets[b]:offsets[b+1]]
	ids     []uint32
}

// fuzzyIdx answers the misspelling index, building it on first use after
// a load.
func (g *Gazetteer) fuzzyIdx() *fuzzyIndex {
	if fx := g.fuzzy.Load(); fx != nil {
		return fx
	}
	g.fuzzyMu.Lock()
	defer g.fuzzyMu.Unlock()
	if fx := g.fuzzy.Load(); fx != nil {
		return fx
	}
	fx := g.buildFuzzy()
	g.fuzzy.Store(fx)
	return fx
}

func (g *Gazetteer) maxPop(v uint32) int64 {
	if v&listBit == 0 {
		return int64(g.places[v].pop)
	}
	var m uint32
	for _, i := range g.lists[v&^listBit] {
		m = max(m, g.places[i].pop)
	}
	return int64(m)
}

func (g *Gazetteer) buildFuzzy() *fuzzyIndex {
	fx := &fuzzyIndex{table: g.names}
	var deep []bool
	total := 0
	for e := range g.names.ents {
		if !g.names.ents[e].written {
			continue
		}
		pop := g.maxPop(g.names.ents[e].v)
		if pop < popOneEdit {
			continue
		}
		n := g.names.runeCount(e)
		if n < minFuzzyLen || n > maxFuzzyLen || skeleton(g.names.key(e)) || bytes.ContainsAny(g.names.key(e), "0123456789") {
			continue
		}
		d := n >= longFuzzyLen && pop >= popTwoEdits
		fx.names = append(fx.names, uint32(e))
		deep = append(deep, d)
		p := min(n, fuzzyPrefix)
		total += 1 + p
		if d {
			total += p * (p - 1) / 2
		}
	}
	deeps := deep
	b := max(10, bits.Len(uint(total))-2) // about two names a bucket
	fx.shift = uint(64 - b)
	// Every (bucket, name) pair once, then the names bucket by bucket.
	pairs := make([]uint64, 0, total)
	var rbuf [maxFuzzyLen]rune
	for id, e := range fx.names {
		r := toRunes(rbuf[:0], g.names.key(int(e)))
		r = r[:min(len(r), fuzzyPrefix)]
		depth := 1
		if deeps[id] {
			depth = 2
		}
		deletes(r, depth, func(h uint64) { pairs = append(pairs, (mix(h)>>fx.shift)<<32|uint64(id)) })
	}
	// Counts, summed to each bucket's end, then counted down to its start.
	fx.offsets = make([]uint32, (1<<b)+1)
	for _, p := range pairs {
		fx.offsets[p>>32]++
	}
	for i := 1; i < len(fx.offsets); i++ {
		fx.offsets[i] += fx.offsets[i-1]
	}
	fx.ids = make([]uint32, len(pairs))
	for _, p := range pairs {
		bk := p >> 32
		fx.offsets[bk]--
		fx.ids[fx.offsets[bk]] = uint32(p)
	}
	return fx
}

// skeleton reports whether a name is Latin letters without a vowel:
// GeoNames' alternates hold machine transliterations of Arabic and Hebrew
// names that spell only the consonants ("hmbwrg", "mwnykh"). They are
// names, found as written, but too many typed words are one edit from
// one of them.
func skeleton(name []byte) bool {
	for _, c := range name {
		switch c {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return false
		}
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func toRunes[S string | []byte](dst []rune, s S) []rune {
	for _, r := range string(s) {
		if len(dst) == cap(dst) {
			break
		}
		dst = append(dst, r)
	}
	return dst
}

// deletes calls fn with the hash of r and of every string up to depth
// deletions away from it (the same string may come more than once).
func deletes(r []rune, depth int, fn func(uint64)) {
	fn(hashSkip(r, -1, -1))
	if depth < 1 {
		return
	}
	for i := range r {
		fn(hashSkip(r, i, -1))
		if depth < 2 {
			continue
		}
		for j := i + 1; j < len(r); j++ {
			fn(hashSkip(r, i, j))
		}
	}
}

// hashSkip is FNV-1a over the runes of r but those at i and j.
func hashSkip(r []rune, i, j int) uint64 {
	h := uint64(14695981039346656037)
	for k, c := range r {
		if k == i || k == j {
			continue
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// mix spreads a hash over its top bits (the murmur3 finalizer).
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// near calls fn with the entry of every indexed name within maxEdits of q
// (but q itself) and its distance.
func (fx *fuzzyIndex) near(q string, fn func(e int, d int)) {
	var rbuf [maxFuzzyLen + 1]rune
	r := toRunes(rbuf[:0], q)
	if len(r) > maxFuzzyLen || len(r) < minFuzzyLen || len(fx.names) == 0 {
		return
	}
	var seenBuf [256]uint32
	seen := seenBuf[:0]
	deletes(r[:min(len(r), fuzzyPrefix)], maxEdits(len(r)), func(h uint64) {
		bk := mix(h) >> fx.shift
		for _, id := range fx.ids[fx.offsets[bk]:fx.offsets[bk+1]] {
			seen = append(seen, id)
		}
	})
	slices.Sort(seen)
	seen = slices.Compact(seen)
	var nbuf [maxFuzzyLen]rune
	for _, id := range seen {
		e := int(fx.names[id])
		name := fx.table.key(e)
		if string(name) == q {
			continue
		}
		nr := toRunes(nbuf[:0], name)
		limit := maxEdits(min(len(r), len(nr)))
		if limit == 0 {
			continue
		}
		if d := osa(r, nr, limit); d <= limit {
			fn(e, d)
		}
	}
}

// osa is the optimal string alignment distance between a and b, or
// limit+1 when it is more than limit.
func osa(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	var rows [3][maxFuzzyLen + 2]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			low = min(low, v)
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// correct reads name (folded: folded) as the misspelling of a big town's
// name: the fewest edits, then the most populous; the town must fit the
// qualifiers and be big enough for the edits (popOneEdit, popTwoEdits).
func (g *Gazetteer) correct(name, folded string, quals []qualifier) (Match, bool) {
	n := utf8.RuneCountInString(folded)
	if maxEdits(n) == 0 || n > maxFuzzyLen || strings.ContainsAny(folded, "0123456789") {
		return Match{}, false // a name with digits is no misspelling
	}
	fx := g.fuzzyIdx()
	best, bestD := int32(-1), 0
	var cbuf [32]int32
	fx.near(folded, func(e int, d int) {
		if best >= 0 && d > bestD {
			return
		}
		c, ok := g.pick(g.entTowns(e, cbuf[:0]), quals, minPopulation(d))
		if !ok {
			return
		}
		if best < 0 || d < bestD || g.better(c, best) {
			best, bestD = c, d
		}
	})
	if best < 0 {
		return Match{}, false
	}
	return Match{Place: g.answer(best), CorrectedFrom: name}, true
}
