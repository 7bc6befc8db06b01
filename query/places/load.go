package places

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/daawid/registry/schemas/terms"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// LineError is a line a loader could not read. The loader skips it and
// reads on: a bad line loses nothing else.
type LineError struct {
	Source string // "cities", "admin1", "alternate names", "postal", "postal DE"
	Line   int    // 1-based
	Reason string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("places: %s line %d: %s", e.Source, e.Line, e.Reason)
}

// maxLineErrors is how many bad lines a loader reports one by one; the
// rest are counted.
const maxLineErrors = 20

// lineErrors gathers a loader's bad lines.
type lineErrors struct {
	source string
	errs   []error
	more   int
}

func (l *lineErrors) add(line int, format string, args ...any) {
	if len(l.errs) >= maxLineErrors {
		l.more++
		return
	}
	l.errs = append(l.errs, &LineError{Source: l.source, Line: line, Reason: fmt.Sprintf(format, args...)})
}

// err is nil or every bad line joined (errors.As finds each *LineError),
// with the read error last.
func (l *lineErrors) err(read error) error {
	errs := l.errs
	if l.more > 0 {
		errs = append(errs, fmt.Errorf("places: %s: %d more bad lines", l.source, l.more))
	}
	if read != nil {
		errs = append(errs, fmt.Errorf("places: reading %s: %w", l.source, read))
	}
	return errors.Join(errs...)
}

// maxLine is the longest line a loader reads (a big city's alternate
// names run to 10 kB).
const maxLine = 16 << 20

// lines calls fn with each line of r without its line ending, and its
// number. The text is read a megabyte at a time and made a string once,
// so that a line costs no allocation of its own; fn must copy what it
// keeps.
func lines(r io.Reader, fn func(n int, line string)) error {
	buf := make([]byte, 1<<20)
	have, n := 0, 0
	var err error
	for {
		var m int
		m, err = io.ReadFull(r, buf[have:])
		have += m
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		end := bytes.LastIndexByte(buf[:have], '\n') + 1
		if err != nil && have > 0 {
			end = have // the last line, without a line ending
		}
		if end == 0 && err == nil {
			if len(buf) >= maxLine {
				return fmt.Errorf("line %d is longer than %d bytes", n+1, maxLine)
			}
			buf = append(buf, make([]byte, len(buf))...)
			continue
		}
		chunk := string(buf[:end])
		for chunk != "" {
			line := chunk
			if i := strings.IndexByte(chunk, '\n'); i >= 0 {
				line, chunk = chunk[:i], chunk[i+1:]
			} else {
				chunk = ""
			}
			n++
			line = strings.TrimSuffix(line, "\r")
			if n == 1 {
				line = strings.TrimPrefix(line, "\ufeff")
			}
			fn(n, line)
		}
		have = copy(buf, buf[end:have])
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// split cuts line at tabs into fields and answers how many there are;
// fields beyond len(f) are counted but not kept.
func split(line string, f []string) int {
	n := 0
	for {
		i := strings.IndexByte(line, '\t')
		if n < len(f) {
			if i < 0 {
				f[n] = line
			} else {
				f[n] = line[:i]
			}
		}
		n++
		if i < 0 {
			return n
		}
		line = line[i+1:]
	}
}

func parseCoord(s string, limit float64) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || v < -limit || v > limit {
		return 0, false
	}
	return v, true
}

// LoadCities reads towns in the official GeoNames dump format: the 19
// tab-separated columns of cities500.txt (and cities1000, cities5000,
// cities15000, or allCountries.txt, of which only feature class P, the
// populated places, is read). Each town is found by its name, its ASCII
// name and every alternate name, folded; a name with a bracket or a comma
// also by what comes before it ("Frankfurt (Oder)" by "Frankfurt"). A
// town loaded twice keeps its first row.
func (g *Gazetteer) LoadCities(r io.Reader) error {
	le := lineErrors{source: "cities"}
	var f [20]string
	g.fuzzy.Store(nil)
	read := lines(r, func(n int, line string) {
		if line == "" || line[0] == '#' {
			return
		}
		if nf := split(line, f[:]); nf != 19 {
			le.add(n, "%d columns, want 19", nf)
			return
		}
		if f[6] != "P" {
			return
		}
		id, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil || id == 0 {
			le.add(n, "geonameid %q", f[0])
			return
		}
		name := strings.TrimSpace(f[1])
		if name == "" {
			le.add(n, "no name")
			return
		}
		lat, ok1 := parseCoord(f[4], 90)
		lng, ok2 := parseCoord(f[5], 180)
		if !ok1 || !ok2 {
			le.add(n, "coordinates %q %q", f[4], f[5])
			return
		}
		cc := strings.TrimSpace(f[8])
		if len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
			le.add(n, "country code %q", f[8])
			return
		}
		var pop uint64
		if s := strings.TrimSpace(f[14]); s != "" {
			if pop, err = strconv.ParseUint(s, 10, 32); err != nil {
				le.add(n, "population %q", f[14])
				return
			}
		}
		if _, dup := g.byID[uint32(id)]; dup {
			return
		}
		i := int32(len(g.places))
		g.byID[uint32(id)] = i
		p := place{
			id: uint32(id), name: strings.Clone(name), pop: uint32(pop),
			lat: int32(math.Round(lat * coordScale)), lng: int32(math.Round(lng * coordScale)),
			cc: g.ccs.id(cc), tz: g.zones.id(strings.TrimSpace(f[17])),
			rank: featureRank(f[7]), folded: noName,
		}
		if !g.countries[cc] {
			g.countries[g.ccs.at(p.cc)] = true
		}
		if a := strings.TrimSpace(f[10]); a != "" {
			g.scratch = append(append(append(g.scratch[:0], cc...), '.'), a...)
			p.admin1 = g.a1keys.id(string(g.scratch))
		}
		if a := strings.TrimSpace(f[11]); a != "" {
			p.admin2 = g.addCode(a)
		}
		if a := strings.TrimSpace(f[13]); a != "" {
			p.admin4 = g.addCode(a)
		}
		if len(g.places) == cap(g.places) {
			// Doubling: append grows big slices by a quarter, and copies
			// of 200,000 towns add up.
			g.places = slices.Grow(g.places, max(4096, len(g.places)))
		}
		g.places = append(g.places, p)
		g.addNames(name, i, true)
		if f[2] != name {
			g.addNames(f[2], i, false)
		}
		alts := f[3]
		for alts != "" {
			a := alts
			if j := strings.IndexByte(alts, ','); j >= 0 {
				a, alts = alts[:j], alts[j+1:]
			} else {
				alts = ""
			}
			g.addNames(a, i, false)
		}
	})
	g.flushNames()
	return le.err(read)
}

