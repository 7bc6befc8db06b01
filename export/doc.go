// Package export writes what a publication holds for readers that query
// rather than fetch: the DuckDB snapshot (through the Appender), the
// Parquet bulk exports and their manifests with row counts and checksums.
package export
