package pipeline

import (
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// valueOf is a gauge's or a counter's value.
func valueOf(t *testing.T, c prometheus.Metric) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	if m.Gauge != nil {
		return m.GetGauge().GetValue()
	}
	return m.GetCounter().GetValue()
}

// seriesOf counts the series a collector has now.
func seriesOf(c prometheus.Collector) int {
	ch := make(chan prometheus.Metric, 100)
	c.Collect(ch)
	close(ch)
	return len(ch)
}

// TestMetrics_FailedAndSkippedRuns: a run skipped for the lock counts as
// skipped and moves no time; a failed run sets its last run time and
// result 0, counts its bad rows, and leaves the last success alone; with
// no publication yet, the age and the feed sequence are absent rather
// than a made-up 0 (issue 16).
func TestMetrics_FailedAndSkippedRuns(t *testing.T) {
	m := NewMetrics(t.TempDir())
	end := time.Date(2026, 12, 2, 3, 0, 5, 0, time.UTC)
	m.observe("nightly", nil, ErrLocked, end, time.Second)
	if v := valueOf(t, m.runs.WithLabelValues("nightly", resultSkipped)); v != 1 {
		t.Errorf("skipped runs %v, want 1", v)
	}
	if n := seriesOf(m.lastRun); n != 0 {
		t.Errorf("a skipped run set %d last run times", n)
	}
	rep := &RunReport{Compile: &Report{RowsRead: 10, RowsSkipped: 3}}
	m.observe("delta", rep, errors.New("compile: too many bad rows"), end, 2*time.Second)
	if v := valueOf(t, m.lastResult.WithLabelValues("delta")); v != 0 {
		t.Errorf("last run success %v after a failure, want 0", v)
	}
	if v := valueOf(t, m.lastRun.WithLabelValues("delta")); v != float64(end.Unix()) {
		t.Errorf("last run time %v, want %d", v, end.Unix())
	}
	if v := valueOf(t, m.badRows.WithLabelValues("delta")); v != 3 {
		t.Errorf("bad rows %v, want 3", v)
	}
	if n := seriesOf(m.lastSuccess); n != 0 {
		t.Errorf("a failed run set %d last success times", n)
	}
	// Everything m has: the two runs counters, the failed run's last run
	// time, result, duration, rows read, bad rows and three step
	// durations, and the entries gauge; no age and no feed sequence.
	if n := seriesOf(m); n != 11 {
		t.Errorf("%d series, want 11 (no age or feed sequence without a publication)", n)
	}
}
