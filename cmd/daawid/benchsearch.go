package main

import (
	"database/sql"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/daawid/registry/schemas/terms"
)

// benchSearch is "daawid bench search": the search benchmark of
// docs/performance.md (issue 6). On a publication of generated companies
// (made here, or reused from --dir with --reuse) it opens the snapshot,
// measures what the search index adds to the heap, makes a mix of
// realistic queries from the registry itself (a place and everyday words,
// a postal code and a category, a place, words and openAt), runs each
// through query.Service and the same query written as DuckDB SQL over the
// snapshot's tables, and prints a table.
func benchSearch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entries := fs.Int("entries", 1_000_000, "companies")
	seed := fs.Int64("seed", 7, "generator seed (also chooses the queries)")
	dir := fs.String("dir", "", "working directory (default: a new temporary one, removed after)")
	reuse := fs.Bool("reuse", false, "reuse the publication an earlier bench search or bench serve left in --dir")
	nq := fs.Int("queries", 1000, "queries in the mix")
	nsql := fs.Int("sql", 200, "of them, how many also run as DuckDB SQL (each takes a scan)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the measured queries here")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench search:", err); return 1 }
	work, cleanup, err := benchDir(*dir)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	out := filepath.Join(work, "out")
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, time.Now().Format("15:04:05")+" "+format+"\n", a...)
	}
	if _, err := publication.Current(out); err != nil || !*reuse {
		if err := searchBenchSetup(work, *entries, *seed, logf); err != nil {
			return fail(err)
		}
	}
	pub, err := publication.Current(out)
	if err != nil {
		return fail(err)
	}
	logf("publication %s", pub)

	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	h0 := heap()
	t0 := time.Now()
	snaps, err := query.OpenSnapshots(out)
	if err != nil {
		return fail(err)
	}
	defer snaps.Close()
	openSecs := time.Since(t0).Seconds()
	h1 := heap()
	sn := snaps.Acquire()
	t1 := time.Now()
	again, err := sn.SearchAgain()
	if err != nil {
		return fail(err)
	}
	buildSecs := time.Since(t1).Seconds()
	h2 := heap()
	indexBytes := int64(h2) - int64(h1)
	runtime.KeepAlive(again)
	again = nil
	n := 0
	for _, l := range sn.Searcher().Layers {
		n += l.Len()
	}
	baseURL := sn.Manifest.BaseURL
	sn.Release()
	logf("opened in %.1f s (heap %+.0f MB: documents, gazetteer and search); the search index: %d entries, %.0f MB, built in %.1f s",
		openSecs, float64(int64(h1)-int64(h0))/1e6, n, float64(indexBytes)/1e6, buildSecs)

	db, err := sql.Open("duckdb", filepath.Join(pub, "registry.duckdb")+"?access_mode=READ_ONLY")
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	queries, err := benchQueries(db, *nq, *seed)
	if err != nil {
		return fail(err)
	}
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	site, err := render.NewSite(baseURL, taxonomy.Default())
	if err != nil {
		return fail(err)
	}
	svc := query.NewService(snaps, site)
	run := func(q benchQuery) (time.Duration, int, error) {
		t := time.Now()
		rd, err := svc.Begin(now)
		if err != nil {
			return 0, 0, err
		}
		out, err := rd.Search(q.in)
		rd.End()
		return time.Since(t), len(out.Hits), err
	}
	for _, q := range queries[:min(100, len(queries))] { // warm-up
		if _, _, err := run(q); err != nil {
			return fail(fmt.Errorf("%+v: %w", q.in, err))
		}
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return fail(err)
		}
		pprof.StartCPUProfile(f)
		defer f.Close()
	}
	kinds := []string{"place + words", "postal code + category", "place + words + openAt", "all"}
	lat := map[string][]time.Duration{}
	hits := 0
	type slow struct {
		d time.Duration
		q benchQuery
	}
	var slowest []slow
	for _, q := range queries {
		d, h, err := run(q)
		if err != nil {
			return fail(err)
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
		logf("slow: %.1f ms %q near %q%q category %q openAt %q", float64(s.d.Microseconds())/1000, s.q.in.Query, n.Place, n.PostalCode, s.q.in.Category, s.q.in.OpenAt)
	}
	logf("%d queries, %.1f hits each on average", len(queries), float64(hits)/float64(len(queries)))
	sqlLat := map[string][]time.Duration{}
	ours := map[string][]time.Duration{}
	for i, q := range queries[:min(*nsql, len(queries))] {
		stmt, args := q.sql(now)
		t := time.Now()
		rows, err := db.Query(stmt, args...)
		if err != nil {
			return fail(fmt.Errorf("SQL of query %d: %w\n%s", i, err, stmt))
		}
		for rows.Next() {
		}
		rows.Close()
		d := time.Since(t)
		sqlLat[q.kind] = append(sqlLat[q.kind], d)
		sqlLat["all"] = append(sqlLat["all"], d)
		o, _, _ := run(q)
		ours[q.kind] = append(ours[q.kind], o)
		ours["all"] = append(ours["all"], o)
	}
	pct := func(ds []time.Duration, p float64) float64 {
		if len(ds) == 0 {
			return math.NaN()
		}
		s := slices.Clone(ds)
		slices.Sort(s)
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return float64(s[max(0, i)].Microseconds()) / 1000
	}
	fmt.Fprintf(stdout, "search benchmark: %d entries in the index (publication %s), %d queries (seed %d), one at a time through query.Service; %d of them also as DuckDB SQL over registry.duckdb\n\n",
		n, filepath.Base(pub), len(queries), *seed, min(*nsql, len(queries)))
	fmt.Fprintf(stdout, "search index: %.0f MB of heap, built in %.1f s (snapshot opened in %.1f s)\n\n", float64(indexBytes)/1e6, buildSecs, openSecs)
	fmt.Fprintln(stdout, "| queries | n | p50 ms | p90 ms | p99 ms | max ms | SQL n | SQL p50 ms | SQL p99 ms | same queries ours p50 ms | SQL / ours (p50) |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, k := range kinds {
		fmt.Fprintf(stdout, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %d | %.1f | %.1f | %.2f | %.0fx |\n", k, len(lat[k]),
			pct(lat[k], .5), pct(lat[k], .9), pct(lat[k], .99), pct(lat[k], 1), len(sqlLat[k]),
			pct(sqlLat[k], .5), pct(sqlLat[k], .99), pct(ours[k], .5), pct(sqlLat[k], .5)/pct(ours[k], .5))
	}
	return 0
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
	inbox := filepath.Join(data, "inbox")
	comp, err := runChild(exe, append([]string{"compile", "--state", state, "--owner-inbox", inbox, "--verification", filepath.Join(data, "verification.jsonl"),
		"--now", base.Add(-4 * time.Hour).Format(time.RFC3339)}, registers...)...)
	if err != nil {
		return err
	}
	logf("compiled in %.1f s (peak RSS %d MB)", comp.wall, comp.rss)
	full, err := runChild(exe, "publish", "--json", "--state", state, "--out", out, "--now", base.Add(-3*time.Hour).Format(time.RFC3339))
	if err != nil {
		return err
	}
	logf("published in %.1f s (peak RSS %d MB)", full.wall, full.rss)
	return nil
}

