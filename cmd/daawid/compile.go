package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/daawid/registry/cmd/daawid/progress"
	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// multiFlag collects a repeated flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func runCompile(args []string, stdout, stderr io.Writer) int {
	return compileMain("compile", args, false, stdout, stderr)
}

// runPipeline is "daawid pipeline run" (one compile and one publication
// now) and "daawid pipeline schedule" (the nightly run, the delta run every
// minute and retention, until SIGTERM).
func runPipeline(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "run" || args[0] == "schedule") {
		return compileMain("pipeline "+args[0], args[1:], true, stdout, stderr)
	}
	fmt.Fprintln(stderr, "usage: daawid pipeline run|schedule --state DIR --out DIR [--site-url URL] [--static DIR] [--exports] [--keep N] [the compile command's source flags]")
	fmt.Fprintln(stderr, "       daawid pipeline schedule also takes --cron SPEC (default \"0 3 * * *\"), --tz ZONE (default Europe/Berlin) and --metrics-addr HOST:PORT; all take --log-level debug|info|warn|error")
	return 2
}

// compileRun is one run of daawid compile or daawid pipeline run|schedule,
// as its flags ask.
type compileRun struct {
	name       string // the command, for messages: "compile", "pipeline run", …
	schedule   bool   // pipeline schedule
	cfg        pipeline.CompileConfig
	websites   string
	jsonOut    bool
	cpuProfile string
	// Of pipeline run and schedule only.
	out, siteURL, static string
	exports, delta       bool
	keep                 int
	// Of pipeline schedule only.
	cronSpec, tz, metricsAddr string
	// logLevel is the level of the JSON log lines (--log-level).
	logLevel slog.Level
}

// compileMain runs a compile, and a publication after it when publish is
// set (daawid pipeline run), or the schedule (daawid pipeline schedule).
func compileMain(name string, args []string, publish bool, stdout, stderr io.Writer) int {
	r, code := parseCompile(name, args, publish, stderr)
	if r == nil {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tty := progress.IsTerminal(stderr)
	finish := r.logAndProgress(stderr, tty)
	defer finish()
	closeSites, err := r.openSites(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "daawid compile: %v\n", err)
		return 1
	}
	defer closeSites()
	stopProfile, err := startCPUProfile(r.cpuProfile)
	if err != nil {
		fmt.Fprintf(stderr, "daawid compile: %v\n", err)
		return 1
	}
	defer stopProfile()
	if !publish {
		rep, err := pipeline.Compile(ctx, r.cfg)
		finish() // the bar's line goes before the report is printed
		if err != nil {
			if rep != nil { // the problems that failed the run
				progress.PrintRun(stderr, r.jsonOut, rep, nil)
			}
			fmt.Fprintf(stderr, "daawid %s: %v\n", name, err)
			return 1
		}
		progress.PrintRun(stdout, r.jsonOut, rep, nil)
		return 0
	}
	rc, err := r.runConfig(stderr, tty)
	if err != nil {
		fmt.Fprintf(stderr, "daawid %s: %v\n", name, err)
		return 2
	}
	if r.schedule {
		return r.runSchedule(ctx, rc, stderr)
	}
	rr, err := pipeline.Run(ctx, rc, "once")
	finish()
	if err != nil {
		fmt.Fprintf(stderr, "daawid %s: %v\n", name, err)
		return 1
	}
	progress.PrintRun(stdout, r.jsonOut, rr.Compile, rr.Publish)
	return 0
}

