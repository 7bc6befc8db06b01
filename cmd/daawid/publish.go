package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/daawid/registry/cmd/daawid/progress"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// runPublish is "daawid publish": one publication of the state's current
// entries (full, or --delta over the current publication).
func runPublish(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	state := fs.String("state", "", "state directory")
	out := fs.String("out", "", "publications directory")
	siteURL := fs.String("site-url", render.DefaultBaseURL, "base URL of the registry")
	nowFlag := fs.String("now", "", "the publication's instant, RFC 3339 (default: now)")
	exports := fs.Bool("exports", false, "write the full Parquet bulk exports")
	delta := fs.Bool("delta", false, "publish only what changed, over the current publication")
	static := fs.String("static", "", "also write the publication as a plain file tree here")
	jsonOut := fs.Bool("json", false, "print the report as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the publication to this file")
	if err := fs.Parse(args); err != nil || *state == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: daawid publish --state DIR --out DIR [--site-url URL] [--now RFC3339] [--exports] [--delta] [--static DIR] [--json]")
		return 2
	}
	now, err := parseNow(*nowFlag)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", "daawid publish", err)
		return 2
	}
	site, err := render.NewSite(*siteURL, taxonomy.Default())
	if err != nil {
		fmt.Fprintf(stderr, "daawid publish: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lock, err := pipeline.TryLock(*state)
	if err != nil {
		fmt.Fprintf(stderr, "daawid publish: %v\n", err)
		return 1
	}
	defer lock.Unlock()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "daawid publish: %v\n", err)
			return 1
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	rep, err := pipeline.Publish(ctx, pipeline.PublishConfig{StateDir: *state, OutDir: *out, Site: site, Now: now, Log: log,
		Exports: *exports, Delta: *delta, Static: *static, ServeIndexes: query.ServeIndexer(nil), Progress: progress.Publish(stderr, progress.IsTerminal(stderr), log)})
	if err != nil {
		fmt.Fprintf(stderr, "daawid publish: %v\n", err)
		return 1
	}
	if *jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "publication %s (run %s): %d entries, %d documents, %d rendered, %d kept from earlier packs, %d bytes new, %.2f s\n",
		rep.ID, rep.Run, rep.Entries, rep.Documents, rep.Rendered, rep.Reused, rep.Bytes, rep.Seconds)
	return 0
}

// parseNow reads a --now flag (RFC 3339); empty is the current time.
func parseNow(v string) (time.Time, error) {
	if v == "" {
		return time.Now().UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: %w", v, err)
	}
	return t, nil
}
