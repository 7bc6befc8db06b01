package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/pipeline"
)

// runBench is "daawid bench compile": the compile benchmark of
// docs/performance.md. It generates synthetic data, runs three compiles
// as child processes of this binary (so each one's peak memory is its
// own) and prints a table:
//
//  1. the register files into an empty state;
//  2. the same files (skipped: unchanged) with the owner inbox (about 5 %
//     of the companies) and the verification events;
//  3. the same files with 1 % of those owner revisions changed.
func runBench(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "publish" {
		return benchPublish(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return benchServe(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "floor" {
		return benchFloor(args[1:], stdout, stderr) // a target of bench serve
	}
	if len(args) > 0 && args[0] == "search" {
		return benchSearch(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "export-compare" {
		// a step of bench publish, in its own process
		fs := flag.NewFlagSet("bench export-compare", flag.ContinueOnError)
		state := fs.String("state", "", "state directory")
		dir := fs.String("dir", "", "where the two files go")
		if err := fs.Parse(args[1:]); err != nil || *state == "" || *dir == "" {
			return 2
		}
		ours, duck, rows, err := pipeline.CompareEntriesExport(*state, *dir)
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		b, _ := json.Marshal(map[string]any{"Ours": ours, "DuckDB": duck, "Rows": rows})
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	if len(args) == 0 || args[0] != "compile" {
		fmt.Fprintln(stderr, "usage: daawid bench compile|publish|serve|search --entries N [--seed S] [--dir DIR]")
		return 2
	}
	fs := flag.NewFlagSet("bench compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entries := fs.Int("entries", 1_000_000, "companies (register rows, half in each format)")
	seed := fs.Int64("seed", 7, "generator seed")
	dir := fs.String("dir", "", "working directory (default: a new temporary one, removed after)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	work, cleanup, err := benchDir(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	defer cleanup()
	data, state := filepath.Join(work, "data"), filepath.Join(work, "state")
	os.RemoveAll(state)
	t0 := time.Now()
	exe, registers, err := generate(data, *entries, *seed)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	fmt.Fprintf(stderr, "generated %d companies in %.1f s\n", *entries, time.Since(t0).Seconds())
	run1 := synth.DefaultRunNow
	runs := []struct {
		what string
		now  time.Time
		args []string
		pre  func() error
	}{
		{what: "register files into an empty state", now: run1},
		{what: "+ owner inbox and verification events", now: run1.Add(24 * time.Hour),
			args: []string{"--owner-inbox", filepath.Join(data, "inbox"), "--verification", filepath.Join(data, "verification.jsonl")}},
		{what: "1 % of the owner revisions changed", now: run1.Add(48 * time.Hour),
			args: []string{"--owner-inbox", filepath.Join(data, "inbox-2")},
			pre: func() error {
				_, err := synth.ChangeOwnerRevisions(data, 0.01, *seed, 2, run1.Add(36*time.Hour))
				return err
			}},
	}
	fmt.Fprintf(stdout, "compile benchmark: %d companies, seed %d, GOMAXPROCS from the machine\n\n", *entries, *seed)
	fmt.Fprintln(stdout, "| run | what | rows read | new revisions | merged | wall s | rows/s | peak RSS MB | of run 1 |")
	fmt.Fprintln(stdout, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	var first float64
	for i, r := range runs {
		if r.pre != nil {
			if err := r.pre(); err != nil {
				fmt.Fprintln(stderr, "bench:", err)
				return 1
			}
		}
		args := append([]string{"compile", "--json", "--state", state, "--now", r.now.Format(time.RFC3339)}, registers...)
		res, err := runChild(exe, append(args, r.args...)...)
		if err != nil {
			fmt.Fprintf(stderr, "bench: run %d: %v\n", i+1, err)
			return 1
		}
		wall, rss := res.wall, res.rss
		var rep pipeline.Report
		if err := json.Unmarshal(res.out, &rep); err != nil {
			fmt.Fprintf(stderr, "bench: run %d report: %v\n", i+1, err)
			return 1
		}
		if i == 0 {
			first = wall
		}
		rate := "–"
		if rep.RowsRead > 0 {
			rate = fmt.Sprintf("%.0f", float64(rep.RowsRead)/wall)
		}
		fmt.Fprintf(stdout, "| %d | %s | %d | %d | %d | %.1f | %s | %d | %.0f %% |\n",
			i+1, r.what, rep.RowsRead, rep.Compiled, rep.Merged, wall, rate, rss, 100*wall/first)
	}
	return 0
}

// benchPublish is "daawid bench publish": the publication benchmark of
// docs/performance.md. It generates and compiles N companies, publishes
// them in full with the exports (a child process: its peak memory is its
// own), times the Parquet export of the entries table against DuckDB's own
// COPY of the same rows, then opens a report window on 1 000 entries and
// times the delta publication over the full one.
func benchPublish(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entries := fs.Int("entries", 1_000_000, "companies")
	seed := fs.Int64("seed", 7, "generator seed")
	dir := fs.String("dir", "", "working directory (default: a new temporary one, removed after)")
	changed := fs.Int("changed", 1000, "entries changed for the delta publication")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench:", err); return 1 }
	work, cleanup, err := benchDir(*dir)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	data, state, out := filepath.Join(work, "data"), filepath.Join(work, "state"), filepath.Join(work, "out")
	for _, d := range []string{state, out} {
		os.RemoveAll(d)
	}
	exe, registers, err := generate(data, *entries, *seed)
	if err != nil {
		return fail(err)
	}
	child := func(args ...string) (childResult, error) { return runChild(exe, args...) }
	run1 := synth.DefaultRunNow
	if _, err := child(append([]string{"compile", "--state", state, "--now", run1.Format(time.RFC3339)}, registers...)...); err != nil {
		return fail(err)
	}
	full, err := child("publish", "--json", "--state", state, "--out", out, "--exports", "--now", run1.Add(time.Hour).Format(time.RFC3339))
	if err != nil {
		return fail(err)
	}
	var fullRep pipeline.PublishReport
	if err := json.Unmarshal(full.out, &fullRep); err != nil {
		return fail(err)
	}
	// The export of the entries table against DuckDB's COPY of the same rows.
	cmp, err := child("bench", "export-compare", "--state", state, "--dir", filepath.Join(work, "cmp"))
	if err != nil {
		return fail(err)
	}
	var cmpRes struct {
		Ours, DuckDB float64
		Rows         int
	}
	if err := json.Unmarshal(cmp.out, &cmpRes); err != nil {
		return fail(err)
	}
	ours, duck, rows := cmpRes.Ours, cmpRes.DuckDB, cmpRes.Rows
	// 1 000 changed entries: a report opened on each (a new revision).
	events := filepath.Join(work, "events.jsonl")
	if err := pipeline.ReportEvents(state, events, *changed, run1.Add(2*time.Hour)); err != nil {
		return fail(err)
	}
	comp, err := child("compile", "--state", state, "--verification", events, "--now", run1.Add(3*time.Hour).Format(time.RFC3339))
	if err != nil {
		return fail(err)
	}
	delta, err := child("publish", "--json", "--state", state, "--out", out, "--delta", "--now", run1.Add(3*time.Hour+time.Minute).Format(time.RFC3339))
	if err != nil {
		return fail(err)
	}
	var deltaRep pipeline.PublishReport
	if err := json.Unmarshal(delta.out, &deltaRep); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "publish benchmark: %d companies (%d entries published), seed %d\n\n", *entries, fullRep.Entries, *seed)
	fmt.Fprintln(stdout, "| step | wall s | peak RSS MB | figures |")
	fmt.Fprintln(stdout, "|---|---:|---:|---|")
	fmt.Fprintf(stdout, "| full publication (every projection, language, exports, feed) | %.1f | %d | %d entries, %d documents, %.1f GB |\n",
		full.wall, full.rss, fullRep.Entries, fullRep.Documents, float64(fullRep.Bytes)/1e9)
	fmt.Fprintf(stdout, "| entries export, parquet-go (ours) | %.2f | %d | %d rows (the rows made once, then written by each) |\n", ours, cmp.rss, rows)
	fmt.Fprintf(stdout, "| entries export, DuckDB COPY (FORMAT parquet, COMPRESSION zstd) | %.2f | | ours / DuckDB = %.2f |\n", duck, ours/duck)
	fmt.Fprintf(stdout, "| compile of %d changes (report windows) | %.1f | %d | |\n", *changed, comp.wall, comp.rss)
	fmt.Fprintf(stdout, "| delta publication over the full one | %.1f | %d | %d rendered, %d documents written |\n",
		delta.wall, delta.rss, deltaRep.Rendered, deltaRep.Documents)
	return 0
}

// benchDir is the benchmark's working directory: dir, or a new temporary
// one removed by cleanup.
func benchDir(dir string) (work string, cleanup func(), err error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	d, err := os.MkdirTemp("", "daawid-bench-")
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}

// generate writes the synthetic data with a child process (on Linux a
// child's peak RSS starts at its parent's, so this process stays small
// and every step's figure is its own) and returns this binary and the
// --register flags of the register files.
func generate(data string, entries int, seed int64) (exe string, registers []string, err error) {
	if exe, err = os.Executable(); err != nil {
		return "", nil, err
	}
	os.RemoveAll(data)
	gen := exec.Command(exe, "fixtures", "generate", "--entries", fmt.Sprint(entries), "--seed", fmt.Sprint(seed), "--out", data, "--sites", "-1")
	if out, err := gen.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("generate: %v: %s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(data, "registers", "*"))
	for _, f := range files {
		registers = append(registers, "--register", f)
	}
	return exe, registers, nil
}

// childResult is one step of a benchmark: its wall time, its peak RSS in
// MB and what it printed.
type childResult struct {
	wall float64
	rss  int64
	out  []byte
}

// runChild runs one step as a child process, after syncing the files of
// the steps before so their write-back does not land in its time.
func runChild(exe string, args ...string) (childResult, error) {
	syscall.Sync()
	cmd := exec.Command(exe, args...)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, io.Discard
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return childResult{}, fmt.Errorf("%v: %w", args[:min(2, len(args))], err)
	}
	r := childResult{wall: time.Since(start).Seconds(), out: b.Bytes()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss / 1024 // kilobytes on Linux
	}
	return r, nil
}
