package search

import (
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/daawid/registry/export/publication"
)

// A Builder that spills (NewSpillingBuilder, D116) keeps only the entry
// being added of the arrays that grow with the entries: the rest is
// written out, in order, to one unlinked temporary file per array, and
// copied into the index file when it is written. An array is a column.

// spillChunk is how many bytes of a column are held before they are
// written out.
var spillChunk = 1 << 20

// column is an array the builder appends to. In memory (f nil) it is
// mem; spilling, elements before base are in f, in order, and mem holds
// those from base on.
type column[T any] struct {
	mem  []T
	base int
	f    *os.File
	err  error
	// unlinked: f has no name left to remove.
	unlinked bool
}

// spillTo makes the column spill into a temporary file in dir.
func (c *column[T]) spillTo(dir string) error {
	f, err := os.CreateTemp(dir, ".search-*.tmp")
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	// Unlinked at once where the system allows it: a run that dies leaves
	// nothing behind (on others, close removes it).
	c.f, c.unlinked = f, os.Remove(f.Name()) == nil
	return nil
}

func (c *column[T]) len() int { return c.base + len(c.mem) }

func (c *column[T]) push(v ...T) { c.mem = append(c.mem, v...) }

// from are the elements from i on; i is at least base (the entry being
// added's).
func (c *column[T]) from(i uint32) []T { return c.mem[int(i)-c.base:] }

// span are n elements from i.
func (c *column[T]) span(i uint32, n uint8) []T {
	return c.mem[int(i)-c.base : int(i)-c.base+int(n)]
}

// maybeFlush writes the elements out when spilling and they fill a chunk.
func (c *column[T]) maybeFlush() {
	if c.f != nil && len(c.mem)*int(unsafe.Sizeof(*new(T))) >= spillChunk {
		c.flush()
	}
}

// flush writes the elements held out, when spilling.
func (c *column[T]) flush() {
	if c.f == nil || c.err != nil || len(c.mem) == 0 {
		return
	}
	if _, err := c.f.Write(publication.RecordData(c.mem)); err != nil {
		c.err = fmt.Errorf("search index: spilling: %w", err)
		return
	}
	c.base += len(c.mem)
	c.mem = c.mem[:0]
}

// readAt is n elements from i, wherever they are.
func (c *column[T]) readAt(i, n int) ([]T, error) {
	if i >= c.base {
		return c.mem[i-c.base : i-c.base+n], nil
	}
	out := make([]T, n)
	size := int64(unsafe.Sizeof(*new(T)))
	if _, err := c.f.ReadAt(publication.RecordData(out), int64(i)*size); err != nil {
		return nil, fmt.Errorf("search index: reading back: %w", err)
	}
	return out, nil
}

// bytes is the column's length in bytes.
func (c *column[T]) bytes() int64 { return int64(c.len()) * int64(unsafe.Sizeof(*new(T))) }

// copyTo writes the column's elements, those written out first.
func (c *column[T]) copyTo(w io.Writer) error {
	if c.err != nil {
		return c.err
	}
	if c.f != nil && c.base > 0 {
		if _, err := io.Copy(w, io.NewSectionReader(c.f, 0, int64(c.base)*int64(unsafe.Sizeof(*new(T))))); err != nil {
			return err
		}
	}
	if len(c.mem) == 0 {
		return nil
	}
	_, err := w.Write(publication.RecordData(c.mem))
	return err
}

func (c *column[T]) close() error {
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	if !c.unlinked {
		if rm := os.Remove(c.f.Name()); rm != nil && !errors.Is(rm, os.ErrNotExist) {
			err = errors.Join(err, rm)
		}
	}
	c.f = nil
	return err
}

// spilled is a column as the index file writes it.
type spilled interface {
	bytes() int64
	copyTo(w io.Writer) error
}
