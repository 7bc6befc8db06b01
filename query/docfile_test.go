package query

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// publishFixtures compiles the register samples and saved websites (the
// pipeline is only the tests' way to make a publication: the serving side
// reads the publication format) and publishes them, with the server's
// indexes (D115) when serve is set.
func publishFixtures(t testing.TB, serve bool) (state, out string, site render.Site) {
	t.Helper()
	root := t.TempDir()
	state, out = filepath.Join(root, "state"), filepath.Join(root, "out")
	arch, err := pipeline.OpenArchive("../fixtures/websites", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	ctx := context.Background()
	if _, err := pipeline.Compile(ctx, pipeline.CompileConfig{StateDir: state, Sites: arch, Seed: "../fixtures/compile/identity-seed.json",
		Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl", "../fixtures/registers/companies-house-sample.csv"},
		Now:       time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	site, _ = render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	cfg := pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 2, 4, 5, 0, 0, time.UTC)}
	if serve {
		cfg.ServeIndexes = ServeIndexer(nil)
	}
	if _, err := pipeline.Publish(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	return state, out, site
}

// publishServed publishes the fixtures with the server's indexes: the
// publication's directory and manifest.
func publishServed(t testing.TB) (dir string, m *publication.Manifest) {
	t.Helper()
	_, out, _ := publishFixtures(t, true)
	dir, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = publication.ReadManifest(dir); err != nil {
		t.Fatal(err)
	}
	return dir, m
}

// openPacks opens a publication's packs by name, closed when the test
// ends.
func openPacks(t *testing.T, dir string, names []string) map[string]*pack {
	t.Helper()
	packs := map[string]*pack{}
	for _, name := range names {
		p, err := openPack(filepath.Join(dir, filepath.FromSlash(name)), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.f.Close() })
		packs[name] = p
	}
	return packs
}

// TestServeFiles_SameAnswersAsBuilt: the indexes a publication writes for
// its server (D115) answer every lookup as the index built from the
// document index does: every document by its path and by its entry,
// every entry by ID and slug, the registry-level files, and the same
// search results.
func TestServeFiles_SameAnswersAsBuilt(t *testing.T) {
	dir, m := publishServed(t)
	if m.Serve == nil || m.Serve.Index != m.Index[0] {
		t.Fatalf("the manifest names no server indexes of %v: %+v", m.Index, m.Serve)
	}
	for _, f := range []string{m.Serve.Docs, m.Serve.Search} {
		if m.Files[f] == "" {
			t.Errorf("the manifest has no checksum of %s", f)
		}
	}
	if _, err := publication.VerifyForServing(dir); err != nil {
		t.Fatal(err)
	}
	built, err := readDocIndex(dir, m.Index[:1])
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := openServeFiles(dir, *m.Serve)
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.release()
	if len(mapped.docs) != len(built.docs) || len(mapped.ents) != len(built.ents) || len(built.docs) < 100 {
		t.Fatalf("mapped: %d documents of %d entries; built: %d of %d", len(mapped.docs), len(mapped.ents), len(built.docs), len(built.ents))
	}
	if !reflect.DeepEqual(mapped.site, built.site) {
		t.Error("the registry-level files differ")
	}
	bl, ml := layers{base: built}, layers{base: mapped}
	for i := range built.docs {
		want, got := built.row(int32(i)), mapped.row(int32(i))
		if !sameRow(&want, &got) {
			t.Fatalf("document %d: built %+v, mapped %+v", i, want, got)
		}
		if want.Path == "" {
			continue
		}
		bix, bi, bok := bl.docAt(want.Path)
		mix, mi, mok := ml.docAt(want.Path)
		if bok != mok || bi != mi || (bok && (bix != built || mix != mapped)) {
			t.Fatalf("%s: built %d %v, mapped %d %v", want.Path, bi, bok, mi, mok)
		}
	}
	for at := range built.ents {
		id, slug := string(built.idOf(int32(at))), string(built.slugOf(int32(at)))
		if r, ok := ml.byID(id); ok != !built.ents[at].removed || (ok && r.at != int32(at)) {
			t.Fatalf("entry %s by ID: %+v %v", id, r, ok)
		}
		if r, ok := ml.bySlug(slug); !built.ents[at].removed && (!ok || r.at != int32(at)) {
			t.Fatalf("entry %s by slug %s: %+v %v", id, slug, r, ok)
		}
	}
	for _, absent := range []string{"", "ent_nosuchentry", "no-such-slug"} {
		if _, ok := ml.byID(absent); ok {
			t.Errorf("%q found by ID", absent)
		}
		if _, ok := ml.bySlug(absent); ok {
			t.Errorf("%q found by slug", absent)
		}
	}

	// Search: the mapped index finds what the built one finds.
	gaz, err := places.Default()
	if err != nil {
		t.Fatal(err)
	}
	packs := openPacks(t, dir, built.packs)
	six, err := buildSearchIndex(built, packs, gaz)
	if err != nil {
		t.Fatal(err)
	}
	// The publication streamed the search records from its index file
	// (searchRows); the server's way, over its document index, makes the
	// same index byte for byte.
	var fromIndex bytes.Buffer
	if _, err := six.WriteTo(&fromIndex); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fromIndex.Bytes(), mapped.search.mapped.Bytes()) {
		t.Error("the search index file differs from the index built over the document index")
	}
	msix, err := search.OpenIndex(mapped.search.mapped.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 10, 6, 8, 0, 0, 0, time.UTC)
	hits := 0
	for _, in := range []schemas.SearchInput{
		{Query: "Tischler", Near: &schemas.Near{Place: "Berlin"}},
		{Query: "Schreinerei Einbauschrank"},
		{Query: "plumber", Near: &schemas.Near{Place: "London"}},
		{Query: "bakery"},
		{Query: "Elektriker", Category: "trades"},
		{Query: "café", OpenAt: "2026-10-07T10:00:00+02:00"},
	} {
		want, werr := (&search.Searcher{Layers: []*search.Index{six}, Gaz: gaz}).Search(in, now, search.Options{})
		got, gerr := (&search.Searcher{Layers: []*search.Index{msix}, Gaz: gaz}).Search(in, now, search.Options{})
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(wj, gj) {
			t.Errorf("%+v: built %s (%v), mapped %s (%v)", in, wj, werr, gj, gerr)
		}
		hits += len(want.Hits)
	}
	if hits == 0 {
		t.Error("no query found anything: the comparison compared nothing")
	}
}

