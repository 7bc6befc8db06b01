package bench

import (
	"fmt"
	"io"
)

// subcommands are the benchmarks and the helpers they run in a process of
// their own (floor, export-compare), each returning the exit code.
var subcommands = []struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) int
}{
	{"compile", benchCompile},
	{"publish", benchPublish},
	{"serve", benchServe},
	{"floor", benchFloor}, // a target of bench serve
	{"search", benchSearch},
	{"scale", benchScale},
	{"codecs", benchCodecs},
	{"export-compare", exportCompare}, // a step of bench publish
}

// Main runs "daawid bench SUBCOMMAND [flags]" and returns the process's
// exit code: 0 when the benchmark ran (a missed target prints FAIL in its
// table, still 0), 1 on an operational error, 2 on a usage error.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		for _, c := range subcommands {
			if c.name == args[0] {
				return c.run(args[1:], stdout, stderr)
			}
		}
	}
	fmt.Fprintln(stderr, "usage: daawid bench compile|publish|serve|search|scale --entries N [--seed S] [--dir DIR]; daawid bench codecs --publication DIR")
	return 2
}
