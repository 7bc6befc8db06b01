package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// D61: a second run while one holds the lock is refused; the lock is free
// again when the holder lets go (and when its process dies: flock).
func TestLock_NoTwoRuns(t *testing.T) {
	dir := t.TempDir()
	l, err := TryLock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock: %v", err)
	}
	cfg := RunConfig{Compile: CompileConfig{StateDir: dir, Now: time.Now()}, Publish: PublishConfig{OutDir: t.TempDir()}}
	if _, err := Run(context.Background(), cfg, "once"); !errors.Is(err, ErrLocked) {
		t.Fatalf("a run while locked: %v", err)
	}
	l.Unlock()
	l2, err := TryLock(dir)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	l2.Unlock()
}

// The schedule runs the delta job on its spec, publishes, keeps each
// run's report, prunes to the last N publications, and stops cleanly when
// its context ends.
func TestSchedule_DeltaRunsAndStops(t *testing.T) {
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	ctx, cancel := context.WithCancel(context.Background())
	base := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	n := 0
	cfg := ScheduleConfig{
		Nightly: RunConfig{Compile: CompileConfig{StateDir: state}, Publish: PublishConfig{StateDir: state, OutDir: out, Site: site}, Keep: 2},
		Spec:    "0 3 * * *", DeltaEvery: "@every 1s",
		Clock: func() time.Time { n++; return base.Add(time.Duration(n) * 10 * time.Minute) },
	}
	done := make(chan error, 1)
	go func() { done <- Schedule(ctx, cfg) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		reports, _ := filepath.Glob(filepath.Join(out, "reports", "*-delta.json"))
		if len(reports) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d delta reports after 20 s", len(reports))
		}
		time.Sleep(200 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the schedule did not stop")
	}
	pubs, _ := os.ReadDir(filepath.Join(out, "publications"))
	if len(pubs) > 2 {
		t.Errorf("%d publications kept, want at most 2", len(pubs))
	}
	cur, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := publication.Verify(cur); err != nil {
		t.Fatal(err)
	}
}
