package search_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// aligned is b copied to an address that is a multiple of 8, as a
// mapping's is.
func aligned(b []byte) []byte {
	w := make([]uint64, (len(b)+7)/8+1)
	a := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(b))
	copy(a, b)
	return a
}

// written is an index's file.
func written(t testing.TB, ix *search.Index) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := ix.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo says %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

// reopened is an index written, and opened from its file.
func reopened(t testing.TB, ix *search.Index) *search.Index {
	t.Helper()
	o, err := search.OpenIndex(aligned(written(t, ix)))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// layer is an index of records, hiding the IDs hide after them.
func layer(t testing.TB, recs []schemas.SearchRecord, hide []string) *search.Index {
	t.Helper()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	b := search.NewBuilder(g)
	for i := range recs {
		if err := b.Add(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range hide {
		b.Hide(id)
	}
	return b.Build()
}

// layers are the registry as a full publication's layer, which hides a
// few IDs, and a delta's, which changes some of its entries, removes
// others and hides an ID that is in neither: the latest first, with the
// IDs each holds.
func layers(t testing.TB) ([]*search.Index, []map[string]bool) {
	t.Helper()
	recs := records(t, registry())
	var full, delta []schemas.SearchRecord
	fullHidden := []string{"ent_01k8r3a0b1c2d3e4f5g6h7j8zz", "ent_01k8r3a0b1c2d3e4f5g6h7j8zy"}
	deltaHidden := []string{"ent_01k8r3a0b1c2d3e4f5g6h7j8zx"}
	for i, r := range recs {
		switch {
		case i%11 == 3:
			// Unlisted in the full publication.
			fullHidden = append(fullHidden, r.ID)
			continue
		case i%7 == 2:
			deltaHidden = append(deltaHidden, r.ID) // removed since
		case i%5 == 1:
			d := r
			d.Names = []schemas.LangText{{Lang: r.DefaultLanguage, Text: "Geändert " + r.Slug}}
			delta = append(delta, d)
		}
		full = append(full, r)
	}
	held := []map[string]bool{{}, {}}
	for i, l := range [][]schemas.SearchRecord{delta, full} {
		for _, r := range l {
			held[i][r.ID] = true
		}
	}
	for i, l := range [][]string{deltaHidden, fullHidden} {
		for _, id := range l {
			held[i][id] = true
		}
	}
	// Hiding an entry of the layer leaves it its entry.
	deltaHidden = append(deltaHidden, delta[0].ID)
	return []*search.Index{layer(t, delta, deltaHidden), layer(t, full, fullHidden)}, held
}

// relevanceInputs are the relevance set's queries, each with its now.
func relevanceInputs(t testing.TB) ([]schemas.SearchInput, []time.Time) {
	set := readRelevanceSet(t)
	var ins []schemas.SearchInput
	var nows []time.Time
	for _, c := range set.Cases {
		ins, nows = append(ins, c.Input), append(nows, set.nowOf(t, c))
	}
	return ins, nows
}

// sameAnswers checks that two searchers answer every input alike: the
// same hits in the same order on every page, the same place and errors.
// It returns the hits compared.
func sameAnswers(t *testing.T, built, opened *search.Searcher, ins []schemas.SearchInput, nows []time.Time) []schemas.SearchHit {
	t.Helper()
	var all []schemas.SearchHit
	for i, in := range ins {
		firstB, hitsB, errB := allHits(t, built, in, nows[i])
		firstO, hitsO, errO := allHits(t, opened, in, nows[i])
		q, _ := json.Marshal(in)
		if fmt.Sprint(errB) != fmt.Sprint(errO) {
			t.Fatalf("%s: built %v, opened %v", q, errB, errO)
		}
		if !reflect.DeepEqual(firstB, firstO) || !reflect.DeepEqual(hitsB, hitsO) {
			t.Fatalf("%s: the opened index answers otherwise:\nbuilt  %d hits %v\nopened %d hits %v",
				q, len(hitsB), slugsOf(schemas.SearchOutput{Hits: hitsB}), len(hitsO), slugsOf(schemas.SearchOutput{Hits: hitsO}))
		}
		all = append(all, hitsB...)
	}
	for _, town := range [][2]string{{"", ""}, {"Wuppertal", ""}, {"Berlin", "DE"}, {"Paris", "US"}} {
		for _, lang := range []string{"de", "en"} {
			if b, o := built.Browse(town[0], town[1], lang), opened.Browse(town[0], town[1], lang); !reflect.DeepEqual(b, o) {
				t.Fatalf("Browse(%q, %q, %s) differs:\n%+v\n%+v", town[0], town[1], lang, b, o)
			}
		}
	}
	return all
}

// moreInputs are the fixtures' searches and the benchmark's mix over the
// registry's towns, at every hour of a day (the turns change each hour).
func moreInputs(t testing.TB) ([]schemas.SearchInput, []time.Time) {
	_, mix := benchSearcher(t, 1)
	var ins []schemas.SearchInput
	var nows []time.Time
	for h := range 24 {
		at := monday.Add(time.Duration(h) * time.Hour)
		ins = append(ins, schemas.SearchInput{Query: "Tischlerei Einbauschrank", Near: &schemas.Near{Place: "Wuppertal"}, Limit: 20},
			schemas.SearchInput{Query: "Tischlerei", Limit: 7}, mix[h], mix[h+24], mix[h+48])
		nows = append(nows, at, at, at, at, at)
	}
	return ins, nows
}

// TestIndexFile_SameAnswers: an index written and opened from its file
// answers every query of the relevance set, the fixtures' and the
// benchmark's mixes, whichever way tier 1 is weighed, exactly as the
// index built: alone and as the full layer under a delta that replaces,
// removes and hides entries.
func TestIndexFile_SameAnswers(t *testing.T) {
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	built, _ := layers(t)
	opened := []*search.Index{reopened(t, built[0]), reopened(t, built[1])}
	ins, nows := relevanceInputs(t)
	more, moreNows := moreInputs(t)
	ins, nows = append(ins, more...), append(nows, moreNows...)
	for _, path := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprintf("path%d", path), func(t *testing.T) {
			search.SetWeighPath(path)
			defer search.SetWeighPath(0)
			full := sameAnswers(t, &search.Searcher{Layers: built[1:], Gaz: g}, &search.Searcher{Layers: opened[1:], Gaz: g}, ins, nows)
			both := sameAnswers(t, &search.Searcher{Layers: built, Gaz: g}, &search.Searcher{Layers: opened, Gaz: g}, ins, nows)
			// The delta's entries replace the full layer's, and its
			// removed ones are not found.
			changed := slices.ContainsFunc(both, func(h schemas.SearchHit) bool { return strings.HasPrefix(h.DisplayName, "Geändert ") })
			if len(full) < 1000 || len(both) >= len(full) || !changed {
				t.Fatalf("%d hits of the full layer, %d of both (changed ones among them: %v)", len(full), len(both), changed)
			}
		})
	}
	// The generated mix over generated entries, with hours.
	bs, mix := benchSearcher(t, 3000)
	bo := &search.Searcher{Layers: []*search.Index{reopened(t, bs.Layers[0])}, Gaz: g}
	at := make([]time.Time, len(mix))
	for i := range at {
		at[i] = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	}
	sameAnswers(t, bs, bo, mix, at)
}

// TestIndexFile_Clashes: IDs that share a hash (here most do) are held
// and hidden by their bytes, in the file as in the built index.
func TestIndexFile_Clashes(t *testing.T) {
	defer search.SetIDHash(func(id string) uint64 { return search.IDHash(id) % 5 })()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	built, held := layers(t)
	opened := []*search.Index{reopened(t, built[0]), reopened(t, built[1])}
	ids := []string{"ent_01k8r3a0b1c2d3e4f5g6h7j8zz", "ent_01k8r3a0b1c2d3e4f5g6h7j8zy", "ent_01k8r3a0b1c2d3e4f5g6h7j8zx", "ent_nothing", ""}
	for _, r := range records(t, registry()) {
		ids = append(ids, r.ID, r.ID+"x", r.ID[:len(r.ID)-1])
	}
	for _, id := range ids {
		for i := range built {
			if b, o := built[i].Has(id), opened[i].Has(id); b != held[i][id] || o != held[i][id] {
				t.Fatalf("layer %d: Has(%q) is %v built, %v opened; want %v", i, id, b, o, held[i][id])
			}
		}
	}
	ins, nows := relevanceInputs(t)
	sameAnswers(t, &search.Searcher{Layers: built, Gaz: g}, &search.Searcher{Layers: opened, Gaz: g}, ins, nows)
}

// TestIndexFile_SameBytes: the same index writes the same bytes, twice,
// and once opened from them.
func TestIndexFile_SameBytes(t *testing.T) {
	built, _ := layers(t)
	for i, ix := range built {
		first := written(t, ix)
		if !bytes.Equal(first, written(t, ix)) {
			t.Fatalf("layer %d: two writes differ", i)
		}
		if !bytes.Equal(first, written(t, reopened(t, ix))) {
			t.Fatalf("layer %d: the opened index writes other bytes", i)
		}
	}
	// Built twice from the same records, too.
	again, _ := layers(t)
	if a, b := written(t, built[1]), written(t, again[1]); !bytes.Equal(a, b) {
		t.Fatal("two builds write different bytes")
	}
}

// TestIndexFile_NoPadding: no type OpenIndex takes from a file's bytes
// as they are has padding, whose bytes nobody sets: each struct's fields
// fill it, and every field is a number, a bool or an array of them.
func TestIndexFile_NoPadding(t *testing.T) {
	built, _ := layers(t)
	file := aligned(written(t, built[1]))
	types := search.AliasedTypes(func() {
		if _, err := search.OpenIndex(file); err != nil {
			t.Fatal(err)
		}
	})
	// The ten structs of the index's arrays, its numbers and countries.
	if len(types) < 16 {
		t.Fatalf("only %d types aliased: %v", len(types), types)
	}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Array:
			walk(typ.Elem(), path+"[]")
		case reflect.Struct:
			var sum uintptr
			for i := range typ.NumField() {
				f := typ.Field(i)
				sum += f.Type.Size()
				walk(f.Type, path+"."+f.Name)
			}
			if sum != typ.Size() {
				t.Errorf("%s: fields of %d bytes in %d: add blank fields where it pads", path, sum, typ.Size())
			}
		case reflect.Bool, reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16, reflect.Int32, reflect.Uint32,
			reflect.Int64, reflect.Uint64, reflect.Float32, reflect.Float64:
		default:
			t.Errorf("%s: a %s can't be read from a file", path, typ)
		}
	}
	for _, typ := range types {
		walk(typ, typ.String())
	}
}

