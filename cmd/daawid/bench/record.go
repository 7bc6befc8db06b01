package bench

import (
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// serveRecord is what bench serve prints: the runs, the checks of the
// issue and the figures of the setup.
type serveRecord struct {
	flags        *serveFlags
	bench        *serveBench
	setup        *serveSetup
	targets      *serveTargets
	rounds       [][3]*wrkResult // per round: nginx, the floor, the server
	swap         *swapResult
	nginxVersion string
}

// print writes the record: a header, the table of the runs, the ratios
// per round, the table of the checks and the setup's figures.
func (r *serveRecord) print(w io.Writer) {
	f, b, su := r.flags, r.bench, r.setup
	fmt.Fprintf(w, "serve benchmark: %d companies (%d entries published, %d documents, %.1f GB), seed %d; GET /{slug}.md round robin over %d slugs chosen over the whole registry\n",
		f.entries, su.RepA.Entries, su.RepA.Documents, float64(su.RepA.Bytes)/1e9, f.seed, len(su.Tree.Paths))
	fmt.Fprintf(w, "wrk %d threads, %d connections; each target warmed up %s once, then measured %s in each of %d rounds (nginx, the net/http floor, daawid serve in turn); wrk and the targets on the same machine (%d cores), each target free to use every core%s\n\n",
		f.threads, f.connections, b.warmup, b.duration, f.rounds, runtime.NumCPU(), buildRevision())
	rpsRatios, p99Ratios := r.printRuns(w)
	fmt.Fprintln(w)
	r.printChecks(w, median(rpsRatios), median(p99Ratios))
	fmt.Fprintln(w)
	if f.reuse {
		fmt.Fprintf(w, "(publications and static tree reused from a run at %s) ", su.Made.Format(time.RFC3339))
	}
	fmt.Fprintf(w, "publication A (full, no exports) %.1f s, peak RSS %d MB; B (delta, %d entries changed) %.1f s; compile %.1f s\n",
		su.Full.Wall, su.Full.RSS, f.changed, su.Delta.Wall, su.Compile.Wall)
	fmt.Fprintf(w, "server ready in %.1f s; the snapshot index of A (%d documents) is %.0f MB of Go heap when opened alone\n",
		r.targets.srv.ready.Seconds(), su.Tree.Docs, float64(su.Tree.Heap)/1e6)
	if su.Tree.StandIns > 0 {
		fmt.Fprintf(w, "note: %d of the chosen documents were past their nextChangeAt (served re-rendered, not the static bytes)\n", su.Tree.StandIns)
	}
}

// printRuns writes the table of the runs, each round's three and the
// swap, then the ratios to nginx per round; it returns the server's
// requests/s and p99 ratios to nginx, one per round.
func (r *serveRecord) printRuns(w io.Writer) (rpsRatios, p99Ratios []float64) {
	fmt.Fprintln(w, "| round | target | requests/s | p50 ms | p99 ms | max ms | errors (non-2xx + socket) | RSS MB | server CPU µs/request | cores: server / wrk / other |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
	var floorRps, floorP99 []float64
	for i, rr := range r.rounds {
		nres, fres, dres := rr[0], rr[1], rr[2]
		fmt.Fprintf(w, "| %d | %s, static tree (sendfile, open_file_cache max=%d) | %.0f | %.2f | %.2f | %.2f | %s | %d (peak, master + workers) | %s | %s |\n",
			i+1, r.nginxVersion, r.bench.nginxCache, nres.rps, nres.p50, nres.p99, nres.max, nres.errorsText(), nres.rssMB, nres.cpuPerRequest(), nres.cores())
		fmt.Fprintf(w, "| %d | net/http floor: the tree from memory, the same headers (bench floor) | %.0f | %.2f | %.2f | %.2f | %s | %d | %s | %s |\n",
			i+1, fres.rps, fres.p50, fres.p99, fres.max, fres.errorsText(), fres.rssMB, fres.cpuPerRequest(), fres.cores())
		fmt.Fprintf(w, "| %d | daawid serve, publication A | %.0f | %.2f | %.2f | %.2f | %s | %d (VmHWM; %d at ready) | %s | %s |\n",
			i+1, dres.rps, dres.p50, dres.p99, dres.max, dres.errorsText(), dres.rssMB, r.targets.readyRSS, dres.cpuPerRequest(), dres.cores())
		rpsRatios = append(rpsRatios, dres.rps/nres.rps)
		p99Ratios = append(p99Ratios, dres.p99/nres.p99)
		floorRps = append(floorRps, fres.rps/nres.rps)
		floorP99 = append(floorP99, fres.p99/nres.p99)
	}
	sw, sres := r.swap.watch, r.swap.load
	swapNote := fmt.Sprintf("`current` moved at %.1f s, B not served within the run", sw.pointed.Seconds())
	if sw.servedAt > 0 {
		swapNote = fmt.Sprintf("`current` moved at %.1f s, B served from %.1f s", sw.pointed.Seconds(), sw.servedAt.Seconds())
	}
	swapNote += fmt.Sprintf("; slowest /readyz probe %.2f s, at %.1f s", sw.slowest.Seconds(), sw.slowestAt.Seconds())
	fmt.Fprintf(w, "| after | daawid serve, swap A → B under load (%.1f s: %s) | %.0f | %.2f | %.2f | %.2f | %s | %d (VmHWM; %d after) | %s (with the swap) | %s |\n",
		sres.seconds, swapNote, sres.rps, sres.p50, sres.p99, sres.max, sres.errorsText(), sres.rssMB, sres.rssNow, sres.cpuPerRequest(), sres.cores())
	fmt.Fprintln(w)
	fmt.Fprintf(w, "per round, daawid / nginx: requests/s %s, p99 %s; the net/http floor / nginx: requests/s %s, p99 %s\n",
		ratios(rpsRatios), ratios(p99Ratios), ratios(floorRps), ratios(floorP99))
	return rpsRatios, p99Ratios
}

// printChecks writes the table of the checks, each PASS or FAIL;
// rpsRatio and p99Ratio are the medians of the rounds' ratios to nginx.
func (r *serveRecord) printChecks(w io.Writer, rpsRatio, p99Ratio float64) {
	fmt.Fprintln(w, "| check | target | measured | result |")
	fmt.Fprintln(w, "|---|---|---|---|")
	check := func(name, target, measured string, ok bool) {
		res := "PASS"
		if !ok {
			res = "FAIL"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", name, target, measured, res)
	}
	var ngErrors, srvErrors int64
	for _, rr := range r.rounds {
		ngErrors += rr[0].errors()
		srvErrors += rr[2].errors()
	}
	sres, sw, finalID, want := r.swap.load, r.swap.watch, r.swap.servedID, r.setup.RepB.ID
	check("nginx baseline without errors", "0", fmt.Sprint(ngErrors), ngErrors == 0)
	check("requests/s, daawid / nginx (median of the rounds)", "≥ 0.8", fmt.Sprintf("%.2f", rpsRatio), rpsRatio >= 0.8)
	check("p99, daawid / nginx (median of the rounds)", "≤ 2", fmt.Sprintf("%.2f", p99Ratio), p99Ratio <= 2)
	check("server RSS (peak over both loads and the swap, VmHWM)", "< 3000 MB", fmt.Sprintf("%d MB", sres.rssMB), sres.rssMB < 3000)
	check("errors under load (daawid, every run)", "0", fmt.Sprintf("%d + %d during the swap", srvErrors, sres.errors()), srvErrors+sres.errors() == 0)
	check("publication swapped under load (/readyz)", want, finalID, sw.servedAt > 0 && finalID == want)
	t, n := r.targets, min(500, len(r.setup.Tree.Paths))
	check("same bytes as the static tree (first slugs)", "all", fmt.Sprintf("nginx %d/%d, floor %d/%d, daawid %d/%d", t.sameNginx, n, t.sameFloor, n, t.sameServer, n),
		t.sameNginx == n && t.sameFloor == n && t.sameServer == n)
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
