// Package bench holds the whole-system benchmarks of docs/performance.md,
// run as "daawid bench SUBCOMMAND": compile, publish, serve and search,
// each printing its table (STYLE rule 19), and two steps those run in a
// process of their own (floor, the net/http floor target of bench serve;
// export-compare, the Parquet comparison of bench publish).
//
// It is a package of its own so that harness code stays out of the
// command's main package and out of the pipeline's production code, and
// it stays inside the daawid binary because every benchmark measures the
// real thing: it generates data with "daawid fixtures generate" and runs
// "daawid compile", "daawid publish" and "daawid serve" as child
// processes of the same binary (os.Executable), so that each step's wall
// time and peak RSS are its own and are those of the shipped commands.
//
// Nothing here is imported by the pipeline or the server; only
// cmd/daawid imports it, for its Main.
package bench
