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
	if len(args) == 0 || args[0] != "compile" {
		fmt.Fprintln(stderr, "usage: daawid bench compile|publish --entries N [--seed S] [--dir DIR]")
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
	work := *dir
	if work == "" {
		d, err := os.MkdirTemp("", "daawid-bench-")
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer os.RemoveAll(d)
		work = d
	}
	data, state := filepath.Join(work, "data"), filepath.Join(work, "state")
	os.RemoveAll(data)
	os.RemoveAll(state)
	t0 := time.Now()
	sum, err := synth.Generate(synth.Config{Entries: *entries, Seed: *seed, Out: data, RunNow: synth.DefaultRunNow, SiteSample: -1})
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	fmt.Fprintf(stderr, "generated %d companies in %.1f s\n", *entries, time.Since(t0).Seconds())
	var registers []string
	for _, f := range sum.Files {
		if filepath.Dir(f) == "registers" {
			registers = append(registers, "--register", filepath.Join(data, f))
		}
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
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
		syscall.Sync() // no writeback of the last step's files during the run
		args := append([]string{"compile", "--json", "--state", state, "--now", r.now.Format(time.RFC3339)}, registers...)
		cmd := exec.Command(exe, append(args, r.args...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, io.Discard
		start := time.Now()
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(stderr, "bench: run %d: %v\n", i+1, err)
			return 1
		}
		wall := time.Since(start).Seconds()
		var rep pipeline.Report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			fmt.Fprintf(stderr, "bench: run %d report: %v\n", i+1, err)
			return 1
		}
		rss := int64(0)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss / 1024 // kilobytes on Linux
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
	work := *dir
	if work == "" {
		d, err := os.MkdirTemp("", "daawid-bench-")
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer os.RemoveAll(d)
		work = d
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "bench:", err); return 1 }
	data, state, out := filepath.Join(work, "data"), filepath.Join(work, "state"), filepath.Join(work, "out")
	for _, d := range []string{data, state, out} {
		os.RemoveAll(d)
	}
	sum, err := synth.Generate(synth.Config{Entries: *entries, Seed: *seed, Out: data, RunNow: synth.DefaultRunNow, SiteSample: -1})
	if err != nil {
		return fail(err)
	}
	var registers []string
	for _, f := range sum.Files {
		if filepath.Dir(f) == "registers" {
			registers = append(registers, "--register", filepath.Join(data, f))
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(err)
	}
	type result struct {
		wall float64
		rss  int64
		out  []byte
	}
	child := func(args ...string) (result, error) {
		syscall.Sync()
		cmd := exec.Command(exe, args...)
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, io.Discard
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return result{}, fmt.Errorf("%v: %w", args[:2], err)
		}
		r := result{wall: time.Since(start).Seconds(), out: b.Bytes()}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rss = ru.Maxrss / 1024
		}
		return r, nil
	}
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
	ours, duck, rows, err := pipeline.CompareEntriesExport(state, filepath.Join(work, "cmp"))
	if err != nil {
		return fail(err)
	}
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
	fmt.Fprintf(stdout, "| entries export, parquet-go (ours) | %.2f | | %d rows |\n", ours, rows)
	fmt.Fprintf(stdout, "| entries export, DuckDB COPY (FORMAT parquet, COMPRESSION zstd) | %.2f | | ours / DuckDB = %.2f |\n", duck, ours/duck)
	fmt.Fprintf(stdout, "| compile of %d changes (report windows) | %.1f | %d | |\n", *changed, comp.wall, comp.rss)
	fmt.Fprintf(stdout, "| delta publication over the full one | %.1f | %d | %d rendered, %d documents written |\n",
		delta.wall, delta.rss, deltaRep.Rendered, deltaRep.Documents)
	return 0
}
