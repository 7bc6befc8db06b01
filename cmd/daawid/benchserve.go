package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the publication's registry.duckdb

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
)

// benchServe is "daawid bench serve": the load benchmark of
// docs/performance.md. It generates and compiles N companies, publishes
// them in full (publication A), then a delta publication over it with
// --changed entries changed (publication B), and points `current` back at
// A. It writes the default-language markdown of --slugs entries, chosen
// over the whole registry from --seed, as a static tree with the bytes A
// serves, and runs wrk (GET /{slug}.md round robin over those slugs)
// against three targets started side by side: nginx serving that tree,
// the net/http floor (bench floor: the tree from a Go map, the same
// headers, the plainest handler) and `daawid serve` over the publications
// (a child process: its memory is its own). Each is warmed up once, then
// measured in turn in each of --rounds rounds. A last load on the server
// moves `current` to B after --swap-at and goes on until the server
// serves B (and swapTail more): the swap must not drop a request. It
// prints a table of the runs and the checks of the issue on the median of
// the rounds' ratios: requests/s at least 0.8x nginx's and p99 at most 2x
// nginx's; the server's peak RSS under 3 GB (over every run, the swap
// included), no error under load, B served after the swap. A missed
// target prints FAIL (exit 0); an operational error exits 1. --reuse runs
// the loads again on what an earlier run left in --dir.
//
// The publications are dated just before the benchmark runs: the server
// serves against the real clock, and publications dated in the past would
// have their entries re-rendered in memory past their nextChangeAt (the
// time guard, D66), which is not the path this benchmark measures.
func benchServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entries := fs.Int("entries", 1_000_000, "companies")
	seed := fs.Int64("seed", 7, "generator seed (also chooses the slugs)")
	dir := fs.String("dir", "", "working directory (default: a new temporary one, removed after)")
	duration := fs.Duration("duration", 30*time.Second, "each measured wrk run")
	rounds := fs.Int("rounds", 3, "how many times each target is measured, in turn; the checks take the median of the rounds' ratios")
	warmup := fs.Duration("warmup", 20*time.Second, "an unmeasured wrk run before each measured one: long enough for every path to be read once and for each target to settle (nginx's file cache, the server's document cache and heap)")
	connections := fs.Int("connections", 64, "wrk connections")
	threads := fs.Int("threads", 2, "wrk threads")
	timeout := fs.Duration("timeout", 2*time.Second, "wrk's --timeout: a response slower than this counts as a timeout error")
	nslugs := fs.Int("slugs", 100_000, "entries whose markdown the load reads")
	changed := fs.Int("changed", 1000, "entries changed by the publication swapped in during the load")
	swapAt := fs.Duration("swap-at", 5*time.Second, "when, into the swap load, `current` moves to the new publication")
	swapTimeout := fs.Duration("swap-timeout", 10*time.Minute, "how long the server may take to serve the new publication")
	reuse := fs.Bool("reuse", false, "reuse the publications and static tree an earlier run left in --dir (same --entries, --seed, --slugs, --changed)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench serve:", err); return 1 }
	wrkBin, err := exec.LookPath("wrk")
	if err != nil {
		return fail(fmt.Errorf("wrk not found (apt-get install wrk): %w", err))
	}
	nginxBin, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			return fail(fmt.Errorf("nginx not found (apt-get install nginx): %w", err))
		}
		nginxBin = "/usr/sbin/nginx"
	}
	work, cleanup, err := benchDir(*dir)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	b := &serveBench{work: work, stderr: stderr, wrk: wrkBin, nginx: nginxBin, duration: *duration, warmup: *warmup,
		connections: *connections, threads: *threads, timeout: *timeout}
	logf := b.logf

	// 1–2. The publications and the static tree, made now or (--reuse)
	// by an earlier run in the same --dir.
	out := filepath.Join(work, "out")
	var su *serveSetup
	if *reuse {
		if *dir == "" {
			return fail(errors.New("--reuse needs --dir"))
		}
		if su, err = loadServeSetup(work); err != nil {
			return fail(err)
		}
		if su.Entries != *entries || su.Seed != *seed || su.Slugs != *nslugs || su.Changed != *changed {
			return fail(fmt.Errorf("--reuse: %s was made with --entries %d --seed %d --slugs %d --changed %d", work, su.Entries, su.Seed, su.Slugs, su.Changed))
		}
		for _, d := range []string{filepath.Join(work, "counts"), filepath.Join(work, "reports"), filepath.Join(work, "nginx")} {
			os.RemoveAll(d)
		}
		logf("reusing the publications and the static tree in %s", work)
	} else if su, err = b.setup(*entries, *seed, *nslugs, *changed); err != nil {
		return fail(err)
	}
	pubA, pubB := su.PubA, su.PubB
	if err := pointCurrent(out, pubA); err != nil {
		return fail(err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(err)
	}
	pathsFile := filepath.Join(work, "paths.txt")
	if err := os.WriteFile(pathsFile, []byte(strings.Join(su.Tree.Paths, "\n")+"\n"), 0o644); err != nil {
		return fail(err)
	}
	if b.lua, err = writeWrkScript(work, pathsFile, *threads); err != nil {
		return fail(err)
	}
	syscall.Sync() // the publications' write-back does not land in the loads

	// 3. The targets, all started now: nginx over the static tree, the
	// net/http floor over the same tree (bench floor), and daawid serve over
	// the publications (a child process: its memory is its own). Each is
	// warmed up once.
	ng, err := b.startNginx(filepath.Join(work, "static"))
	if err != nil {
		return fail(err)
	}
	defer ng.stop()
	sameNginx, err := sameBytes(ng.url, su.Tree, 500)
	if err != nil {
		return fail(fmt.Errorf("nginx: %w", err))
	}
	fl, err := b.startFloor(exe, filepath.Join(work, "static"))
	if err != nil {
		return fail(err)
	}
	defer fl.stop()
	sameFloor, err := sameBytes(fl.url, su.Tree, 500)
	if err != nil {
		return fail(fmt.Errorf("net/http floor: %w", err))
	}
	srv, err := b.startServer(exe, out)
	if err != nil {
		return fail(err)
	}
	defer srv.stop()
	pid := srv.cmd.Process.Pid
	readyID, _ := srv.publication()
	_, readyRSS := procMemMB(pid)
	logf("daawid serve: ready in %.1f s serving %s, RSS %d MB", srv.ready.Seconds(), readyID, readyRSS)
	sameServer, err := sameBytes(srv.url, su.Tree, 500)
	if err != nil {
		return fail(fmt.Errorf("daawid serve: %w", err))
	}
	targets := []struct {
		name string
		url  string
		cpu  func() float64
		rss  func() (int64, int64)
	}{
		{"nginx", ng.url, ng.cpu, ng.rss},
		{"net/http floor", fl.url, fl.cpu, fl.rss},
		{"daawid serve", srv.url, func() float64 { return procCPU(pid) }, func() (int64, int64) { return procMemMB(pid) }},
	}
	for _, t := range targets {
		logf("%s: warm-up %s", t.name, b.warmup)
		if _, err := b.runWrk(t.url, b.warmup, nil); err != nil {
			return fail(err)
		}
	}
	// 4. The rounds: every target measured in turn, --rounds times, so
	// each comparison is between loads a minute apart at most.
	res := make([][3]*wrkResult, *rounds)
	for r := range res {
		for i, t := range targets {
			cpu0 := t.cpu()
			w, err := b.runWrk(t.url, b.duration, nil)
			if err != nil {
				return fail(err)
			}
			w.cpu = t.cpu() - cpu0
			w.rssMB, w.rssNow = t.rss()
			res[r][i] = w
			logf("round %d, %s: %.0f requests/s, p99 %.2f ms", r+1, t.name, w.rps, w.p99)
		}
	}
	ng.stop()
	fl.stop()
	logf("daawid serve: load again, %s in `current` moves to B; the load stops %s after the server serves B (at most %s)", *swapAt, swapTail, *swapTimeout)
	sw := &swapWatch{srv: srv, want: su.RepB.ID}
	cpu0 := procCPU(pid)
	sres, err := b.runWrk(srv.url, *swapAt+*swapTimeout, func(started time.Time, stop func()) error {
		defer stop()
		time.Sleep(*swapAt)
		if err := pointCurrent(out, pubB); err != nil {
			return err
		}
		sw.pointed = time.Since(started)
		sw.watch(started, *swapAt+*swapTimeout-swapTail)
		return nil
	})
	if err != nil {
		return fail(err)
	}
	finalID, err := srv.publication()
	if err != nil {
		return fail(err)
	}
	sres.rssMB, sres.rssNow = procMemMB(pid)
	sres.cpu = procCPU(pid) - cpu0
	srv.stop()
	logf("daawid serve: swap run %.1f s, %.0f requests/s, p99 %.2f ms, %d errors, VmHWM %d MB, now serving %s",
		sres.seconds, sres.rps, sres.p99, sres.errors(), sres.rssMB, finalID)

	// 5. The record.
	ngVersion := nginxVersion(nginxBin)
	fmt.Fprintf(stdout, "serve benchmark: %d companies (%d entries published, %d documents, %.1f GB), seed %d; GET /{slug}.md round robin over %d slugs chosen over the whole registry\n",
		*entries, su.RepA.Entries, su.RepA.Documents, float64(su.RepA.Bytes)/1e9, *seed, len(su.Tree.Paths))
	fmt.Fprintf(stdout, "wrk %d threads, %d connections; each target warmed up %s once, then measured %s in each of %d rounds (nginx, the net/http floor, daawid serve in turn); wrk and the targets on the same machine (%d cores), each target free to use every core%s\n\n",
		*threads, *connections, b.warmup, b.duration, *rounds, runtime.NumCPU(), buildRevision())
	fmt.Fprintln(stdout, "| round | target | requests/s | p50 ms | p99 ms | max ms | errors (non-2xx + socket) | RSS MB | server CPU µs/request | cores: server / wrk / other |")
	fmt.Fprintln(stdout, "|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
	var rpsRatios, p99Ratios, floorRps, floorP99 []float64
	for r, rr := range res {
		nres, fres, dres := rr[0], rr[1], rr[2]
		fmt.Fprintf(stdout, "| %d | %s, static tree (sendfile, open_file_cache max=%d) | %.0f | %.2f | %.2f | %.2f | %s | %d (peak, master + workers) | %s | %s |\n",
			r+1, ngVersion, b.nginxCache, nres.rps, nres.p50, nres.p99, nres.max, nres.errorsText(), nres.rssMB, nres.cpuPerRequest(), nres.cores())
		fmt.Fprintf(stdout, "| %d | net/http floor: the tree from memory, the same headers (bench floor) | %.0f | %.2f | %.2f | %.2f | %s | %d | %s | %s |\n",
			r+1, fres.rps, fres.p50, fres.p99, fres.max, fres.errorsText(), fres.rssMB, fres.cpuPerRequest(), fres.cores())
		fmt.Fprintf(stdout, "| %d | daawid serve, publication A | %.0f | %.2f | %.2f | %.2f | %s | %d (VmHWM; %d at ready) | %s | %s |\n",
			r+1, dres.rps, dres.p50, dres.p99, dres.max, dres.errorsText(), dres.rssMB, readyRSS, dres.cpuPerRequest(), dres.cores())
		rpsRatios = append(rpsRatios, dres.rps/nres.rps)
		p99Ratios = append(p99Ratios, dres.p99/nres.p99)
		floorRps = append(floorRps, fres.rps/nres.rps)
		floorP99 = append(floorP99, fres.p99/nres.p99)
	}
	swapNote := fmt.Sprintf("`current` moved at %.1f s, B not served within the run", sw.pointed.Seconds())
	if sw.servedAt > 0 {
		swapNote = fmt.Sprintf("`current` moved at %.1f s, B served from %.1f s", sw.pointed.Seconds(), sw.servedAt.Seconds())
	}
	swapNote += fmt.Sprintf("; slowest /readyz probe %.2f s, at %.1f s", sw.slowest.Seconds(), sw.slowestAt.Seconds())
	fmt.Fprintf(stdout, "| after | daawid serve, swap A → B under load (%.1f s: %s) | %.0f | %.2f | %.2f | %.2f | %s | %d (VmHWM; %d after) | %s (with the swap) | %s |\n",
		sres.seconds, swapNote, sres.rps, sres.p50, sres.p99, sres.max, sres.errorsText(), sres.rssMB, sres.rssNow, sres.cpuPerRequest(), sres.cores())
	rpsRatio, p99Ratio := median(rpsRatios), median(p99Ratios)
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "per round, daawid / nginx: requests/s %s, p99 %s; the net/http floor / nginx: requests/s %s, p99 %s\n\n",
		ratios(rpsRatios), ratios(p99Ratios), ratios(floorRps), ratios(floorP99))
	fmt.Fprintln(stdout, "| check | target | measured | result |")
	fmt.Fprintln(stdout, "|---|---|---|---|")
	check := func(name, target, measured string, ok bool) {
		r := "PASS"
		if !ok {
			r = "FAIL"
		}
		fmt.Fprintf(stdout, "| %s | %s | %s | %s |\n", name, target, measured, r)
	}
	var ngErrors, srvErrors int64
	for _, rr := range res {
		ngErrors += rr[0].errors()
		srvErrors += rr[2].errors()
	}
	check("nginx baseline without errors", "0", fmt.Sprint(ngErrors), ngErrors == 0)
	check("requests/s, daawid / nginx (median of the rounds)", "≥ 0.8", fmt.Sprintf("%.2f", rpsRatio), rpsRatio >= 0.8)
	check("p99, daawid / nginx (median of the rounds)", "≤ 2", fmt.Sprintf("%.2f", p99Ratio), p99Ratio <= 2)
	check("server RSS (peak over both loads and the swap, VmHWM)", "< 3000 MB", fmt.Sprintf("%d MB", sres.rssMB), sres.rssMB < 3000)
	check("errors under load (daawid, every run)", "0", fmt.Sprintf("%d + %d during the swap", srvErrors, sres.errors()), srvErrors+sres.errors() == 0)
	swapOK := sw.servedAt > 0 && finalID == su.RepB.ID
	check("publication swapped under load (/readyz)", su.RepB.ID, finalID, swapOK)
	n := min(500, len(su.Tree.Paths))
	check("same bytes as the static tree (first slugs)", "all", fmt.Sprintf("nginx %d/%d, floor %d/%d, daawid %d/%d", sameNginx, n, sameFloor, n, sameServer, n),
		sameNginx == n && sameFloor == n && sameServer == n)
	fmt.Fprintln(stdout)
	if *reuse {
		fmt.Fprintf(stdout, "(publications and static tree reused from a run at %s) ", su.Made.Format(time.RFC3339))
	}
	fmt.Fprintf(stdout, "publication A (full, no exports) %.1f s, peak RSS %d MB; B (delta, %d entries changed) %.1f s; compile %.1f s\n",
		su.Full.Wall, su.Full.RSS, *changed, su.Delta.Wall, su.Compile.Wall)
	fmt.Fprintf(stdout, "server ready in %.1f s; the snapshot index of A (%d documents) is %.0f MB of Go heap when opened alone\n",
		srv.ready.Seconds(), su.Tree.Docs, float64(su.Tree.Heap)/1e6)
	if su.Tree.StandIns > 0 {
		fmt.Fprintf(stdout, "note: %d of the chosen documents were past their nextChangeAt (served re-rendered, not the static bytes)\n", su.Tree.StandIns)
	}
	return 0
}

