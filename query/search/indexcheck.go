package search

import (
	"math"
	"slices"
	"unsafe"
)

// The checks OpenIndex makes of a file's numbers before any query reads
// them: an index opened answers every query without going out of its
// arrays, however the file was damaged. What only orders, places or
// filters entries (hashes, points, hours, flags, the order of the words)
// is not checked, but for its bools being 0 or 1: wrong, it makes wrong
// answers, never a panic. The checks read every array but the strings,
// once, at open.

// inRange reports whether n elements from first are within a slice of
// length size, their end a uint32 as the queries compute it.
func inRange(first uint32, n uint32, size int) bool {
	end := uint64(first) + uint64(n)
	return end <= uint64(size) && end <= math.MaxUint32
}

func (ix *Index) refOK(r ref) bool { return inRange(r.off, r.n, len(ix.arena)) }

// isBool reports whether a bool's byte is 0 or 1, as Go's are.
func isBool(b *bool) bool { return *(*uint8)(unsafe.Pointer(b)) <= 1 }

// checkEntries checks that what the entries, their texts, locations and
// service areas point to is in the index's arrays: the arena, the texts,
// categories, locations, hours, time zones, places and circles.
func (ix *Index) checkEntries(zones int) error {
	n := len(ix.ents)
	if n >= math.MaxInt32>>1 {
		return fileError(secEnts, "%d entries, more than an index holds", n)
	}
	for _, c := range []struct {
		s section
		n int
	}{{secFlags, len(ix.flags)}, {secHashes, len(ix.hashes)}, {secPoints, len(ix.points)}} {
		if c.n != n {
			return fileError(c.s, "%d elements for %d entries", c.n, n)
		}
	}
	for i := range ix.ents {
		e := &ix.ents[i]
		bad := ""
		switch {
		case !ix.refOK(e.id), !ix.refOK(e.slug):
			bad = "its ID or slug"
		case !inRange(e.texts, uint32(e.ntexts), len(ix.texts)):
			bad = "its texts"
		case !inRange(e.cats, uint32(e.ncats), len(ix.cats)):
			bad = "its categories"
		case !inRange(e.locs, uint32(e.nlocs), len(ix.locs)):
			bad = "its locations"
		case !inRange(e.areas, uint32(e.nareas), len(ix.areas)):
			bad = "its served places"
		case !inRange(e.radii, uint32(e.nradii), len(ix.radii)):
			bad = "its radii"
		case int(e.kind) >= len(kinds), int(e.status) >= len(statuses), int(e.level) >= len(levels), int(e.capStatus) >= len(capacities):
			bad = "its kind, status, level or capacity"
		case !isBool(&e.anywhere), !isBool(&e.hours):
			bad = "a flag"
		}
		if bad != "" {
			return fileError(secEnts, "entry %d: %s out of range", i, bad)
		}
	}
	for i := range ix.texts {
		if t := &ix.texts[i]; !ix.refOK(t.lang) || !ix.refOK(t.name) || !ix.refOK(t.summary) {
			return fileError(secTexts, "text %d out of the arena", i)
		}
	}
	for i, c := range ix.cats {
		if int(c) >= len(ix.cw.codes) {
			return fileError(secCats, "category %d is number %d of %d", i, c, len(ix.cw.codes))
		}
	}
	for i := range ix.locs {
		l := &ix.locs[i]
		switch {
		case !ix.refOK(l.region), !ix.refOK(l.locality), !ix.refOK(l.folded), !ix.refOK(l.postal):
			return fileError(secLocs, "location %d: a string out of the arena", i)
		case int(l.zone) >= zones:
			return fileError(secLocs, "location %d: time zone %d of %d", i, l.zone, zones)
		case !inRange(l.rules, uint32(l.nrules), len(ix.rules)), !inRange(l.excs, uint32(l.nexcs), len(ix.excs)):
			return fileError(secLocs, "location %d: hours out of range", i)
		case !isBool(&l.hasPoint), !isBool(&l.hasHours):
			return fileError(secLocs, "location %d: a flag out of range", i)
		}
	}
	for i := range ix.rules {
		if !isBool(&ix.rules[i].closed) {
			return fileError(secRules, "rule %d: a flag out of range", i)
		}
	}
	for i := range ix.excs {
		if !isBool(&ix.excs[i].closed) {
			return fileError(secExcs, "exception %d: a flag out of range", i)
		}
	}
	for i := range ix.areas {
		if a := &ix.areas[i]; !ix.refOK(a.region) || !ix.refOK(a.folded) || !isBool(&a.hasPoint) {
			return fileError(secAreas, "served place %d out of range", i)
		}
	}
	if len(ix.idHashes) != len(ix.idRefs) {
		return fileError(secIDRefs, "%d IDs for %d hashes", len(ix.idRefs), len(ix.idHashes))
	}
	for i, r := range ix.idRefs {
		if !ix.refOK(r) || (i > 0 && ix.idHashes[i-1] > ix.idHashes[i]) {
			return fileError(secIDRefs, "ID %d out of the arena or order", i)
		}
	}
	return checkEntryList(secAnywhere, ix.anywhere, n)
}

