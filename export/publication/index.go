package publication

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// ReadDocIndex reads one document index file.
func ReadDocIndex(path string) ([]DocRow, error) {
	var out []DocRow
	err := ScanDocIndex(path, func(rows []DocRow) error {
		out = append(out, rows...)
		return nil
	})
	return out, err
}

// ScanDocIndex reads a document index in batches, in order, without
// holding it whole: fn gets each batch and must copy what it keeps (the
// server keeps a compact form of a million entries' rows). The next
// batches are decoded while fn works on one (ScanParquetAhead).
func ScanDocIndex(path string, fn func([]DocRow) error) error {
	return ScanParquetAhead(path, fn)
}

// OpenParquet opens the Parquet file at path and reads its metadata with
// opts. The file is nil when it could not be opened or stated (err is
// then that error); otherwise the caller closes it, and err is the
// metadata's error, if any, for the caller to name.
func OpenParquet(path string, opts ...parquet.FileOption) (*os.File, *parquet.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), opts...)
	return f, pf, err
}

// ScanParquet reads a Parquet file of rows of T in batches of 1 024, in
// order: fn gets each batch, in a buffer that is reused, and stops the
// scan by returning an error. The state's and the snapshot's Parquet files
// are read this way.
func ScanParquet[T any](path string, fn func([]T) error) error {
	return ScanParquetGroups(path, nil, fn)
}

// aheadBatches is how many batches ScanParquetAhead decodes before fn
// has taken them: one in fn, the others being or waiting to be read.
const aheadBatches = 3

// ScanParquetAhead is ScanParquet with the file decoded in a goroutine of
// its own, up to aheadBatches-1 batches ahead of fn, so that decoding and
// what fn does with the rows take two cores instead of one after the
// other (D133: a tenth of a publication was the server indexes' read of
// the document index, decoding and adding in turn). A batch's rows are
// fn's until it returns: the reader decodes into another buffer
// meanwhile. The strings of a row are its own, not views of the reader's
// pages (parquet-go assigns a string field a copy of the value's bytes),
// so the rows can be handed from one goroutine to another.
func ScanParquetAhead[T any](path string, fn func([]T) error) error {
	f, pf, err := OpenParquet(path, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if f == nil {
		return err
	}
	defer f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	type batch struct {
		rows []T
		err  error
	}
	free, full := make(chan []T, aheadBatches), make(chan batch, aheadBatches)
	for range aheadBatches {
		free <- make([]T, 1024)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer close(full)
		rd := parquet.NewGenericReader[T](pf)
		defer rd.Close()
		// send gives fn a batch, unless fn has stopped the scan.
		send := func(b batch) bool {
			select {
			case full <- b:
				return true
			case <-stop:
				return false
			}
		}
		for {
			var buf []T
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			n, err := rd.Read(buf)
			if n > 0 && !send(batch{rows: buf[:n]}) {
				return
			}
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				send(batch{err: fmt.Errorf("%s: %w", path, err)})
				return
			}
			if n == 0 {
				free <- buf
			}
		}
	}()
	// The reader stops, and is waited for, before the file is closed.
	defer func() {
		close(stop)
		<-done
	}()
	for b := range full {
		if b.err != nil {
			return b.err
		}
		if err := fn(b.rows); err != nil {
			return err
		}
		free <- b.rows[:cap(b.rows)]
	}
	return nil
}

// ScanParquetGroups is ScanParquet over the row groups keep keeps (nil:
// all), told the file's metadata and the group's number: a reader that
// knows how a file is sorted skips the groups its column statistics rule
// out, unread.
func ScanParquetGroups[T any](path string, keep func(pf *parquet.File, group int) bool, fn func([]T) error) error {
	f, pf, err := OpenParquet(path, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if f == nil {
		return err
	}
	defer f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	buf := make([]T, 1024)
	read := func(rd *parquet.GenericReader[T]) error {
		defer rd.Close()
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
	if keep == nil {
		return read(parquet.NewGenericReader[T](pf))
	}
	for i, rg := range pf.RowGroups() {
		if !keep(pf, i) {
			continue
		}
		if err := read(parquet.NewGenericRowGroupReader[T](rg)); err != nil {
			return err
		}
	}
	return nil
}

// ReadDocs reads a publication's documents through its index chain
// (ResolveDocs).
func ReadDocs(dir string, m *Manifest) ([]DocRow, error) {
	var chain [][]DocRow
	for _, idx := range m.Index {
		docs, err := ReadDocIndex(filepath.Join(dir, filepath.FromSlash(idx)))
		if err != nil {
			return nil, err
		}
		chain = append(chain, docs)
	}
	return ResolveDocs(chain), nil
}

// WriteDocIndex writes a document index atomically: ZSTD-compressed
// Parquet, in row groups of 64 Ki rows, DocRow by DocRow in the order
// given (an entry's documents together, in the order written).
func WriteDocIndex(path string, docs []DocRow) error {
	w, err := NewDocIndexWriter(path)
	if err != nil {
		return err
	}
	if err := w.Write(docs...); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// DocIndexWriter writes a document index as its rows come (issue 18: a
// publication streams its documents' rows instead of holding them all),
// into a temporary file that Commit renames into place. It buffers one
// batch of rows and the Parquet writer one row group; nothing else grows
// with the index.
type DocIndexWriter struct {
	path string
	af   *AtomicFile
	w    *parquet.GenericWriter[DocRow]
	buf  []DocRow
}

// docIndexBatch is how many rows the writer buffers before it hands them
// to the Parquet writer.
const docIndexBatch = 4096

// NewDocIndexWriter starts a document index at path.
func NewDocIndexWriter(path string) (*DocIndexWriter, error) {
	af, err := CreateAtomic(path)
	if err != nil {
		return nil, err
	}
	w := parquet.NewGenericWriter[DocRow](af.File, parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.PageBufferSize(32<<10), parquet.MaxRowsPerRowGroup(64<<10))
	return &DocIndexWriter{path: path, af: af, w: w, buf: make([]DocRow, 0, docIndexBatch)}, nil
}

// Write adds rows, in order.
func (x *DocIndexWriter) Write(rows ...DocRow) error {
	for len(rows) > 0 {
		n := min(len(rows), docIndexBatch-len(x.buf))
		x.buf = append(x.buf, rows[:n]...)
		rows = rows[n:]
		if len(x.buf) == docIndexBatch {
			if err := x.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (x *DocIndexWriter) flush() error {
	if len(x.buf) == 0 {
		return nil
	}
	if _, err := x.w.Write(x.buf); err != nil {
		return fmt.Errorf("%s: %w", x.path, err)
	}
	clear(x.buf) // drop the strings the rows point at
	x.buf = x.buf[:0]
	return nil
}

// Commit writes what is buffered, closes the file and moves it into place.
func (x *DocIndexWriter) Commit() error {
	if err := x.flush(); err != nil {
		x.Abort()
		return err
	}
	if err := x.w.Close(); err != nil {
		x.Abort()
		return fmt.Errorf("%s: %w", x.path, err)
	}
	return x.af.Commit()
}

// Abort removes the unfinished file; it may be called after Commit, which
// it leaves alone.
func (x *DocIndexWriter) Abort() { x.af.Abort() }

// ReadPublicationDocs reads the documents of the publication in dir
// through its manifest's index chain (ResolveDocs).
func ReadPublicationDocs(dir string) ([]DocRow, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	return ReadDocs(dir, m)
}
