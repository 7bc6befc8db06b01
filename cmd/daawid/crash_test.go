package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"

	"github.com/daawid/registry/feeds"
	"github.com/daawid/registry/fixtures/synth"
)

// TestPipelineRun_SIGKILL kills `daawid pipeline run` with SIGKILL at 20
// random moments of a compile and publication (every entry rendered again
// for another base URL, with the exports; past day 30 thousands of
// expiries). After each kill the current
// publication is intact (its manifest's checksums verify) and its change
// feed has no gap and no duplicate; after them all a run succeeds.
func TestPipelineRun_SIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it 22 times")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "daawid")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	sum, err := synth.Generate(synth.Config{Entries: 3000, Seed: 3, Out: data, RunNow: synth.DefaultRunNow, SiteSample: -1})
	if err != nil {
		t.Fatal(err)
	}
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	args := func(i int) []string {
		a := []string{"pipeline", "run", "--state", state, "--out", out, "--exports",
			// two days a run: the runs after day 30 expire every entry's
			// noindex window, so publications with thousands of changes
			// are among those killed
			"--now", synth.DefaultRunNow.AddDate(0, 0, 2*i).Format(time.RFC3339),
			"--site-url", []string{"https://daawid.example", "https://registry.example"}[i%2]}
		for _, f := range sum.Files {
			if filepath.Dir(f) == "registers" {
				a = append(a, "--register", filepath.Join(data, f))
			}
		}
		return a
	}
	run := func(i int) (time.Duration, error) {
		cmd := exec.Command(bin, args(i)...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			// The run's own words: which step failed and why.
			if len(out) > 4000 {
				out = out[len(out)-4000:]
			}
			err = fmt.Errorf("%w\n%s", err, out)
		}
		return time.Since(start), err
	}
	check := func(when string) int64 {
		t.Helper()
		pub, err := publication.Current(out)
		if err != nil {
			t.Fatalf("%s: no current publication: %v", when, err)
		}
		m, err := publication.Verify(pub)
		if err != nil {
			t.Fatalf("%s: the current publication is damaged: %v", when, err)
		}
		all, _, err := publication.ReadFeed(filepath.Join(pub, feeds.Dir), 0, 1<<30)
		if err != nil {
			t.Fatalf("%s: feed: %v", when, err)
		}
		for k, c := range all {
			if c.Seq != int64(k+1) {
				t.Fatalf("%s: feed position %d holds sequence %d (gap or duplicate)", when, k, c.Seq)
			}
		}
		if int64(len(all)) != m.FeedLast {
			t.Fatalf("%s: the feed has %d records, the manifest says %d", when, len(all), m.FeedLast)
		}
		return m.FeedLast
	}
	full, err := run(0)
	if err != nil {
		t.Fatal(err)
	}
	last := check("after the first run")
	first := last
	r := rand.New(rand.NewPCG(20, 26))
	for i := 1; i <= 20; i++ {
		cmd := exec.Command(bin, args(i)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(r.Int64N(int64(full)))
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		n := check("after a kill at " + delay.String())
		if n < last {
			t.Fatalf("the feed went back from %d to %d", last, n)
		}
		last = n
	}
	if _, err := run(21); err != nil {
		t.Fatalf("the run after the kills: %v", err)
	}
	if n := check("after the last run"); n <= first {
		t.Fatalf("the runs after day 30 published no expiry (feed %d → %d)", first, n)
	}
	if stale, _ := filepath.Glob(filepath.Join(out, "publications", "*.tmp")); len(stale) != 0 {
		t.Errorf("temporary directories left: %v", stale)
	}
	if _, err := os.Stat(state); err != nil {
		t.Fatal(err)
	}
}
