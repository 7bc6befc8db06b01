package search

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/daawid/registry/export/publication"
)

// The index file (issue 18). Building a layer's index when the server
// opens a publication took 1.5 GB of heap and two minutes at 3M entries;
// it is built at publish instead, written to a file of the publication,
// and the server maps that file read-only and opens it (OpenIndex)
// without building what grows with the entries: every such array is a
// section of the file, used where it lies, as its elements are in memory.
// Only the small tables that grow with the places (towns, regions,
// countries, postal countries, radius cells, known names, time zones)
// are made into maps at open, their lists of entries still the file's.
//
// A section holds its elements' memory, so the file is little-endian, as
// the machines that serve it are, and is written and opened only where
// memory is. The file is:
//
//	magic    [16]byte  fileMagic
//	version  uint32    fileVersion
//	count    uint32    the sections in the table
//	size     uint64    the file's length
//	table    [count]{id, elem uint32; off, len uint64}
//	sections           each at a multiple of 64 bytes, zeros between
//
// A section's element size is in the table, so that a reader checks it
// against its own struct's, and its length is a multiple of it. Offsets
// are from the file's start; 64 keeps every element aligned (the caller
// aligns the start to 8 at least; a mapping is page-aligned) and a
// section's first element on a cache line of its own. The file ends at a
// multiple of 64, so an empty section is in bounds wherever it falls.
//
// The same index writes the same bytes: every section is a slice's
// elements, whose structs have no implicit padding (index.go), or a map's
// keys sorted; padding between sections is zeros. What a section holds,
// and the fields of the structs it holds, are the format: changing them
// changes fileVersion, which a server that reads another refuses.

const (
	fileMagic   = "DAAWIDSEARCHIDX\x00"
	fileVersion = 2 // 2: entries in the spatial order, and zs (D125)
	fileAlign   = 64
	headerSize  = 16 + 4 + 4 + 8
	tableEntry  = 4 + 4 + 8 + 8
)

// section is a section's number in the table.
type section uint32

const (
	secEnts section = iota + 1
	secFlags
	secHashes
	secPoints
	secTexts
	secCats
	secLocs
	secRules
	secExcs
	secAreas
	secRadii
	secArena
	secZones // names, a string list
	secForwardArena
	secForwardOff
	secBackwardArena
	secBackwardOff
	secBack
	secStart
	secPost
	secTaxonomy // the taxonomy's hash
	secCatStart
	secCatPost
	secIDHashes
	secIDRefs
	secKnown // a string list
	secByTown
	secByTownStart
	secByTownEnts
	secServesTown
	secServesTownStart
	secServesTownEnts
	secByRegion // a string list
	secByRegionStart
	secByRegionEnts
	secByCountry
	secByCountryStart
	secByCountryEnts
	secByName // a string list
	secByNameStart
	secByNameEnts
	secPostal
	secPostalStart
	secPostalRefs
	secRadiusCells
	secRadiusCellsStart
	secRadiusCellsEnts
	secAnywhere
	secZs
	numSections
)

