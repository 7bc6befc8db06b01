package publication

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"

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

// openScan opens a Parquet file for a scan (no page index, no Bloom
// filters); a file that opens but is not Parquet is named in the error
// and closed.
func openScan(path string) (*os.File, *parquet.File, error) {
	f, pf, err := OpenParquet(path, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if f == nil {
		return nil, nil, err
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, pf, nil
}

// ScanParquet reads a Parquet file of rows of T in batches of 1 024, in
// order: fn gets each batch, in a buffer that is reused, and stops the
// scan by returning an error. The state's and the snapshot's Parquet files
// are read this way.
func ScanParquet[T any](path string, fn func([]T) error) error {
	return ScanParquetGroups(path, nil, fn)
}

// ScanParquetAhead is ScanParquet with the file's row groups decoded by
// goroutines of their own, one a core, ahead of fn, so that decoding and
// what fn does with the rows take every core instead of one after the
// other (D133: a tenth of a publication was the server indexes' read of
// the document index, decoding and adding in turn; D134: one decoder
// could not keep up with fn, decoding taking 2.7 times fn's work). fn
// gets the rows in order, in batches of at most 1,024, each group's rows
// fn's until it has taken the group's last batch: a group's buffer is
// decoded into again only after that. At most one group a decoder and
// one for fn are held (a document index's groups are 65,536 rows, about
// 30 MB decoded). The strings of a row are its own, not views of the
// reader's pages (parquet-go assigns a string field a copy of the
// value's bytes), so the rows can be handed from one goroutine to
// another.
func ScanParquetAhead[T any](path string, fn func([]T) error) error {
	f, pf, err := openScan(path)
	if err != nil {
		return err
	}
	defer f.Close()
	groups := pf.RowGroups()
	workers := min(max(1, runtime.GOMAXPROCS(0)), len(groups))
	if workers == 0 {
		return nil
	}
	// A part is one row group: its buffer is taken in group order, before
	// the group is handed to a decoder, so that fn's next group always has
	// one (a decoder never waits for a buffer a later group holds).
	type part struct {
		group int
		rows  []T
		err   error
		done  chan struct{}
	}
	free := make(chan []T, workers+1)
	for range workers + 1 {
		free <- nil
	}
	jobs, order := make(chan *part, workers), make(chan *part, workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for p := range jobs {
				p.rows, p.err = readGroup(groups[p.group], p.rows)
				if p.err != nil {
					p.err = fmt.Errorf("%s: row group %d: %w", path, p.group, p.err)
				}
				close(p.done)
			}
		})
	}
	wg.Go(func() {
		defer close(jobs)
		defer close(order)
		for g := range groups {
			p := &part{group: g, done: make(chan struct{})}
			select {
			case p.rows = <-free:
			case <-stop:
				return
			}
			select {
			case order <- p:
			case <-stop:
				return
			}
			jobs <- p
		}
	})
	// The decoders stop, and are waited for, before the file is closed.
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for p := range order {
		<-p.done
		if p.err != nil {
			return p.err
		}
		for i := 0; i < len(p.rows); i += 1024 {
			if err := fn(p.rows[i:min(i+1024, len(p.rows))]); err != nil {
				return err
			}
		}
		free <- p.rows[:0]
	}
	return nil
}

// readGroup decodes a row group's rows into buf (grown as needed).
func readGroup[T any](g parquet.RowGroup, buf []T) ([]T, error) {
	n := int(g.NumRows())
	if cap(buf) < n {
		buf = make([]T, n)
	}
	buf = buf[:n]
	rd := parquet.NewGenericRowGroupReader[T](g)
	defer rd.Close()
	at := 0
	for at < n {
		// In batches of 1,024: the reader's own row buffers grow to the
		// size asked for (a whole group asked at once is 3.5 times slower).
		k, err := rd.Read(buf[at:min(at+1024, n)])
		at += k
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if k == 0 {
			return nil, io.ErrNoProgress
		}
	}
	return buf[:at], nil
}

// ScanParquetGroups is ScanParquet over the row groups keep keeps (nil:
// all), told the file's metadata and the group's number: a reader that
// knows how a file is sorted skips the groups its column statistics rule
// out, unread.
func ScanParquetGroups[T any](path string, keep func(pf *parquet.File, group int) bool, fn func([]T) error) error {
	f, pf, err := openScan(path)
	if err != nil {
		return err
	}
	defer f.Close()
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