// benchQuery is one query of the mix, with what its SQL needs.
type benchQuery struct {
	kind  string
	in    schemas.SearchInput
	words []string
	cats  [][]string // per word, the categories its everyday words name
	place string     // the town, folded
	lat   float64
	lon   float64
	code  string // the postal code's first part
}

// benchQueries makes the mix from entries of the registry: their towns,
// postal codes and categories' names in their language.
func benchQueries(db *sql.DB, n int, seed int64) ([]benchQuery, error) {
	rows, err := db.Query(`SELECT categories[1], default_language, locality, postal_code, country, lat, lon FROM entries
		WHERE listed AND status NOT IN ('suspended', 'removed') AND len(categories) > 0 AND locality IS NOT NULL AND postal_code IS NOT NULL
		ORDER BY hash(entry_id || ?) LIMIT ?`, seed, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tax := taxonomy.Default()
	gaz, err := places.Default()
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	var out []benchQuery
	for rows.Next() {
		var cat, lang, town, code, country string
		var lat, lon sql.NullFloat64
		if err := rows.Scan(&cat, &lang, &town, &code, &country, &lat, &lon); err != nil {
			return nil, err
		}
		word := tax.Label(cat, lang)
		// The SQL is given the place's point as the server finds it.
		q := benchQuery{place: terms.Fold(town), lat: lat.Float64, lon: lon.Float64}
		if m, ok := gaz.Find(town+", "+country, nil); ok {
			q.lat, q.lon = m.Place.Lat, m.Place.Lng
		}
		switch len(out) % 10 {
		case 0, 1, 2, 3:
			q.kind = "place + words"
			q.in = schemas.SearchInput{Query: word, Near: &schemas.Near{Place: town}}
		case 4, 5, 6:
			q.kind = "postal code + category"
			first, _, _ := strings.Cut(code, " ")
			if len(first) < 3 { // "M1": a postal code is 3 to 10 characters
				first = code
			}
			q.code = strings.ToUpper(first)
			q.in = schemas.SearchInput{Query: word, Category: cat, Near: &schemas.Near{PostalCode: first, Country: country}}
		default:
			q.kind = "place + words + openAt"
			q.in = schemas.SearchInput{Query: word, Near: &schemas.Near{Place: town},
				OpenAt: time.Date(2026, 12, 1+r.IntN(6), 8+r.IntN(10), 0, 0, 0, time.UTC).Format(time.RFC3339)}
		}
		for _, w := range terms.Words(word) {
			if terms.Stop(lang, w) {
				continue
			}
			q.words = append(q.words, w)
			q.cats = append(q.cats, search.CategoryCodes(w, ""))
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// sql is the query written as DuckDB SQL over the snapshot's tables, as
// one would without the index: words by ILIKE over name and summary or a
// category their everyday words name, the tier by the town or postal
// code, the distance by the haversine formula, openAt by the weekly hours
// in each location's time zone (without the dated exceptions and
// overnight ranges the index also reads, which only spares SQL work).
func (q benchQuery) sql(now time.Time) (string, []any) {
	var match, fit []string
	var args []any
	for i, w := range q.words {
		cond := "(lower(strip_accents(e.name)) LIKE ? OR lower(strip_accents(e.summary)) LIKE ?"
		args = append(args, "%"+w+"%", "%"+w+"%")
		if len(q.cats[i]) > 0 {
			cond += " OR list_has_any(e.categories, ?::VARCHAR[])"
			args = append(args, q.cats[i])
		}
		cond += ")"
		match = append(match, cond)
		fit = append(fit, "("+cond+")::INT")
	}
	fitArgs := slices.Clone(args)
	where := []string{"e.listed", "e.status NOT IN ('suspended', 'removed')"}
	if len(match) > 0 {
		where = append(where, "("+strings.Join(match, " OR ")+")")
	}
	tier := "CASE WHEN lower(strip_accents(e.locality)) = ? THEN 1 ELSE 3 END"
	tierArgs := []any{q.place}
	if q.code != "" {
		tier = "CASE WHEN upper(replace(e.postal_code, ' ', '')) LIKE ? THEN 1 ELSE 3 END"
		tierArgs = []any{strings.ReplaceAll(q.code, " ", "") + "%"}
		where = append(where, "list_contains(e.categories, ?)")
		args = append(args, q.in.Category)
	}
	if q.in.OpenAt != "" {
		where = append(where, `EXISTS (SELECT 1 FROM locations l,
			unnest(from_json(json_extract(l.hours, '$.hours'), '[{"days":["VARCHAR"],"opens":"VARCHAR","closes":"VARCHAR","closed":"BOOLEAN"}]')) AS t(r)
			WHERE l.entry_id = e.entry_id AND l.hours IS NOT NULL
			  AND list_contains(r.days, lower(strftime(timezone(coalesce(l.time_zone, 'UTC'), ?::TIMESTAMPTZ), '%a')))
			  AND NOT coalesce(r.closed, false)
			  AND r.opens <= strftime(timezone(coalesce(l.time_zone, 'UTC'), ?::TIMESTAMPTZ), '%H:%M')
			  AND strftime(timezone(coalesce(l.time_zone, 'UTC'), ?::TIMESTAMPTZ), '%H:%M') < r.closes)`)
		args = append(args, q.in.OpenAt, q.in.OpenAt, q.in.OpenAt)
	}
	fitSQL := "0"
	if len(fit) > 0 {
		fitSQL = strings.Join(fit, " + ")
	}
	stmt := `SELECT e.entry_id, ` + tier + ` AS tier, ` + fitSQL + ` AS fit,
		2 * 6371 * asin(sqrt(pow(sin(radians(e.lat - ?) / 2), 2) + cos(radians(?)) * cos(radians(e.lat)) * pow(sin(radians(e.lon - ?) / 2), 2))) AS km
		FROM entries e WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY tier, fit DESC, floor(km / 10), hash(e.entry_id || ?) LIMIT 11`
	all := append(append(append(tierArgs, fitArgs...), q.lat, q.lat, q.lon), args...)
	all = append(all, now.Format("2006-01-02T15"))
	return stmt, all
}
