package bench

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBenchCodecs_Table runs "daawid bench codecs" on a small generated
// publication: one row a kind with documents, the stored column naming
// each kind's encoding (the legal notice with its dictionary, D130; the
// page as plain zstd), and in every row the dictionary smaller than the
// fastest level, the engine's own encoder (D132) making the bytes the
// publication stores, and no figure zero.
func TestBenchCodecs_Table(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and publishes 300 companies")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "daawid")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("daawid %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	data, state, out := filepath.Join(dir, "data"), filepath.Join(dir, "state"), filepath.Join(dir, "out")
	run("fixtures", "generate", "--entries", "300", "--seed", "3", "--out", data, "--sites", "-1")
	files, _ := filepath.Glob(filepath.Join(data, "registers", "*"))
	compile := []string{"compile", "--state", state, "--now", "2026-11-01T00:00:00Z"}
	for _, f := range files {
		compile = append(compile, "--register", f)
	}
	run(compile...)
	run("publish", "--state", state, "--out", out, "--now", "2026-11-01T01:00:00Z")
	cmd := exec.Command(bin, "bench", "codecs", "--publication", filepath.Join(out, "current"), "--docs", "100")
	table, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench codecs: %v\n%s", err, table)
	}
	row := regexp.MustCompile(`(?m)^\| ([a-z-]+) \((\d+)\) \| (\d+) \| (\d+) \(([a-z-]+)\) \|(.*)\|$`)
	rows := map[string][]string{}
	for _, m := range row.FindAllStringSubmatch(string(table), -1) {
		rows[m[1]] = m
	}
	for kind, enc := range map[string]string{"html": "zstd", "md": "zstd", "legal-html": "zstd-dict", "card": "zstd-dict"} {
		m := rows[kind]
		if m == nil {
			t.Errorf("no row for %s:\n%s", kind, table)
			continue
		}
		if m[5] != enc {
			t.Errorf("%s is stored as %s, want %s", kind, m[5], enc)
		}
		var bytes []float64
		for _, cell := range strings.Split(m[6], "|") {
			f := regexp.MustCompile(`([0-9.]+) B, ([0-9.]+) µs`).FindStringSubmatch(cell)
			if f == nil {
				t.Fatalf("%s: cell %q", kind, cell)
			}
			b, _ := strconv.ParseFloat(f[1], 64)
			us, _ := strconv.ParseFloat(f[2], 64)
			if b == 0 || us == 0 {
				t.Errorf("%s: a zero in %q", kind, cell)
			}
			bytes = append(bytes, b)
		}
		if len(bytes) != 5 || bytes[3] >= bytes[0] {
			t.Errorf("%s: the dictionary does not beat the fastest level: %v", kind, bytes)
			continue
		}
		// The last column is the engine's encoder (D132), which wrote the
		// publication: the same bytes as stored, to the byte.
		if stored, _ := strconv.ParseFloat(m[4], 64); bytes[4] != stored {
			t.Errorf("%s: the engine's encoder takes %.0f bytes, the publication stores %.0f", kind, bytes[4], stored)
		}
	}
}
