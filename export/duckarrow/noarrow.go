//go:build !duckdb_arrow

package duckarrow

import (
	"context"
	"database/sql"

	"github.com/apache/arrow-go/v18/arrow"
)

// Available tells whether this build reads through Arrow: not without
// the duckdb_arrow tag.
const Available = false

// Query returns ErrUnavailable: this build has no Arrow interface.
func Query(ctx context.Context, conn *sql.Conn, q string, fn func(arrow.RecordBatch) error, args ...any) error {
	return ErrUnavailable
}
