package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// runVersion is "daawid version": the module version and the commit it
// was built from (Go records both in the binary), the engine that names
// the renderers' output and the spec version of what it publishes, so an
// operator can tell which build made a publication.
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: daawid version")
		return 2
	}
	module, commit, when, dirty := "(devel)", "unknown", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			module = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if dirty {
		commit += " (with uncommitted changes)"
	}
	fmt.Fprintf(stdout, "daawid %s\ncommit  %s\n", module, commit)
	if when != "" {
		fmt.Fprintf(stdout, "built   %s\n", when)
	}
	fmt.Fprintf(stdout, "engine  %s\nspec    %s\n", render.EngineVersion, schemas.SchemaVersion)
	return 0
}
