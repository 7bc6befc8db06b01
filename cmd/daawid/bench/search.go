package bench

import (
	"database/sql"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// benchSearch is "daawid bench search": the search benchmark of
// docs/performance.md (issue 6). On a publication of generated companies
// (made here, or reused from --dir with --reuse) it opens the snapshot,
// measures what the search index adds to the heap, makes a mix of
// realistic queries from the registry itself (a place and everyday words,
// a postal code and a category, a place, words and openAt), runs each
// through query.Service and the same query written as DuckDB SQL over the
// snapshot's tables, and prints a table. Unless --bleve=false it also
// indexes the same search records with Bleve (issue 18: a real engine as
// the peer, blevepeer), runs the whole mix through it, and prints the
// engines side by side: build time, size on disk, Go heap and VmRSS,
// p50, p99, queries a second and how many queries found an entry.
func benchSearch(args []string, stdout, stderr io.Writer) int {
	f, ok := parseSearchFlags(args, stderr)
	if !ok {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench search:", err); return 1 }
	work, cleanup, err := benchDir(f.dir)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	out := filepath.Join(work, "out")
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, time.Now().Format("15:04:05")+" "+format+"\n", a...)
	}
	pub, err := searchPublication(work, f, logf)
	if err != nil {
		return fail(err)
	}
	logf("publication %s", pub)
	snaps, ix, err := openSearchIndex(out)
	if err != nil {
		return fail(err)
	}
	defer snaps.Close()
	logf("opened in %.1f s (heap %+.0f MB: documents, gazetteer and search); the search index: %d entries, %.0f MB, built in %.1f s",
		ix.openSecs, float64(ix.openHeap)/1e6, ix.entries, float64(ix.bytes)/1e6, ix.buildSecs)

	db, err := sql.Open("duckdb", filepath.Join(pub, "registry.duckdb")+"?access_mode=READ_ONLY")
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	queries, err := benchQueries(db, f.queries, f.seed)
	if err != nil {
		return fail(err)
	}
	site, err := render.NewSite(ix.baseURL, taxonomy.Default())
	if err != nil {
		return fail(err)
	}
	m := &searchMix{svc: query.NewService(snaps, site), now: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC), logf: logf}
	lat, withHits, err := m.measure(queries, f.cpuprofile)
	if err != nil {
		return fail(err)
	}
	sqlLat, ours, sqlHits, err := m.againstSQL(db, queries[:min(f.sql, len(queries))])
	if err != nil {
		return fail(err)
	}
	engines := []*engineRow{{name: "ours (query/search, built in the heap at open)", buildSecs: ix.buildSecs, diskBytes: -1,
		heapBytes: ix.bytes, rssMB: ix.rssMB, rssMixMB: -1, lat: lat["all"], withHits: withHits}}
	var recBytes int64
	if f.bleve {
		sn := snaps.Acquire()
		defer sn.Release()
		peer, row, n, err := bleveBuild(pub, filepath.Join(work, "bleve"), sn.Searcher().Gaz, m.now)
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(filepath.Join(work, "bleve"))
		defer peer.Close()
		logf("bleve: built in %.1f s, %.0f MB on disk", row.buildSecs, float64(row.diskBytes)/1e6)
		if err := m.runBleve(peer, sn.Searcher(), queries, row); err != nil {
			return fail(err)
		}
		engines, recBytes = append(engines, row), n
	}
	dbInfo, err := os.Stat(filepath.Join(pub, "registry.duckdb"))
	if err != nil {
		return fail(err)
	}
	engines = append(engines, &engineRow{name: "DuckDB SQL (LIKE over registry.duckdb)", buildSecs: math.NaN(), diskBytes: dbInfo.Size(),
		heapBytes: -1, rssMB: -1, rssMixMB: -1, lat: sqlLat["all"], withHits: sqlHits})
	fmt.Fprintf(stdout, "search benchmark: %d entries in the index (publication %s), %d queries (seed %d), one at a time through query.Service; %d of them also as DuckDB SQL over registry.duckdb\n\n",
		ix.entries, filepath.Base(pub), len(queries), f.seed, min(f.sql, len(queries)))
	fmt.Fprintf(stdout, "search index: %.0f MB of heap, built in %.1f s (snapshot opened in %.1f s)\n\n", float64(ix.bytes)/1e6, ix.buildSecs, ix.openSecs)
	fmt.Fprintln(stdout, "| queries | n | p50 ms | p90 ms | p99 ms | max ms | SQL n | SQL p50 ms | SQL p99 ms | same queries ours p50 ms | SQL / ours (p50) |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, k := range []string{"place + words", "postal code + category", "place + words + openAt", "all"} {
		fmt.Fprintf(stdout, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %d | %.1f | %.1f | %.2f | %.0fx |\n", k, len(lat[k]),
			pct(lat[k], .5), pct(lat[k], .9), pct(lat[k], .99), pct(lat[k], 1), len(sqlLat[k]),
			pct(sqlLat[k], .5), pct(sqlLat[k], .99), pct(ours[k], .5), pct(sqlLat[k], .5)/pct(ours[k], .5))
	}
	// Issue 18: the engines side by side on the same search records and
	// the same mix (DuckDB on its share of it).
	fmt.Fprintf(stdout, "\nengines on the same %d search records (%.0f MB of JSON in the packs), the same queries, one at a time:\n\n", ix.entries, float64(recBytes)/1e6)
	printEngines(stdout, engines)
	return 0
}