// TestIndexFile_Refused: a file that is not one, of a newer version, cut
// short, with a section out of bounds, misaligned or of a wrong length,
// or with numbers that would send a query out of its arrays is refused,
// naming what is wrong.
func TestIndexFile_Refused(t *testing.T) {
	built, _ := layers(t)
	good := written(t, built[0])
	le := binary.LittleEndian
	// section is where a section is, entry its entry in the table.
	section := func(b []byte, name string) (int, int) {
		_, off, n, err := search.SectionSpan(aligned(b), name)
		if err != nil {
			t.Fatal(err)
		}
		return off, n
	}
	entry := func(b []byte, name string) []byte {
		e, _, _, err := search.SectionSpan(aligned(b), name)
		if err != nil {
			t.Fatal(err)
		}
		return b[e:]
	}
	change := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"magic", change(func(b []byte) []byte { b[0] = 'X'; return b }), "magic"},
		{"newer", change(func(b []byte) []byte { le.PutUint32(b[16:], search.FileVersion+1); return b }), "newer"},
		{"short", good[:len(good)-64], "header says"},
		{"no header", good[:20], "fewer than a header"},
		{"size", change(func(b []byte) []byte { le.PutUint64(b[24:], 1<<40); return b }), "header says"},
		{"out of bounds", change(func(b []byte) []byte { le.PutUint64(entry(b, "locs")[16:], 1<<30); return b }), "section locs: bytes"},
		{"misaligned", change(func(b []byte) []byte { e := entry(b, "post"); le.PutUint64(e[8:], le.Uint64(e[8:])+8); return b }), "section post: at"},
		{"length", change(func(b []byte) []byte { e := entry(b, "ents"); le.PutUint64(e[16:], le.Uint64(e[16:])-8); return b }), "section ents: 1"},
		{"element", change(func(b []byte) []byte { le.PutUint32(entry(b, "texts")[4:], 16); return b }), "section texts: elements of 16"},
		{"twice", change(func(b []byte) []byte { le.PutUint32(entry(b, "radii")[0:], le.Uint32(entry(b, "areas")[0:])); return b }), "section areas: twice"},
		{"start", change(func(b []byte) []byte { off, _ := section(b, "start"); le.PutUint32(b[off+4:], 1<<31); return b }), "section start: "},
		{"catStart", change(func(b []byte) []byte {
			off, n := section(b, "catStart")
			le.PutUint32(b[off+n-4:], le.Uint32(b[off+n-4:])+1)
			return b
		}), "section catStart: offsets up to"},
		{"word offsets", change(func(b []byte) []byte {
			off, n := section(b, "words.forward.off")
			le.PutUint32(b[off+n-4:], le.Uint32(b[off+n-4:])+1)
			return b
		}), "section words.forward.off"},
		// Entry 0's texts field is at bytes 24 to 28, its ID's length at 4 to 8.
		{"ent texts", change(func(b []byte) []byte { off, _ := section(b, "ents"); le.PutUint32(b[off+24:], 1<<30); return b }), "section ents: entry 0: its texts"},
		{"ent ID", change(func(b []byte) []byte { off, _ := section(b, "ents"); le.PutUint32(b[off+4:], 1<<30); return b }), "section ents: entry 0: its ID"},
		{"posting", change(func(b []byte) []byte { off, _ := section(b, "post"); le.PutUint32(b[off:], 1<<29); return b }), "section post: posting 0"},
		{"place list", change(func(b []byte) []byte { off, _ := section(b, "byTown.ents"); le.PutUint32(b[off:], 1<<29); return b }), "section byTown.ents"},
		{"taxonomy", change(func(b []byte) []byte { off, _ := section(b, "taxonomy"); b[off] ^= 1; return b }), "another taxonomy"},
		{"zone", change(func(b []byte) []byte { off, _ := section(b, "zones"); b[off+1] = '/'; return b }), "section zones"},
	}
	for _, c := range cases {
		ix, err := search.OpenIndex(aligned(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error with %q, got %v", c.name, c.want, err)
		} else if ix != nil {
			t.Errorf("%s: an index with the error", c.name)
		}
	}
	// Bytes that do not start at a multiple of 8.
	w := make([]uint64, len(good)/8+2)
	odd := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)[4 : 4+len(good)]
	copy(odd, good)
	if _, err := search.OpenIndex(odd); err == nil || !strings.Contains(err.Error(), "multiple of 8") {
		t.Errorf("misaligned bytes: %v", err)
	}
}