// TestDocFile_SameBytesAndDamageRefused: a document index writes the same
// bytes each time (those of the publication's file); a file cut short, or
// whose arrays point outside themselves, is refused at open, never read
// out of bounds by a request.
func TestDocFile_SameBytesAndDamageRefused(t *testing.T) {
	dir, m := publishServed(t)
	built, err := readDocIndex(dir, m.Index[:1])
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if _, err := writeDocFile(&a, built); err != nil {
		t.Fatal(err)
	}
	if _, err := writeDocFile(&b, built); err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m.Serve.Docs)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || !bytes.Equal(a.Bytes(), onDisk) {
		t.Fatal("the same index wrote different bytes")
	}
	open := func(data []byte) error {
		tmp := filepath.Join(t.TempDir(), "x.docs")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		mp, err := publication.MapFile(tmp)
		if err != nil {
			return err
		}
		ix, err := openDocFile(mp)
		if err == nil {
			ix.mapped.Release()
		} else {
			mp.Release()
		}
		return err
	}
	if err := open(onDisk); err != nil {
		t.Fatalf("the good file: %v", err)
	}
	secs, err := publication.ReadSections(onDisk, docFileKind, docFileVersion)
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string) int {
		data, err := secs.Get(name, map[string]int{"docs": 32, "ents": 48, "byid": 4}[name])
		if err != nil {
			t.Fatal(err)
		}
		return int(uintptr(unsafe.Pointer(unsafe.SliceData(data))) - uintptr(unsafe.Pointer(unsafe.SliceData(onDisk))))
	}
	damage := map[string]func([]byte){
		"cut short":                   func(d []byte) {},
		"a document of no entry":      func(d []byte) { copy(d[at("docs")+20:], []byte{0xff, 0xff, 0xff, 0x7f}) },
		"an entry past the arena":     func(d []byte) { copy(d[at("ents")+16:], []byte{0xff, 0xff, 0xff, 0x7f}) },
		"a slot past the entries":     func(d []byte) { copy(d[at("byid"):], []byte{0xff, 0xff, 0xff, 0x7f}) },
		"another kind of file":        func(d []byte) { copy(d[8:], "search\x00\x00") },
		"a version this engine lacks": func(d []byte) { d[16] = docFileVersion + 1 },
	}
	for name, f := range damage {
		d := bytes.Clone(onDisk)
		if name == "cut short" {
			d = d[:len(d)-100]
		}
		f(d)
		if err := open(d); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}

