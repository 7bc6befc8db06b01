//go:build duckdb_arrow

package duckarrow

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/duckdb/duckdb-go/v2"
)

// Available tells whether this build reads through Arrow.
const Available = true

// Query runs q on conn through DuckDB's Arrow interface and calls fn with
// each record batch, in order; the batch is released after fn returns,
// so fn must copy what it keeps (arrow-go's string values alias the
// batch's buffer: read text through StringColumn, which copies).
func Query(ctx context.Context, conn *sql.Conn, q string, fn func(arrow.RecordBatch) error, args ...any) error {
	return conn.Raw(func(dc any) error {
		dconn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("duckarrow: %T is not a DuckDB connection", dc)
		}
		a, err := duckdb.NewArrowFromConn(dconn)
		if err != nil {
			return fmt.Errorf("duckarrow: %w", err)
		}
		rr, err := a.QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("duckarrow: %w", err)
		}
		defer rr.Release()
		for rr.Next() {
			if err := fn(rr.RecordBatch()); err != nil {
				return err
			}
		}
		return rr.Err()
	})
}