// FuzzOpenIndex: whatever the bytes, OpenIndex refuses them or opens an
// index that queries, browsing and writing run over without panicking.
func FuzzOpenIndex(f *testing.F) {
	g, err := gazetteer()
	if err != nil {
		f.Fatal(err)
	}
	// A few entries, with hours, a postcode, a radius, a person, and a
	// hidden ID: a small file mutates and minimizes fast.
	var few []*schemas.Entry
	for _, slug := range []string{"holzwerk-krause", "firin-deniz", "thornbury-hale-joinery", "person-miriam-hoffmann"} {
		few = append(few, fixtures.Entry(slug))
	}
	good := written(f, layer(f, records(f, few), []string{"ent_01k8r3a0b1c2d3e4f5g6h7j8zz"}))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(good[:100])
	for _, at := range []int{17, 40, 64 + 3, len(good) / 3, len(good) / 2, len(good) - 70} {
		b := bytes.Clone(good)
		b[at] ^= 0x10
		f.Add(b)
	}
	built := searcher(f, fixtureEntries()).Layers[0]
	yes := true
	ins := []schemas.SearchInput{
		{Query: "Tischlerei Einbauschrank", Near: &schemas.Near{Place: "Wuppertal"}},
		{Query: "joinery", Near: &schemas.Near{PostalCode: "SW1A 1AA", Country: "GB"}, Category: "trades"},
		{Query: "Bäckerei", OpenAt: "2026-12-05T01:00:00+03:00", Near: &schemas.Near{Place: "Atlantis"}},
		{Query: "Tischlerei", AcceptingWork: &yes, Kind: schemas.KindOrganization, Limit: 20},
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				panic("slow")
			}
		}()
		ix, err := search.OpenIndex(aligned(b))
		if err != nil {
			return
		}
		for _, layers := range [][]*search.Index{{ix}, {ix, built}, {built, ix}} {
			s := &search.Searcher{Layers: layers, Gaz: g}
			for _, in := range ins {
				if _, _, err := allHitsOf(s, in); err != nil {
					t.Fatalf("%+v: %v", in, err)
				}
			}
			s.Browse("", "", "de")
			s.Browse("Wuppertal", "DE", "en")
		}
		ix.Has("ent_01k8r3a0b1c2d3e4f5g6h7j8zz")
		if _, err := ix.WriteTo(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// allHitsOf pages through a search, as allHits does, without a test's
// T to fail.
func allHitsOf(s *search.Searcher, in schemas.SearchInput) (schemas.SearchOutput, int, error) {
	first, err := s.Search(in, monday, opts)
	out, n := first, len(first.Hits)
	for err == nil && out.NextCursor != "" && n < 200 {
		in.Cursor = out.NextCursor
		out, err = s.Search(in, monday, opts)
		n += len(out.Hits)
	}
	return first, n, err
}

// BenchmarkOpenIndex: opening the file of 200,000 generated entries,
// every check of it included (from memory: a mapping's first open also
// reads the file from disk).
func BenchmarkOpenIndex(b *testing.B) {
	s, _ := benchSearcher(b, 200_000)
	file := aligned(written(b, s.Layers[0]))
	for b.Loop() {
		if _, err := search.OpenIndex(file); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(file))/1e6, "MB")
	b.ReportMetric(float64(len(file))/200_000, "B/entry")
}

