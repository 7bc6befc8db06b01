package rest

import (
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the server's Prometheus metrics, served on a listener of
// their own (cmd): requests by route area and status, their durations,
// fair-use refusals by category of reader (the stand-ins of the time guard
// and the document cache are counted by cmd, from query). No label holds
// an address, a path with an ID, or a slug.
type Metrics struct {
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	rateLimited *prometheus.CounterVec
	// The series of each route area, found once (a request does not hash
	// its labels): durations, and counters by status, made on first use.
	durations [len(areas)]prometheus.Observer
	counts    [len(areas)]sync.Map // status → prometheus.Counter
}

// areas are the route areas of the metrics' labels.
var areas = [...]string{"api", "mcp", "schema", "document", "site", "page"}

const (
	areaAPI = iota
	areaMCP
	areaSchema
	areaDocument
	areaSite
	areaPage
)

// NewMetrics registers the server's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "daawid_http_requests_total",
			Help: "HTTP requests by route area (page, document, api, site, schema, mcp) and status."}, []string{"area", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "daawid_http_request_duration_seconds",
			Help: "HTTP request durations by route area.", Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"area"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "daawid_rate_limited_total",
			Help: "Reads refused by the fair-use limit, by category of reader."}, []string{"category"}),
	}
	for i, a := range areas {
		m.durations[i] = m.duration.WithLabelValues(a)
	}
	reg.MustRegister(m.requests, m.duration, m.rateLimited)
	return m
}

// areaOf names a path's route area for metrics.
func areaOf(path string) int {
	switch {
	case strings.HasPrefix(path, "/v1/"):
		return areaAPI
	case path == "/mcp" || strings.HasPrefix(path, "/mcp/"):
		return areaMCP
	case strings.HasPrefix(path, "/schemas/") || strings.HasPrefix(path, "/docs/") || path == "/ns":
		return areaSchema
	case strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".json"):
		return areaDocument
	case strings.HasSuffix(path, ".txt") || strings.HasSuffix(path, ".xml") || strings.HasPrefix(path, "/.well-known/"):
		return areaSite
	}
	return areaPage
}

func (m *Metrics) observe(path string, status int, seconds float64) {
	if m == nil {
		return
	}
	area := areaOf(path)
	counts := &m.counts[area]
	c, ok := counts.Load(status)
	if !ok {
		c, _ = counts.LoadOrStore(status, m.requests.WithLabelValues(areas[area], strconv.Itoa(status)))
	}
	c.(prometheus.Counter).Inc()
	m.durations[area].Observe(seconds)
}

func (m *Metrics) limited(category string) {
	if m != nil {
		m.rateLimited.WithLabelValues(category).Inc()
	}
}
