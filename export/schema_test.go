package export_test

import (
	"flag"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/daawid/registry/export"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.txt (only for additive changes)")

// The exports' schema is a contract: a column may be added, never removed
// or changed in type (the contract's change rule). testdata/schema.txt is
// the published schema; -update rewrites it, and this test refuses an
// update that drops or retypes a column of the committed file.
func TestExportSchema_AdditiveOnly(t *testing.T) {
	var lines []string
	schemas := export.Schemas()
	tables := make([]string, 0, len(schemas))
	for name := range schemas {
		tables = append(tables, name)
	}
	sort.Strings(tables)
	for _, name := range tables {
		for _, c := range export.Columns(schemas[name]) {
			lines = append(lines, name+"."+c)
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	want, err := os.ReadFile("testdata/schema.txt")
	if err != nil && !*update {
		t.Fatal(err)
	}
	have := map[string]string{}
	for _, l := range lines {
		col, typ, _ := strings.Cut(l, " ")
		have[col] = typ
	}
	for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if l == "" {
			continue
		}
		col, typ, _ := strings.Cut(l, " ")
		if cur, ok := have[col]; !ok {
			t.Errorf("column %s was removed (published as %s)", col, typ)
		} else if cur != typ {
			t.Errorf("column %s changed type: published %s, now %s", col, typ, cur)
		}
	}
	if *update {
		if err := os.WriteFile("testdata/schema.txt", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != string(want) {
		t.Errorf("new columns: run go test ./export -run Schema -update and document them in docs/exports.md")
	}
	doc, err := os.ReadFile("../docs/exports.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		col, typ, _ := strings.Cut(l, " ")
		table, name, _ := strings.Cut(col, ".")
		if !strings.Contains(string(doc), "| "+table+" | `"+name+"` | "+typ+" |") {
			t.Errorf("docs/exports.md does not document %s.%s (%s)", table, name, typ)
		}
	}
}
