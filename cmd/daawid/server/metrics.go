package server

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/daawid/registry/query"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// newRegistry is the metrics registry of one server: the time guard's
// stand-ins (D66), the Go runtime and the process, and the document
// cache (D74). The routes and the action runs add theirs.
func newRegistry(svc *query.Service, snaps *query.Snapshots) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "daawid_stand_ins_total",
		Help: "Entries the time guard re-issued in memory because their nextChangeAt came before a publication (D66)."},
		func() float64 { return float64(svc.StandIns()) }))
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(newDocCacheMetrics(snaps))
	return reg
}

// startMetrics serves the metrics and the profiles on their own listener
// at addr, apart from the public one, so neither is reachable from the
// internet by accident. It returns nil for an empty addr (no listener).
func startMetrics(addr string, reg *prometheus.Registry, log *slog.Logger) (*http.Server, error) {
	if addr == "" {
		return nil, nil
	}
	mln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	// Profiles for operators, on the private listener only.
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ms := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go ms.Serve(mln)
	log.Info("metrics", "addr", "http://"+mln.Addr().String()+"/metrics")
	return ms, nil
}

// withMetrics puts /metrics in front of the routes when on is set (the
// demo's one port), and leaves them alone otherwise. The path is matched
// before Gin, so it adds no route to the public route table (the routes
// and the OpenAPI paths stay equal) and no other path is touched.
func withMetrics(routes http.Handler, reg *prometheus.Registry, on bool) http.Handler {
	if !on {
		return routes
	}
	metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			metrics.ServeHTTP(w, r)
			return
		}
		routes.ServeHTTP(w, r)
	})
}

// docCacheMetrics export the document cache's work (D74): reads, misses,
// entries and bytes held, from one reading of its statistics a scrape.
type docCacheMetrics struct {
	snaps                         *query.Snapshots
	reads, misses, entries, bytes *prometheus.Desc
}

func newDocCacheMetrics(snaps *query.Snapshots) *docCacheMetrics {
	return &docCacheMetrics{snaps: snaps,
		reads:   prometheus.NewDesc("daawid_doc_cache_reads_total", "Documents looked up in the document cache.", nil, nil),
		misses:  prometheus.NewDesc("daawid_doc_cache_misses_total", "Documents the document cache did not hold (read from their pack).", nil, nil),
		entries: prometheus.NewDesc("daawid_doc_cache_entries", "Documents the document cache holds.", nil, nil),
		bytes:   prometheus.NewDesc("daawid_doc_cache_bytes", "Bytes the document cache holds.", nil, nil)}
}

func (m *docCacheMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.reads
	ch <- m.misses
	ch <- m.entries
	ch <- m.bytes
}

func (m *docCacheMetrics) Collect(ch chan<- prometheus.Metric) {
	s := m.snaps.DocCacheStats()
	ch <- prometheus.MustNewConstMetric(m.reads, prometheus.CounterValue, float64(s.Reads))
	ch <- prometheus.MustNewConstMetric(m.misses, prometheus.CounterValue, float64(s.Misses))
	ch <- prometheus.MustNewConstMetric(m.entries, prometheus.GaugeValue, float64(s.Entries))
	ch <- prometheus.MustNewConstMetric(m.bytes, prometheus.GaugeValue, float64(s.Bytes))
}
