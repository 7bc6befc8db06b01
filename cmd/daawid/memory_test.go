package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The publication's memory budget (issue 18, docs/scale.md): its peak
// resident memory, from the kernel, is at most publishFixedMB plus
// publishPerEntryBytes an entry. The fixed part is what any publication
// holds whatever its size: the render workers' buffers, the Parquet
// writers of the exports (a row group of 128 Ki rows per table and
// country) and DuckDB's memory, bounded by its memory_limit settings (the
// state's 1.5 GB, the registry database's 512 MB). Nothing the Go heap
// holds grows with the entries except the routes of the entries that
// have actions and the registry-level rows.
const (
	publishFixedMB       = 900
	publishPerEntryBytes = 1024
)

// TestPublish_PeakMemoryWithinBudget publishes 200,000 generated
// companies in full, with the exports, as a child process, and checks its
// peak resident memory (getrusage's ru_maxrss) against the budget: before
// issue 18 this publication peaked at 2.4 GB, 12.5 KB an entry.
func TestPublish_PeakMemoryWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a 200,000-entry publication (about two minutes)")
	}
	bin := daawidBinary(t)
	dir := t.TempDir()
	data, state, out := filepath.Join(dir, "data"), filepath.Join(dir, "state"), filepath.Join(dir, "out")
	const entries = 200_000
	run := func(args ...string) *os.ProcessState {
		t.Helper()
		cmd := exec.Command(bin, args...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("daawid %v: %v\n%s", args[0], err, b)
		}
		return cmd.ProcessState
	}
	run("fixtures", "generate", "--entries", fmt.Sprint(entries), "--seed", "7", "--out", data, "--sites", "-1")
	files, _ := filepath.Glob(filepath.Join(data, "registers", "*"))
	args := []string{"compile", "--state", state, "--now", "2026-11-01T00:00:00Z"}
	for _, f := range files {
		args = append(args, "--register", f)
	}
	run(args...)
	started := time.Now()
	ps := run("publish", "--state", state, "--out", out, "--exports", "--now", "2026-11-01T01:00:00Z")
	peak := ps.SysUsage().(*syscall.Rusage).Maxrss << 10 // kilobytes on Linux
	budget := int64(publishFixedMB)<<20 + entries*publishPerEntryBytes
	t.Logf("%d entries published in %.0f s, peak resident memory %d MB, budget %d MB", entries, time.Since(started).Seconds(), peak>>20, budget>>20)
	if peak > budget {
		t.Errorf("the publication's peak resident memory is %d MB, over its budget of %d MB (%d MB + %d bytes an entry)",
			peak>>20, budget>>20, publishFixedMB, publishPerEntryBytes)
	}
}
