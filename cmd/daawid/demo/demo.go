package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/daawid/registry/cmd/daawid/server"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/websites"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/render"
	"github.com/prometheus/client_golang/prometheus"
)

// Demo is a prepared demo directory.
type Demo struct {
	Dir  string      // the demo's directory: state, inputs, publications, mail
	Out  string      // the publications' folder ({Out}/current)
	Site render.Site // the site the publications were rendered for
	// Schedule is the pipeline's schedule over the same inputs: the
	// owner inbox and the events of reports made on the server.
	Schedule pipeline.ScheduleConfig
}

// Prepare compiles and publishes the bundled fixtures into dir, unless
// a publication for the same site is there already (a second start serves
// what the first made, and the schedule carries it on).
func Prepare(dir string, site render.Site, stdout io.Writer) (*Demo, error) {
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
	// The server appends the events of reports made on its pages to the
	// second file; it starts empty, so every run finds the inputs it names
	// (a named input that is missing fails the run).
	if err := touch(events[1]); err != nil {
		return nil, err
	}
	d := &Demo{Dir: dir, Out: out, Site: site}
	d.Schedule = pipeline.ScheduleConfig{Nightly: pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Registers: regs, OwnerInbox: inbox, Verification: events},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Exports: true, ServeIndexes: query.ServeIndexer(nil)},
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
	if err := d.publish(regs, stdout); err != nil {
		return nil, err
	}
	return d, nil
}

// publish runs the two dated runs of the contract's examples: the
// registers and the websites at §3.7's date, then the owner revision and
// the events at §3.6's, with the static tree.
func (d *Demo) publish(regs []string, stdout io.Writer) error {
	inputs, state := filepath.Join(d.Dir, "inputs"), filepath.Join(d.Dir, "state")
	arch, err := pipeline.OpenArchiveFS(websites.FS, "embedded archive", 5*time.Second)
	if err != nil {
		return err
	}
	defer arch.Close()
	ctx := context.Background()
	first := pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Registers: regs, Sites: arch, Seed: filepath.Join(inputs, "compile", "identity-seed.json"),
			Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: d.Out, Site: d.Site, Exports: true, ServeIndexes: query.ServeIndexer(nil)},
	}
	r1, err := pipeline.Run(ctx, first, "demo")
	if err != nil {
		return err
	}
	second := first
	second.Compile.Sites, second.Compile.OwnerInbox = nil, filepath.Join(d.Dir, "inbox")
	second.Compile.Verification = []string{filepath.Join(inputs, "compile", "verification.jsonl")}
	second.Compile.Now = time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)
	second.Publish.Static = filepath.Join(d.Dir, "static")
	r2, err := pipeline.Run(ctx, second, "demo")
	if err != nil {
		return err
	}
	pub, _ := publication.Current(d.Out)
	fmt.Fprintf(stdout, "compiled %d rows and %d websites into %s; merged %d owner revision and %d events\n",
		r1.Compile.RowsRead, r1.Compile.SitesCrawled, filepath.Join(state, pipeline.StateFile), r2.Compile.Merged, r2.Compile.Events)
	fmt.Fprintf(stdout, "published %d entries (%d documents) in %s\n", r2.Publish.Entries, r2.Publish.Documents, pub)
	fmt.Fprintf(stdout, "static tree: %s (try %s)\n", second.Publish.Static, filepath.Join(second.Publish.Static, "holzwerk-krause.md"))
	fmt.Fprintf(stdout, "exports: %s; query them with DuckDB: SELECT * FROM read_parquet('%s/entries/*/*.parquet', hive_partitioning = true)\n",
		filepath.Join(pub, "exports"), filepath.Join(pub, "exports"))
	return nil
}

// ServeConfig is how a prepared demo is served.
type ServeConfig struct {
	Addr string // address to serve on
	// Metrics serves the server's and the schedule's metrics at /metrics
	// on Addr; the demo binds no second port (issue 16), so that two
	// demos run side by side.
	Metrics bool
	Log     *slog.Logger
	Stdout  io.Writer // where the addresses to try are printed
}

