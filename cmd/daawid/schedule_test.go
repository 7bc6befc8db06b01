package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
)

// TestPipelineSchedule_Metrics runs `daawid pipeline schedule` as an
// operator does (the built binary, a short cron so that a nightly run
// happens now, --log-level debug, --metrics-addr on a free loopback
// port), lets one nightly run finish, scrapes /metrics over HTTP, parses
// it with the Prometheus reference parser and checks that the run metrics
// of issue 16 have sensible values; then SIGTERM stops it with status 0.
func TestPipelineSchedule_Metrics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the schedule")
	}
	bin := daawidBinary(t)
	dir := t.TempDir()
	reg, err := fixtures.Demo.ReadFile("registers/offeneregister-sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	regFile := filepath.Join(dir, "offeneregister-sample.jsonl")
	if err := os.WriteFile(regFile, reg, 0o644); err != nil {
		t.Fatal(err)
	}
	rows := 0 // one row a non-empty line of JSON
	for _, l := range bytes.Split(reg, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			rows++
		}
	}
	var logs lockedBuffer
	cmd := exec.Command(bin, "pipeline", "schedule", "--state", filepath.Join(dir, "state"), "--out", filepath.Join(dir, "out"),
		"--register", regFile, "--cron", "@every 2s", "--tz", "UTC", "--keep", "2",
		"--metrics-addr", "127.0.0.1:0", "--log-level", "debug")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	url := waitFor(t, 30*time.Second, "metrics address", &logs, func(s string) string { return jsonLogValue(s, "metrics", "addr", nil) })
	waitFor(t, 90*time.Second, "nightly run", &logs, func(s string) string {
		return jsonLogValue(s, "run done", "publication", map[string]string{"kind": "nightly"})
	})
	// --log-level debug lets the debug lines through.
	if jsonLogValue(logs.String(), "run starting", "kind", nil) == "" {
		t.Error("no debug line (run starting) at --log-level debug")
	}
	fams := scrape(t, url)
	nightly := map[string]string{"kind": "nightly"}
	value := func(name string, labels map[string]string) float64 {
		t.Helper()
		v, ok := metricValue(fams, name, labels)
		if !ok {
			t.Errorf("no %s%v in the scrape", name, labels)
		}
		return v
	}
	if v := value("daawid_pipeline_rows_read_total", nightly); v != float64(rows) {
		t.Errorf("rows read %v, want the fixture's %d rows", v, rows)
	}
	if v := value("daawid_pipeline_bad_rows_total", nightly); v != 0 {
		t.Errorf("bad rows %v, want 0", v)
	}
	if v := value("daawid_pipeline_runs_total", map[string]string{"kind": "nightly", "result": "success"}); v < 1 {
		t.Errorf("successful nightly runs %v, want at least 1", v)
	}
	now := float64(time.Now().UnixNano()) / 1e9
	for _, name := range []string{"daawid_pipeline_last_success_timestamp_seconds", "daawid_pipeline_last_run_timestamp_seconds"} {
		if v := value(name, nightly); v > now || now-v > 60 {
			t.Errorf("%s %v is not within the last minute (now %v)", name, v, now)
		}
	}
	if v := value("daawid_pipeline_last_run_success", nightly); v != 1 {
		t.Errorf("last run success %v, want 1", v)
	}
	if v := value("daawid_pipeline_last_run_duration_seconds", nightly); v <= 0 {
		t.Errorf("last run duration %v, want > 0", v)
	}
	for _, step := range []string{"read", "compile", "commit", "publish"} {
		if v := value("daawid_pipeline_step_duration_seconds", map[string]string{"kind": "nightly", "step": step}); v <= 0 {
			t.Errorf("step %s took %v s, want > 0", step, v)
		}
	}
	if v := value("daawid_pipeline_entries_published", nil); v <= 0 || v > float64(rows) {
		t.Errorf("entries published %v, want 1..%d", v, rows)
	}
	if v := value("daawid_pipeline_publication_age_seconds", nil); v < 0 || v > 60 {
		t.Errorf("publication age %v s, want 0..60", v)
	}
	if v := value("daawid_pipeline_feed_sequence", nil); v <= 0 {
		t.Errorf("feed sequence %v, want > 0", v)
	}
	for name, f := range fams {
		if strings.HasPrefix(name, "daawid_pipeline_") && f.GetHelp() == "" {
			t.Errorf("%s has no HELP text", name)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	stopped = true
	if err != nil {
		t.Errorf("after SIGTERM: %v\n%s", err, logs.String())
	}
}

// TestPipelineSchedule_BadLogLevel: a --log-level that is not a level is
// a usage error naming the flag.
func TestPipelineSchedule_BadLogLevel(t *testing.T) {
	code, _, errs := runCLI("pipeline", "schedule", "--state", t.TempDir(), "--out", t.TempDir(), "--log-level", "loud")
	if code != 2 || !strings.Contains(errs, "--log-level") {
		t.Errorf("exit %d, stderr %q; want 2 and the flag named", code, errs)
	}
}
