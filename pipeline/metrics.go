package pipeline

import (
	"errors"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the schedule's Prometheus metrics (issue 16): what an
// operator needs to tell when the last good run was, how long its steps
// took, what it read and published, and how old the served publication
// is. Metrics is a prometheus.Collector; the command registers it with a
// registry of its own (never the global default), so that two schedules,
// or a test and a schedule, never share series.
type Metrics struct {
	out string           // the publications' folder, read at scrape
	now func() time.Time // the scrape's clock (age); time.Now by default

	runs         *prometheus.CounterVec
	lastRun      *prometheus.GaugeVec
	lastSuccess  *prometheus.GaugeVec
	lastResult   *prometheus.GaugeVec
	lastDuration *prometheus.GaugeVec
	steps        *prometheus.GaugeVec
	rowsRead     *prometheus.CounterVec
	badRows      *prometheus.CounterVec
	entries      prometheus.Gauge

	age, feedSeq *prometheus.Desc
}

// Run results, the values of the runs counter's result label.
const (
	resultSuccess = "success"
	resultFailure = "failure"
	resultSkipped = "skipped" // another run held the lock (D61)
)

// NewMetrics makes the metrics of a schedule that publishes into out.
func NewMetrics(out string) *Metrics {
	kind := []string{"kind"}
	return &Metrics{out: out, now: time.Now,
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "daawid_pipeline_runs_total",
			Help: "Pipeline runs by kind (nightly, delta) and result (success, failure, skipped: another run held the lock)."}, []string{"kind", "result"}),
		lastRun: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "daawid_pipeline_last_run_timestamp_seconds",
			Help: "When the last run of a kind ended, successful or not, in Unix seconds."}, kind),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "daawid_pipeline_last_success_timestamp_seconds",
			Help: "When the last successful run of a kind ended, in Unix seconds."}, kind),
		lastResult: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "daawid_pipeline_last_run_success",
			Help: "1 when the last run of a kind succeeded, 0 when it failed."}, kind),
		lastDuration: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "daawid_pipeline_last_run_duration_seconds",
			Help: "How long the last run of a kind took, from taking the lock to keeping its report."}, kind),
		steps: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "daawid_pipeline_step_duration_seconds",
			Help: "How long each step of the last run of a kind took: read (the sources), compile, commit (the state), publish (render, exports, feeds, swap)."},
			[]string{"kind", "step"}),
		rowsRead: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "daawid_pipeline_rows_read_total",
			Help: "Register rows read by the runs of a kind (an unchanged register file is not read again)."}, kind),
		badRows: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "daawid_pipeline_bad_rows_total",
			Help: "Rows the runs of a kind skipped as bad (D91: past --max-bad-rows a run fails)."}, kind),
		entries: prometheus.NewGauge(prometheus.GaugeOpts{Name: "daawid_pipeline_entries_published",
			Help: "Entries the last publication holds."}),
		age: prometheus.NewDesc("daawid_pipeline_publication_age_seconds",
			"Seconds since the current publication was published (its manifest's createdAt), at the scrape; absent before the first publication.", nil, nil),
		feedSeq: prometheus.NewDesc("daawid_pipeline_feed_sequence",
			"The last sequence number of the current publication's change feed; absent before the first publication.", nil, nil),
	}
}

// vecs are the metrics kept between scrapes.
func (m *Metrics) vecs() []prometheus.Collector {
	return []prometheus.Collector{m.runs, m.lastRun, m.lastSuccess, m.lastResult, m.lastDuration, m.steps, m.rowsRead, m.badRows, m.entries}
}

// Describe is part of prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range m.vecs() {
		c.Describe(ch)
	}
	ch <- m.age
	ch <- m.feedSeq
}

// Collect is part of prometheus.Collector. The publication's age and feed
// sequence are read from the current publication at the scrape, so they
// stay true when another process (a run by hand) published since.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	for _, c := range m.vecs() {
		c.Collect(ch)
	}
	pub, err := publication.Current(m.out)
	if err != nil {
		return
	}
	man, err := publication.ReadManifest(pub)
	if err != nil {
		return
	}
	if at, err := time.Parse(time.RFC3339, man.CreatedAt); err == nil {
		ch <- prometheus.MustNewConstMetric(m.age, prometheus.GaugeValue, m.now().Sub(at).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(m.feedSeq, prometheus.GaugeValue, float64(man.FeedLast))
}

// observe records one run of the schedule that ended at end after took.
// A nil Metrics records nothing.
func (m *Metrics) observe(kind string, rep *RunReport, err error, end time.Time, took time.Duration) {
	if m == nil {
		return
	}
	if errors.Is(err, ErrLocked) {
		m.runs.WithLabelValues(kind, resultSkipped).Inc()
		return
	}
	ts := float64(end.UnixNano()) / 1e9
	m.lastRun.WithLabelValues(kind).Set(ts)
	m.lastDuration.WithLabelValues(kind).Set(took.Seconds())
	if rep != nil && rep.Compile != nil {
		c := rep.Compile
		m.rowsRead.WithLabelValues(kind).Add(float64(c.RowsRead))
		m.badRows.WithLabelValues(kind).Add(float64(c.RowsSkipped))
		m.steps.WithLabelValues(kind, "read").Set(c.Seconds.Read)
		m.steps.WithLabelValues(kind, "compile").Set(c.Seconds.Compile)
		m.steps.WithLabelValues(kind, "commit").Set(c.Seconds.Commit)
	}
	if rep != nil && rep.Publish != nil {
		m.steps.WithLabelValues(kind, "publish").Set(rep.Publish.Seconds)
		m.entries.Set(float64(rep.Publish.Entries))
	}
	if err != nil {
		m.runs.WithLabelValues(kind, resultFailure).Inc()
		m.lastResult.WithLabelValues(kind).Set(0)
		return
	}
	m.runs.WithLabelValues(kind, resultSuccess).Inc()
	m.lastResult.WithLabelValues(kind).Set(1)
	m.lastSuccess.WithLabelValues(kind).Set(ts)
}
