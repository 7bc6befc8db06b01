package pipeline

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"

	"github.com/daawid/registry/feeds"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// compileExamples compiles the contract's two examples from their sources
// (as TestCompile_SpecExamplesFromSources does) and returns the state.
func compileExamples(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	inbox := filepath.Join(dir, "inbox")
	arch, err := OpenArchive("../fixtures/websites", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	regs := []string{"../fixtures/registers/offeneregister-sample.jsonl", "../fixtures/registers/companies-house-sample.csv"}
	cfg := CompileConfig{StateDir: state, Registers: regs, Sites: arch, Seed: "../fixtures/compile/identity-seed.json",
		Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../fixtures/compile/inbox/holzwerk-krause.json", filepath.Join(inbox, "holzwerk-krause.json"))
	cfg.OwnerInbox = inbox
	cfg.Now = time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)
	cfg.Verification = []string{"../fixtures/compile/verification.jsonl"}
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	return state
}

// doc reads one document of a publication by path.
func doc(t *testing.T, pub, path string) ([]byte, publication.DocRow) {
	t.Helper()
	docs, err := publication.ReadPublicationDocs(pub)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Path == path && (d.Kind != render.KindView) {
			return docBytes(t, pub, d), d
		}
	}
	t.Fatalf("%s: no document %s", pub, path)
	return nil, publication.DocRow{}
}

func docBytes(t *testing.T, pub string, d publication.DocRow) []byte {
	t.Helper()
	pack, err := os.Open(filepath.Join(pub, filepath.FromSlash(d.Pack)))
	if err != nil {
		t.Fatal(err)
	}
	defer pack.Close()
	b, err := io.ReadAll(io.NewSectionReader(pack, d.Offset, d.Length))
	if err != nil {
		t.Fatal(err)
	}
	// Packs store documents compressed (issue 18); the tests compare
	// documents as served.
	body, err := publication.DecodeDoc(nil, b, d.Encoding)
	if err != nil {
		t.Fatalf("%s: %v", d.Path, err)
	}
	return body
}