// sections are each section's name (for errors) and element size.
var sections = [numSections]struct {
	name string
	elem uintptr
}{
	secEnts:             {"ents", unsafe.Sizeof(ent{})},
	secFlags:            {"flags", 2},
	secHashes:           {"hashes", 8},
	secPoints:           {"points", unsafe.Sizeof(point{})},
	secTexts:            {"texts", unsafe.Sizeof(langText{})},
	secCats:             {"cats", 2},
	secLocs:             {"locs", unsafe.Sizeof(loc{})},
	secRules:            {"rules", unsafe.Sizeof(rule{})},
	secExcs:             {"excs", unsafe.Sizeof(exception{})},
	secAreas:            {"areas", unsafe.Sizeof(servedPlace{})},
	secRadii:            {"radii", unsafe.Sizeof(circle{})},
	secArena:            {"arena", 1},
	secZones:            {"zones", 1},
	secForwardArena:     {"words.forward.arena", 1},
	secForwardOff:       {"words.forward.off", 4},
	secBackwardArena:    {"words.backward.arena", 1},
	secBackwardOff:      {"words.backward.off", 4},
	secBack:             {"words.back", 4},
	secStart:            {"start", 4},
	secPost:             {"post", 4},
	secTaxonomy:         {"taxonomy", 8},
	secCatStart:         {"catStart", 4},
	secCatPost:          {"catPost", 4},
	secIDHashes:         {"idHashes", 8},
	secIDRefs:           {"idRefs", unsafe.Sizeof(ref{})},
	secKnown:            {"known", 1},
	secByTown:           {"byTown", 4},
	secByTownStart:      {"byTown.start", 4},
	secByTownEnts:       {"byTown.ents", 4},
	secServesTown:       {"servesTown", 4},
	secServesTownStart:  {"servesTown.start", 4},
	secServesTownEnts:   {"servesTown.ents", 4},
	secByRegion:         {"byRegion", 1},
	secByRegionStart:    {"byRegion.start", 4},
	secByRegionEnts:     {"byRegion.ents", 4},
	secByCountry:        {"byCountry", 2},
	secByCountryStart:   {"byCountry.start", 4},
	secByCountryEnts:    {"byCountry.ents", 4},
	secByName:           {"byName", 1},
	secByNameStart:      {"byName.start", 4},
	secByNameEnts:       {"byName.ents", 4},
	secPostal:           {"postal", 2},
	secPostalStart:      {"postal.start", 4},
	secPostalRefs:       {"postal.refs", unsafe.Sizeof(postalRef{})},
	secRadiusCells:      {"radiusCells", 4},
	secRadiusCellsStart: {"radiusCells.start", 4},
	secRadiusCellsEnts:  {"radiusCells.ents", 4},
	secAnywhere:         {"anywhere", 4},
	secZs:               {"zs", 4},
}

func (s section) String() string { return sections[s].name }

// aliasing, when a test sets it, is given an element of each section
// OpenIndex aliases: no type it takes from a file's bytes as they are may
// have implicit padding, whose bytes nobody sets, and the test checks
// every one (TestIndexFile_NoPadding).
var aliasing func(elem any)

var errBigEndian = errors.New("search index file: this machine is big-endian; the file is little-endian memory")

