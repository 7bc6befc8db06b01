package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/daawid/registry/schemas"
)

// runValidate checks each file and prints every mistake as
// "FILE: /json/pointer: message"; it exits 1 if any file has one.
func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: daawid validate FILE...") }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	bad := 0
	for _, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			bad++
			continue
		}
		if _, issues := schemas.Validate(data); len(issues) > 0 {
			printIssues(stderr, path, issues)
			bad++
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", path)
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "%d of %d file(s) have mistakes\n", bad, fs.NArg())
		return 1
	}
	return 0
}