// TestPublish_Examples: a publication of the compiled examples holds §3.6
// and §3.7 byte for byte at their paths, the discovery files of §5, a
// manifest whose checksums verify, and a registry.duckdb that explains
// itself; `current` points at it. Publishing the same state again copies
// every entry instead of rendering it, with the same bytes.
func TestPublish_Examples(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	rep, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entries < 80 || rep.Rendered != rep.Entries || rep.Reused != 0 {
		t.Fatalf("first publication: %+v", rep)
	}
	pub, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := publication.Verify(pub)
	if err != nil {
		t.Fatal(err)
	}
	// Its files: the registry database, the pack, the index and one feed
	// segment, Parquet only (D122).
	if m.Counts["entries"] != rep.Entries || m.Run == "" || len(m.Files) != 4 || m.FeedLast != rep.Entries {
		t.Fatalf("manifest: %+v", m)
	}
	// D120: the kinds that are never served are stored with their
	// dictionaries, and no served document is but the legal notice and
	// the JSON view (D130), which servers decode for every client.
	decoded := map[string]bool{render.KindLegal: true, render.KindView: true}
	for _, f := range render.Table {
		if f.Path != nil && publication.HasDictionary(f.Name) != decoded[f.Name] {
			t.Errorf("the served kind %s: dictionary %v", f.Name, publication.HasDictionary(f.Name))
		}
	}
	all, err := publication.ReadPublicationDocs(pub)
	if err != nil {
		t.Fatal(err)
	}
	withDict := map[string]int{}
	for _, d := range all {
		if d.Encoding == publication.EncodingZstdDict {
			withDict[d.Kind]++
			if d.Path != "" && !decoded[d.Kind] {
				t.Errorf("%s (%s) is served and stored with a dictionary", d.Path, d.Kind)
			}
			docBytes(t, pub, d) // decodes
		}
	}
	for _, kind := range []string{render.KindCard, render.KindSearch, render.KindEntry, render.KindLegal, render.KindView} {
		if withDict[kind] == 0 {
			t.Errorf("no %s document is stored with its dictionary", kind)
		}
	}
	hk, hkDoc := doc(t, pub, "/holzwerk-krause.md")
	if !bytes.Equal(hk, fixtures.Spec("holzwerk-krause.de.md")) {
		t.Errorf("/holzwerk-krause.md differs from §3.6")
	}
	if hkDoc.ETag == "" || hkDoc.LastModified.IsZero() || hkDoc.MediaType != "text/markdown; charset=utf-8" {
		t.Errorf("document row: %+v", hkDoc)
	}
	if sb, _ := doc(t, pub, "/schreinerei-beispiel.md"); !bytes.Equal(sb, fixtures.Spec("schreinerei-beispiel.de.md")) {
		t.Errorf("/schreinerei-beispiel.md differs from §3.7")
	}
	for path, want := range map[string][]byte{"/llms.txt": fixtures.LLMSTxt(), "/robots.txt": fixtures.Spec("robots.txt"), "/mcp/server-card": fixtures.Spec("server-card.json")} {
		if got, _ := doc(t, pub, path); !bytes.Equal(got, want) {
			t.Errorf("%s differs from §5", path)
		}
	}
	if sm, _ := doc(t, pub, "/sitemap.xml"); !bytes.Contains(sm, []byte("<loc>https://daawid.example/holzwerk-krause</loc>")) {
		t.Errorf("sitemap lacks Holzwerk Krause:\n%s", sm)
	}
	if fn, _ := doc(t, pub, "/awp/api/tools/functions.json"); !bytes.Contains(fn, []byte(`"name": "get_entry_sections"`)) || !bytes.Contains(fn, []byte(`"parameters"`)) ||
		!bytes.Contains(fn, []byte(`"name": "request_quote"`)) || !bytes.Contains(fn, []byte(`"name": "get_request_status"`)) {
		t.Errorf("functions.json lacks the read or the request tools")
	}
	if st, _ := doc(t, pub, "/awp/content/structure.json"); !bytes.Contains(st, []byte(`"path": "/holzwerk-krause.md"`)) {
		t.Errorf("structure.json lacks Holzwerk Krause")
	}

	reg := openRegistry(t, pub)
	var n int
	var comment string
	if err := reg.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil || int64(n) != rep.Entries {
		t.Fatalf("registry entries: %d %v", n, err)
	}
	if err := reg.QueryRow(`SELECT comment FROM duckdb_tables() WHERE table_name = 'entries'`).Scan(&comment); err != nil || len(comment) < 40 {
		t.Fatalf("entries comment: %q %v", comment, err)
	}
	var slug, etag string
	var hosts []any
	if err := reg.QueryRow(`SELECT slug, etag, verified_hosts FROM entries WHERE entry_id = 'ent_01k8r2m5n7p9q3s4t6v8w0x2yz'`).Scan(&slug, &etag, &hosts); err != nil ||
		slug != "holzwerk-krause" || etag != hkDoc.ETag || len(hosts) == 0 {
		t.Fatalf("Holzwerk Krause row: %s %s %v %v", slug, etag, hosts, err)
	}
	var offerings, locs, cats, tables int
	var hours string
	if err := reg.QueryRow(`SELECT (SELECT count(*) FROM offerings WHERE entry_id = 'ent_01k8r2m5n7p9q3s4t6v8w0x2yz'),
		(SELECT count(*) FROM locations), (SELECT count(*) FROM categories),
		(SELECT count(*) FROM duckdb_tables() WHERE comment IS NOT NULL),
		(SELECT hours::VARCHAR FROM locations WHERE entry_id = 'ent_01k8r2m5n7p9q3s4t6v8w0x2yz' LIMIT 1)`).Scan(&offerings, &locs, &cats, &tables, &hours); err != nil ||
		offerings != 4 || locs < 80 || cats < 300 || tables != 7 || !strings.Contains(hours, `"opens"`) {
		t.Fatalf("registry tables: %d offerings, %d locations, %d categories, %d commented tables, hours %q, %v", offerings, locs, cats, tables, hours, err)
	}
	// The sitemap and the content structure DuckDB made equal what the
	// renderers make from the same entries.
	pubs := listedEntries(t, reg)
	wantMap, _ := render.Sitemaps(site, pubs, 0)
	if got, _ := doc(t, pub, "/sitemap.xml"); !bytes.Equal(got, wantMap) {
		t.Errorf("sitemap from DuckDB differs from render.Sitemaps:\n%s\n---\n%s", got, wantMap)
	}
	tax := taxonomy.Default()
	wantSt := render.AWPStructure(site, time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC), pubs, func(code string) (string, string) {
		sector := strings.SplitN(code, ".", 2)[0]
		return sector, tax.Label(sector, "en")
	})
	if got, _ := doc(t, pub, "/awp/content/structure.json"); !bytes.Equal(got, wantSt) {
		t.Errorf("structure from DuckDB differs from render.AWPStructure")
	}
	reg.Close()

	// Again, nothing changed: every entry copied, same bytes, same ETags.
	rep2, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 21, 0, 0, time.UTC),
		Static: filepath.Join(t.TempDir(), "static")})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Reused != rep.Entries || rep2.Rendered != 0 {
		t.Fatalf("second publication rendered %d, reused %d of %d", rep2.Rendered, rep2.Reused, rep.Entries)
	}
	pub2, _ := publication.Current(out)
	if pub2 == pub {
		t.Fatal("current still points at the first publication")
	}
	if _, err := publication.Verify(pub2); err != nil {
		t.Fatal(err)
	}
	if m2, _ := publication.Verify(pub2); m2.FeedLast != m.FeedLast || m2.Counts["changes"] != 0 {
		t.Errorf("nothing changed, yet the feed moved: %d → %d", m.FeedLast, m2.FeedLast)
	}
	hk2, hkDoc2 := doc(t, pub2, "/holzwerk-krause.md")
	if !bytes.Equal(hk2, hk) || hkDoc2.ETag != hkDoc.ETag {
		t.Error("a copied document differs from the rendered one")
	}
	reg2 := openRegistry(t, pub2)
	if err := reg2.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil || int64(n) != rep.Entries {
		t.Fatalf("registry entries after copying: %d %v", n, err)
	}
	var locs2 int
	if err := reg2.QueryRow(`SELECT count(*) FROM locations`).Scan(&locs2); err != nil || locs2 != locs {
		t.Fatalf("registry locations after copying: %d, first %d (%v)", locs2, locs, err)
	}
	reg2.Close()
	if _, err := publication.Verify(pub); err != nil {
		t.Fatalf("the first publication changed: %v", err)
	}
}

