package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/synth"
)

// benchData generates n synthetic companies once per benchmark run.
func benchData(b *testing.B, n int) (dir string, registers []string) {
	b.Helper()
	dir = b.TempDir()
	sum, err := synth.Generate(synth.Config{Entries: n, Seed: 7, Out: dir, RunNow: synth.DefaultRunNow, SiteSample: -1})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range sum.Files {
		if filepath.Dir(f) == "registers" {
			registers = append(registers, filepath.Join(dir, f))
		}
	}
	return dir, registers
}

// BenchmarkCompile compiles generated register rows (both formats) into an
// empty state; rows/s is the figure of the compile issue (20 000 on this
// machine's two cores). The full-size run is `daawid bench compile`.
func BenchmarkCompile(b *testing.B) {
	const n = 50_000
	_, registers := benchData(b, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		state := filepath.Join(b.TempDir(), "state")
		rep, err := Compile(context.Background(), CompileConfig{StateDir: state, Registers: registers, Now: synth.DefaultRunNow})
		if err != nil {
			b.Fatal(err)
		}
		if rep.RowsRead != n {
			b.Fatalf("read %d rows, want %d", rep.RowsRead, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCompileSmall is the nightly case of the issue: the same register
// files (skipped) and 1 % of the owner revisions changed, over a state
// that already holds the companies and their first owner revisions. Its
// cost follows the changed entries, not the registry (D57).
func BenchmarkCompileSmall(b *testing.B) {
	const n = 50_000
	dir, registers := benchData(b, n)
	state := filepath.Join(b.TempDir(), "state")
	ctx := context.Background()
	run1 := synth.DefaultRunNow
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: registers, Now: run1}); err != nil {
		b.Fatal(err)
	}
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: registers, OwnerInbox: filepath.Join(dir, "inbox"),
		Verification: []string{filepath.Join(dir, "verification.jsonl")}, Now: run1.Add(24 * time.Hour)}); err != nil {
		b.Fatal(err)
	}
	changed, err := synth.ChangeOwnerRevisions(dir, 0.01, 7, 2, run1.Add(36*time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	inbox2 := filepath.Join(dir, "inbox-2")
	saved := b.TempDir()
	files, _ := filepath.Glob(filepath.Join(inbox2, "*.json"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(saved, filepath.Base(f)), data, 0o644)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// Each run starts from the state after run 2 and the same inbox.
		st := filepath.Join(b.TempDir(), "state")
		if err := os.CopyFS(st, os.DirFS(state)); err != nil {
			b.Fatal(err)
		}
		in := b.TempDir()
		for _, f := range files {
			data, _ := os.ReadFile(filepath.Join(saved, filepath.Base(f)))
			os.WriteFile(filepath.Join(in, filepath.Base(f)), data, 0o644)
		}
		b.StartTimer()
		rep, err := Compile(ctx, CompileConfig{StateDir: st, Registers: registers, OwnerInbox: in, Now: run1.Add(48 * time.Hour)})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Merged != int64(changed) {
			b.Fatalf("merged %d, want %d", rep.Merged, changed)
		}
	}
}