// stringList is strings as a section holds them: each its length (a
// uvarint) and its bytes.
func stringList(ss []string) []byte {
	var out []byte
	for _, s := range ss {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return out
}

// flatten is a place map as the file holds it: its keys in order, and the
// i'th key's list at vals[start[i]:start[i+1]].
func flatten[K comparable, V any](m map[K][]V, order func(a, b K) int) (keys []K, start []uint32, vals []V, err error) {
	keys = slices.SortedFunc(maps.Keys(m), order)
	start = make([]uint32, 0, len(keys)+1)
	for _, k := range keys {
		start = append(start, uint32(len(vals)))
		vals = append(vals, m[k]...)
	}
	if len(vals) > math.MaxUint32 {
		return nil, nil, nil, errors.New("search index file: a place list longer than 2³² entries")
	}
	return keys, append(start, uint32(len(vals))), vals, nil
}

// taxonomyHash is a hash of the categories' codes by their numbers: an
// index numbers its entries' categories as the taxonomy of the program
// that built it does, and a server of another taxonomy must not read
// them as its own.
func taxonomyHash(codes []string) uint64 {
	h := fnv.New64a()
	for _, c := range codes {
		h.Write([]byte(c))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func compareCountry(a, b [2]byte) int { return bytes.Compare(a[:], b[:]) }

// WriteTo writes the index file: the same index, built or opened, writes
// the same bytes.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	data, err := ix.sectionData()
	if err != nil {
		return 0, err
	}
	return writeSections(w, &data, nil)
}

// sectionData are the bytes of the index's sections.
func (ix *Index) sectionData() ([numSections][]byte, error) {
	var data [numSections][]byte
	if !publication.LittleEndian() {
		return data, errBigEndian
	}
	data[secEnts] = publication.RecordData(ix.ents)
	data[secFlags] = publication.RecordData(ix.flags)
	data[secHashes] = publication.RecordData(ix.hashes)
	data[secPoints] = publication.RecordData(ix.points)
	data[secTexts] = publication.RecordData(ix.texts)
	data[secCats] = publication.RecordData(ix.cats)
	data[secLocs] = publication.RecordData(ix.locs)
	data[secRules] = publication.RecordData(ix.rules)
	data[secExcs] = publication.RecordData(ix.excs)
	data[secAreas] = publication.RecordData(ix.areas)
	data[secRadii] = publication.RecordData(ix.radii)
	data[secArena] = ix.arena
	zones := make([]string, len(ix.zones))
	for i, z := range ix.zones {
		zones[i] = z.String()
	}
	data[secZones] = stringList(zones)
	data[secForwardArena] = ix.words.forward.arena
	data[secForwardOff] = publication.RecordData(ix.words.forward.off)
	data[secBackwardArena] = ix.words.backward.arena
	data[secBackwardOff] = publication.RecordData(ix.words.backward.off)
	data[secBack] = publication.RecordData(ix.words.back)
	data[secStart] = publication.RecordData(ix.start)
	data[secPost] = publication.RecordData(ix.post)
	data[secTaxonomy] = publication.RecordData([]uint64{taxonomyHash(ix.cw.codes)})
	data[secCatStart] = publication.RecordData(ix.catStart)
	data[secCatPost] = publication.RecordData(ix.catPost)
	data[secIDHashes] = publication.RecordData(ix.idHashes)
	data[secIDRefs] = publication.RecordData(ix.idRefs)
	data[secKnown] = stringList(slices.Sorted(maps.Keys(ix.known)))
	var errs []error
	ints := func(m map[uint32][]int32, keys, start, ents section) {
		k, s, v, err := flatten(m, cmp.Compare[uint32])
		data[keys], data[start], data[ents] = publication.RecordData(k), publication.RecordData(s), publication.RecordData(v)
		errs = append(errs, err)
	}
	ints(ix.byTown, secByTown, secByTownStart, secByTownEnts)
	ints(ix.servesTown, secServesTown, secServesTownStart, secServesTownEnts)
	names := func(m map[string][]int32, keys, start, ents section) {
		k, s, v, err := flatten(m, strings.Compare)
		data[keys], data[start], data[ents] = stringList(k), publication.RecordData(s), publication.RecordData(v)
		errs = append(errs, err)
	}
	names(ix.byRegion, secByRegion, secByRegionStart, secByRegionEnts)
	names(ix.byName, secByName, secByNameStart, secByNameEnts)
	k, s, v, err := flatten(ix.byCountry, compareCountry)
	data[secByCountry], data[secByCountryStart], data[secByCountryEnts] = publication.RecordData(k), publication.RecordData(s), publication.RecordData(v)
	errs = append(errs, err)
	pk, ps, pv, err := flatten(ix.postal, compareCountry)
	data[secPostal], data[secPostalStart], data[secPostalRefs] = publication.RecordData(pk), publication.RecordData(ps), publication.RecordData(pv)
	errs = append(errs, err)
	ck, cs, cv, err := flatten(ix.radiusCells, cmp.Compare[int32])
	data[secRadiusCells], data[secRadiusCellsStart], data[secRadiusCellsEnts] = publication.RecordData(ck), publication.RecordData(cs), publication.RecordData(cv)
	errs = append(errs, err)
	data[secAnywhere] = publication.RecordData(ix.anywhere)
	data[secZs] = publication.RecordData(ix.zs)
	return data, errors.Join(errs...)
}

// writeSections writes the header and the sections: data's, or where cols
// has one, that column's (a spilling builder's).
func writeSections(w io.Writer, data *[numSections][]byte, cols *[numSections]publication.SectionSource) (int64, error) {
	n := int(numSections) - 1
	var offs, lens [numSections]uint64
	end := uint64(headerSize + n*tableEntry)
	for s := section(1); s < numSections; s++ {
		lens[s] = uint64(len(data[s]))
		if cols != nil && cols[s] != nil {
			lens[s] = uint64(cols[s].Bytes())
		}
		end = alignUp(end)
		offs[s] = end
		end += lens[s]
	}
	size := alignUp(end)
	hdr := make([]byte, 0, headerSize+n*tableEntry)
	hdr = append(hdr, fileMagic...)
	hdr = binary.LittleEndian.AppendUint32(hdr, fileVersion)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(n))
	hdr = binary.LittleEndian.AppendUint64(hdr, size)
	for s := section(1); s < numSections; s++ {
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(s))
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(sections[s].elem))
		hdr = binary.LittleEndian.AppendUint64(hdr, offs[s])
		hdr = binary.LittleEndian.AppendUint64(hdr, lens[s])
	}
	cw := &countingWriter{w: w}
	cw.write(hdr)
	for s := section(1); s < numSections; s++ {
		cw.pad(offs[s])
		if cols != nil && cols[s] != nil {
			if cw.err == nil {
				cw.err = cols[s].CopyTo(cw)
			}
			continue
		}
		cw.write(data[s])
	}
	cw.pad(size)
	return cw.n, cw.err
}

