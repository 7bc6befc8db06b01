package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/counting"
	"github.com/daawid/registry/query/fairuse"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// serveConfig is what the server runs with.
type serveConfig struct {
	Out         string // the publications' folder ({out}/current)
	Addr        string
	MetricsAddr string // "" no metrics listener
	Site        render.Site
	Keys        string // buyer key store; "" closes the exports
	Reports     string // where reports go
	Counts      string // where read counts go; "" counts nothing
	NoLimit     bool   // no fair-use limit (benchmarks against a static server)
	DocCache    int    // bytes of the document cache (D74); 0: none
	// TrustedProxies are the CIDRs whose X-Forwarded-For is believed.
	TrustedProxies []string
	Log            *slog.Logger
	// Actions is how requests are run (§7.6).
	Actions actionsConfig
	// ReadTimeout bounds reading a whole request, its body included, so a
	// client that sends a body a byte at a time cannot hold a connection
	// (the request routes take bodies); 0: 30 s.
	ReadTimeout time.Duration
	// bound, when set, receives the address the server listens on.
	bound func(addr string)
}

// runServe is "daawid serve": the read server over the current
// publication, swapping to newer ones as they appear.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "out", "the publications' folder (the pipeline's --out)")
	addr := fs.String("addr", "localhost:8080", "address to serve on")
	metrics := fs.String("metrics-addr", "localhost:9464", "address of the Prometheus metrics listener; empty: none")
	base := fs.String("base-url", "", "the registry's base URL (default: http://ADDR for a local address, else "+render.DefaultBaseURL+")")
	keysFile := fs.String("keys", "", "buyer key store (daawid keys); empty closes the exports and the change feed")
	reports := fs.String("reports", "", "folder for reports made on /{slug}/report (default: OUT/../reports)")
	counts := fs.String("counts", "", "folder for read counts and the search log (default: OUT/../counts)")
	noLimit := fs.Bool("no-limit", false, "no fair-use limit (for load benchmarks only)")
	proxies := fs.String("trusted-proxies", "", "comma-separated CIDRs of the proxies whose X-Forwarded-For is believed (none by default)")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error (access logs are info)")
	docCache := fs.Int("doc-cache", query.DefaultDocCacheBytes, "bytes of the document cache: the most read documents kept in memory, outside the Go heap (0: none)")
	runsDB := fs.String("runs-db", "", "the action runs' store: a SQLite file, or postgres://… shared by several server processes (default: OUT/../runs/runs.db)")
	secretFile := fs.String("secret-file", "", "file with the HMAC key of codes and addresses, 32 bytes or more, mode 0600 (default: OUT/../runs/secret, made when missing)")
	smtpURL := fs.String("smtp", "", "mail server for codes and requests: smtp://[user:pass@]host:port (STARTTLS when offered), smtp+starttls://, smtps://; empty: mails wait in the outbox")
	mailFrom := fs.String("mail-from", "", "the address Daawid's mails come from (default: Daawid <requests@HOST>)")
	memLimit := fs.Int64("memory-limit", 2750<<20, "the Go heap's soft limit in bytes (GOMEMLIMIT overrides): the garbage collector works harder near it, so a publication swap, when two are in memory, stays in bounds")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: daawid serve [--out DIR] [--addr HOST:PORT] [flags]")
		return 2
	}
	if os.Getenv("GOMEMLIMIT") == "" && *memLimit > 0 {
		debug.SetMemoryLimit(*memLimit)
	}
	log, err := newLogger(stderr, *logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "daawid serve: %v\n", err)
		return 2
	}
	site, err := serveSite(*base, *addr)
	if err != nil {
		fmt.Fprintf(stderr, "daawid serve: %v\n", err)
		return 2
	}
	parent := filepath.Dir(filepath.Clean(*out))
	cfg := serveConfig{Out: *out, Addr: *addr, MetricsAddr: *metrics, Site: site, Keys: *keysFile,
		Reports: orDefault(*reports, filepath.Join(parent, "reports")), Counts: orDefault(*counts, filepath.Join(parent, "counts")), NoLimit: *noLimit, Log: log, DocCache: max(0, *docCache)}
	cfg.Actions = actionsConfig{RunsDB: orDefault(*runsDB, filepath.Join(parent, "runs", "runs.db")),
		SecretFile: orDefault(*secretFile, filepath.Join(parent, "runs", "secret")), CreateSecret: *secretFile == "",
		SMTP: *smtpURL, MailFrom: *mailFrom}
	for _, p := range strings.Split(*proxies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.TrustedProxies = append(cfg.TrustedProxies, p)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg.bound = func(a string) { fmt.Fprintf(stdout, "serving %s on http://%s\n", *out, a) }
	if err := serve(ctx, cfg); err != nil {
		fmt.Fprintf(stderr, "daawid serve: %v\n", err)
		return 1
	}
	return 0
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

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: %w", level, err)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

// serveSite is the site of a served registry: the base URL given, or for
// a local address plain http on it (VIEW-21), else the contract's hosts.
func serveSite(base, addr string) (render.Site, error) {
	if base == "" {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return render.Site{}, fmt.Errorf("--addr %q: %w", addr, err)
		}
		switch host {
		case "", "localhost", "127.0.0.1", "::1", "0.0.0.0", "::":
			base = "http://localhost:" + port
		default:
			base = render.DefaultBaseURL
		}
	}
	return render.NewSite(base, taxonomy.Default())
}

