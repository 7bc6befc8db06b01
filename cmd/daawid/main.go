package main

import (
	"fmt"
	"io"
	"os"
	// The time zones of the entries' hours come with the binary: the
	// search index a publication writes names its zones, and a server on
	// a machine without the zone database would refuse it (D115).
	_ "time/tzdata"

	"github.com/daawid/registry/cmd/daawid/bench"
	"github.com/daawid/registry/cmd/daawid/mcpclient"
)

// command is one subcommand: its name, a one-line summary, and its run
// function, which returns the process exit code.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) int
}

// commands are the subcommands, in the order the usage lists them.
var commands = []command{
	{"demo", "the main job on the embedded default: compile the bundled samples and websites, publish, schedule and serve on localhost:8080", runDemo},
	{"serve", "serve the current publication: pages, documents, the REST mirror, discovery files, exports", runServe},
	{"render", "write one projection of an entry to stdout", runRender},
	{"validate", "check entries and print every mistake with its path", runValidate},
	{"compile", "compile entries from registers, websites, owner revisions and events into the state", runCompile},
	{"fixtures", "fixtures generate: write synthetic register files, owner revisions, events and websites; fixtures train-dicts: train the dictionaries of the documents stored with one", runFixtures},
	{"publish", "publish the state's current entries (full, or --delta over the current publication)", runPublish},
	{"pipeline", "pipeline run: one compile and one publication now", runPipeline},
	{"mcp", "mcp tools|call: an MCP client (the Go SDK's) for trying the MCP server from a terminal", mcpclient.Main},
	{"keys", "keys create|revoke|list: buyer keys for the bulk exports and the change feed", runKeys},
	{"version", "the build's module version and commit, the engine and the spec version", runVersion},
	{"bench", "bench compile: the compile benchmark (three runs on generated data) as a table", bench.Main},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "daawid: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: daawid COMMAND [flags]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun daawid COMMAND -h for a command's flags.")
}
