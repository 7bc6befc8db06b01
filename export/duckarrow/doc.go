// Package duckarrow reads query results out of DuckDB through its Arrow
// interface (duckdb-go's NewArrowFromConn, arrow-go/v18 record batches),
// column by column, instead of scanning database/sql rows one by one
// (issue 16, "Arrow where it pays").
//
// duckdb-go compiles its Arrow interface only under the build tag
// duckdb_arrow. Without the tag (the plain `go build` and `go test ./...`
// of the README) Available is false and every reader returns
// ErrUnavailable, so a caller keeps its row scan; the benchmark in this
// package compares the two paths on the same rows (docs/performance.md).
package duckarrow

import "errors"

// ErrUnavailable is returned by the readers of a build without the
// duckdb_arrow tag.
var ErrUnavailable = errors.New("duckarrow: built without the duckdb_arrow tag")
