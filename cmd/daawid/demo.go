package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/websites"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// runDemo is "daawid demo": the main job on the embedded default. It
// compiles the bundled register samples and saved websites (served on
// loopback) into a local DuckDB state, merges Holzwerk Krause's owner
// revision and domain events, publishes everything with the exports and a
// static tree, then runs the schedule (a delta every minute, the nightly
// run) and serves on http://localhost:8080. No services, no network.
// --once stops after the publication.
func runDemo(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("demo", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", defaultDemoDir(), "where the state, the inputs and the publications go")
	addr := flags.String("addr", "localhost:8080", "address to serve on")
	once := flags.Bool("once", false, "compile and publish into --dir, then exit without serving")
	base := flags.String("base-url", "", "the registry's base URL (default: http://ADDR for a local address; "+render.DefaultBaseURL+" reproduces the contract's examples byte for byte)")
	metrics := flags.String("metrics-addr", "localhost:0", "address of the Prometheus metrics listener (default: a free port on loopback, printed at start, so two demos run side by side); empty: none")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: daawid demo [--dir DIR] [--addr HOST:PORT] [--once] [--base-url URL]")
		return 2
	}
	fail := func(err error) int { fmt.Fprintf(stderr, "daawid demo: %v\n", err); return 1 }
	site, err := serveSite(*base, *addr)
	if err != nil {
		return fail(err)
	}
	if *once && *base == "" {
		// Without a server, the contract's hosts: the documents then equal
		// the contract's examples (§3.6, §3.7) byte for byte.
		if site, err = render.NewSite(render.DefaultBaseURL, taxonomy.Default()); err != nil {
			return fail(err)
		}
	}
	d, err := prepareDemo(*dir, site, stdout)
	if err != nil {
		return fail(err)
	}
	if *once {
		return 0
	}
	log, _ := newLogger(stderr, "info")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sched := d.schedule
	sched.Log = log
	schedDone := make(chan error, 1)
	go func() { schedDone <- pipeline.Schedule(ctx, sched) }()
	// The embedded mail catcher: every mail the demo sends (the codes, the
	// requests to the businesses) lands as a file in a Maildir under --dir.
	maildir := filepath.Join(*dir, "mail")
	catcher, err := mail.StartCatcher("127.0.0.1:0", maildir, mail.CatcherOptions{})
	if err != nil {
		return fail(fmt.Errorf("mail catcher: %w", err))
	}
	defer catcher.Close()
	cfg := serveConfig{Out: d.out, Addr: *addr, MetricsAddr: *metrics, Site: site, Keys: filepath.Join(*dir, "keys.json"), DocCache: 64 << 20,
		Reports: filepath.Join(*dir, "reports"), Counts: filepath.Join(*dir, "counts"), Log: log,
		Actions: actionsConfig{RunsDB: filepath.Join(*dir, "runs", "runs.db"), SecretFile: filepath.Join(*dir, "runs", "secret"), CreateSecret: true,
			SMTP: catcher.URL()}}
	cfg.bound = func(a string) {
		u := site.BaseURL
		fmt.Fprintf(stdout, "\nserving on %s (Ctrl-C stops); try:\n", u)
		for _, p := range []string{"/holzwerk-krause", "/holzwerk-krause.md", "/holzwerk-krause/en.md", "/holzwerk-krause.json",
			"/holzwerk-krause/impressum", "/v1/entries/by-slug/holzwerk-krause?lang=en&sections=contact,hours",
			"/v1/entries/by-domain/www.Holzwerk-Krause.example", "/v1/entries/holzwerk-krause/offerings?q=Schrank",
			"/v1/search?q=Tischler+f%C3%BCr+Einbauschrank&place=Wuppertal", "/docs/ranking", "/llms.txt",
			"/sitemap.xml", "/docs/api", "/schemas/0.1/openapi.json"} {
			fmt.Fprintf(stdout, "  %s%s\n", u, p)
		}
		fmt.Fprintf(stdout, "  curl -H 'Accept: text/markdown' %s/holzwerk-krause\n", u)
		fmt.Fprintf(stdout, "  %s/holzwerk-krause/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j  (a request's web form)\n", u)
		fmt.Fprintf(stdout, "the pipeline runs a delta every minute; drop owner revisions into %s\n", filepath.Join(*dir, "inbox"))
		fmt.Fprintf(stdout, "mail (codes and requests) is caught on %s and written to %s (Maildir: new/)\n", catcher.Addr(), filepath.Join(maildir, "new"))
	}
	err = serve(ctx, cfg)
	stop()
	if serr := <-schedDone; serr != nil && err == nil && !errors.Is(serr, context.Canceled) {
		err = serr
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// defaultDemoDir is a folder under the user's cache directory.
func defaultDemoDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "daawid", "demo")
	}
	return "daawid-demo"
}

