package bench

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/pipeline"
)

// benchCompile is "daawid bench compile": the compile benchmark of
// docs/performance.md. It generates synthetic data, runs three compiles
// as child processes of this binary (so each one's peak memory is its
// own) and prints a table:
//
//  1. the register files into an empty state;
//  2. the same files (skipped: unchanged) with the owner inbox (about 5 %
//     of the companies) and the verification events;
//  3. the same files with 1 % of those owner revisions changed.
func benchCompile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench compile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	entries := fs.Int("entries", 1_000_000, "companies (register rows, half in each format)")
	seed := fs.Int64("seed", 7, "generator seed")
	dir := fs.String("dir", "", "working directory (default: a new temporary one, removed after)")
	if err := fs.Parse(args); err != nil {
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
