package pipeline

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runsIn counts the runs a state has committed.
func runsIn(t *testing.T, state string) int {
	t.Helper()
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	if err := st.DB().QueryRow(`SELECT count(*) FROM runs`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCompile_MissingInputFailsTheRun: a named input that is missing (a
// register file, a verification file, the owner inbox folder) fails the
// run with an error naming it, and the state is left as it was; the
// scheduled step (Run) fails too and its report says why. It used to count
// the missing file as one skipped row and exit 0.
func TestCompile_MissingInputFailsTheRun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	good := CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/companies-house-sample.csv"},
		Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	if _, err := Compile(ctx, good); err != nil {
		t.Fatal(err)
	}
	before := runsIn(t, state)
	missing := filepath.Join(dir, "nope.csv")
	for name, cfg := range map[string]CompileConfig{
		"register file":     {Registers: []string{missing}},
		"verification file": {Verification: []string{missing}},
		"owner inbox":       {OwnerInbox: missing},
	} {
		cfg.StateDir, cfg.Now = state, good.Now.Add(time.Hour)
		_, err := Compile(ctx, cfg)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Input != name || ie.Path != missing || !strings.Contains(err.Error(), missing) {
			t.Errorf("%s missing: %v, want an InputError naming it", name, err)
		}
		if n := runsIn(t, state); n != before {
			t.Errorf("%s missing: the state has %d runs, %d before", name, n, before)
		}
	}
	out := filepath.Join(dir, "out")
	rc := RunConfig{Compile: CompileConfig{StateDir: state, Registers: []string{missing}, Now: good.Now.Add(2 * time.Hour)},
		Publish: PublishConfig{StateDir: state, OutDir: out}}
	rep, err := Run(ctx, rc, "nightly")
	if err == nil || rep == nil || !strings.Contains(rep.Error, missing) {
		t.Fatalf("the scheduled step with a missing register file: %v, report %+v", err, rep)
	}
}

// TestCompile_BadRowsPastTheLimitFail: a run with more bad rows than
// MaxBadRows commits nothing and reports every problem; under the limit
// (or with none) the same input commits.
func TestCompile_BadRowsPastTheLimitFail(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	one, none := 1, -1
	cfg := CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/companies-house-bad.csv"},
		Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC), MaxBadRows: &one}
	rep, err := Compile(ctx, cfg)
	var be *BadRowsError
	if !errors.As(err, &be) || be.Max != 1 || be.Rows < 2 {
		t.Fatalf("past the limit: %v", err)
	}
	skipped := 0
	if rep != nil {
		for _, p := range rep.Problems {
			if !p.Kept {
				skipped++
			}
		}
	}
	if rep == nil || skipped != be.Rows {
		t.Fatalf("the failed run's report must list its %d bad rows: %+v", be.Rows, rep)
	}
	if _, err := os.Stat(filepath.Join(state, "state.duckdb")); err == nil && runsIn(t, state) != 0 {
		t.Error("a run past the limit committed")
	}
	cfg.MaxBadRows = &none
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatalf("with no limit: %v", err)
	}
	if runsIn(t, state) != 1 {
		t.Error("the run with no limit did not commit")
	}
}

// TestCompile_HugeOwnerRevisionRefusedFromItsSize: a 100 MB owner revision
// is refused by its size without being read whole: the process's peak
// resident memory (VmHWM, reset before the run) grows by less than 64 MB.
func TestCompile_HugeOwnerRevisionRefusedFromItsSize(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(inbox, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"id": "`); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cfg := CompileConfig{StateDir: filepath.Join(dir, "state"), OwnerInbox: inbox, Seed: "../fixtures/compile/identity-seed.json",
		Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	// A first run warms up what every run holds (DuckDB, the taxonomy), so
	// the second one's peak is its own.
	if _, err := Compile(ctx, CompileConfig{StateDir: cfg.StateDir, Seed: cfg.Seed, Now: cfg.Now}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		skipOutsideCI(t, "cannot reset the peak resident memory here: %v", err)
	}
	base := vmHWM(t)
	cfg.Now = cfg.Now.Add(time.Hour)
	rep, err := Compile(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if grew := vmHWM(t) - base; grew > 64<<20 {
		t.Errorf("the peak resident memory grew by %d MB", grew>>20)
	}
	if rep.Refused != 1 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Reason, "104857600 bytes") {
		t.Errorf("want the file refused from its size: refused %d, problems %+v", rep.Refused, rep.Problems)
	}
}

// TestCompile_OwnerRevisionWithABOM: an owner revision that starts with a
// UTF-8 byte order mark is read like one without.
func TestCompile_OwnerRevisionWithABOM(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	b, err := os.ReadFile("../fixtures/compile/inbox/holzwerk-krause.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inbox, "holzwerk-krause.json"), append([]byte("\xef\xbb\xbf"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	events := filepath.Join(dir, "events.jsonl")
	ev, err := os.ReadFile("../fixtures/compile/verification.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(events, append([]byte("\xef\xbb\xbf"), ev...), 0o644); err != nil {
		t.Fatal(err)
	}
	// The entry first comes from its register (as in compileExamples), then
	// its owner's revision, based on that, is merged.
	state := filepath.Join(dir, "state")
	if _, err := Compile(context.Background(), CompileConfig{StateDir: state, Seed: "../fixtures/compile/identity-seed.json",
		Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl"}, Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	rep, err := Compile(context.Background(), CompileConfig{StateDir: state, OwnerInbox: inbox,
		Verification: []string{events}, Now: time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Merged != 1 || rep.Refused != 0 {
		t.Errorf("merged %d, refused %d; problems %+v", rep.Merged, rep.Refused, rep.Problems)
	}
	for _, p := range rep.Problems {
		if p.File == "events.jsonl" && p.Line == 1 {
			t.Errorf("the BOM made line 1 of the events bad: %+v", p)
		}
	}
}

// vmHWM is the process's peak resident memory from the kernel.
func vmHWM(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		skipOutsideCI(t, "no /proc here: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// skipOutsideCI skips a test this machine cannot run, loudly; under CI
// (CI=true) the machine is expected to run it, so it fails.
func skipOutsideCI(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf("\n\n!!! SKIPPED: "+format+" !!!\n", args...)
}