func alignUp(n uint64) uint64 { return (n + fileAlign - 1) &^ (fileAlign - 1) }

// countingWriter writes until the first error, counting the bytes.
type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) write(b []byte) {
	if c.err != nil || len(b) == 0 {
		return
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
}

// Write is write for a column's copy.
func (c *countingWriter) Write(b []byte) (int, error) {
	n0 := c.n
	c.write(b)
	return int(c.n - n0), c.err
}

// pad writes zeros up to offset to.
func (c *countingWriter) pad(to uint64) {
	var zeros [fileAlign]byte
	for c.err == nil && uint64(c.n) < to {
		c.write(zeros[:min(uint64(len(zeros)), to-uint64(c.n))])
	}
}

// indexFile is a file's bytes and where its sections are.
type indexFile struct {
	b    []byte
	secs [numSections]struct{ off, n uint64 }
}

// fileError is a file refused because of a section.
func fileError(s section, format string, args ...any) error {
	return fmt.Errorf("search index file: section %s: %s", s, fmt.Sprintf(format, args...))
}

// readHeader checks the header and the table of sections: every section
// there once, in bounds, aligned, not overlapping another, its elements
// of the size this reader's are.
func readHeader(b []byte) (*indexFile, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("search index file: %d bytes, fewer than a header's", len(b))
	}
	if string(b[:16]) != fileMagic {
		return nil, fmt.Errorf("search index file: not one (magic %q)", b[:16])
	}
	if v := binary.LittleEndian.Uint32(b[16:]); v != fileVersion {
		if v > fileVersion {
			return nil, fmt.Errorf("search index file: format version %d is newer than this server reads (%d)", v, fileVersion)
		}
		return nil, fmt.Errorf("search index file: format version %d is unknown (this server reads %d)", v, fileVersion)
	}
	if size := binary.LittleEndian.Uint64(b[24:]); size != uint64(len(b)) {
		return nil, fmt.Errorf("search index file: %d bytes where its header says %d", len(b), size)
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
		return nil, errors.New("search index file: its bytes do not start at a multiple of 8")
	}
	count := uint64(binary.LittleEndian.Uint32(b[20:]))
	if count > uint64(len(b)-headerSize)/tableEntry {
		return nil, fmt.Errorf("search index file: a table of %d sections runs past the file's end", count)
	}
	f := &indexFile{b: b}
	end := uint64(headerSize) + count*tableEntry
	var found [numSections]bool
	type span struct {
		s      section
		off, n uint64
	}
	spans := make([]span, 0, count)
	for i := range count {
		e := b[headerSize+i*tableEntry:]
		s := section(binary.LittleEndian.Uint32(e))
		elem := uint64(binary.LittleEndian.Uint32(e[4:]))
		off, n := binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
		switch {
		case s == 0 || s >= numSections:
			return nil, fmt.Errorf("search index file: section number %d is unknown", uint32(s))
		case found[s]:
			return nil, fileError(s, "twice in the table")
		case elem != uint64(sections[s].elem):
			return nil, fileError(s, "elements of %d bytes; this server's are %d", elem, sections[s].elem)
		case off%fileAlign != 0:
			return nil, fileError(s, "at %d, not a multiple of %d", off, fileAlign)
		case off < end || off > uint64(len(b)) || n > uint64(len(b))-off:
			return nil, fileError(s, "bytes %d to %d out of bounds (the sections are from %d to %d)", off, off+n, end, len(b))
		case n%elem != 0:
			return nil, fileError(s, "%d bytes, not a multiple of its elements' %d", n, elem)
		}
		found[s] = true
		f.secs[s].off, f.secs[s].n = off, n
		spans = append(spans, span{s, off, n})
	}
	for s := section(1); s < numSections; s++ {
		if !found[s] {
			return nil, fileError(s, "missing")
		}
	}
	slices.SortFunc(spans, func(a, c span) int { return cmp.Or(cmp.Compare(a.off, c.off), cmp.Compare(a.n, c.n)) })
	for i := 1; i < len(spans); i++ {
		if p := spans[i-1]; p.off+p.n > spans[i].off {
			return nil, fileError(spans[i].s, "overlaps section %s", p.s)
		}
	}
	return f, nil
}