// TestWeighPaths_SameAnswers: weighing tier 1's (and tier 2's) entries
// alone (D125), by cursors in their order (way 1), by reading the lists
// between the first and the last entry (way 3) or as the cost chooses
// (way 0), finds every page that tallying the postings whole (way 2)
// finds, with the same hits in the same order: the relevance set, the
// fixtures' searches and the generated mix, over the fixtures' two
// layers and over generated entries.
func TestWeighPaths_SameAnswers(t *testing.T) {
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	built, _ := layers(t)
	ins, nows := relevanceInputs(t)
	more, moreNows := moreInputs(t)
	ins, nows = append(ins, more...), append(nows, moreNows...)
	bs, mix := benchSearcher(t, 3000)
	fixtures := &search.Searcher{Layers: built, Gaz: g}
	type run struct {
		s   *search.Searcher
		in  schemas.SearchInput
		now time.Time
	}
	var runs []run
	for i := range ins {
		runs = append(runs, run{fixtures, ins[i], nows[i]})
	}
	for h := range mix {
		runs = append(runs, run{bs, mix[h], monday.Add(time.Duration(h%24) * time.Hour)})
	}
	answers, errs := map[int][][]schemas.SearchHit{}, map[int][]string{}
	for _, path := range []int{0, 1, 2, 3} {
		search.SetWeighPath(path)
		for _, r := range runs {
			_, hits, err := allHits(t, r.s, r.in, r.now)
			answers[path] = append(answers[path], hits)
			errs[path] = append(errs[path], fmt.Sprint(err))
		}
	}
	search.SetWeighPath(0)
	found := 0
	for i, r := range runs {
		for _, path := range []int{0, 1, 3} {
			if !reflect.DeepEqual(answers[path][i], answers[2][i]) || errs[path][i] != errs[2][i] {
				q, _ := json.Marshal(r.in)
				t.Fatalf("%s: way %d %v\nby the postings whole %v", q, path, slugsOf(schemas.SearchOutput{Hits: answers[path][i]}), slugsOf(schemas.SearchOutput{Hits: answers[2][i]}))
			}
		}
		found += len(answers[2][i])
	}
	if found < len(runs) {
		t.Fatalf("%d hits for %d queries: too few to compare", found, len(runs))
	}
}
