package export

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// rowTypes are the Go row types of the tables, by table name: the one place
// a table's schema and its column descriptions come from.
var rowTypes = map[string]reflect.Type{
	"entries":        reflect.TypeFor[EntryRow](),
	"offerings":      reflect.TypeFor[OfferingRow](),
	"locations":      reflect.TypeFor[LocationRow](),
	"contact_points": reflect.TypeFor[ContactRow](),
	"actions":        reflect.TypeFor[ActionRow](),
	"categories":     reflect.TypeFor[CategoryRow](),
	"changes":        reflect.TypeFor[ChangeRow](),
}

// Schemas are the Parquet schemas of the tables, by table name.
func Schemas() map[string]*parquet.Schema {
	out := map[string]*parquet.Schema{}
	for name, t := range rowTypes {
		out[name] = parquet.SchemaOf(reflect.New(t).Elem().Interface())
	}
	return out
}

// Column is one column of a table: its name, its type in DuckDB's words
// ("NULL" marks an optional column) and what it means.
type Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// TableColumns lists a table's columns in order, described: the published
// contract of the exports (docs/exports.md and testdata/schema.txt).
func TableColumns(table string) ([]Column, error) {
	t, ok := rowTypes[table]
	if !ok {
		return nil, fmt.Errorf("no export table %q", table)
	}
	docs := map[string]string{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		docs[name] = f.Tag.Get("doc")
	}
	var out []Column
	for _, f := range parquet.SchemaOf(reflect.New(t).Elem().Interface()).Fields() {
		out = append(out, Column{Name: f.Name(), Type: columnType(f), Description: docs[f.Name()]})
	}
	return out, nil
}

// columnsMetadata is the `daawid:columns` key-value metadata of a table's
// files: its columns as a JSON array of {name, type, description}. Parquet's
// schema elements have no description field (parquet-go writes none, and
// the format's SchemaElement has no doc), so the descriptions go into the
// file's key-value metadata, where DuckDB's parquet_kv_metadata() and
// pyarrow's schema.metadata show them.
func columnsMetadata(table string) string {
	cols, err := TableColumns(table)
	if err != nil {
		panic(err) // a table without a row type is a programming error
	}
	b, _ := json.Marshal(cols)
	return string(b)
}

// Columns lists a table's columns as "name type" lines, in order.
func Columns(s *parquet.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name()+" "+columnType(f))
	}
	return out
}

// columnType names a column's type as DuckDB reads it.
func columnType(n parquet.Node) string {
	name := baseType(n)
	if n.Optional() {
		return name + " NULL"
	}
	return name
}

func baseType(n parquet.Node) string {
	if !n.Leaf() {
		lt := ""
		if t := n.Type().LogicalType(); t != nil {
			lt = t.String()
		}
		switch lt {
		case "LIST":
			return "LIST<" + columnType(n.Fields()[0].Fields()[0]) + ">"
		case "MAP":
			kv := n.Fields()[0].Fields()
			return "MAP(" + columnType(kv[0]) + ", " + columnType(kv[1]) + ")"
		}
		var fields []string
		for _, f := range n.Fields() {
			fields = append(fields, f.Name()+" "+columnType(f))
		}
		return "STRUCT(" + strings.Join(fields, ", ") + ")"
	}
	t := n.Type()
	name := t.String()
	if lt := t.LogicalType(); lt != nil {
		name = lt.String()
	}
	switch {
	case name == "STRING":
		name = "VARCHAR"
	case name == "INT(32,true)" || name == "INT32":
		name = "INTEGER"
	case name == "INT(64,true)" || name == "INT64":
		name = "BIGINT"
	case name == "BYTE_ARRAY":
		name = "BLOB"
	case strings.HasPrefix(name, "TIMESTAMP(isAdjustedToUTC=true"):
		name = "TIMESTAMPTZ"
	}
	return name
}