type serveBench struct {
	work, wrk, nginx, lua string
	stderr                io.Writer
	duration, warmup      time.Duration
	timeout               time.Duration
	nginxCache            int64 // open_file_cache max
	connections, threads  int
}

func (b *serveBench) logf(format string, a ...any) {
	fmt.Fprintf(b.stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, a...)...)
}

// serveSetup is what the loads run on: two publications and the static
// tree, with the figures of their making. It is kept in the work
// directory (bench-serve.json) for --reuse.
type serveSetup struct {
	Entries              int
	Seed                 int64
	Slugs, Changed       int
	RepA, RepB           pipeline.PublishReport
	PubA, PubB           string
	Compile, Full, Delta stepFigures
	Tree                 *staticTree
	Made                 time.Time
}

type stepFigures struct {
	Wall float64 // seconds
	RSS  int64   // peak, MB
}

const serveSetupFile = "bench-serve.json"

func loadServeSetup(work string) (*serveSetup, error) {
	b, err := os.ReadFile(filepath.Join(work, serveSetupFile))
	if err != nil {
		return nil, fmt.Errorf("--reuse: %w", err)
	}
	var su serveSetup
	if err := json.Unmarshal(b, &su); err != nil {
		return nil, fmt.Errorf("--reuse: %s: %w", serveSetupFile, err)
	}
	for _, d := range []string{su.PubA, su.PubB, su.Tree.Root} {
		if _, err := os.Stat(d); err != nil {
			return nil, fmt.Errorf("--reuse: %w", err)
		}
	}
	return &su, nil
}

