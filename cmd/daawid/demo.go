package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/websites"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// runDemo is "daawid demo": the main job on the embedded default. It
// compiles the bundled register samples and saved websites (served on
// loopback) into a local DuckDB state, merges Holzwerk Krause's owner
// revision and domain events, and publishes everything with the exports
// and a static tree. No services, no network.
func runDemo(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("demo", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "daawid-demo", "where the state, the inputs and the publications go")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: daawid demo [--dir DIR]")
		return 2
	}
	fail := func(err error) int { fmt.Fprintf(stderr, "daawid demo: %v\n", err); return 1 }
	inputs := filepath.Join(*dir, "inputs")
	if err := os.CopyFS(inputs, fixtures.Demo); err != nil && !os.IsExist(err) {
		return fail(err)
	}
	inbox := filepath.Join(*dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		return fail(err)
	}
	if b, err := fs.ReadFile(fixtures.Demo, "compile/inbox/holzwerk-krause.json"); err == nil {
		os.WriteFile(filepath.Join(inbox, "holzwerk-krause.json"), b, 0o644)
	}
	arch, err := pipeline.OpenArchiveFS(websites.FS, "embedded archive", 5*time.Second)
	if err != nil {
		return fail(err)
	}
	defer arch.Close()
	site, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		return fail(err)
	}
	state, out := filepath.Join(*dir, "state"), filepath.Join(*dir, "out")
	ctx := context.Background()
	regs := []string{filepath.Join(inputs, "registers", "offeneregister-sample.jsonl"), filepath.Join(inputs, "registers", "companies-house-sample.csv")}
	// The contract's examples are dated: the first run at §3.7's date, the
	// owner revision merged at §3.6's.
	first := pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Registers: regs, Sites: arch, Seed: filepath.Join(inputs, "compile", "identity-seed.json"),
			Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Exports: true},
	}
	r1, err := pipeline.Run(ctx, first, "demo")
	if err != nil {
		return fail(err)
	}
	second := first
	second.Compile.Sites, second.Compile.OwnerInbox = nil, inbox
	second.Compile.Verification = []string{filepath.Join(inputs, "compile", "verification.jsonl")}
	second.Compile.Now = time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)
	second.Publish.Static = filepath.Join(*dir, "static")
	r2, err := pipeline.Run(ctx, second, "demo")
	if err != nil {
		return fail(err)
	}
	pub, _ := pipeline.CurrentPublication(out)
	fmt.Fprintf(stdout, "compiled %d rows and %d websites into %s; merged %d owner revision and %d events\n",
		r1.Compile.RowsRead, r1.Compile.SitesCrawled, filepath.Join(state, pipeline.StateFile), r2.Compile.Merged, r2.Compile.Events)
	fmt.Fprintf(stdout, "published %d entries (%d documents) in %s\n", r2.Publish.Entries, r2.Publish.Documents, pub)
	fmt.Fprintf(stdout, "static tree: %s (try %s)\n", second.Publish.Static, filepath.Join(second.Publish.Static, "holzwerk-krause.md"))
	fmt.Fprintf(stdout, "exports: %s; query them with DuckDB: SELECT * FROM read_parquet('%s/entries/*/*.parquet', hive_partitioning = true)\n",
		filepath.Join(pub, "exports"), filepath.Join(pub, "exports"))
	return 0
}
