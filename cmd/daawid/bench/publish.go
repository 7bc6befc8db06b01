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
