// Command daawid is the Daawid registry engine: one binary for the
// pipeline, which writes publications, and the server, which reads them.
//
// Usage:
//
//	daawid COMMAND [flags]
//
// The commands:
//
//	demo      the main job on the embedded default: compile the bundled samples
//	          and websites, publish, schedule and serve on localhost:8080
//	serve     serve the current publication: pages, documents, the REST mirror,
//	          the MCP tools, discovery files, exports, the action runs
//	render    write one projection of an entry to stdout
//	validate  check entries and print every mistake with its path
//	compile   compile entries from registers, websites, owner revisions and
//	          events into the state
//	fixtures  fixtures generate: write synthetic register files, owner
//	          revisions, events and websites; fixtures train-dicts: train
//	          the dictionaries of the documents stored with one
//	publish   publish the state's current entries (full, or --delta over the
//	          current publication)
//	pipeline  pipeline run: one compile and one publication now; pipeline
//	          schedule: the nightly run, the delta every minute and retention
//	mcp       mcp tools|call: an MCP client for trying the MCP server
//	keys      keys create|revoke|list: buyer keys for the bulk exports and the
//	          change feed
//	bench     bench compile|publish|serve|search: the benchmarks of
//	          docs/performance.md, each printing a table
//
// "daawid COMMAND -h" prints a command's flags. A command exits 0 when it
// did its work, 1 when the work failed and 2 on a usage error.
//
// This package keeps to what a command is (STYLE rule 6): it parses
// flags, builds each part's configuration struct, wires the parts and
// prints what they report. What runs is elsewhere: the pipeline in
// pipeline/, the serving side in query/, the serving process's wiring in
// cmd/daawid/server, the demo's in cmd/daawid/demo and the benchmark
// harnesses in cmd/daawid/bench.
package main
