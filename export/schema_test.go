package export_test

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/daawid/registry/export"
)

var update = flag.Bool("update", false, "rewrite testdata/schema.txt (additive changes, or a new SchemaVersion)")

// The exports' schema is a contract: within one schema version a column may
// be added, never removed or changed in type (the contract's change rule).
// testdata/schema.txt is the published schema, headed by its version;
// -update rewrites it, and this test refuses an update that drops or
// retypes a column unless export.SchemaVersion is above the committed
// file's version (a deliberate break, documented in docs/exports.md).
func TestExportSchema_AdditiveOnly(t *testing.T) {
	header := fmt.Sprintf("# schema_version %d", export.SchemaVersion)
	lines := schemaLines(t)
	got := header + "\n" + strings.Join(lines, "\n") + "\n"
	want, err := os.ReadFile("testdata/schema.txt")
	if err != nil && !*update {
		t.Fatal(err)
	}
	committed := 1 // version 1's file had no header
	var published []string
	for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if v, ok := strings.CutPrefix(l, "# schema_version "); ok {
			fmt.Sscan(v, &committed)
		} else if l != "" {
			published = append(published, l)
		}
	}
	if committed > export.SchemaVersion {
		t.Fatalf("testdata/schema.txt is version %d, the code says %d", committed, export.SchemaVersion)
	}
	if committed == export.SchemaVersion {
		have := map[string]string{}
		for _, l := range lines {
			col, typ, _ := strings.Cut(l, " ")
			have[col] = typ
		}
		for _, l := range published {
			col, typ, _ := strings.Cut(l, " ")
			if cur, ok := have[col]; !ok {
				t.Errorf("column %s was removed (published as %s)", col, typ)
			} else if cur != typ {
				t.Errorf("column %s changed type: published %s, now %s", col, typ, cur)
			}
		}
	}
	if *update {
		if err := os.WriteFile("testdata/schema.txt", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != string(want) {
		t.Errorf("the schema changed: run go test ./export -run Schema -update and document it in docs/exports.md")
	}
}

// TestExportSchema_DocumentedColumnByColumn: docs/exports.md has one table
// row per column with the type and the very description the files carry
// in their daawid:columns metadata, so the two cannot drift.
func TestExportSchema_DocumentedColumnByColumn(t *testing.T) {
	doc, err := os.ReadFile("../docs/exports.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), fmt.Sprintf("`schema_version: %d`", export.SchemaVersion)) {
		t.Errorf("docs/exports.md does not name schema_version %d", export.SchemaVersion)
	}
	for _, table := range export.Tables {
		cols, err := export.TableColumns(table)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			if c.Description == "" {
				t.Errorf("%s.%s has no description (doc tag)", table, c.Name)
			}
			row := "| " + table + " | `" + c.Name + "` | " + c.Type + " | " + c.Description + " |"
			if !strings.Contains(string(doc), row+"\n") {
				t.Errorf("docs/exports.md lacks the row\n%s", row)
			}
		}
	}
}

func schemaLines(t *testing.T) []string {
	t.Helper()
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
	return lines
}
