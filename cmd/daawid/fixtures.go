package main

import (
	"fmt"
	"io"

	"github.com/daawid/registry/fixtures/synth"
)

func runFixtures(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "generate" {
		fmt.Fprintln(stderr, "usage: daawid fixtures generate --entries N --seed S --out DIR [--run-now RFC3339] [--claimed-share F] [--sites N]")
		return 2
	}
	return synth.Main(args[1:], stdout, stderr)
}