func openRegistry(t *testing.T, pub string) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", filepath.Join(pub, publication.RegistryFile)+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestPublish_StaticTree(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	static := filepath.Join(t.TempDir(), "static")
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC), Static: static}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]byte{
		"holzwerk-krause.md": fixtures.Spec("holzwerk-krause.de.md"),
		"llms.txt":           fixtures.LLMSTxt(),
		"robots.txt":         fixtures.Spec("robots.txt"),
	} {
		got, err := os.ReadFile(filepath.Join(static, path))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("static %s: %v", path, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(static, "holzwerk-krause", "index.html"))
	if err != nil || !strings.Contains(string(page), "application/ld+json") {
		t.Errorf("static page: %v", err)
	}
}

// TestPublish_ExpiryEndToEnd: Holzwerk Krause's capacity expires at T
// (2026-11-27T09:14:03Z). The expiry run after T and the publication
// within 60 s of T show no capacity in any of its projections, and the
// change feed has one `expired` record for it, numbered after the first
// publication's records.
func TestPublish_ExpiryEndToEnd(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	pub1, _ := publication.Current(out)
	before, _ := doc(t, pub1, "/holzwerk-krause.md")
	if !bytes.Contains(before, []byte("## Capacity")) {
		t.Fatal("before T the markdown shows no capacity")
	}
	m1, _ := publication.Verify(pub1)
	expires := time.Date(2026, 11, 27, 9, 14, 3, 0, time.UTC)
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Now: expires.Add(30 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Expired < 1 {
		t.Fatalf("the expiry run expired nothing: %+v", rep)
	}
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: expires.Add(60 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	pub2, _ := publication.Current(out)
	m2, err := publication.Verify(pub2)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := publication.ReadPublicationDocs(pub2)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range docs {
		if d.EntryID != "ent_01k8r2m5n7p9q3s4t6v8w0x2yz" {
			continue
		}
		seen++
		body := docBytes(t, pub2, d)
		for _, bad := range []string{"## Capacity", `"capacity"`, "daawid:capacity", "acceptingWork", "Kapazität"} {
			if bytes.Contains(body, []byte(bad)) {
				t.Errorf("%s %s (%s) still shows capacity (%q)", d.Kind, d.Lang, d.Path, bad)
			}
		}
	}
	if seen < 4 {
		t.Fatalf("only %d documents of Holzwerk Krause", seen)
	}
	changes, more, err := readFeed(pub2, m1.FeedLast)
	if err != nil || more {
		t.Fatal(err, more)
	}
	var expired int
	for _, c := range changes {
		if c.EntryID == "ent_01k8r2m5n7p9q3s4t6v8w0x2yz" && c.Type == "expired" {
			expired++
		}
		if c.Seq <= m1.FeedLast {
			t.Errorf("change %d is not after the first publication's %d", c.Seq, m1.FeedLast)
		}
	}
	if expired != 1 || m2.FeedLast != m1.FeedLast+int64(len(changes)) {
		t.Fatalf("expired records: %d; feed %d → %d with %d changes: %+v", expired, m1.FeedLast, m2.FeedLast, len(changes), changes)
	}
	// The whole feed has no gap and no duplicate.
	all, _, err := readFeed(pub2, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range all {
		if c.Seq != int64(i+1) {
			t.Fatalf("feed position %d holds seq %d", i, c.Seq)
		}
	}
}

func readFeed(pub string, after int64) ([]feeds.Change, bool, error) {
	return publication.ReadFeed(filepath.Join(pub, feeds.Dir), after, 1<<20)
}

// TestPublish_Exports: a nightly publication writes the Parquet exports,
// hive-partitioned by country where large; DuckDB reads every file with
// the manifest's row counts; they hold only what the projections show
// (no private contact point, no street of a locality-only location).
func TestPublish_Exports(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	rep, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC), Exports: true})
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := publication.Current(out)
	if _, err := publication.Verify(pub); err != nil {
		t.Fatal(err)
	}
	var m export.Manifest
	b, err := os.ReadFile(filepath.Join(pub, publication.ExportsDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Tables["entries"] != rep.Entries || m.Tables["categories"] < 300 || m.Tables["changes"] != rep.Entries {
		t.Fatalf("export tables: %v (entries %d)", m.Tables, rep.Entries)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, f := range m.Files {
		var n int64
		path := filepath.Join(pub, publication.ExportsDir, filepath.FromSlash(f.Path))
		if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?)`, path).Scan(&n); err != nil || n != f.Rows {
			t.Errorf("%s: DuckDB reads %d rows (%v), the manifest says %d", f.Path, n, err, f.Rows)
		}
	}
	glob := filepath.Join(pub, publication.ExportsDir, "entries", "*", "*.parquet")
	var countries string
	if err := db.QueryRow(`SELECT string_agg(DISTINCT country, ',' ORDER BY country) FROM read_parquet(?, hive_partitioning = true)`, glob).Scan(&countries); err != nil || countries != "DE,GB" {
		t.Errorf("entries partitions: %q %v", countries, err)
	}
	var name, legal string
	var reps []any
	if err := db.QueryRow(`SELECT name, legal_name, representatives FROM read_parquet(?, hive_partitioning = true) WHERE slug = 'holzwerk-krause'`, glob).Scan(&name, &legal, &reps); err != nil ||
		name != "Holzwerk Krause" || legal == "" {
		t.Fatalf("Holzwerk Krause in the export: %q %q %v %v", name, legal, reps, err)
	}
	// No street for a locality-only location.
	var streets int
	if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?, hive_partitioning = true) WHERE address_display <> 'full' AND street IS NOT NULL`,
		filepath.Join(pub, publication.ExportsDir, "locations", "*", "*.parquet")).Scan(&streets); err != nil || streets != 0 {
		t.Errorf("%d locality-only locations with a street (%v)", streets, err)
	}
	// A delta publication carries the exports over unchanged.
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 21, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	pub2, _ := publication.Current(out)
	if _, err := os.Stat(filepath.Join(pub2, publication.ExportsDir, "manifest.json")); err != nil {
		t.Fatalf("the delta publication lost the exports: %v", err)
	}
	if _, err := publication.Verify(pub2); err != nil {
		t.Fatal(err)
	}
}

// TestPublish_ExportsWrittenAsRenderedSameBytes: a full publication that
// renders every entry writes the exports from the views it rendered, as
// it appends the entries (D133); one that keeps the documents of the
// previous publication reads and renders the entries again for them. The
// two write the same bytes, file by file.
func TestPublish_ExportsWrittenAsRenderedSameBytes(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	first, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC), Exports: true})
	if err != nil {
		t.Fatal(err)
	}
	pub1, _ := publication.Current(out)
	second, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 30, 0, 0, time.UTC), Exports: true})
	if err != nil {
		t.Fatal(err)
	}
	pub2, _ := publication.Current(out)
	if first.Rendered != first.Entries || second.Reused != second.Entries || second.Rendered != 0 || first.Entries < 5 {
		t.Fatalf("first %+v, second %+v: not one publication rendering all and one keeping all", first, second)
	}
	files := 0
	err = filepath.WalkDir(filepath.Join(pub1, publication.ExportsDir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".parquet") || strings.Contains(path, "/changes/") {
			return err
		}
		rel, _ := filepath.Rel(pub1, path)
		a, _ := os.ReadFile(path)
		b, err := os.ReadFile(filepath.Join(pub2, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: %d bytes written as rendered, %d by the exports step", rel, len(a), len(b))
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 6 {
		t.Fatalf("only %d export files compared", files)
	}
}

// TestPublish_ExportsReadByOutsideReaders: an independent DuckDB (the npm
// package @duckdb/node-api) and the pure-JavaScript Parquet reader
// hyparquet read every export file with the manifest's row counts.
func TestPublish_ExportsReadByOutsideReaders(t *testing.T) {
	tools := ciTools(t, "node", "node_modules/@duckdb/node-api/package.json", "node_modules/hyparquet/package.json", "node_modules/hyparquet-compressors/package.json")
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC), Exports: true}); err != nil {
		t.Fatal(err)
	}
	pub, _ := publication.Current(out)
	cmd := exec.Command("node", filepath.Join(tools, "exports-check.mjs"), filepath.Join(pub, publication.ExportsDir))
	cmd.Dir = tools // node resolves the packages from .ci/node_modules
	got, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(got), "ok ") {
		t.Fatalf("outside readers: %v\n%s", err, got)
	}
	t.Log(strings.TrimSpace(string(got)))
}