// addNames files town i under a name and, when the name has a bracket, a
// comma or a slash, under what comes before it. The fold of the town's
// main name is its folded name.
func (g *Gazetteer) addNames(name string, i int32, main bool) {
	written := written(name)
	g.scratch = terms.AppendFold(g.scratch[:0], name, false)
	g.addKey(g.scratch, i, written, main)
	if j := strings.IndexAny(name, "(,/"); j > 0 {
		g.scratch = terms.AppendFold(g.scratch[:0], name[:j], false)
		g.addKey(g.scratch, i, written, false)
	}
}

// written reports whether a name is written as people write names: with
// a capital or a letter beyond ASCII. GeoNames' alternates also hold
// machine transliterations of names in other scripts, all in lower case
// ASCII ("ke long", "myunikha", "ambrg"): names, found as written, but
// not ones a misspelling is read as (see buildFuzzy).
func written(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 0x80 || ('A' <= c && c <= 'Z') {
			return true
		}
	}
	return false
}

// addKey files town i under a folded name unless the town's names read so
// far fold to it already: most of a town's names fold alike (Munich,
// München, Munchen). Names wait in a batch (see flushNames).
func (g *Gazetteer) addKey(key []byte, i int32, written, main bool) {
	if len(key) == 0 {
		return
	}
	p := &g.pending
	if i != p.town || len(p.ends) == 0 {
		if len(p.ends) >= pendingBatch {
			g.flushNames()
		}
		p.town, p.first = i, len(p.ends)
	}
	start := 0
	if p.first > 0 {
		start = p.ends[p.first-1]
	}
	for k := p.first; k < len(p.ends); k++ {
		if string(p.keys[start:p.ends[k]]) == string(key) {
			p.written[k] = p.written[k] || written
			p.main[k] = p.main[k] || main
			return
		}
		start = p.ends[k]
	}
	p.keys = append(p.keys, key...)
	p.ends = append(p.ends, len(p.keys))
	p.towns = append(p.towns, i)
	p.written = append(p.written, written)
	p.main = append(p.main, main)
}

// pendingBatch is how many names wait before they are filed.
const pendingBatch = 1024

// pendingNames are names waiting to be filed in the name table.
type pendingNames struct {
	keys    []byte
	ends    []int // name k is keys[ends[k-1]:ends[k]]
	towns   []int32
	written []bool
	main    []bool // the fold of its town's main name
	hashes  []uint64
	town    int32 // the town whose names come now
	first   int   // its first name
}

