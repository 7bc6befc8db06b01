package schemas

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the checked-in JSON Schemas under schemas/0.1/")

// TestSchemaFiles_VIEW25_Generated regenerates every published JSON Schema
// from the Go types and fails on any difference with the checked-in copy
// (VIEW-25..VIEW-28, PRIV-02). Run with -update to rewrite them on purpose.
func TestSchemaFiles_VIEW25_Generated(t *testing.T) {
	files := SchemaFiles()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join("0.1", name)
		if *update {
			if err := os.WriteFile(path, files[name], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run go test ./schemas -update)", path, err)
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("%s differs from what the Go types generate; run go test ./schemas -run SchemaFiles -update and review the diff", path)
		}
	}
	for _, want := range []string{"entry.json", "entry-view.json", "offering-view.json", "brand-kit-view.json"} {
		if _, ok := files[want]; !ok {
			t.Errorf("%s is not generated", want)
		}
	}
}