// bytesOf is a section's bytes.
func (f *indexFile) bytesOf(s section) []byte {
	sec := f.secs[s]
	return f.b[sec.off : sec.off+sec.n : sec.off+sec.n]
}

// alias is a section as a slice of its elements, over the file's bytes.
func alias[T any](f *indexFile, s section) ([]T, error) {
	var zero T
	if aliasing != nil {
		aliasing(zero)
	}
	size := unsafe.Sizeof(zero)
	if size != sections[s].elem {
		return nil, fileError(s, "read as elements of %d bytes, not %d", size, sections[s].elem) // a bug of this file
	}
	b := f.bytesOf(s)
	if len(b) == 0 {
		return nil, nil
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%unsafe.Alignof(zero) != 0 {
		return nil, fileError(s, "misaligned in memory")
	}
	return unsafe.Slice((*T)(p), uintptr(len(b))/size), nil
}

// readStrings is a string-list section, its strings copied.
func (f *indexFile) readStrings(s section) ([]string, error) {
	b := f.bytesOf(s)
	var out []string
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, fileError(s, "string %d runs past the section's end", len(out))
		}
		out = append(out, string(b[k:k+int(n)]))
		b = b[k+int(n):]
	}
	return out, nil
}

// opener aliases a file's sections, keeping the first error.
type opener struct {
	f   *indexFile
	err error
}

func aliasOf[T any](o *opener, s section) []T {
	if o.err != nil {
		return nil
	}
	out, err := alias[T](o.f, s)
	o.err = err
	return out
}

func (o *opener) readStrings(s section) []string {
	if o.err != nil {
		return nil
	}
	out, err := o.f.readStrings(s)
	o.err = err
	return out
}

// OpenIndex opens an index file: b is the whole file, mapped read-only
// (or read) at an address that is a multiple of 8, and must stay as it
// is for as long as the index is used, which holds its sections where
// they lie. A file that is not one this server writes, or whose numbers
// would send a query out of its arrays, is refused naming the section,
// so that no query over an index opened panics on its file.
func OpenIndex(b []byte) (*Index, error) {
	if !publication.LittleEndian() {
		return nil, errBigEndian
	}
	f, err := readHeader(b)
	if err != nil {
		return nil, err
	}
	o := &opener{f: f}
	ix := &Index{cw: loadCategories(), scratch: make(chan *scratch, 8)}
	ix.ents = aliasOf[ent](o, secEnts)
	ix.flags = aliasOf[uint16](o, secFlags)
	ix.hashes = aliasOf[uint64](o, secHashes)
	ix.points = aliasOf[point](o, secPoints)
	ix.texts = aliasOf[langText](o, secTexts)
	ix.cats = aliasOf[uint16](o, secCats)
	ix.locs = aliasOf[loc](o, secLocs)
	ix.rules = aliasOf[rule](o, secRules)
	ix.excs = aliasOf[exception](o, secExcs)
	ix.areas = aliasOf[servedPlace](o, secAreas)
	ix.radii = aliasOf[circle](o, secRadii)
	ix.arena = aliasOf[byte](o, secArena)
	ix.words.forward = sortedWords{arena: aliasOf[byte](o, secForwardArena), off: aliasOf[uint32](o, secForwardOff)}
	ix.words.backward = sortedWords{arena: aliasOf[byte](o, secBackwardArena), off: aliasOf[uint32](o, secBackwardOff)}
	ix.words.back = aliasOf[int32](o, secBack)
	ix.start = aliasOf[uint32](o, secStart)
	ix.post = aliasOf[uint32](o, secPost)
	ix.catStart = aliasOf[uint32](o, secCatStart)
	ix.catPost = aliasOf[uint32](o, secCatPost)
	ix.idHashes = aliasOf[uint64](o, secIDHashes)
	ix.idRefs = aliasOf[ref](o, secIDRefs)
	ix.anywhere = aliasOf[int32](o, secAnywhere)
	ix.zs = aliasOf[uint32](o, secZs)
	zones := o.readStrings(secZones)
	taxonomy := aliasOf[uint64](o, secTaxonomy)
	known := o.readStrings(secKnown)
	if o.err != nil {
		return nil, o.err
	}
	if err := ix.checkEntries(len(zones)); err != nil {
		return nil, err
	}
	if err := ix.checkWords(taxonomy); err != nil {
		return nil, err
	}
	if err := ix.places(o); err != nil {
		return nil, err
	}
	if len(ix.zs) > len(ix.ents) {
		return nil, fileError(secZs, "%d cells for %d entries", len(ix.zs), len(ix.ents))
	}
	ix.known = make(map[string]bool, len(known))
	for _, k := range known {
		ix.known[k] = true
	}
	// Last, as the file is otherwise sound: a zone name is looked up in
	// the system's time zone database.
	if len(zones) > math.MaxUint16 {
		return nil, fileError(secZones, "%d zones, more than locations number", len(zones))
	}
	ix.zones = make([]*time.Location, len(zones))
	for i, name := range zones {
		if ix.zones[i], err = time.LoadLocation(name); err != nil {
			return nil, fileError(secZones, "zone %d: %v", i, err)
		}
	}
	return ix, nil
}

