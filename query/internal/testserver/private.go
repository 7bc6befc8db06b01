package testserver

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Leak is a private value found in a file (issue 15).
type Leak struct{ File, Value string }

// FindPrivateValues walks every file under root and reports each private
// value one holds (issue 15: a publication holds only public data). Packs,
// JSON, markdown, HTML and every other plain file are searched as raw
// bytes; Parquet files (exports, document indexes) through parquet-go,
// value by value, since their pages may be compressed; DuckDB files
// through DuckDB, every column of every table cast to text. It also
// returns how many files it read, so a walk that read nothing fails its
// test. Files are visited in lexical order.
func FindPrivateValues(root string, values []string) ([]Leak, int, error) {
	var leaks []Leak
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		// A symlink (a publication's "current") is walked where it points.
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		files++
		var texts [][]byte
		switch {
		case strings.HasSuffix(path, ".parquet"):
			texts, err = parquetTexts(path)
		case strings.HasSuffix(path, ".duckdb"):
			texts, err = duckdbTexts(path)
		case strings.HasSuffix(path, ".duckdb.wal"):
			texts = nil // a DuckDB write-ahead log is empty once the database is closed
			if st, serr := os.Stat(path); serr == nil && st.Size() > 0 {
				err = fmt.Errorf("%s: a write-ahead log is left", path)
			}
		default:
			var b []byte
			b, err = os.ReadFile(path)
			texts = [][]byte{b}
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, v := range values {
			for _, t := range texts {
				if bytes.Contains(t, []byte(v)) {
					leaks = append(leaks, Leak{File: rel, Value: v})
					break
				}
			}
		}
		return nil
	})
	return leaks, files, err
}

// parquetTexts are the values of every column of a Parquet file, as text.
func parquetTexts(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out [][]byte
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		buf := make([]parquet.Row, 256)
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				for _, v := range row {
					if !v.IsNull() {
						out = append(out, []byte(v.String()))
					}
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		rows.Close()
	}
	return out, nil
}

// duckdbTexts are the values of every column of every table of a DuckDB
// file, as text.
func duckdbTexts(path string) ([][]byte, error) {
	db, err := sql.Open("duckdb", path+"?access_mode=read_only")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT schema_name, table_name FROM duckdb_tables()`)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var tables []string
	for rows.Next() {
		var schema, table string
		if err := rows.Scan(&schema, &table); err != nil {
			rows.Close()
			return nil, err
		}
		tables = append(tables, fmt.Sprintf("%q.%q", schema, table))
	}
	rows.Close()
	sort.Strings(tables)
	var out [][]byte
	for _, t := range tables {
		// The whole row as text: nested lists and structs included.
		rs, err := db.Query(`SELECT CAST(x AS VARCHAR) FROM ` + t + ` AS x`)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", path, t, err)
		}
		for rs.Next() {
			var s sql.NullString
			if err := rs.Scan(&s); err != nil {
				rs.Close()
				return nil, err
			}
			out = append(out, []byte(s.String))
		}
		rs.Close()
	}
	return out, nil
}
