package bench

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBenchScale_Smoke runs "daawid bench scale" on two small sizes: each
// size's row carries every step's figures (compile, full publication,
// delta, the server's start and memory, documents against nginx identity
// and zstd, search), none of them zero, and the table prints after each
// size. It builds the daawid binary from the parent folder, because the
// benchmark runs its steps as child processes of that binary.
func TestBenchScale_Smoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, runs nginx and wrk")
	}
	dir, bin := loadBench(t)
	cmd := exec.Command(bin, "bench", "scale", "--entries", "200,400", "--changed", "20", "--slugs", "100",
		"--duration", "2s", "--warmup", "1s", "--queries", "50", "--dir", filepath.Join(dir, "work"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench scale: %v\n%s\n%s", err, out, stderr.String())
	}
	table := string(out)
	// The last table has both rows, and no rate, time or size in them is
	// zero.
	last := table[strings.LastIndex(table, "| companies (entries) |"):]
	row := regexp.MustCompile(`(?m)^\| (200|400) \((\d+)\) \|(.*)\|$`)
	rows := row.FindAllStringSubmatch(last, -1)
	if len(rows) != 2 || rows[0][1] != "200" || rows[1][1] != "400" {
		t.Fatalf("want the rows of 200 and 400 companies in the last table:\n%s", table)
	}
	for _, r := range rows {
		if r[2] == "0" {
			t.Errorf("%s companies: no entries published", r[1])
		}
		cells := strings.Split(r[3], "|")
		// The search index's size and build time round to 0 at a few
		// hundred entries; the last cell's latencies must not.
		cells[len(cells)-1], _, _ = strings.Cut(cells[len(cells)-1], ";")
		for _, cell := range cells {
			for _, f := range regexp.MustCompile(`[0-9.]+`).FindAllString(cell, -1) {
				if strings.Trim(f, "0.") == "" {
					t.Errorf("%s companies: a zero in %q", r[1], cell)
				}
			}
		}
	}
	if !strings.Contains(table, "issue 18's targets at 10M") {
		t.Errorf("no targets under the table:\n%s", table)
	}
	// The log names each publication's steps with their seconds.
	steps := regexp.MustCompile(`: published in [0-9.]+ s, .*; steps: (.*)`).FindAllStringSubmatch(stderr.String(), -1)
	if len(steps) != 2 || !strings.Contains(steps[0][1], "entries ") || !strings.Contains(steps[0][1], "server indexes ") {
		t.Errorf("the log does not give both publications' steps:\n%s", stderr.String())
	}
}

// TestStepTimes: a publication's steps are logged longest first, ties by
// name.
func TestStepTimes(t *testing.T) {
	got := stepTimes(map[string]float64{"sitemaps": 2.62, "entries": 188.3, "feed": 2.62, "exports": 30.04})
	if want := "entries 188.3, exports 30.0, feed 2.6, sitemaps 2.6"; got != want {
		t.Errorf("stepTimes = %q, want %q", got, want)
	}
}

// TestMedianRound: the row reports the round whose server-to-nginx ratio
// is the median, both targets of that round.
func TestMedianRound(t *testing.T) {
	round := func(nginx, daawid float64) [3]*wrkResult {
		return [3]*wrkResult{{rps: nginx}, {rps: daawid}}
	}
	for _, c := range []struct {
		res  [][3]*wrkResult
		want int
	}{
		{[][3]*wrkResult{round(100, 70), round(100, 90), round(100, 80)}, 2},
		{[][3]*wrkResult{round(200, 100), round(100, 90), round(100, 80)}, 2}, // ratios 0.5, 0.9, 0.8
		{[][3]*wrkResult{round(100, 90)}, 0},
	} {
		if got := medianRound(c.res); got != c.want {
			t.Errorf("medianRound: round %d, want %d", got, c.want)
		}
	}
}