// demo is a prepared demo directory.
type demo struct {
	out      string
	schedule pipeline.ScheduleConfig
}

// prepareDemo compiles and publishes the bundled fixtures into dir, unless
// a publication for the same site is there already (a second start serves
// what the first made, and the schedule carries it on).
func prepareDemo(dir string, site render.Site, stdout io.Writer) (*demo, error) {
	inputs := filepath.Join(dir, "inputs")
	if err := os.CopyFS(inputs, fixtures.Demo); err != nil && !os.IsExist(err) {
		return nil, err
	}
	inbox := filepath.Join(dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		return nil, err
	}
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	regs := []string{filepath.Join(inputs, "registers", "offeneregister-sample.jsonl"), filepath.Join(inputs, "registers", "companies-house-sample.csv")}
	events := []string{filepath.Join(inputs, "compile", "verification.jsonl"), filepath.Join(dir, "reports", "events.jsonl")}
	d := &demo{out: out}
	d.schedule = pipeline.ScheduleConfig{Nightly: pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Registers: regs, OwnerInbox: inbox, Verification: events},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Exports: true},
		Keep:    5,
	}}
	if pub, err := publication.Current(out); err == nil {
		if m, err := publication.ReadManifest(pub); err == nil && m.BaseURL == site.BaseURL {
			fmt.Fprintf(stdout, "serving the existing publication %s (remove %s to start over)\n", pub, dir)
			return d, nil
		}
	}
	if b, err := fs.ReadFile(fixtures.Demo, "compile/inbox/holzwerk-krause.json"); err == nil {
		os.WriteFile(filepath.Join(inbox, "holzwerk-krause.json"), b, 0o644)
	}
	arch, err := pipeline.OpenArchiveFS(websites.FS, "embedded archive", 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer arch.Close()
	ctx := context.Background()
	// The contract's examples are dated: the first run at §3.7's date, the
	// owner revision merged at §3.6's.
	first := pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Registers: regs, Sites: arch, Seed: filepath.Join(inputs, "compile", "identity-seed.json"),
			Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Exports: true},
	}
	r1, err := pipeline.Run(ctx, first, "demo")
	if err != nil {
		return nil, err
	}
	second := first
	second.Compile.Sites, second.Compile.OwnerInbox = nil, inbox
	second.Compile.Verification = []string{filepath.Join(inputs, "compile", "verification.jsonl")}
	second.Compile.Now = time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)
	second.Publish.Static = filepath.Join(dir, "static")
	r2, err := pipeline.Run(ctx, second, "demo")
	if err != nil {
		return nil, err
	}
	pub, _ := publication.Current(out)
	fmt.Fprintf(stdout, "compiled %d rows and %d websites into %s; merged %d owner revision and %d events\n",
		r1.Compile.RowsRead, r1.Compile.SitesCrawled, filepath.Join(state, pipeline.StateFile), r2.Compile.Merged, r2.Compile.Events)
	fmt.Fprintf(stdout, "published %d entries (%d documents) in %s\n", r2.Publish.Entries, r2.Publish.Documents, pub)
	fmt.Fprintf(stdout, "static tree: %s (try %s)\n", second.Publish.Static, filepath.Join(second.Publish.Static, "holzwerk-krause.md"))
	fmt.Fprintf(stdout, "exports: %s; query them with DuckDB: SELECT * FROM read_parquet('%s/entries/*/*.parquet', hive_partitioning = true)\n",
		filepath.Join(pub, "exports"), filepath.Join(pub, "exports"))
	return d, nil
}