// setup generates and compiles the companies, publishes them in full (A)
// and then a delta with changed entries changed (B), and writes the
// static tree of A.
func (b *serveBench) setup(entries int, seed int64, nslugs, changed int) (*serveSetup, error) {
	work := b.work
	os.Remove(filepath.Join(work, serveSetupFile))
	data, state, out := filepath.Join(work, "data"), filepath.Join(work, "state"), filepath.Join(work, "out")
	for _, d := range []string{state, out, filepath.Join(work, "counts"), filepath.Join(work, "reports"), filepath.Join(work, "static"), filepath.Join(work, "nginx")} {
		os.RemoveAll(d)
	}
	su := &serveSetup{Entries: entries, Seed: seed, Slugs: nslugs, Changed: changed}
	t0 := time.Now()
	exe, registers, err := generate(data, entries, seed)
	if err != nil {
		return nil, err
	}
	b.logf("generated %d companies in %.1f s", entries, time.Since(t0).Seconds())
	base := time.Now().UTC().Truncate(time.Second)
	at := func(d time.Duration) string { return base.Add(d).Format(time.RFC3339) }
	comp, err := runChild(exe, append([]string{"compile", "--state", state, "--now", at(-4 * time.Hour)}, registers...)...)
	if err != nil {
		return nil, err
	}
	su.Compile = stepFigures{comp.wall, comp.rss}
	b.logf("compiled in %.1f s (peak RSS %d MB)", comp.wall, comp.rss)
	full, err := runChild(exe, "publish", "--json", "--state", state, "--out", out, "--now", at(-3*time.Hour))
	if err != nil {
		return nil, err
	}
	su.Full = stepFigures{full.wall, full.rss}
	if err := json.Unmarshal(full.out, &su.RepA); err != nil {
		return nil, err
	}
	if su.PubA, err = publication.Current(out); err != nil {
		return nil, err
	}
	b.logf("publication A %s: %d entries, %d documents, %.1f GB in %.1f s (peak RSS %d MB)",
		su.RepA.ID, su.RepA.Entries, su.RepA.Documents, float64(su.RepA.Bytes)/1e9, full.wall, full.rss)
	events := filepath.Join(work, "events.jsonl")
	if err := pipeline.ReportEvents(state, events, changed, base.Add(-2*time.Hour)); err != nil {
		return nil, err
	}
	if _, err := runChild(exe, "compile", "--state", state, "--verification", events, "--now", at(-90*time.Minute)); err != nil {
		return nil, err
	}
	delta, err := runChild(exe, "publish", "--json", "--state", state, "--out", out, "--delta", "--now", at(-time.Hour))
	if err != nil {
		return nil, err
	}
	su.Delta = stepFigures{delta.wall, delta.rss}
	if err := json.Unmarshal(delta.out, &su.RepB); err != nil {
		return nil, err
	}
	if su.PubB, err = publication.Current(out); err != nil {
		return nil, err
	}
	if su.PubB == su.PubA {
		return nil, errors.New("the delta publication did not make a new publication")
	}
	b.logf("publication B %s: %d rendered, %d documents written in %.1f s (peak RSS %d MB)",
		su.RepB.ID, su.RepB.Rendered, su.RepB.Documents, delta.wall, delta.rss)
	if su.Tree, err = writeStaticTree(su.PubA, filepath.Join(work, "static"), nslugs, seed); err != nil {
		return nil, err
	}
	b.logf("static tree: %d documents, %.1f MB; the snapshot index of A holds %d documents, %.0f MB of Go heap in this process (opened in %.1f s)",
		len(su.Tree.Paths), float64(su.Tree.Bytes)/1e6, su.Tree.Docs, float64(su.Tree.Heap)/1e6, su.Tree.Open.Seconds())
	su.Made = time.Now().UTC()
	j, _ := json.Marshal(su)
	return su, os.WriteFile(filepath.Join(work, serveSetupFile), j, 0o644)
}