// TestDocRecords_NoPadding: the records a document index file holds have
// no padding the compiler adds, so their bytes are all written on purpose
// (the same index, the same file).
func TestDocRecords_NoPadding(t *testing.T) {
	for _, v := range []any{docRec{}, entryRec{}} {
		ty := reflect.TypeOf(v)
		sum := uintptr(0)
		for i := range ty.NumField() {
			sum += ty.Field(i).Type.Size()
		}
		if sum != ty.Size() {
			t.Errorf("%s: fields of %d bytes in %d", ty, sum, ty.Size())
		}
	}
	if unsafe.Sizeof(docRec{}) != 32 || unsafe.Sizeof(entryRec{}) != 48 {
		t.Errorf("docRec %d bytes, entryRec %d", unsafe.Sizeof(docRec{}), unsafe.Sizeof(entryRec{}))
	}
}

// TestServeFiles_UnusableFilesAreBuiltAgain: server indexes this server
// cannot use (damaged, or written by an engine of another taxonomy or
// version) cost the time of building them, not the publication: the
// snapshot opens, says why (ServeFilesErr), and serves and searches as
// from the document index.
func TestServeFiles_UnusableFilesAreBuiltAgain(t *testing.T) {
	dir, m := publishServed(t)
	good, err := OpenSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer good.close()
	if good.ServeFilesErr != nil || good.ix.base.mapped == nil {
		t.Fatalf("the good files were not mapped: %v", good.ServeFilesErr)
	}
	now := time.Date(2026, 10, 6, 8, 0, 0, 0, time.UTC)
	in := schemas.SearchInput{Query: "Tischler"}
	want, err := good.Searcher().Search(in, now, search.Options{})
	if err != nil || len(want.Hits) == 0 {
		t.Fatalf("search on the mapped index: %v %v", want, err)
	}
	for _, name := range []string{m.Serve.Search, m.Serve.Docs} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		copy(b[:8], "garbage!")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sn, err := OpenSnapshot(dir)
		if err != nil {
			t.Fatalf("%s damaged: the publication is refused: %v", name, err)
		}
		if sn.ServeFilesErr == nil {
			t.Errorf("%s damaged: no reason given", name)
		}
		if _, ok := sn.Doc("/schreinerei-beispiel.md"); !ok {
			t.Errorf("%s damaged: /schreinerei-beispiel.md not found", name)
		}
		got, err := sn.Searcher().Search(in, now, search.Options{})
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		if err != nil || !bytes.Equal(wj, gj) {
			t.Errorf("%s damaged: search %s (%v), want %s", name, gj, err, wj)
		}
		sn.close()
	}
}

