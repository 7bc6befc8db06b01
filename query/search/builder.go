package search

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/terms"
)

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

	// The arrays that grow with the entries while they are added: moved
	// into the index when it is built, or spilled (NewSpillingBuilder).
	ents     publication.Column[ent]
	flags    publication.Column[uint16]
	hashes   publication.Column[uint64]
	points   publication.Column[point]
	texts    publication.Column[langText]
	cats     publication.Column[uint16]
	locs     publication.Column[loc]
	rules    publication.Column[rule]
	excs     publication.Column[exception]
	areas    publication.Column[servedPlace]
	radii    publication.Column[circle]
	arena    publication.Column[byte]
	postings publication.Column[uint32] // spilling: the postings, in words' order
	spilling bool
	// interned are the strings of few values (languages, towns, regions,
	// postal codes) in the arena once each (D116): the first place each
	// was added.
	interned map[string]ref
	names    placeNames
	// keys are the entries' places in the spatial order (D125), by the
	// order they were added.
	keys []uint64
	err  error
}

// maxInterned bounds the strings interned; a string past it is added
// where it comes, as any other.
const maxInterned = 1 << 22

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
		held: map[uint64]ref{}, clash: map[string]bool{}, interned: map[string]ref{},
	}
}

// NewSpillingBuilder starts an index that holds only the entry being
// added of the arrays growing with the entries, spilling the rest to
// temporary files in dir (D116); it is written with WriteFile, not
// built. Close removes the files.
func NewSpillingBuilder(gaz *places.Gazetteer, dir string) (*Builder, error) {
	b := NewBuilder(gaz)
	b.spilling = true
	for _, c := range b.columns() {
		if err := c.SpillTo(dir); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// spillable is a column, whatever its elements.
type spillable interface {
	publication.SectionSource
	SpillTo(dir string) error
	MaybeFlush()
	Close() error
}

func (b *Builder) columns() []spillable {
	return []spillable{&b.ents, &b.flags, &b.hashes, &b.points, &b.texts, &b.cats, &b.locs, &b.rules, &b.excs,
		&b.areas, &b.radii, &b.arena, &b.postings}
}

// Close removes a spilling builder's temporary files.
func (b *Builder) Close() error {
	var errs []error
	for _, c := range b.columns() {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// add adds a string to the arena.
func (b *Builder) add(s string) ref {
	r := ref{uint32(b.arena.Len()), uint32(len(s))}
	b.arena.Push([]byte(s)...)
	return r
}

// intern adds a string of few values to the arena once.
func (b *Builder) intern(s string) ref {
	if s == "" {
		return ref{uint32(b.arena.Len()), 0}
	}
	if r, ok := b.interned[s]; ok {
		return r
	}
	r := b.add(s)
	if len(b.interned) < maxInterned {
		b.interned[strings.Clone(s)] = r
	}
	return r
}

// bytesOf is a string of the arena, wherever it is.
func (b *Builder) bytesOf(r ref) []byte {
	out, err := b.arena.ReadAt(int(r.off), int(r.n))
	if err != nil && b.err == nil {
		b.err = err
	}
	return out
}

// placeNames are the folded names (and region keys) of the entry being
// added's locations and served places, in order: interned, they may lie
// in an earlier entry's spilled strings.
type placeNames struct {
	locs, areas, regions []string
}

// Add adds an entry's search record. A record of an ID added before
// replaces nothing: it is an error.
func (b *Builder) Add(r *schemas.SearchRecord) error {
	if b.has(idHash(r.ID), r.ID) {
		return fmt.Errorf("search: entry %s twice", r.ID)
	}
	if b.ents.Len() >= math.MaxInt32>>1 {
		return fmt.Errorf("search: too many entries")
	}
	if b.arena.Len() > math.MaxUint32-1<<24 {
		return fmt.Errorf("search: the entries' strings pass 4 GB")
	}
	at := int32(b.ents.Len())
	b.names = placeNames{b.names.locs[:0], b.names.areas[:0], b.names.regions[:0]}
	e, err := b.newEnt(r)
	if err != nil {
		return err
	}
	b.addTexts(&e, r)
	b.addCategories(at, &e, r)
	b.addPlaces(&e, r)
	b.addWords(at, r)
	b.hold(e.idHash, e.id)
	b.ents.Push(e)
	f, pt := b.flagsOf(&e)
	b.flags.Push(f)
	b.hashes.Push(e.idHash)
	b.points.Push(pt)
	b.keys = append(b.keys, b.spatialKey(&e, f))
	b.placeIndex(at, &e)
	b.entryDone()
	return b.err
}

// entryDone writes out, when spilling, the columns that fill a chunk:
// between entries, so that the entry being added is always in memory.
func (b *Builder) entryDone() {
	if !b.spilling {
		return
	}
	for _, c := range b.columns() {
		c.MaybeFlush()
	}
}

// newEnt is a record's entry with its ID, slug, kind, status, level and
// capacity; its texts, categories and places are added after it.
func (b *Builder) newEnt(r *schemas.SearchRecord) (ent, error) {
	e := ent{id: b.add(r.ID), slug: b.add(r.Slug), texts: uint32(b.texts.Len()), cats: uint32(b.cats.Len()),
		locs: uint32(b.locs.Len()), areas: uint32(b.areas.Len()), radii: uint32(b.radii.Len())}
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
		lt := langText{lang: b.intern(l)}
		lt.name, lt.summary = def.name, def.summary
		for _, t := range r.Names {
			if t.Lang == l {
				lt.name = b.add(t.Text)
			}
		}
		for _, t := range r.Summaries {
			if t.Lang == l {
				lt.summary = b.add(t.Text)
			}
		}
		if i == 0 {
			def = lt
		}
		b.texts.Push(lt)
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
		if !ok || b.cats.Len()-int(e.cats) >= 255 {
			continue
		}
		b.cats.Push(id)
		for _, p := range []uint16{id, ix.cw.sector[id]} {
			if !seen[p] {
				seen[p] = true
				b.catList[p] = append(b.catList[p], uint32(at)<<1|1)
			}
		}
	}
	e.ncats = uint8(b.cats.Len() - int(e.cats))
}

// addPlaces adds an entry's locations (at most 255) and its service
// area: the places it names and its radius.
func (b *Builder) addPlaces(e *ent, r *schemas.SearchRecord) {
	for i, l := range r.Locations {
		if i >= 255 {
			break
		}
		b.locs.Push(b.place(l))
		if i == r.PrimaryLocation {
			e.primary = uint8(i)
		}
	}
	e.nlocs = uint8(b.locs.Len() - int(e.locs))
	for _, l := range b.locs.From(e.locs) {
		e.hours = e.hours || l.hasHours
	}
	if sa := r.ServiceArea; sa != nil {
		e.anywhere = sa.Anywhere
		for _, p := range sa.Places {
			if b.areas.Len()-int(e.areas) >= 255 {
				break
			}
			b.areas.Push(b.served(p))
		}
		if rd := sa.Radius; rd != nil {
			if c, ok := b.center(rd, r, b.locs.From(e.locs)); ok {
				b.radii.Push(c)
			}
		}
	}
	e.nareas = uint8(b.areas.Len() - int(e.areas))
	e.nradii = uint8(b.radii.Len() - int(e.radii))
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
	for _, l := range b.locs.Span(e.locs, e.nlocs) {
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
		b.hold(h, b.add(id))
	}
	b.entryDone()
}

// has reports whether an ID was added or hidden before, as Has does once
// the index is built.
func (b *Builder) has(hash uint64, id string) bool {
	if r, ok := b.held[hash]; ok && string(b.bytesOf(r)) == id {
		return true
	}
	return len(b.clash) > 0 && b.clash[id]
}

// hold records an ID (in the arena) the index holds.
func (b *Builder) hold(hash uint64, id ref) {
	if _, taken := b.held[hash]; taken {
		b.clash[string(b.bytesOf(id))] = true
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
	b.names.locs = append(b.names.locs, folded)
	out := loc{locality: b.intern(l.Locality), folded: b.intern(folded), postal: b.intern(compactCode(l.PostalCode))}
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
		out.town, out.region = town.id, b.intern(town.region)
	} else if pc.ok {
		out.region = b.intern(pc.region)
	}
	zone := l.TimeZone
	if zone == "" {
		zone = town.zone
	}
	if zone == "" {
		zone = pc.zone
	}
	out.zone = b.zone(zone)
	out.rules = uint32(b.rules.Len())
	rules := makeRules(l.Hours)
	b.rules.Push(rules[:min(len(rules), 255)]...)
	out.nrules = uint8(min(len(rules), 255))
	out.excs = uint32(b.excs.Len())
	excs := makeExceptions(l.Exceptions)
	b.excs.Push(excs[:min(len(excs), 255)]...)
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
	out := servedPlace{kind: placeTown, folded: b.intern(folded)}
	b.names.areas = append(b.names.areas, folded)
	b.names.regions = append(b.names.regions, "")
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
				out.kind, out.region = placeRegion, b.intern(keys[0])
				b.names.regions[len(b.names.regions)-1] = keys[0]
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
	for i, l := range b.locs.Span(e.locs, e.nlocs) {
		if l.town != 0 {
			ix.byTown[l.town] = add(ix.byTown[l.town])
		}
		if f := b.names.locs[i]; f != "" {
			ix.byName[f] = add(ix.byName[f])
		}
		if l.postal.n > 0 {
			ix.postal[l.country] = append(ix.postal[l.country], postalRef{l.postal, at})
		}
	}
	for i, a := range b.areas.Span(e.areas, e.nareas) {
		switch a.kind {
		case placeCountry:
			ix.byCountry[a.country] = add(ix.byCountry[a.country])
		case placeRegion:
			k := b.names.regions[i]
			ix.byRegion[k] = add(ix.byRegion[k])
		default:
			if a.town != 0 {
				ix.servesTown[a.town] = add(ix.servesTown[a.town])
			}
		}
		if f := b.names.areas[i]; f != "" {
			ix.byName[f] = add(ix.byName[f])
		}
	}
	for _, c := range b.radii.Span(e.radii, e.nradii) {
		for _, cell := range c.cells() {
			ix.radiusCells[cell] = add(ix.radiusCells[cell])
		}
	}
	if e.anywhere {
		ix.anywhere = append(ix.anywhere, at)
	}
}

// Build finishes the index (of a builder that does not spill).
func (b *Builder) Build() *Index {
	if b.spilling {
		panic("search: Build of a spilling builder; it writes its index with WriteFile")
	}
	ix := b.ix
	b.finish()
	ix.ents, ix.flags, ix.hashes, ix.points = b.ents.Mem(), b.flags.Mem(), b.hashes.Mem(), b.points.Mem()
	ix.texts, ix.cats, ix.locs, ix.rules, ix.excs = b.texts.Mem(), b.cats.Mem(), b.locs.Mem(), b.rules.Mem(), b.excs.Mem()
	ix.areas, ix.radii, ix.arena, ix.post = b.areas.Mem(), b.radii.Mem(), b.arena.Mem(), b.postings.Mem()
	ix.scratch = make(chan *scratch, 8)
	b.ix = nil
	return ix
}

// WriteFile finishes the index of a spilling builder and writes its file
// (WriteTo's bytes for the same records); Close still removes the
// builder's temporary files.
func (b *Builder) WriteFile(w io.Writer) (int64, error) {
	if !b.spilling {
		return 0, errors.New("search: WriteFile of a builder that does not spill")
	}
	b.finish()
	if b.err != nil {
		return 0, b.err
	}
	var cols [numSections]publication.SectionSource
	cols[secEnts], cols[secFlags], cols[secHashes], cols[secPoints] = &b.ents, &b.flags, &b.hashes, &b.points
	cols[secTexts], cols[secCats], cols[secLocs], cols[secRules], cols[secExcs] = &b.texts, &b.cats, &b.locs, &b.rules, &b.excs
	cols[secAreas], cols[secRadii], cols[secArena], cols[secPost] = &b.areas, &b.radii, &b.arena, &b.postings
	data, err := b.ix.sectionData()
	if err != nil {
		return 0, err
	}
	b.ix = nil
	return writeSections(w, &data, &cols)
}

// finish makes the index's tables of words, categories, IDs and postal
// codes from what the entries added.
func (b *Builder) finish() {
	ix := b.ix
	b.reorder()
	b.sortPostal()
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
	if !b.spilling {
		total := 0
		for _, l := range b.lists {
			total += len(l)
		}
		b.postings.SetMem(make([]uint32, 0, total))
	}
	ix.start = make([]uint32, len(order)+1)
	for i, old := range order {
		sorted[i] = words[old]
		ix.start[i] = uint32(b.postings.Len())
		b.postings.Push(b.lists[old]...)
		b.lists[old] = nil
		b.postings.MaybeFlush()
	}
	ix.start[len(order)] = uint32(b.postings.Len())
	b.lists = nil
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
		return bytes.Compare(b.bytesOf(a.id), b.bytesOf(c.id))
	})
	ix.idHashes = make([]uint64, len(b.heldIDs))
	ix.idRefs = make([]ref, len(b.heldIDs))
	for i, h := range b.heldIDs {
		ix.idHashes[i], ix.idRefs[i] = h.hash, h.id
	}
	b.held, b.clash, b.heldIDs = nil, nil, nil
}

// sortPostal sorts each country's postal refs by code, then entry. The
// codes are interned (place), so each is known by where it is in the
// arena: they are read once each, ranked, and the refs sorted by rank.
func (b *Builder) sortPostal() {
	ix := b.ix
	rank := map[ref]int{}
	for _, l := range ix.postal {
		for _, p := range l {
			rank[p.code] = 0
		}
	}
	codes := slices.Collect(maps.Keys(rank))
	names := make(map[ref]string, len(codes))
	for _, c := range codes {
		names[c] = string(b.bytesOf(c))
	}
	slices.SortFunc(codes, func(a, c ref) int {
		if d := strings.Compare(names[a], names[c]); d != 0 {
			return d
		}
		return cmp.Compare(a.off, c.off)
	})
	for i, c := range codes {
		rank[c] = i
	}
	names = nil
	for c, l := range ix.postal {
		slices.SortFunc(l, func(a, c postalRef) int {
			if d := cmp.Compare(rank[a.code], rank[c.code]); d != 0 {
				return d
			}
			return int(a.at - c.at)
		})
		ix.postal[c] = l
	}
}