// pointCurrent points {out}/current at a publication directory, with one
// rename of a new symlink over the old one, as a publication does.
func pointCurrent(out, pub string) error {
	rel, err := filepath.Rel(out, pub)
	if err != nil {
		return err
	}
	tmp := filepath.Join(out, "current.bench")
	os.Remove(tmp)
	if err := os.Symlink(rel, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(out, "current"))
}

// staticTree is what the load reads: the chosen paths (in the order the
// load walks them) and the bytes of each.
type staticTree struct {
	Root     string
	Paths    []string
	Bytes    int64
	Docs     int           // documents in the publication
	Heap     uint64        // Go heap of the opened snapshot
	Open     time.Duration // time to open the snapshot
	StandIns int           // chosen documents past their nextChangeAt
}

// writeStaticTree chooses n slugs of the publication's entries (a
// seeded sample over all of them) and writes each one's default-language
// markdown, byte for byte as the publication serves it, to
// {root}/{slug}.md.
func writeStaticTree(pub, root string, n int, seed int64) (*staticTree, error) {
	slugs, err := publishedSlugs(pub)
	if err != nil {
		return nil, err
	}
	if len(slugs) == 0 {
		return nil, errors.New("the publication has no entries")
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5e7e))
	n = min(n, len(slugs))
	for i := 0; i < n; i++ { // the first n of a seeded shuffle
		j := i + rng.IntN(len(slugs)-i)
		slugs[i], slugs[j] = slugs[j], slugs[i]
	}
	slugs = slugs[:n]
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	sn, err := query.OpenSnapshot(pub)
	if err != nil {
		return nil, err
	}
	t := &staticTree{Root: root, Open: time.Since(start), Docs: sn.Len()}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if m1.HeapAlloc > m0.HeapAlloc {
		t.Heap = m1.HeapAlloc - m0.HeapAlloc
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	now := time.Now()
	for _, s := range slugs {
		p := "/" + s + ".md"
		if strings.ContainsAny(s, "/%?#. \t\n") {
			return nil, fmt.Errorf("slug %q is not a plain path segment", s)
		}
		d, ok := sn.Doc(p)
		if !ok || d.Kind != render.KindMarkdown {
			return nil, fmt.Errorf("publication %s serves no markdown at %s", pub, p)
		}
		body, err := sn.Bytes(d)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(root, s+".md"), body, 0o644); err != nil {
			return nil, err
		}
		if !d.NextChangeAt.IsZero() && !now.Before(d.NextChangeAt) {
			t.StandIns++
		}
		t.Paths = append(t.Paths, p)
		t.Bytes += int64(len(body))
	}
	sn = nil
	debug.FreeOSMemory()
	return t, nil
}