// searchFlags are the flags of bench search.
type searchFlags struct {
	entries, queries, sql int
	seed                  int64
	dir, cpuprofile       string
	reuse, bleve          bool
}

// parseSearchFlags reads the flags of bench search; false is a usage
// error.
func parseSearchFlags(args []string, stderr io.Writer) (*searchFlags, bool) {
	f := &searchFlags{}
	fs := flag.NewFlagSet("bench search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&f.entries, "entries", 1_000_000, "companies")
	fs.Int64Var(&f.seed, "seed", 7, "generator seed (also chooses the queries)")
	fs.StringVar(&f.dir, "dir", "", "working directory (default: a new temporary one, removed after)")
	fs.BoolVar(&f.reuse, "reuse", false, "reuse the publication an earlier bench search or bench serve left in --dir")
	fs.IntVar(&f.queries, "queries", 1000, "queries in the mix")
	fs.IntVar(&f.sql, "sql", 200, "of them, how many also run as DuckDB SQL (each takes a scan)")
	fs.BoolVar(&f.bleve, "bleve", true, "also index the search records with Bleve and run the mix through it (issue 18)")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the measured queries here")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return nil, false
	}
	return f, true
}

// searchPublication is the publication the queries run on: the current
// one in {work}/out with --reuse, else (or when there is none) a new one
// made by searchBenchSetup.
func searchPublication(work string, f *searchFlags, logf func(string, ...any)) (string, error) {
	out := filepath.Join(work, "out")
	if _, err := publication.Current(out); err != nil || !f.reuse {
		if err := searchBenchSetup(work, f.entries, f.seed, logf); err != nil {
			return "", err
		}
	}
	return publication.Current(out)
}

// searchBenchSetup generates and compiles the companies and publishes
// them in full.
func searchBenchSetup(work string, entries int, seed int64, logf func(string, ...any)) error {
	data, state, out := filepath.Join(work, "data"), filepath.Join(work, "state"), filepath.Join(work, "out")
	for _, d := range []string{state, out} {
		os.RemoveAll(d)
	}
	t0 := time.Now()
	exe, registers, err := generate(data, entries, seed)
	if err != nil {
		return err
	}
	logf("generated %d companies in %.1f s", entries, time.Since(t0).Seconds())
	base := time.Now().UTC().Truncate(time.Second)
	// Two runs, as the generated data's README says: the registers alone
	// at the generator's first run instant, which gives the companies the
	// entry IDs the owner revisions and verification events name; then
	// the inbox and the events. In one run every event named an entry not
	// yet in the registry, and past about 26,000 companies the run
	// refused more than --max-bad-rows.
	comp, err := runChild(exe, append([]string{"compile", "--state", state, "--now", synth.DefaultRunNow.Format(time.RFC3339)}, registers...)...)
	if err != nil {
		return err
	}
	logf("compiled in %.1f s (peak RSS %d MB)", comp.wall, comp.rss)
	inbox := filepath.Join(data, "inbox")
	owners, err := runChild(exe, "compile", "--state", state, "--owner-inbox", inbox, "--verification", filepath.Join(data, "verification.jsonl"),
		"--now", base.Add(-4*time.Hour).Format(time.RFC3339))
	if err != nil {
		return err
	}
	logf("owner revisions and verification events compiled in %.1f s (peak RSS %d MB)", owners.wall, owners.rss)
	full, err := runChild(exe, "publish", "--json", "--state", state, "--out", out, "--now", base.Add(-3*time.Hour).Format(time.RFC3339))
	if err != nil {
		return err
	}
	logf("published in %.1f s (peak RSS %d MB)", full.wall, full.rss)
	return nil
}

// searchIndex is what opening the snapshot and building its search index
// cost: times in seconds, heap in bytes.
type searchIndex struct {
	openSecs, buildSecs float64
	openHeap, bytes     int64 // the heap the snapshot took; of it, the search index
	rssMB               int64 // VmRSS delta across building the index again
	entries             int   // entries in the index
	baseURL             string
}

