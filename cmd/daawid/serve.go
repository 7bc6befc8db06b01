package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/daawid/registry/cmd/daawid/server"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
)

// procsPerCore is how many Go scheduler threads (Ps) the server runs a
// core by default (D131). With one a core, on a machine whose cores are
// shared (a proxy, the pipeline, a load generator), a thread the kernel
// preempts holds its P, and the requests queued on it wait a kernel time
// slice; and idle Ps park and wake their threads tens of thousands of
// times a second. Measured on 2 cores under wrk: 4 a core answered 13 %
// more documents with a third of the p99 (docs/performance.md).
const procsPerCore = 4

// runServe is "daawid serve": the read server over the current
// publication, swapping to newer ones as they appear.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "out", "the publications' folder (the pipeline's --out)")
	addr := fs.String("addr", "localhost:8080", "address to serve on")
	metrics := fs.String("metrics-addr", "localhost:9464", "address of the Prometheus metrics listener, with the profiles; keep it private: /metrics must not be public; empty: none")
	metricsOnServe := fs.Bool("metrics-on-serve", false, "also serve /metrics on --addr (only where --addr is not reachable from the internet, as in the demo)")
	base := fs.String("base-url", "", "the registry's base URL (default: http://ADDR for a local address, else "+render.DefaultBaseURL+")")
	keysFile := fs.String("keys", "", "buyer key store (daawid keys); empty closes the exports and the change feed")
	reports := fs.String("reports", "", "folder for reports made on /{slug}/report (default: OUT/../reports)")
	ownerInbox := fs.String("owner-inbox", "", "the pipeline's owner inbox folder, where claims and owner-tool changes go (the pipeline's --owner-inbox); empty: none taken")
	counts := fs.String("counts", "", "folder for read counts and the search log (default: OUT/../counts)")
	noLimit := fs.Bool("no-limit", false, "no fair-use limit (for load benchmarks only)")
	crawlerRanges := fs.String("crawler-ranges", "", `JSON file of the address ranges crawler operators publish, {"openai": ["CIDR", …], …}: a claimed crawler gets an allowance of its own only from its ranges (MCP-80); none by default`)
	proxies := fs.String("trusted-proxies", "", "comma-separated CIDRs of the proxies whose X-Forwarded-For is believed (none by default)")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error (access logs are info)")
	docCache := fs.Int("doc-cache", query.DefaultDocCacheBytes, "bytes of the document cache: the most read documents kept in memory, outside the Go heap (0: none)")
	runsDB := fs.String("runs-db", "", "the action runs' store: a SQLite file, or postgres://… shared by several server processes (default: OUT/../runs/runs.db)")
	secretFile := fs.String("secret-file", "", "file with the HMAC key of codes and addresses, 32 bytes or more, mode 0600 (default: OUT/../runs/secret, made when missing)")
	smtpURL := fs.String("smtp", "", "mail server for codes and requests: smtp://[user:pass@]host:port (STARTTLS when offered), smtp+starttls://, smtps://; empty: mails wait in the outbox")
	mailFrom := fs.String("mail-from", "", "the address Daawid's mails come from (default: Daawid <requests@HOST>)")
	authURL := fs.String("auth-url", "", "the owner tools' authorization server's origin (default: the base URL on a local copy, else https://auth.HOST)")
	procs := fs.Int("procs", procsPerCore*runtime.GOMAXPROCS(0), "Go scheduler threads (GOMAXPROCS; the environment's GOMAXPROCS overrides): by default four a core the process may use, so a thread the kernel preempts does not hold up the requests queued behind it (D131)")
	memLimit := fs.Int64("memory-limit", 2750<<20, "the Go heap's soft limit in bytes (GOMEMLIMIT overrides): the garbage collector works harder near it, so a publication swap, when two are in memory, stays in bounds")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: daawid serve [--out DIR] [--addr HOST:PORT] [flags]")
		return 2
	}
	if *procs < 1 {
		fmt.Fprintf(stderr, "daawid serve: --procs: %d is not a number of threads (1 or more)\n", *procs)
		return 2
	}
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(*procs)
	}
	if os.Getenv("GOMEMLIMIT") == "" && *memLimit > 0 {
		debug.SetMemoryLimit(*memLimit)
	}
	log, err := newLogger(stderr, *logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "daawid serve: %v\n", err)
		return 2
	}
	site, err := server.SiteFor(*base, *addr)
	if err != nil {
		fmt.Fprintf(stderr, "daawid serve: %v\n", err)
		return 2
	}
	parent := filepath.Dir(filepath.Clean(*out))
	cfg := server.Config{Out: *out, Addr: *addr, MetricsAddr: *metrics, MetricsOnServe: *metricsOnServe, Site: site, Keys: *keysFile,
		Reports: orDefault(*reports, filepath.Join(parent, "reports")), OwnerInbox: *ownerInbox, Counts: orDefault(*counts, filepath.Join(parent, "counts")), NoLimit: *noLimit, Log: log, DocCache: max(0, *docCache),
		CrawlerRanges: *crawlerRanges}
	cfg.Actions = server.ActionsConfig{RunsDB: orDefault(*runsDB, filepath.Join(parent, "runs", "runs.db")),
		SecretFile: orDefault(*secretFile, filepath.Join(parent, "runs", "secret")), CreateSecret: *secretFile == "",
		SMTP: *smtpURL, MailFrom: *mailFrom}
	cfg.Auth = server.AuthConfig{URL: *authURL}
	for _, p := range strings.Split(*proxies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.TrustedProxies = append(cfg.TrustedProxies, p)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg.Bound = func(a string) { fmt.Fprintf(stdout, "serving %s on http://%s\n", *out, a) }
	if err := server.Run(ctx, cfg); err != nil {
		fmt.Fprintf(stderr, "daawid serve: %v\n", err)
		return 1
	}
	return 0
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	l, err := parseLevel(level)
	if err != nil {
		return nil, err
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