// publishedSlugs lists the slugs of a publication's entries from its
// registry.duckdb, in slug order.
func publishedSlugs(pub string) ([]string, error) {
	db, err := sql.Open("duckdb", filepath.Join(pub, "registry.duckdb")+"?access_mode=read_only")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rs, err := db.Query(`SELECT slug FROM entries WHERE status <> 'removed' ORDER BY slug`)
	if err != nil {
		return nil, fmt.Errorf("registry.duckdb: %w", err)
	}
	defer rs.Close()
	var slugs []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			return nil, err
		}
		slugs = append(slugs, s)
	}
	return slugs, rs.Err()
}

// writeWrkScript writes the wrk script: each thread reads the paths and
// walks them round robin from its own offset; done prints the figures on
// one line ("BENCH-RESULT k=v ...", latencies in microseconds).
func writeWrkScript(work, pathsFile string, threads int) (string, error) {
	script := fmt.Sprintf(`-- daawid bench serve: GET round robin over the paths in %[1]q
local threads = %[2]d
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

local reqs = {}
local n = 0
local i = 0
function init(args)
  for line in io.lines(%[1]q) do
    if line ~= "" then
      n = n + 1
      reqs[n] = wrk.format("GET", line)
    end
  end
  i = math.floor((tid or 0) * n / threads)
end

function request()
  i = i + 1
  if i > n then i = 1 end
  return reqs[i]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH-RESULT requests=%%d duration_us=%%d bytes=%%d connect=%%d read=%%d write=%%d status=%%d timeout=%%d p50=%%d p90=%%d p99=%%d p999=%%d max=%%d\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`, pathsFile, threads)
	p := filepath.Join(work, "load.lua")
	return p, os.WriteFile(p, []byte(script), 0o644)
}