// TestServeFiles_DeltaSharesTheMappedLayer: a delta publication links the
// full publication's server indexes and names them in its manifest; the
// server swapping to it keeps the mapped full layer (one map, a reference
// more) and serves the delta's changes over it; the map is given back
// when the last snapshot using it closes.
func TestServeFiles_DeltaSharesTheMappedLayer(t *testing.T) {
	state, out, site := publishFixtures(t, true)
	snaps, err := OpenSnapshots(out)
	if err != nil {
		t.Fatal(err)
	}
	defer snaps.Close()
	full := snaps.Acquire()
	base := full.ix.base
	if base.mapped == nil || full.ServeFilesErr != nil {
		t.Fatalf("the full publication's indexes are not mapped: %v", full.ServeFilesErr)
	}
	full.Release()
	ctx := context.Background()
	events := filepath.Join(t.TempDir(), "events.jsonl")
	at := time.Date(2026, 10, 2, 5, 0, 0, 0, time.UTC)
	if err := pipeline.ReportEvents(state, events, 3, at); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Compile(ctx, pipeline.CompileConfig{StateDir: state, Verification: []string{events}, Now: at.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Publish(ctx, pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Delta: true,
		ServeIndexes: ServeIndexer(nil), Now: at.Add(2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	dir, _ := publication.Current(out)
	m, err := publication.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Delta || m.Serve == nil || m.Serve.Index != m.Index[0] || len(m.Index) < 2 {
		t.Fatalf("the delta's manifest: delta %v, index %v, serve %+v", m.Delta, m.Index, m.Serve)
	}
	for _, f := range []string{m.Serve.Docs, m.Serve.Search} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("the delta lacks %s: %v", f, err)
		}
	}
	if swapped, err := snaps.Refresh(); err != nil || !swapped {
		t.Fatalf("swap to the delta: %v %v", swapped, err)
	}
	delta := snaps.Acquire()
	if delta.ix.base != base || delta.ix.top == nil {
		t.Fatal("the delta's snapshot does not share the mapped full layer")
	}
	if n := base.mapped.Refs(); n != 1 {
		t.Errorf("the mapped layer has %d references after the full snapshot closed, want 1 (the delta's)", n)
	}
	if len(delta.ix.top.ents) != 3 {
		t.Errorf("the delta layer holds %d entries, want the 3 changed", len(delta.ix.top.ents))
	}
	if _, ok := delta.Doc("/schreinerei-beispiel.md"); !ok {
		t.Error("the delta snapshot does not find an entry of the full layer")
	}
	delta.Release()
	snaps.Close()
	if n := base.mapped.Refs(); n != 0 || base.mapped.Bytes() != nil {
		t.Errorf("after the last snapshot closed the map has %d references", n)
	}
}

// FuzzOpenDocFile: whatever the bytes, openDocFile refuses them or opens
// an index whose every lookup stays inside its arrays (no panic, no
// endless probe).
func FuzzOpenDocFile(f *testing.F) {
	dir, m := publishServed(f)
	good, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m.Serve.Docs)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	for _, at := range []int{20, 100, 200, len(good) / 3, len(good) - 50} {
		b := bytes.Clone(good)
		b[at] ^= 0xff
		f.Add(b)
	}
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		path := filepath.Join(tmp, "fuzz.docs")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		mp, err := publication.MapFile(path)
		if err != nil {
			return
		}
		defer mp.Release()
		ix, err := openDocFile(mp)
		if err != nil {
			return
		}
		l := layers{base: ix}
		for i := range min(len(ix.docs), 50) {
			if r := ix.row(int32(i)); strings.HasPrefix(r.Path, "/") { // as a route asks
				l.docAt(r.Path)
			}
		}
		for _, k := range []string{"", "ent_x", "schreinerei-beispiel", string(data[:min(len(data), 40)])} {
			l.byID(k)
			l.bySlug(k)
		}
	})
}
