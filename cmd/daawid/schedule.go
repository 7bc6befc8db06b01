package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/daawid/registry/pipeline"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// runSchedule runs pipeline schedule until ctx ends: the nightly run rc
// at --cron in --tz, the delta run every minute and retention. It logs
// JSON lines only, at --log-level, as a service does, serves the run
// metrics on --metrics-addr when given, and returns the exit code.
func (r *compileRun) runSchedule(ctx context.Context, rc pipeline.RunConfig, stderr io.Writer) int {
	loc, err := time.LoadLocation(r.tz)
	if err != nil {
		fmt.Fprintf(stderr, "daawid %s: --tz %q: %v\n", r.name, r.tz, err)
		return 2
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: r.logLevel}))
	rc.Compile.Log, rc.Publish.Log, rc.Compile.Progress = log, log, nil
	cfg := pipeline.ScheduleConfig{Nightly: rc, Spec: r.cronSpec, Location: loc, Log: log}
	if r.metricsAddr != "" {
		cfg.Metrics = pipeline.NewMetrics(rc.Publish.OutDir)
		stop, err := serveScheduleMetrics(r.metricsAddr, cfg.Metrics, log)
		if err != nil {
			fmt.Fprintf(stderr, "daawid %s: --metrics-addr %q: %v\n", r.name, r.metricsAddr, err)
			return 1
		}
		defer stop()
	}
	if err := pipeline.Schedule(ctx, cfg); err != nil {
		fmt.Fprintf(stderr, "daawid %s: %v\n", r.name, err)
		return 1
	}
	return 0
}

// serveScheduleMetrics serves the schedule's metrics, with the Go runtime's
// and the process's, at /metrics on addr, from a registry of its own. The
// address is logged (msg "metrics"), so that a free port (":0") can be
// found. The function it returns closes the listener.
func serveScheduleMetrics(addr string, m *pipeline.Metrics, log *slog.Logger) (func(), error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(m, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	log.Info("metrics", "addr", "http://"+ln.Addr().String()+"/metrics")
	return func() { hs.Close() }, nil
}

// parseLevel reads a --log-level: debug, info, warn or error.
func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("--log-level %q: want debug, info, warn or error", s)
	}
	return l, nil
}