// swapTail is how long the swap load goes on once the new publication is
// served.
const swapTail = 5 * time.Second

// wrkResult is one wrk run. Latencies are in milliseconds.
type wrkResult struct {
	requests                              int64
	seconds, rps                          float64
	connect, read, write, status, timeout int64
	p50, p90, p99, p999, max              float64
	rssMB, rssNow                         int64
	cpu                                   float64       // the target's CPU seconds during the run
	limit                                 time.Duration // wrk's timeout
	machine, wrkCPU                       float64       // CPU seconds of the whole machine and of wrk during the run
	raw                                   string
}

// cores is how many cores the target, wrk and everything else used on
// average during the run.
func (r *wrkResult) cores() string {
	if r.seconds == 0 {
		return "–"
	}
	other := max(0, r.machine-r.cpu-r.wrkCPU)
	return fmt.Sprintf("%.2f / %.2f / %.2f", r.cpu/r.seconds, r.wrkCPU/r.seconds, other/r.seconds)
}

func (r *wrkResult) cpuPerRequest() string {
	if r.requests == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", r.cpu/float64(r.requests)*1e6)
}

func (r *wrkResult) errors() int64 {
	return r.connect + r.read + r.write + r.status + r.timeout
}

func (r *wrkResult) errorsText() string {
	if r.errors() == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (non-2xx %d; connect %d, read %d, write %d; timeout %d: slower than %s)", r.errors(), r.status, r.connect, r.read, r.write, r.timeout, r.limit)
}

// runWrk runs wrk against url for d; during, when set, runs alongside
// from the moment wrk starts and may end the load early with stop (wrk
// stops on SIGINT and reports what it measured).
func (b *serveBench) runWrk(url string, d time.Duration, during func(started time.Time, stop func()) error) (*wrkResult, error) {
	cmd := exec.Command(b.wrk, "-t", fmt.Sprint(b.threads), "-c", fmt.Sprint(b.connections), "-d", fmt.Sprintf("%ds", int(d.Seconds())),
		"--timeout", fmt.Sprintf("%ds", max(1, int(b.timeout.Seconds()))), "--latency", "-s", b.lua, url)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	busy0 := machineBusy()
	started := time.Now()
	var once sync.Once
	done := make(chan struct{})
	stop := func() {
		once.Do(func() {
			select {
			case <-done:
			default:
				cmd.Process.Signal(os.Interrupt)
			}
		})
	}
	errc := make(chan error, 1)
	if during != nil {
		go func() { errc <- during(started, stop) }()
	} else {
		errc <- nil
	}
	werr := cmd.Wait()
	busy := machineBusy() - busy0
	close(done)
	derr := <-errc
	if werr != nil {
		return nil, fmt.Errorf("wrk: %v: %s", werr, out.String())
	}
	if derr != nil {
		return nil, derr
	}
	r := &wrkResult{raw: out.String(), limit: b.timeout, machine: busy,
		wrkCPU: (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()}
	var line string
	for _, l := range strings.Split(r.raw, "\n") {
		if strings.HasPrefix(l, "BENCH-RESULT ") {
			line = l
		}
	}
	if line == "" {
		return nil, fmt.Errorf("wrk printed no result: %s", r.raw)
	}
	v := map[string]int64{}
	for _, f := range strings.Fields(line)[1:] {
		k, s, _ := strings.Cut(f, "=")
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("wrk result %q: %w", f, err)
		}
		v[k] = int64(n)
	}
	ms := func(k string) float64 { return float64(v[k]) / 1000 }
	r.requests, r.seconds = v["requests"], float64(v["duration_us"])/1e6
	if r.seconds > 0 {
		r.rps = float64(r.requests) / r.seconds
	}
	r.connect, r.read, r.write, r.status, r.timeout = v["connect"], v["read"], v["write"], v["status"], v["timeout"]
	r.p50, r.p90, r.p99, r.p999, r.max = ms("p50"), ms("p90"), ms("p99"), ms("p999"), ms("max")
	fmt.Fprintf(b.stderr, "%s\n", strings.TrimSpace(r.raw))
	return r, nil
}

