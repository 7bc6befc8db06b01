package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/counting"
	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/inbox"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
	"github.com/prometheus/client_golang/prometheus"
)

// Config is what the server runs with.
type Config struct {
	Out         string // the publications' folder ({out}/current)
	Addr        string
	MetricsAddr string // "" no metrics listener
	// MetricsOnServe also serves /metrics on Addr, the public listener:
	// the demo does, on loopback, so that it binds one port only. In
	// production the metrics stay on MetricsAddr, a private address.
	MetricsOnServe bool
	// Collectors are more metrics for the same registry (the demo's
	// schedule registers its run metrics).
	Collectors []prometheus.Collector
	Site       render.Site
	Keys       string // buyer key store; "" closes the exports
	Reports    string // where reports go, and the events file (events.jsonl) the pipeline reads
	// OwnerInbox is the pipeline's owner inbox folder, where claims and
	// the owner tools' edits go (D95, D96); "": none taken.
	OwnerInbox string
	Counts     string // where read counts go; "" counts nothing
	NoLimit    bool   // no fair-use limit (benchmarks against a static server)
	// CrawlerRanges is a JSON file of the address ranges crawler operators
	// publish (fairuse.ParseRanges): a claimed crawler is believed only
	// from them (MCP-80); "": no claim is believed.
	CrawlerRanges string
	DocCache      int // bytes of the document cache (D74); 0: none
	// TrustedProxies are the CIDRs whose X-Forwarded-For is believed.
	TrustedProxies []string
	Log            *slog.Logger
	// Actions is how requests are run (§7.6).
	Actions ActionsConfig
	// Auth is how the owner tools' authorization server runs (§7.2); it
	// runs whenever the action runs' store does.
	Auth AuthConfig
	// ReadTimeout bounds reading a whole request, its body included, so a
	// client that sends a body a byte at a time cannot hold a connection
	// (the request routes take bodies); 0: 30 s.
	ReadTimeout time.Duration
	// Bound, when set, receives the address the server listens on, once
	// it listens: the commands print it, the tests connect to it.
	Bound func(addr string)
}

// Run runs the server until ctx ends, then shuts down gracefully: it
// stops accepting, lets requests in flight finish (up to 20 s), flushes
// the read counts and closes the publication.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Log
	snaps := query.NewSnapshots(cfg.Out)
	snaps.DocCacheBytes = cfg.DocCache
	if _, err := snaps.Refresh(); err != nil {
		log.Warn("no publication yet; not ready until one appears", "err", err)
	}
	if fb := snaps.Fallback(); fb != nil {
		// Issue 15: a damaged current does not keep the registry down; the
		// operator learns which publication failed and which one serves.
		log.Error("the current publication does not verify; serving the newest one that does",
			"current", fb.Current, "serving", fb.Serving, "err", fb.Reason)
	}
	if sn := snaps.Acquire(); sn != nil {
		if sn.ServeFilesErr != nil {
			log.Warn("the publication's server indexes were built again, not mapped", "publication", sn.Manifest.ID, "err", sn.ServeFilesErr)
		}
		sn.Release()
	}
	defer snaps.Close()
	svc := query.NewService(snaps, cfg.Site)
	reg := newRegistry(svc, snaps)
	reg.MustRegister(cfg.Collectors...)
	rcfg := rest.Config{Keys: cfg.Keys, Reports: cfg.Reports, Log: log, Metrics: rest.NewMetrics(reg), TrustedProxies: cfg.TrustedProxies}
	if cfg.OwnerInbox != "" && cfg.Reports != "" {
		rcfg.Inbox = &inbox.Inbox{Dir: cfg.OwnerInbox, Events: filepath.Join(cfg.Reports, "events.jsonl")}
	}
	if !cfg.NoLimit {
		ranges, err := loadRanges(cfg.CrawlerRanges)
		if err != nil {
			return err
		}
		rcfg.Limiter = startLimiter(ctx, ranges)
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
	mopt := qmcp.Options{Allow: srv.ReadAllowed, Count: srv.CountRead, Actions: rcfg.Actions, Platform: srv.ReaderCategory, Inbox: rcfg.Inbox}
	if cfg.Actions.RunsDB != "" {
		authSrv, stopAuth, err := startAuth(ctx, cfg, log)
		if err != nil {
			return fmt.Errorf("authorization server: %w", err)
		}
		defer stopAuth()
		srv.MountAuth(authSrv)
		mopt.Auth = authSrv
		if rcfg.Inbox != nil {
			cl, err := startClaims(cfg, authSrv, rcfg.Inbox, log)
			if err != nil {
				return fmt.Errorf("claims: %w", err)
			}
			srv.MountClaims(cl)
		}
	}
	srv.MountMCP(qmcp.Handler(svc, mopt))
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 30 * time.Second
	}
	hs := &http.Server{Handler: withMetrics(srv.Handler(), reg, cfg.MetricsOnServe), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: cfg.ReadTimeout, IdleTimeout: 120 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	ms, err := startMetrics(cfg.MetricsAddr, reg, log)
	if err != nil {
		ln.Close()
		return fmt.Errorf("metrics listener: %w", err)
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go snaps.Watch(watchCtx, 2*time.Second, log)
	if cfg.Bound != nil {
		cfg.Bound(ln.Addr().String())
	}
	return serveUntilDone(ctx, hs, ln, ms, log)
}

// startLimiter is the fair-use limiter (§7.8) and its sweeper: an address
// is held for its minute and no longer, also when no read comes to turn
// the minute.
func startLimiter(ctx context.Context, ranges fairuse.Ranges) *fairuse.Limiter {
	lim := fairuse.NewLimiter(300)
	lim.Ranges = ranges
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
	return lim
}

// loadRanges reads the crawler ranges file; "" is none.
func loadRanges(path string) (fairuse.Ranges, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--crawler-ranges: %w", err)
	}
	r, err := fairuse.ParseRanges(b)
	if err != nil {
		return nil, fmt.Errorf("--crawler-ranges %s: %w", path, err)
	}
	return r, nil
}

// serveUntilDone serves hs on ln until ctx ends (or hs fails), then shuts
// down the metrics server ms (when there is one) and hs, giving requests
// in flight 20 s.
func serveUntilDone(ctx context.Context, hs *http.Server, ln net.Listener, ms *http.Server, log *slog.Logger) error {
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