// places makes the place maps, their lists the file's.
func (ix *Index) places(o *opener) error {
	n := len(ix.ents)
	ents := func(s section, l []int32) error { return checkEntryList(s, l, n) }
	refs := func(s section, l []postalRef) error {
		for i, r := range l {
			if r.at < 0 || int64(r.at) >= int64(n) || !ix.refOK(r.code) {
				return fileError(s, "element %d out of range", i)
			}
		}
		return nil
	}
	var err error
	if ix.byTown, err = placeMap(o, secByTown, aliasOf[uint32](o, secByTown), cmp.Compare[uint32], secByTownStart, secByTownEnts, ents); err != nil {
		return err
	}
	if ix.servesTown, err = placeMap(o, secServesTown, aliasOf[uint32](o, secServesTown), cmp.Compare[uint32], secServesTownStart, secServesTownEnts, ents); err != nil {
		return err
	}
	if ix.byRegion, err = placeMap(o, secByRegion, o.readStrings(secByRegion), strings.Compare, secByRegionStart, secByRegionEnts, ents); err != nil {
		return err
	}
	if ix.byCountry, err = placeMap(o, secByCountry, aliasOf[[2]byte](o, secByCountry), compareCountry, secByCountryStart, secByCountryEnts, ents); err != nil {
		return err
	}
	if ix.byName, err = placeMap(o, secByName, o.readStrings(secByName), strings.Compare, secByNameStart, secByNameEnts, ents); err != nil {
		return err
	}
	if ix.postal, err = placeMap(o, secPostal, aliasOf[[2]byte](o, secPostal), compareCountry, secPostalStart, secPostalRefs, refs); err != nil {
		return err
	}
	ix.radiusCells, err = placeMap(o, secRadiusCells, aliasOf[int32](o, secRadiusCells), cmp.Compare[int32], secRadiusCellsStart, secRadiusCellsEnts, ents)
	return err
}

// placeMap is a place map from its keys (section keySec, in order, each
// once), their lists' offsets (section start) and the lists (section
// vals), which check checks.
func placeMap[K comparable, V any](o *opener, keySec section, keys []K, order func(a, b K) int, start, vals section, check func(section, []V) error) (map[K][]V, error) {
	st := aliasOf[uint32](o, start)
	vs := aliasOf[V](o, vals)
	if o.err != nil {
		return nil, o.err
	}
	if len(st) != len(keys)+1 {
		return nil, fileError(start, "%d offsets for %d places", len(st), len(keys))
	}
	if err := checkOffsets(start, st, len(vs)); err != nil {
		return nil, err
	}
	if err := check(vals, vs); err != nil {
		return nil, err
	}
	m := make(map[K][]V, len(keys))
	for i, k := range keys {
		if i > 0 && order(keys[i-1], k) >= 0 {
			return nil, fileError(keySec, "place %d out of order", i)
		}
		m[k] = vs[st[i]:st[i+1]:st[i+1]]
	}
	return m, nil
}