// nginxProc is nginx serving the static tree.
type nginxProc struct {
	cmd    *exec.Cmd
	url    string
	waited chan struct{}
}

func (b *serveBench) startNginx(root string) (*nginxProc, error) {
	prefix := filepath.Join(b.work, "nginx")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;\n" // the workers read the work directory, which may be private
	}
	// open_file_cache keeps each cached file open in every worker: the
	// workers need a descriptor limit above the cache. Past the hard limit
	// (root without CAP_SYS_RESOURCE cannot raise it either) the cache is
	// what fits under it.
	cache := int64(200_000)
	nofile := cache + int64(4*b.connections) + 1024
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && int64(lim.Max) < nofile {
		nofile = int64(lim.Max)
		cache = max(1000, nofile-int64(4*b.connections)-1024)
	}
	b.nginxCache = cache
	conf := fmt.Sprintf(`# daawid bench serve: the static tree of the chosen markdown documents
%[1]sworker_processes auto;
worker_rlimit_nofile %[5]d;
daemon off;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events {
    worker_connections 4096;
}
http {
    access_log off;
    types { text/markdown md; }
    default_type text/markdown;
    charset utf-8;
    charset_types text/markdown;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    open_file_cache max=%[6]d inactive=60s;
    open_file_cache_valid 60s;
    keepalive_requests 100000;
    keepalive_timeout 65;
    server {
        listen 127.0.0.1:%[3]d;
        root %[4]s;
        location / { }
    }
}
`, user, prefix, port, root, nofile, cache)
	confFile := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(prefix, "stderr.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(b.nginx, "-e", filepath.Join(prefix, "error.log"), "-p", prefix+"/", "-c", confFile)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	ng := &nginxProc{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), waited: exited}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(prefix, "error.log"))
			return nil, fmt.Errorf("nginx exited: %s", log)
		default:
		}
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
			return nil, errors.New("nginx did not listen within 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return ng, nil
}

func (n *nginxProc) stop() {
	select {
	case <-n.waited:
		return
	default:
	}
	syscall.Kill(n.pid(), syscall.SIGTERM)
	select {
	case <-n.waited:
	case <-time.After(20 * time.Second):
		syscall.Kill(n.pid(), syscall.SIGKILL)
		<-n.waited
	}
}

func (n *nginxProc) pid() int { return n.cmd.Process.Pid }

// cpu is the CPU seconds of nginx's master and workers.
func (n *nginxProc) cpu() float64 {
	t := procCPU(n.pid())
	for _, pid := range childPIDs(n.pid()) {
		t += procCPU(pid)
	}
	return t
}

// rss is the peak and current RSS of nginx's master and workers, summed.
func (n *nginxProc) rss() (peak, now int64) {
	for _, pid := range append([]int{n.pid()}, childPIDs(n.pid())...) {
		p, c := procMemMB(pid)
		peak, now = peak+p, now+c
	}
	return peak, now
}

// serverProc is `daawid serve`.
type serverProc struct {
	cmd    *exec.Cmd
	url    string
	ready  time.Duration
	done   chan struct{}
	client *http.Client
}