func ciTools(t *testing.T, need ...string) string { return citools.Find(t, need...) }

// TestPublish_DeltaAndCompaction: a delta publication renders only what
// changed (here one expiry) and points at the earlier pack for the rest;
// the next full publication compacts the chain into one index without
// rendering anything again; the documents are the same through all three.
func TestPublish_DeltaAndCompaction(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	full, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC), Exports: true})
	if err != nil {
		t.Fatal(err)
	}
	// The new entries' noindex windows end on 2026-11-01 (30 days): a run
	// after that re-issues them, published in full.
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Now: time.Date(2026, 11, 10, 3, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	if full, err = Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 11, 10, 3, 1, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	pub1, _ := publication.Current(out)
	sb1, _ := doc(t, pub1, "/schreinerei-beispiel.md")
	expires := time.Date(2026, 11, 27, 9, 14, 3, 0, time.UTC)
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Now: expires.Add(10 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	delta, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: expires.Add(40 * time.Second), Delta: true})
	if err != nil {
		t.Fatal(err)
	}
	pub2, _ := publication.Current(out)
	m2, err := publication.Verify(pub2)
	if err != nil {
		t.Fatal(err)
	}
	if !m2.Delta || len(m2.Index) != 2 || delta.Rendered != 1 || delta.Reused != 0 || delta.Entries != full.Entries || m2.Counts["entries"] != full.Entries {
		t.Fatalf("delta: %+v, manifest index %v", delta, m2.Index)
	}
	if hk, _ := doc(t, pub2, "/holzwerk-krause.md"); bytes.Contains(hk, []byte("## Capacity")) {
		t.Error("the delta still shows the expired capacity")
	}
	if sb2, d := doc(t, pub2, "/schreinerei-beispiel.md"); !bytes.Equal(sb1, sb2) || d.Pack == publication.OwnPack(delta.ID) {
		t.Errorf("an unchanged entry in the delta: same bytes %v, pack %s", bytes.Equal(sb1, sb2), d.Pack)
	}
	// HTTP-29: the changed entry's pages move their sitemap lastmod in
	// the delta itself, not at the next nightly publication.
	sm1, _ := doc(t, pub1, "/sitemap.xml")
	sm2, d := doc(t, pub2, "/sitemap.xml")
	if d.Pack != publication.OwnPack(delta.ID) || !bytes.Contains(sm2, []byte("<loc>https://daawid.example/holzwerk-krause</loc><lastmod>2026-11-27T09:14:03Z</lastmod>")) ||
		bytes.Contains(sm1, []byte("2026-11-27T09:14:03Z")) {
		t.Errorf("HTTP-29: the delta's sitemap does not carry the changed entry's lastmod:\n%s", sm2)
	}
	docs2, _ := publication.ReadPublicationDocs(pub2)
	reg := openRegistry(t, pub2)
	var n int
	if err := reg.QueryRow(`SELECT count(*) FROM entries`).Scan(&n); err != nil || int64(n) != full.Entries {
		t.Fatalf("delta registry: %d entries (%v), want %d", n, err, full.Entries)
	}
	reg.Close()
	if _, err := os.Stat(filepath.Join(pub2, publication.ExportsDir, "manifest.json")); err != nil {
		t.Fatal("the delta lost the exports")
	}
	// The nightly publication compacts: one index, nothing rendered.
	night, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: expires.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	pub3, _ := publication.Current(out)
	m3, err := publication.Verify(pub3)
	if err != nil {
		t.Fatal(err)
	}
	if m3.Delta || len(m3.Index) != 1 || night.Rendered != 0 || night.Reused != full.Entries || len(m3.Packs) < 2 {
		t.Fatalf("compaction: %+v, index %v", night, m3.Index)
	}
	docs3, _ := publication.ReadPublicationDocs(pub3)
	if len(docs3) != len(docs2) {
		t.Fatalf("documents: %d after the delta, %d after compaction", len(docs2), len(docs3))
	}
	for i := range docs2 {
		a, b := docs2[i], docs3[i]
		if a.Kind == publication.KindSite {
			continue
		}
		if a.Path != b.Path || a.ETag != b.ETag || !bytes.Equal(docBytes(t, pub2, a), docBytes(t, pub3, b)) {
			t.Fatalf("document %s differs after compaction", a.Path)
		}
	}
	// IndexNow: without an endpoint, the changed pages are filed in the
	// outbox (the first publication's entries, then the expired one).
	outbox, err := os.ReadFile(filepath.Join(out, "indexnow", "outbox.jsonl"))
	if err != nil || !bytes.Contains(outbox, []byte(`"urlList":["https://daawid.example/holzwerk-krause"]`)) {
		t.Errorf("indexnow outbox: %v\n%s", err, outbox)
	}
	// The first publication, still on disk, is untouched.
	if _, err := publication.Verify(pub1); err != nil {
		t.Fatal(err)
	}
}