// openSearchIndex opens the publications in out and measures the heap
// the search index takes by building it once more beside the one the
// snapshot holds.
func openSearchIndex(out string) (*query.Snapshots, *searchIndex, error) {
	h0 := heap()
	t0 := time.Now()
	snaps, err := query.OpenSnapshots(out)
	if err != nil {
		return nil, nil, err
	}
	ix := &searchIndex{openSecs: time.Since(t0).Seconds()}
	h1, r1 := memNow()
	ix.openHeap = int64(h1) - int64(h0)
	sn := snaps.Acquire()
	t1 := time.Now()
	again, err := sn.SearchAgain()
	if err != nil {
		sn.Release()
		snaps.Close()
		return nil, nil, err
	}
	ix.buildSecs = time.Since(t1).Seconds()
	h2, r2 := memNow()
	ix.bytes, ix.rssMB = int64(h2)-int64(h1), r2-r1
	runtime.KeepAlive(again)
	for _, l := range sn.Searcher().Layers {
		ix.entries += l.Len()
	}
	ix.baseURL = sn.Manifest.BaseURL
	sn.Release()
	return snaps, ix, nil
}

// heap is the live heap after two collections.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// searchMix runs the queries of the mix through query.Service, one at a
// time, at one instant.
type searchMix struct {
	svc  *query.Service
	now  time.Time
	logf func(string, ...any)
}

// run runs one query and returns its time and its number of hits.
func (m *searchMix) run(q benchQuery) (time.Duration, int, error) {
	t := time.Now()
	rd, err := m.svc.Begin(m.now)
	if err != nil {
		return 0, 0, err
	}
	out, err := rd.Search(q.in)
	rd.End()
	return time.Since(t), len(out.Hits), err
}

// measure warms up on the first 100 queries, then times every query (in
// a CPU profile when cpuprofile is set) and returns the latencies by kind
// and under "all"; it logs the five slowest and the hits on average.
func (m *searchMix) measure(queries []benchQuery, cpuprofile string) (map[string][]time.Duration, int, error) {
	for _, q := range queries[:min(100, len(queries))] {
		if _, _, err := m.run(q); err != nil {
			return nil, 0, fmt.Errorf("%+v: %w", q.in, err)
		}
	}
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			return nil, 0, err
		}
		pprof.StartCPUProfile(f)
		defer f.Close()
	}
	lat := map[string][]time.Duration{}
	hits, withHits := 0, 0
	type slow struct {
		d time.Duration
		q benchQuery
	}
	var slowest []slow
	for _, q := range queries {
		d, h, err := m.run(q)
		if err != nil {
			return nil, 0, err
		}
		if h > 0 {
			withHits++
		}
		slowest = append(slowest, slow{d, q})
		hits += h
		lat[q.kind] = append(lat[q.kind], d)
		lat["all"] = append(lat["all"], d)
	}
	pprof.StopCPUProfile()
	slices.SortFunc(slowest, func(a, b slow) int { return int(b.d - a.d) })
	for _, s := range slowest[:min(5, len(slowest))] {
		n := s.q.in.Near
		m.logf("slow: %.1f ms %q near %q%q category %q openAt %q", float64(s.d.Microseconds())/1000, s.q.in.Query, n.Place, n.PostalCode, s.q.in.Category, s.q.in.OpenAt)
	}
	m.logf("%d queries, %.1f hits each on average", len(queries), float64(hits)/float64(len(queries)))
	return lat, withHits, nil
}

// againstSQL runs each query as DuckDB SQL over the snapshot's tables and
// then through the service once more, so both are timed on the same
// queries; it returns both latencies by kind and under "all", and how
// many queries SQL found an entry for.
func (m *searchMix) againstSQL(db *sql.DB, queries []benchQuery) (sqlLat, ours map[string][]time.Duration, withHits int, err error) {
	sqlLat, ours = map[string][]time.Duration{}, map[string][]time.Duration{}
	for i, q := range queries {
		stmt, args := q.sql(m.now)
		t := time.Now()
		rows, err := db.Query(stmt, args...)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("SQL of query %d: %w\n%s", i, err, stmt)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if n > 0 {
			withHits++
		}
		rows.Close()
		d := time.Since(t)
		sqlLat[q.kind] = append(sqlLat[q.kind], d)
		sqlLat["all"] = append(sqlLat["all"], d)
		o, _, _ := m.run(q)
		ours[q.kind] = append(ours[q.kind], o)
		ours["all"] = append(ours["all"], o)
	}
	return sqlLat, ours, withHits, nil
}

// pct is the p-th percentile of ds in milliseconds (NaN for none).
func pct(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return float64(s[max(0, i)].Microseconds()) / 1000
}
