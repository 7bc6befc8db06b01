package bench

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures/citools"
)

// TestBenchServe_Smoke runs "daawid bench serve" on a few hundred entries:
// the three targets (nginx, the net/http floor, the server) answer two
// rounds of load with the same bytes, the publication swaps
// under load without an error, and the table is printed. It builds the
// daawid binary from the parent folder, because the benchmark runs its
// steps as child processes of that binary.
func TestBenchServe_Smoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, runs nginx and wrk")
	}
	dir, bin := loadBench(t)
	cmd := exec.Command(bin, "bench", "serve", "--entries", "300", "--slugs", "100", "--changed", "20",
		"--duration", "2s", "--warmup", "1s", "--rounds", "2", "--swap-at", "1s", "--connections", "8", "--dir", filepath.Join(dir, "work"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench serve: %v\n%s\n%s", err, out, stderr.String())
	}
	table := string(out)
	for _, want := range []string{
		"| 1 | nginx/", "| 2 | nginx/", "| 1 | net/http floor", "| 2 | daawid serve, publication A |", "| after | daawid serve, swap A → B under load",
		"| errors under load (daawid, every run) | 0 | 0 + 0 during the swap | PASS |",
		"| same bytes as the static tree (first slugs) | all | nginx 100/100, floor 100/100, daawid 100/100 | PASS |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("no %q in\n%s", want, table)
		}
	}
	if !strings.Contains(table, "| publication swapped under load (/readyz) |") || strings.Contains(table, "B not served") {
		t.Errorf("no swap under load in\n%s", table)
	}
}

// loadBench is what a benchmark under load needs: wrk and nginx (it skips
// loudly without them, or fails under CI=true, where .ci/run installs
// them), a folder, and the daawid binary built from the parent folder,
// because a benchmark runs its steps as child processes of that binary.
func loadBench(t *testing.T) (dir, bin string) {
	t.Helper()
	citools.Find(t, "wrk", "nginx")
	dir = t.TempDir()
	bin = filepath.Join(dir, "daawid")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}