func (b *serveBench) startServer(exe, out string) (*serverProc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logFile, err := os.Create(filepath.Join(b.work, "serve.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	// The documents were rendered for the default site: serve for it too
	// (a request to 127.0.0.1 is no host of that deployment: served as is).
	cmd := exec.Command(exe, "serve", "--out", out, "--addr", addr, "--metrics-addr", "", "--no-limit", "--log-level", "warn",
		"--base-url", render.DefaultBaseURL)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &serverProc{cmd: cmd, url: "http://" + addr, done: make(chan struct{}), client: &http.Client{Timeout: 10 * time.Second}}
	go func() { cmd.Wait(); close(s.done) }()
	for {
		select {
		case <-s.done:
			log, _ := os.ReadFile(filepath.Join(b.work, "serve.log"))
			return nil, fmt.Errorf("daawid serve exited: %s", log)
		default:
		}
		if _, err := s.publication(); err == nil {
			break
		}
		if time.Since(start) > 15*time.Minute {
			s.stop()
			return nil, errors.New("daawid serve not ready within 15 minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.ready = time.Since(start)
	return s, nil
}

// floorProc is the net/http floor (bench floor), a child process.
type floorProc struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

func (b *serveBench) startFloor(exe, root string) (*floorProc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(exe, "bench", "floor", "--root", root, "--addr", addr, "--base-url", render.DefaultBaseURL)
	cmd.Stdout, cmd.Stderr = io.Discard, b.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	f := &floorProc{cmd: cmd, url: "http://" + addr, done: make(chan struct{})}
	go func() { cmd.Wait(); close(f.done) }()
	c := &http.Client{Timeout: 2 * time.Second}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		select {
		case <-f.done:
			return nil, errors.New("bench floor exited")
		default:
		}
		if resp, err := c.Get(f.url + "/"); err == nil {
			resp.Body.Close()
			return f, nil
		}
		if time.Since(start) > 2*time.Minute {
			f.stop()
			return nil, errors.New("bench floor not serving within 2 minutes")
		}
	}
}

func (f *floorProc) cpu() float64 { return procCPU(f.cmd.Process.Pid) }

func (f *floorProc) rss() (peak, now int64) { return procMemMB(f.cmd.Process.Pid) }

func (f *floorProc) stop() { stopChild(f.cmd, f.done, 10*time.Second) }

// stopChild asks a child process to stop (SIGTERM) and kills it after
// grace; done closes when it has exited.
func stopChild(cmd *exec.Cmd, done chan struct{}, grace time.Duration) {
	select {
	case <-done:
		return
	default:
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
	}
}

// median is the middle of xs (the mean of the two middle ones for an
// even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ratios prints ratios to two places.
func ratios(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(out, ", ")
}

// publication is the publication ID /readyz reports.
func (s *serverProc) publication() (string, error) {
	resp, err := s.client.Get(s.url + "/readyz")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("/readyz: %s", resp.Status)
	}
	_, id, ok := strings.Cut(strings.TrimSpace(string(body)), "publication ")
	if !ok {
		return "", fmt.Errorf("/readyz: %q", body)
	}
	return id, nil
}

func (s *serverProc) stop() { stopChild(s.cmd, s.done, 30*time.Second) }

// swapWatch records, from the start of the load, when the server began
// serving the new publication, and the slowest of its /readyz answers
// (asked every 100 ms from the swap until swapTail after it is served):
// a stall of the whole server shows there.
type swapWatch struct {
	srv                *serverProc
	want               string
	pointed, servedAt  time.Duration
	slowest, slowestAt time.Duration
}

// watch probes until swapTail after the new publication is served, or
// until (from started) without it.
func (w *swapWatch) watch(started time.Time, until time.Duration) {
	for {
		t0 := time.Now()
		id, err := w.srv.publication()
		if d := time.Since(t0); d > w.slowest {
			w.slowest, w.slowestAt = d, t0.Sub(started)
		}
		now := time.Since(started)
		if err == nil && id == w.want && w.servedAt == 0 {
			w.servedAt = now
		}
		if (w.servedAt > 0 && now >= w.servedAt+swapTail) || (w.servedAt == 0 && now >= until) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sameBytes fetches up to n of the tree's paths from url and counts those
// answered 200 with exactly the tree's bytes.
func sameBytes(url string, t *staticTree, n int) (int, error) {
	c := &http.Client{Timeout: 10 * time.Second}
	same := 0
	for _, p := range t.Paths[:min(n, len(t.Paths))] {
		resp, err := c.Get(url + p)
		if err != nil {
			return 0, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, err
		}
		want, err := os.ReadFile(filepath.Join(t.Root, filepath.FromSlash(strings.TrimPrefix(p, "/"))))
		if err != nil {
			return 0, err
		}
		if resp.StatusCode == http.StatusOK && bytes.Equal(body, want) {
			same++
		}
	}
	return same, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// procMemMB reads a process's peak (VmHWM) and current (VmRSS) resident
// set from /proc, in MB.
func procMemMB(pid int) (peak, now int64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmHWM" && k != "VmRSS") {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if k == "VmHWM" {
			peak = kb / 1024
		} else {
			now = kb / 1024
		}
	}
	return peak, now
}

// procCPU is a process's user and system CPU time in seconds, from
// /proc/PID/stat (clock ticks of 1/100 s, Linux's USER_HZ).
func procCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:]) // state ppid ... utime (12th) stime (13th)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(u+st) / 100
}

// machineBusy is the CPU seconds all processors spent busy since boot,
// from /proc/stat (user, nice, system, irq, softirq, steal).
func machineBusy() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	var t int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		v, _ := strconv.ParseInt(f[i], 10, 64)
		t += v
	}
	return float64(t) / 100
}

// childPIDs lists the processes whose parent is pid.
func childPIDs(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so after the last ')'
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			if f := strings.Fields(s[i+1:]); len(f) > 1 {
				if pp, _ := strconv.Atoi(f[1]); pp == pid {
					kids = append(kids, p)
				}
			}
		}
	}
	return kids
}

// buildRevision is "; daawid built from" the commit of this binary
// (with "+ uncommitted changes" when the tree had some), or "" when the
// build did not record it.
func buildRevision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	if dirty {
		return "; daawid built from " + rev[:min(12, len(rev))] + " + uncommitted changes"
	}
	return "; daawid built from " + rev[:min(12, len(rev))]
}

func nginxVersion(bin string) string {
	out, _ := exec.Command(bin, "-v").CombinedOutput()
	v := strings.TrimSpace(string(out))
	if _, after, ok := strings.Cut(v, "nginx version: "); ok {
		return after
	}
	return "nginx"
}
