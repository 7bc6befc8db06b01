package bench

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
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
	f, ok := parseServeFlags(args, stderr)
	if !ok {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench serve:", err); return 1 }
	wrkBin, nginxBin, err := findLoadTools()
	if err != nil {
		return fail(err)
	}
	work, cleanup, err := benchDir(f.dir)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	b := &serveBench{work: work, stderr: stderr, wrk: wrkBin, nginx: nginxBin, duration: f.duration, warmup: f.warmup,
		connections: f.connections, threads: f.threads, timeout: f.timeout}

	// 1–2. The publications and the static tree, made now or (--reuse)
	// by an earlier run in the same --dir.
	su, err := b.prepare(f)
	if err != nil {
		return fail(err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(err)
	}

	// 3. The targets, all started now: nginx over the static tree, the
	// net/http floor over the same tree (bench floor), and daawid serve over
	// the publications (a child process: its memory is its own).
	t := &serveTargets{}
	defer t.stop()
	if err := b.startTargets(t, exe, su.Tree); err != nil {
		return fail(err)
	}
	// 4. Each target warmed up once, then the rounds; then the swap
	// under load on the server alone.
	res, err := b.measure(t.list(), f.rounds)
	if err != nil {
		return fail(err)
	}
	t.ng.stop()
	t.fl.stop()
	sw, err := b.swapUnderLoad(t.srv, su, f.swapAt, f.swapTimeout)
	if err != nil {
		return fail(err)
	}

	// 5. The record.
	rec := &serveRecord{flags: f, bench: b, setup: su, targets: t, rounds: res, swap: sw, nginxVersion: nginxVersion(nginxBin)}
	rec.print(stdout)
	return 0
}

// serveFlags are the flags of bench serve.
type serveFlags struct {
	entries                                        int
	seed                                           int64
	dir                                            string
	duration, warmup, timeout, swapAt, swapTimeout time.Duration
	rounds, connections, threads                   int
	slugs, changed                                 int
	reuse                                          bool
}

// parseServeFlags reads the flags of bench serve; false is a usage error.
func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, bool) {
	f := &serveFlags{}
	fs := flag.NewFlagSet("bench serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&f.entries, "entries", 1_000_000, "companies")
	fs.Int64Var(&f.seed, "seed", 7, "generator seed (also chooses the slugs)")
	fs.StringVar(&f.dir, "dir", "", "working directory (default: a new temporary one, removed after)")
	fs.DurationVar(&f.duration, "duration", 30*time.Second, "each measured wrk run")
	fs.IntVar(&f.rounds, "rounds", 3, "how many times each target is measured, in turn; the checks take the median of the rounds' ratios")
	fs.DurationVar(&f.warmup, "warmup", 20*time.Second, "an unmeasured wrk run before each measured one: long enough for every path to be read once and for each target to settle (nginx's file cache, the server's document cache and heap)")
	fs.IntVar(&f.connections, "connections", 64, "wrk connections")
	fs.IntVar(&f.threads, "threads", 2, "wrk threads")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Second, "wrk's --timeout: a response slower than this counts as a timeout error")
	fs.IntVar(&f.slugs, "slugs", 100_000, "entries whose markdown the load reads")
	fs.IntVar(&f.changed, "changed", 1000, "entries changed by the publication swapped in during the load")
	fs.DurationVar(&f.swapAt, "swap-at", 5*time.Second, "when, into the swap load, `current` moves to the new publication")
	fs.DurationVar(&f.swapTimeout, "swap-timeout", 10*time.Minute, "how long the server may take to serve the new publication")
	fs.BoolVar(&f.reuse, "reuse", false, "reuse the publications and static tree an earlier run left in --dir (same --entries, --seed, --slugs, --changed)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return nil, false
	}
	return f, true
}

// findLoadTools finds wrk and nginx, which the benchmark runs but does
// not ship.
func findLoadTools() (wrk, nginx string, err error) {
	wrk, err = exec.LookPath("wrk")
	if err != nil {
		return "", "", fmt.Errorf("wrk not found (apt-get install wrk): %w", err)
	}
	nginx, err = exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			return "", "", fmt.Errorf("nginx not found (apt-get install nginx): %w", err)
		}
		nginx = "/usr/sbin/nginx"
	}
	return wrk, nginx, nil
}

// serveBench is one run of bench serve: where it works, the tools it
// runs and how it loads the targets.
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

// out is the publications' folder the server serves.
func (b *serveBench) out() string { return filepath.Join(b.work, "out") }