// listedEntries reads a publication's listed entries as the renderers of
// the registry-level files take them, sorted by slug.
func listedEntries(t *testing.T, reg *sql.DB) []render.Published {
	t.Helper()
	rs, err := reg.Query(`SELECT entry_id, slug, coalesce(name, ''), languages, categories, last_modified, coalesce(md_bytes, 0) FROM entries WHERE listed AND status <> 'removed' ORDER BY slug`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []render.Published
	for rs.Next() {
		var p render.Published
		var langs, cats []any
		var md int64
		if err := rs.Scan(&p.ID, &p.Slug, &p.Name, &langs, &cats, &p.Modified, &md); err != nil {
			t.Fatal(err)
		}
		for _, l := range langs {
			p.Languages = append(p.Languages, l.(string))
		}
		for _, c := range cats {
			p.Categories = append(p.Categories, c.(string))
		}
		p.Listed, p.Tokens, p.Modified = true, int((md+3)/4), p.Modified.UTC()
		out = append(out, p)
	}
	return out
}

// TestPublish_SitemapParts: past the sitemap limit the sitemaps become an
// index of parts (written to the pack one at a time as DuckDB makes them,
// issue 18), each within the limit, every part in the index with its
// newest lastmod, and together the same URLs in the same order as the one
// sitemap of the same publication under the protocol's limit.
func TestPublish_SitemapParts(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	now := time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)
	one, parted := t.TempDir(), t.TempDir()
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: one, Site: site, Now: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: parted, Site: site, Now: now, SitemapLimit: 20}); err != nil {
		t.Fatal(err)
	}
	type urlset struct {
		URLs []struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
		} `xml:"url"`
	}
	read := func(pub, path string) urlset {
		b, _ := doc(t, pub, path)
		var u urlset
		if err := xml.Unmarshal(b, &u); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return u
	}
	pubOne, _ := publication.Current(one)
	pubParted, _ := publication.Current(parted)
	want := read(pubOne, "/sitemap.xml").URLs
	if len(want) <= 40 {
		t.Fatalf("the examples have %d URLs: too few for three parts of 20", len(want))
	}
	b, _ := doc(t, pubParted, "/sitemap.xml")
	var idx struct {
		Maps []struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
		} `xml:"sitemap"`
	}
	if err := xml.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	if n := (len(want) + 19) / 20; len(idx.Maps) != n {
		t.Fatalf("the index lists %d parts, want %d for %d URLs", len(idx.Maps), n, len(want))
	}
	var got []string
	for i, m := range idx.Maps {
		path := fmt.Sprintf("/sitemaps/sitemap-%d.xml", i+1)
		if m.Loc != render.DefaultBaseURL+path {
			t.Errorf("part %d is at %s, want %s", i+1, m.Loc, render.DefaultBaseURL+path)
		}
		part := read(pubParted, path).URLs
		newest := ""
		for _, u := range part {
			got = append(got, u.Loc)
			newest = max(newest, u.LastMod)
		}
		if len(part) > 20 || len(part) == 0 || m.LastMod != newest {
			t.Errorf("part %d: %d URLs, lastmod %s in the index, newest %s", i+1, len(part), m.LastMod, newest)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("the parts hold %d URLs, the one sitemap %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i].Loc {
			t.Fatalf("URL %d: %s in the parts, %s in the one sitemap", i, got[i], want[i].Loc)
		}
	}
}
