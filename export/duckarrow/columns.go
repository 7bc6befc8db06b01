package duckarrow

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// stringColumn is an Arrow column of text, whichever of its layouts
// DuckDB chose (utf8, large utf8, or a string view).
type stringColumn interface {
	arrow.Array
	Value(i int) string
}

// TextColumn is a column of text whose values outlive their batch.
type TextColumn struct{ c stringColumn }

// Value is row i's text, copied: arrow-go's Value returns a string over
// the batch's buffer, which DuckDB reuses for the next batch once this
// one is released (a kept value then reads another row's bytes).
func (t TextColumn) Value(i int) string { return strings.Clone(t.c.Value(i)) }

// StringColumn is column i of a batch as text; the error names the
// column when it holds something else.
func StringColumn(b arrow.RecordBatch, i int) (TextColumn, error) {
	switch c := b.Column(i).(type) {
	case *array.String:
		return TextColumn{c}, nil
	case *array.LargeString:
		return TextColumn{c}, nil
	case *array.StringView:
		return TextColumn{c}, nil
	}
	return TextColumn{}, fmt.Errorf("duckarrow: column %s is %s, not text", b.ColumnName(i), b.Column(i).DataType())
}

// StringPairs runs q, whose first two columns are text without nulls
// (a slug and its entry, a host and its entry), and calls fn with each
// row's pair: the shape of the registry tables the server reads at start.
func StringPairs(ctx context.Context, conn *sql.Conn, q string, fn func(a, b string) error, args ...any) error {
	return Query(ctx, conn, q, func(b arrow.RecordBatch) error {
		first, err := StringColumn(b, 0)
		if err != nil {
			return err
		}
		second, err := StringColumn(b, 1)
		if err != nil {
			return err
		}
		for i := 0; i < int(b.NumRows()); i++ {
			if err := fn(first.Value(i), second.Value(i)); err != nil {
				return err
			}
		}
		return nil
	}, args...)
}