// serve runs the server until ctx ends, then shuts down gracefully: it
// stops accepting, lets requests in flight finish (up to 20 s), flushes
// the read counts and closes the publication.
func serve(ctx context.Context, cfg serveConfig) error {
	log := cfg.Log
	snaps := query.NewSnapshots(cfg.Out)
	snaps.DocCacheBytes = cfg.DocCache
	if _, err := snaps.Refresh(); err != nil {
		log.Warn("no publication yet; not ready until one appears", "err", err)
	}
	defer snaps.Close()
	svc := query.NewService(snaps, cfg.Site)
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "daawid_stand_ins_total",
		Help: "Entries the time guard re-issued in memory because their nextChangeAt came before a publication (D66)."},
		func() float64 { return float64(svc.StandIns()) }))
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(newDocCacheMetrics(snaps))
	rcfg := rest.Config{Keys: cfg.Keys, Reports: cfg.Reports, Log: log, Metrics: rest.NewMetrics(reg), TrustedProxies: cfg.TrustedProxies}
	if !cfg.NoLimit {
		lim := fairuse.NewLimiter(300)
		rcfg.Limiter = lim
		// An address is held for its minute and no longer (§7.8), also when
		// no read comes to turn the minute.
		go func() {
			t := time.NewTicker(15 * time.Second)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case now := <-t.C:
					lim.Sweep(now)
				}
			}
		}()
	}
	if cfg.Counts != "" {
		counter, err := counting.Open(counting.Config{Dir: cfg.Counts}, log)
		if err != nil {
			return err
		}
		defer counter.Close()
		go counter.Run(ctx)
		rcfg.Counter = counter
	}
	if cfg.Actions.RunsDB != "" {
		acts, stopActions, err := startActions(ctx, cfg.Actions, cfg.Site, log)
		if err != nil {
			return fmt.Errorf("action runs: %w", err)
		}
		defer stopActions()
		rcfg.Actions = acts
		reg.MustRegister(newRunsMetrics(acts))
	}
	srv, err := rest.New(rcfg, svc)
	if err != nil {
		return err
	}
	srv.MountMCP(qmcp.Handler(svc, qmcp.Options{Allow: srv.ReadAllowed, Count: srv.CountRead, Actions: rcfg.Actions, Platform: srv.ReaderCategory}))
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 30 * time.Second
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: cfg.ReadTimeout, IdleTimeout: 120 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	var ms *http.Server
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("metrics listener: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
		// Profiles for operators, on the private listener only.
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		ms = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go ms.Serve(mln)
		log.Info("metrics", "addr", "http://"+mln.Addr().String()+"/metrics")
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go snaps.Watch(watchCtx, 2*time.Second, log)
	if cfg.bound != nil {
		cfg.bound(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if ms != nil {
		ms.Shutdown(sctx)
	}
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
