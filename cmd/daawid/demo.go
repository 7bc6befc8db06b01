package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/cmd/daawid/server"
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
	metrics := flags.Bool("metrics", true, "serve the server's and the schedule's Prometheus metrics at /metrics on --addr (the demo binds no other port)")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: daawid demo [--dir DIR] [--addr HOST:PORT] [--once] [--base-url URL] [--metrics=false]")
		return 2
	}
	fail := func(err error) int { fmt.Fprintf(stderr, "daawid demo: %v\n", err); return 1 }
	site, err := server.SiteFor(*base, *addr)
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
	d, err := demo.Prepare(*dir, site, stdout)
	if err != nil {
		return fail(err)
	}
	if *once {
		return 0
	}
	log, _ := newLogger(stderr, "info")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := d.Serve(ctx, demo.ServeConfig{Addr: *addr, Metrics: *metrics, Log: log, Stdout: stdout}); err != nil {
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