// flushNames files the waiting names. The table is bigger than the
// caches, and a load spends most of its time waiting for its slots: a
// batch first reads all its slots, which the processor fetches side by
// side, and then files its names in slots already fetched.
func (g *Gazetteer) flushNames() {
	p := &g.pending
	if len(p.ends) == 0 {
		return
	}
	t := g.names
	t.reserve(len(t.ents) + len(p.ends))
	p.hashes = p.hashes[:0]
	start := 0
	for _, end := range p.ends {
		p.hashes = append(p.hashes, t.hash(p.keys[start:end]))
		start = end
	}
	t.touch(p.hashes)
	start = 0
	for k, end := range p.ends {
		e := g.addName(p.keys[start:end], p.hashes[k], p.towns[k])
		if p.written[k] {
			t.ents[e].written = true
		}
		if p.main[k] {
			g.places[p.towns[k]].folded = uint32(e)
		}
		start = end
	}
	p.keys, p.ends, p.towns, p.written, p.main = p.keys[:0], p.ends[:0], p.towns[:0], p.written[:0], p.main[:0]
	p.first = 0
}

// LoadAdmin1 reads region names: GeoNames' admin1CodesASCII.txt (code,
// name, ASCII name, geonameid) or the bundled two-column admin1.tsv
// (code, name, with a header). Codes are "DE.07". A region is then found
// after a comma by its name, its ASCII name, and a code of letters
// ("Paris, TX").
func (g *Gazetteer) LoadAdmin1(r io.Reader) error {
	le := lineErrors{source: "admin1"}
	var f [4]string
	read := lines(r, func(n int, line string) {
		if line == "" || line[0] == '#' {
			return
		}
		nf := split(line, f[:])
		if n == 1 && nf >= 2 && f[0] == "code" {
			return // the bundled file's header
		}
		if nf < 2 || nf > 4 {
			le.add(n, "%d columns, want 2 to 4", nf)
			return
		}
		key := strings.TrimSpace(f[0])
		dot := strings.IndexByte(key, '.')
		name := strings.TrimSpace(f[1])
		if dot != 2 || dot == len(key)-1 || name == "" {
			le.add(n, "code %q name %q", f[0], f[1])
			return
		}
		key = strings.ToUpper(key[:2]) + key[2:]
		g.admin1[key] = strings.Clone(name)
		g.addRegion(terms.Fold(name), key)
		if nf >= 3 {
			g.addRegion(terms.Fold(f[2]), key)
		}
		code := key[3:]
		letters := true
		for _, c := range code {
			if c < 'A' || c > 'Z' {
				letters = false
			}
		}
		if letters {
			g.addRegion(terms.Fold(code), key)
		}
	})
	return le.err(read)
}

func (g *Gazetteer) addRegion(folded, key string) {
	if folded == "" {
		return
	}
	for _, k := range g.regions[folded] {
		if k == key {
			return
		}
	}
	g.regions[folded] = append(g.regions[folded], key)
}

// skipLanguages are alternateNamesV2 "isolanguage" values that are not a
// town's names: links, airport and other codes. "post" rows are postal
// codes and go to the postal index.
var skipLanguages = map[string]bool{
	"link": true, "iata": true, "icao": true, "faac": true, "abbr": true,
	"wkdt": true, "tcid": true, "unlc": true, "phon": true, "piny": true,
}

// LoadAlternateNames reads GeoNames' alternateNamesV2.txt (alternateNameId,
// geonameid, isolanguage, alternate name, isPreferredName, isShortName,
// isColloquial, isHistoric, from, to; alternateNames.txt's first eight
// columns are read the same) and files each name under the loaded town it
// names; rows of other features are skipped. Links, codes and
// abbreviations are not names; postal codes ("post") are filed as the
// town's postal codes.
func (g *Gazetteer) LoadAlternateNames(r io.Reader) error {
	le := lineErrors{source: "alternate names"}
	var f [10]string
	g.fuzzy.Store(nil)
	read := lines(r, func(n int, line string) {
		if line == "" || line[0] == '#' {
			return
		}
		if nf := split(line, f[:]); nf < 4 || nf > 10 {
			le.add(n, "%d columns, want 4 to 10", nf)
			return
		}
		id, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			le.add(n, "geonameid %q", f[1])
			return
		}
		if id > math.MaxUint32 {
			return
		}
		i, ok := g.byID[uint32(id)]
		if !ok {
			return
		}
		lang, name := f[2], strings.TrimSpace(f[3])
		if name == "" || skipLanguages[lang] {
			return
		}
		if lang == "post" {
			g.addPostal(g.country(i), name, postalEntry{town: i, extra: -1})
			return
		}
		g.addNames(name, i, false)
	})
	g.flushNames()
	return le.err(read)
}