// Serve runs the schedule and serves the demo's publications until ctx
// ends. Every mail the demo sends (the codes, the requests to the
// businesses) is caught on loopback and lands as a file in a Maildir
// under the demo's directory, so nothing leaves the machine.
func (d *Demo) Serve(ctx context.Context, cfg ServeConfig) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	sched := d.Schedule
	sched.Log = cfg.Log
	sched.Metrics = pipeline.NewMetrics(d.Out)
	schedDone := make(chan error, 1)
	go func() { schedDone <- pipeline.Schedule(ctx, sched) }()
	maildir := filepath.Join(d.Dir, "mail")
	catcher, err := mail.StartCatcher("127.0.0.1:0", maildir, mail.CatcherOptions{})
	if err != nil {
		return fmt.Errorf("mail catcher: %w", err)
	}
	defer catcher.Close()
	scfg := server.Config{Out: d.Out, Addr: cfg.Addr, MetricsOnServe: cfg.Metrics, Collectors: []prometheus.Collector{sched.Metrics}, Site: d.Site, Keys: filepath.Join(d.Dir, "keys.json"), DocCache: 64 << 20,
		Reports: filepath.Join(d.Dir, "reports"), OwnerInbox: filepath.Join(d.Dir, "inbox"), Counts: filepath.Join(d.Dir, "counts"), Log: cfg.Log,
		Actions: server.ActionsConfig{RunsDB: filepath.Join(d.Dir, "runs", "runs.db"), SecretFile: filepath.Join(d.Dir, "runs", "secret"), CreateSecret: true,
			SMTP: catcher.URL()},
		// The demo's apps may name themselves by a metadata document on
		// loopback (MCP-12's test mode).
		Auth: server.AuthConfig{TestMode: true}}
	scfg.Bound = func(string) { d.printTries(cfg.Stdout, catcher.Addr(), maildir) }
	err = server.Run(ctx, scfg)
	stop()
	if serr := <-schedDone; serr != nil && err == nil && !errors.Is(serr, context.Canceled) {
		err = serr
	}
	return err
}

// printTries prints where the demo serves and what to try there.
func (d *Demo) printTries(w io.Writer, mailAddr, maildir string) {
	u := d.Site.BaseURL
	fmt.Fprintf(w, "\nserving on %s (Ctrl-C stops); try:\n", u)
	for _, p := range []string{"/holzwerk-krause", "/holzwerk-krause.md", "/holzwerk-krause/en.md", "/holzwerk-krause.json",
		"/holzwerk-krause/impressum", "/v1/entries/by-slug/holzwerk-krause?lang=en&sections=contact,hours",
		"/v1/entries/by-domain/www.Holzwerk-Krause.example", "/v1/entries/holzwerk-krause/offerings?q=Schrank",
		"/v1/search?q=Tischler+f%C3%BCr+Einbauschrank&place=Wuppertal", "/docs/ranking", "/llms.txt",
		"/sitemap.xml", "/docs/api", "/schemas/0.1/openapi.json"} {
		fmt.Fprintf(w, "  %s%s\n", u, p)
	}
	fmt.Fprintf(w, "  curl -H 'Accept: text/markdown' %s/holzwerk-krause\n", u)
	fmt.Fprintf(w, "  %s/holzwerk-krause/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j  (a request's web form)\n", u)
	fmt.Fprintf(w, "the pipeline runs a delta every minute; drop owner revisions into %s\n", filepath.Join(d.Dir, "inbox"))
	fmt.Fprintf(w, "mail (codes and requests) is caught on %s and written to %s (Maildir: new/)\n", mailAddr, filepath.Join(maildir, "new"))
}

// touch makes an empty file, and its folder, unless the file is there.
func touch(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}
