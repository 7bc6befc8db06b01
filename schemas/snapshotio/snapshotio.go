// Package snapshotio reads the snapshot format's files (schemas.Manifest,
// the Parquet document indexes). Both sides use it: the pipeline to carry
// a publication forward, the server to open one. It is the one piece of
// I/O that belongs to the format itself (decision D65).
package snapshotio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
)

// ReadManifest reads a publication's manifest.json.
func ReadManifest(dir string) (*schemas.Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m schemas.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: manifest.json: %w", dir, err)
	}
	return &m, nil
}

// ReadDocIndex reads one document index file.
func ReadDocIndex(path string) ([]schemas.DocRow, error) {
	var out []schemas.DocRow
	err := ScanDocIndex(path, func(rows []schemas.DocRow) error {
		out = append(out, rows...)
		return nil
	})
	return out, err
}

// ScanDocIndex reads a document index in batches, in order, without
// holding it whole: fn gets each batch and must copy what it keeps (the
// server keeps a compact form of a million entries' rows).
func ScanDocIndex(path string, fn func([]schemas.DocRow) error) error {
	return ScanParquet(path, fn)
}

// ScanParquet reads a Parquet file of rows of T in batches of 1 024, in
// order: fn gets each batch, in a buffer that is reused, and stops the
// scan by returning an error. The state's and the snapshot's Parquet files
// are read this way.
func ScanParquet[T any](path string, fn func([]T) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rd := parquet.NewGenericReader[T](pf)
	defer rd.Close()
	buf := make([]T, 1024)
	for {
		n, err := rd.Read(buf)
		if n > 0 {
			if ferr := fn(buf[:n]); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

// ReadDocs reads a publication's documents through its index chain
// (schemas.ResolveDocs).
func ReadDocs(dir string, m *schemas.Manifest) ([]schemas.DocRow, error) {
	var chain [][]schemas.DocRow
	for _, idx := range m.Index {
		docs, err := ReadDocIndex(filepath.Join(dir, filepath.FromSlash(idx)))
		if err != nil {
			return nil, err
		}
		chain = append(chain, docs)
	}
	return schemas.ResolveDocs(chain), nil
}