// prepare makes the publications and the static tree (or, with --reuse,
// takes those an earlier run left), points `current` at A and writes the
// paths and the wrk script the loads read.
func (b *serveBench) prepare(f *serveFlags) (*serveSetup, error) {
	var su *serveSetup
	var err error
	if f.reuse {
		if f.dir == "" {
			return nil, errors.New("--reuse needs --dir")
		}
		if su, err = loadServeSetup(b.work); err != nil {
			return nil, err
		}
		if su.Entries != f.entries || su.Seed != f.seed || su.Slugs != f.slugs || su.Changed != f.changed {
			return nil, fmt.Errorf("--reuse: %s was made with --entries %d --seed %d --slugs %d --changed %d", b.work, su.Entries, su.Seed, su.Slugs, su.Changed)
		}
		for _, d := range []string{filepath.Join(b.work, "counts"), filepath.Join(b.work, "reports"), filepath.Join(b.work, "nginx")} {
			os.RemoveAll(d)
		}
		b.logf("reusing the publications and the static tree in %s", b.work)
	} else if su, err = b.setup(f.entries, f.seed, f.slugs, f.changed); err != nil {
		return nil, err
	}
	if err := pointCurrent(b.out(), su.PubA); err != nil {
		return nil, err
	}
	pathsFile := filepath.Join(b.work, "paths.txt")
	if err := os.WriteFile(pathsFile, []byte(strings.Join(su.Tree.Paths, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	if b.lua, err = writeWrkScript(b.work, pathsFile, f.threads); err != nil {
		return nil, err
	}
	syscall.Sync() // the publications' write-back does not land in the loads
	return su, nil
}

// serveTargets are the three targets of the loads, and what was checked
// when they started: how many of the first paths each answered with the
// static tree's bytes, and the server's RSS once ready.
type serveTargets struct {
	ng                               *nginxProc
	fl                               *floorProc
	srv                              *serverProc
	sameNginx, sameFloor, sameServer int
	readyRSS                         int64
}

// startTargets starts nginx, the net/http floor and the server, in that
// order, into t; whatever started is stopped by t.stop, also on an error.
func (b *serveBench) startTargets(t *serveTargets, exe string, tree *staticTree) error {
	var err error
	static := filepath.Join(b.work, "static")
	if t.ng, err = b.startNginx(static); err != nil {
		return err
	}
	if t.sameNginx, err = sameBytes(t.ng.url, tree, 500); err != nil {
		return fmt.Errorf("nginx: %w", err)
	}
	if t.fl, err = b.startFloor(exe, static); err != nil {
		return err
	}
	if t.sameFloor, err = sameBytes(t.fl.url, tree, 500); err != nil {
		return fmt.Errorf("net/http floor: %w", err)
	}
	if t.srv, err = b.startServer(exe, b.out()); err != nil {
		return err
	}
	readyID, _ := t.srv.publication()
	_, t.readyRSS = procMemMB(t.srv.pid())
	b.logf("daawid serve: ready in %.1f s serving %s, RSS %d MB", t.srv.ready.Seconds(), readyID, t.readyRSS)
	if t.sameServer, err = sameBytes(t.srv.url, tree, 500); err != nil {
		return fmt.Errorf("daawid serve: %w", err)
	}
	return nil
}

// stop stops the targets that started, the server first.
func (t *serveTargets) stop() {
	if t.srv != nil {
		t.srv.stop()
	}
	if t.fl != nil {
		t.fl.stop()
	}
	if t.ng != nil {
		t.ng.stop()
	}
}

// loadTarget is a target as the rounds measure it: where to send the
// load, and how to read its CPU time and its peak and current RSS.
type loadTarget struct {
	name string
	url  string
	cpu  func() float64
	rss  func() (int64, int64)
}

// list is the targets in the order of every round (and of the record's
// columns): nginx, the floor, the server.
func (t *serveTargets) list() []loadTarget {
	pid := t.srv.pid()
	return []loadTarget{
		{"nginx", t.ng.url, t.ng.cpu, t.ng.rss},
		{"net/http floor", t.fl.url, t.fl.cpu, t.fl.rss},
		{"daawid serve", t.srv.url, func() float64 { return procCPU(pid) }, func() (int64, int64) { return procMemMB(pid) }},
	}
}

// measure warms each target up once, then measures every target in turn,
// rounds times, so each comparison is between loads a minute apart at
// most.
func (b *serveBench) measure(targets []loadTarget, rounds int) ([][3]*wrkResult, error) {
	for _, t := range targets {
		b.logf("%s: warm-up %s", t.name, b.warmup)
		if _, err := b.runWrk(t.url, b.warmup, nil); err != nil {
			return nil, err
		}
	}
	res := make([][3]*wrkResult, rounds)
	for r := range res {
		for i, t := range targets {
			cpu0 := t.cpu()
			w, err := b.runWrk(t.url, b.duration, nil)
			if err != nil {
				return nil, err
			}
			w.cpu = t.cpu() - cpu0
			w.rssMB, w.rssNow = t.rss()
			res[r][i] = w
			b.logf("round %d, %s: %.0f requests/s, p99 %.2f ms", r+1, t.name, w.rps, w.p99)
		}
	}
	return res, nil
}

// swapResult is the last load: the server while `current` moves to B.
type swapResult struct {
	load     *wrkResult
	watch    *swapWatch
	servedID string // the publication the server served at the end
}

// swapUnderLoad loads the server again, moves `current` to B after swapAt
// and stops the load swapTail after the server serves B (or at swapAt +
// swapTimeout); then it stops the server.
func (b *serveBench) swapUnderLoad(srv *serverProc, su *serveSetup, swapAt, swapTimeout time.Duration) (*swapResult, error) {
	b.logf("daawid serve: load again, %s in `current` moves to B; the load stops %s after the server serves B (at most %s)", swapAt, swapTail, swapTimeout)
	sw := &swapWatch{srv: srv, want: su.RepB.ID}
	pid := srv.pid()
	cpu0 := procCPU(pid)
	sres, err := b.runWrk(srv.url, swapAt+swapTimeout, func(started time.Time, stop func()) error {
		defer stop()
		time.Sleep(swapAt)
		if err := pointCurrent(b.out(), su.PubB); err != nil {
			return err
		}
		sw.pointed = time.Since(started)
		sw.watch(started, swapAt+swapTimeout-swapTail)
		return nil
	})
	if err != nil {
		return nil, err
	}
	finalID, err := srv.publication()
	if err != nil {
		return nil, err
	}
	sres.rssMB, sres.rssNow = procMemMB(pid)
	sres.cpu = procCPU(pid) - cpu0
	srv.stop()
	b.logf("daawid serve: swap run %.1f s, %.0f requests/s, p99 %.2f ms, %d errors, VmHWM %d MB, now serving %s",
		sres.seconds, sres.rps, sres.p99, sres.errors(), sres.rssMB, finalID)
	return &swapResult{load: sres, watch: sw, servedID: finalID}, nil
}
