package pipeline

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestCompile_FailedRunLeavesStateAsItWas makes a run fail at its commit
// (its context is cancelled just before): the state keeps the previous
// run's entries and revisions, the failed run's flushed revisions are
// dropped, and the next run works.
func TestCompile_FailedRunLeavesStateAsItWas(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	cfg := CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl"},
		Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	if _, err := Compile(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	count := func() (revs, entries, runs int) {
		st, err := OpenState(state)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.DB().QueryRow(`SELECT count(*) FROM revisions`).Scan(&revs)
		st.DB().QueryRow(`SELECT count(*) FROM entries`).Scan(&entries)
		st.DB().QueryRow(`SELECT count(*) FROM runs`).Scan(&runs)
		return
	}
	r1, e1, n1 := count()

	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	cfg2 := cfg
	cfg2.Registers = []string{"../fixtures/registers/companies-house-sample.csv"}
	cfg2.Now = cfg.Now.Add(24 * time.Hour)
	cfg2.Clock = func() time.Time {
		if calls++; calls == 6 { // just before the commit
			cancel()
		}
		return time.Now()
	}
	if _, err := Compile(ctx, cfg2); err == nil {
		t.Fatal("the run did not fail")
	}
	if r2, e2, n2 := count(); r2 != r1 || e2 != e1 || n2 != n1 {
		t.Errorf("after a failed run: %d revisions, %d entries, %d runs; want %d, %d, %d", r2, e2, n2, r1, e1, n1)
	}
	cfg2.Clock = nil
	rep, err := Compile(context.Background(), cfg2)
	if err != nil || rep.NewEntries == 0 {
		t.Fatalf("the next run: %v %+v", err, rep)
	}
}