// checkWords checks the words and their postings, and the categories'
// postings, which must be of this server's taxonomy.
func (ix *Index) checkWords(taxonomy []uint64) error {
	if !slices.Equal(taxonomy, []uint64{taxonomyHash(ix.cw.codes)}) {
		return fileError(secTaxonomy, "the index's categories are not this server's (another taxonomy)")
	}
	if err := checkOffsets(secStart, ix.start, len(ix.post)); err != nil {
		return err
	}
	nwords := len(ix.start) - 1
	if err := checkOffsets(secForwardOff, ix.words.forward.off, len(ix.words.forward.arena)); err != nil {
		return err
	}
	if err := checkOffsets(secBackwardOff, ix.words.backward.off, len(ix.words.backward.arena)); err != nil {
		return err
	}
	if ix.words.forward.len() != nwords || ix.words.backward.len() != nwords || len(ix.words.back) != nwords {
		return fileError(secBack, "the word lists are not of the %d words", nwords)
	}
	for i, w := range ix.words.back {
		if w < 0 || int(w) >= nwords {
			return fileError(secBack, "word %d is number %d of %d", i, w, nwords)
		}
	}
	if len(ix.catStart) != len(ix.cw.codes)+1 {
		return fileError(secCatStart, "%d offsets for %d categories", len(ix.catStart), len(ix.cw.codes))
	}
	if err := checkOffsets(secCatStart, ix.catStart, len(ix.catPost)); err != nil {
		return err
	}
	if err := checkPostings(secPost, ix.post, len(ix.ents)); err != nil {
		return err
	}
	return checkPostings(secCatPost, ix.catPost, len(ix.ents))
}

// checkOffsets checks that offsets into a slice of length size are at
// least one, in order, and within it.
func checkOffsets(s section, off []uint32, size int) error {
	if len(off) == 0 {
		return fileError(s, "empty")
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return fileError(s, "offset %d out of order", i)
		}
	}
	if int64(off[len(off)-1]) > int64(size) {
		return fileError(s, "offsets up to %d in %d elements", off[len(off)-1], size)
	}
	return nil
}

// checkPostings checks that postings (ordinal<<1 | strong) are of the n
// entries.
func checkPostings(s section, post []uint32, n int) error {
	for i, p := range post {
		if int64(p>>1) >= int64(n) {
			return fileError(s, "posting %d is of entry %d of %d", i, p>>1, n)
		}
	}
	return nil
}

// checkEntryList checks that entries' ordinals are of the n entries.
func checkEntryList(s section, l []int32, n int) error {
	for i, at := range l {
		if at < 0 || int64(at) >= int64(n) {
			return fileError(s, "element %d is entry %d of %d", i, at, n)
		}
	}
	return nil
}