// parseCompile reads the flags of daawid compile (and, when publish is
// set, of pipeline run and schedule) into a run; without one, the exit
// code of the usage error.
func parseCompile(name string, args []string, publish bool, stderr io.Writer) (*compileRun, int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	state := fs.String("state", "", "state directory (holds state.duckdb)")
	var out, siteURL, static *string
	var exports, deltaFlag *bool
	var keep *int
	var cronSpec, tz, metricsAddr *string
	schedule := name == "pipeline schedule"
	if schedule {
		cronSpec = fs.String("cron", "0 3 * * *", "the nightly run's cron spec")
		tz = fs.String("tz", "Europe/Berlin", "the time zone of the cron spec")
		metricsAddr = fs.String("metrics-addr", "", "address of the Prometheus metrics listener (/metrics): last success, step durations, rows, publication age, feed sequence; a private address, never a public one; empty: none")
	}
	logLevel := fs.String("log-level", "info", "level of the JSON log lines: debug, info, warn or error")
	if publish {
		keep = fs.Int("keep", 0, "keep the newest N publications (0: all); the current one is always kept")
		exports = fs.Bool("exports", false, "write the full Parquet bulk exports (the nightly publication)")
		deltaFlag = fs.Bool("delta", false, "publish only what changed, over the current publication (the every-minute publication)")
		out = fs.String("out", "", "publications directory (holds publications/ and the current link)")
		siteURL = fs.String("site-url", render.DefaultBaseURL, "base URL of the registry; API and MCP hosts are derived from it")
		static = fs.String("static", "", "also write the publication as a plain file tree here")
	}
	var registers, verification multiFlag
	fs.Var(&registers, "register", "register file, recognised by its content (Companies House BasicCompanyData CSV, OffeneRegister JSON lines, INSEE SIRENE StockEtablissement CSV), or KIND:FILE to name its register (companies-house, offeneregister, sirene); repeat for several")
	websites := fs.String("websites", "", "websites to crawl: a folder of a saved-site archive (*.txtar, served on loopback), or the http(s) URL of a list of sites (one host or URL per line) crawled live")
	inbox := fs.String("owner-inbox", "", "folder of owner revisions (*.json)")
	fs.Var(&verification, "verification", "JSON-lines file of verification events; repeat for several")
	seed := fs.String("seed", "", "identity map to start from (JSON)")
	nowFlag := fs.String("now", "", "the run's instant, RFC 3339 (default: now)")
	jsonOut := fs.Bool("json", false, "print the run report as JSON")
	maxBad := fs.Int("max-bad-rows", pipeline.DefaultMaxBadRows, "fail the run, committing nothing, when more rows than this are bad (0: none may be; -1: no limit)")
	memLimit := fs.Int64("memory-limit-mb", 0, "the run's Go heap budget in MiB (default 2816, 4608 by key ranges; DuckDB keeps to 1536 besides)")
	rangeEntries := fs.Int("range-entries", pipeline.DefaultRangeEntries, "identities the compile holds at once; a bigger registry is compiled by key ranges of about this many (about 1.5 KB of memory each)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for operators tuning a run)")
	fs.Usage = func() {
		if publish {
			fmt.Fprintln(stderr, "usage: daawid pipeline run --state DIR --out DIR [--site-url URL] [--static DIR] [--register [KIND:]FILE]... [--websites DIR|URL] [--owner-inbox DIR] [--verification FILE]... [--now RFC3339]")
		} else {
			fmt.Fprintln(stderr, "usage: daawid compile --state DIR [--register [KIND:]FILE]... [--websites DIR|URL] [--owner-inbox DIR] [--verification FILE]... [--now RFC3339]")
		}
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	if *state == "" || fs.NArg() > 0 || (publish && *out == "") {
		fs.Usage()
		return nil, 2
	}
	now, err := parseNow(*nowFlag)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", "daawid "+name, err)
		return nil, 2
	}
	level, err := parseLevel(*logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "daawid %s: %v\n", name, err)
		return nil, 2
	}
	cfg := pipeline.CompileConfig{StateDir: *state, Registers: registers, OwnerInbox: *inbox, Verification: verification, Seed: *seed, Now: now,
		MemoryLimit: *memLimit << 20, MaxBadRows: maxBad, RangeEntries: *rangeEntries}
	r := &compileRun{name: name, schedule: schedule, cfg: cfg, websites: *websites, jsonOut: *jsonOut, cpuProfile: *cpuProfile, logLevel: level}
	if publish {
		r.out, r.siteURL, r.static, r.exports, r.delta, r.keep = *out, *siteURL, *static, *exports, *deltaFlag, *keep
	}
	if schedule {
		r.cronSpec, r.tz, r.metricsAddr = *cronSpec, *tz, *metricsAddr
	}
	return r, 0
}

// logAndProgress sets the run's log and progress: a bar on a terminal,
// where log lines would break it, and JSON log lines otherwise. The
// function it returns finishes the bar.
func (r *compileRun) logAndProgress(stderr io.Writer, tty bool) (finish func()) {
	if !tty {
		r.cfg.Log = slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: r.logLevel}))
		r.cfg.Progress = func(n int64) { r.cfg.Log.Info("progress", "rows", n) }
		return func() {}
	}
	bar := progress.NewBar(stderr, -1, "compiling rows", "rows")
	var last int64
	r.cfg.Progress = func(n int64) { bar.Add64(n - last); last = n }
	r.cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	done := false
	return func() {
		if !done {
			done = true
			bar.Finish()
		}
	}
}

// openSites opens the websites to crawl, --websites: the http(s) URL of a
// list crawled live, or a saved-site archive served on loopback until
// the function it returns is called.
func (r *compileRun) openSites(ctx context.Context) (func(), error) {
	switch {
	case strings.HasPrefix(r.websites, "http://") || strings.HasPrefix(r.websites, "https://"):
		list, err := pipeline.OpenSiteList(ctx, r.websites, site.Options{})
		if err != nil {
			return nil, err
		}
		r.cfg.Sites = list
	case r.websites != "":
		arch, err := pipeline.OpenArchive(r.websites, 15*time.Second)
		if err != nil {
			return nil, err
		}
		r.cfg.Sites = arch
		return func() { arch.Close() }, nil
	}
	return func() {}, nil
}

// startCPUProfile starts a CPU profile of the run into path (none for
// ""); the function it returns ends it and closes the file.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// runConfig is the configuration of pipeline run: the compile, then the
// publication for the --site-url site.
func (r *compileRun) runConfig(stderr io.Writer, tty bool) (pipeline.RunConfig, error) {
	site, err := render.NewSite(r.siteURL, taxonomy.Default())
	if err != nil {
		return pipeline.RunConfig{}, err
	}
	rc := pipeline.RunConfig{Compile: r.cfg, Keep: r.keep,
		Publish: pipeline.PublishConfig{StateDir: r.cfg.StateDir, OutDir: r.out, Site: site, Log: r.cfg.Log, Static: r.static, Exports: r.exports, Delta: r.delta, ServeIndexes: query.ServeIndexer(nil)}}
	rc.Publish.Progress = progress.Publish(stderr, tty, r.cfg.Log)
	return rc, nil
}
