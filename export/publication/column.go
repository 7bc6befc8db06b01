package publication

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unsafe"
)

// A column is an array written in order that need not stay in memory
// while it grows (D116): the server's index files are made at publish
// from arrays that grow with the entries, and a builder that spills keeps
// only the entry being added of each, the rest written out to an
// unlinked temporary file, copied into the index file at the end.

// SpillChunk is how many bytes of a spilling column are held before they
// are written out (a variable for tests).
var SpillChunk = 1 << 20

// Column is an array a builder appends to. In memory (f nil) it is
// mem; spilling, elements before base are in f, in order, and mem holds
// those from base on.
type Column[T any] struct {
	mem  []T
	base int
	f    *os.File
	err  error
	// unlinked: f has no name left to remove.
	unlinked bool
}

// SpillTo makes the column spill into a temporary file in dir.
func (c *Column[T]) SpillTo(dir string) error {
	f, unlinked, err := spillFile(dir)
	c.f, c.unlinked = f, unlinked
	return err
}

// spillFile is a new temporary file in dir for a column, unlinked at
// once where the system allows it: a run that dies leaves nothing behind
// (on others, Close removes it).
func spillFile(dir string) (f *os.File, unlinked bool, err error) {
	if f, err = os.CreateTemp(dir, ".column-*.tmp"); err != nil {
		return nil, false, fmt.Errorf("index: %w", err)
	}
	return f, os.Remove(f.Name()) == nil, nil
}

// Len is how many elements the column has.
func (c *Column[T]) Len() int { return c.base + len(c.mem) }

// Push appends elements.
func (c *Column[T]) Push(v ...T) { c.mem = append(c.mem, v...) }

// From are the elements from i on; i is at least base (the entry being
// added's).
func (c *Column[T]) From(i uint32) []T { return c.mem[int(i)-c.base:] }

// Span are n elements from i.
func (c *Column[T]) Span(i uint32, n uint8) []T {
	return c.mem[int(i)-c.base : int(i)-c.base+int(n)]
}

// MaybeFlush writes the elements out when spilling and they fill a chunk.
func (c *Column[T]) MaybeFlush() {
	if c.f != nil && len(c.mem)*int(unsafe.Sizeof(*new(T))) >= SpillChunk {
		c.Flush()
	}
}

// Flush writes the elements held out, when spilling.
func (c *Column[T]) Flush() {
	if c.f == nil || c.err != nil || len(c.mem) == 0 {
		return
	}
	if _, err := c.f.Write(RecordData(c.mem)); err != nil {
		c.err = fmt.Errorf("index: spilling: %w", err)
		return
	}
	c.base += len(c.mem)
	c.mem = c.mem[:0]
}

// ReadAt is n elements from i, wherever they are.
func (c *Column[T]) ReadAt(i, n int) ([]T, error) {
	if i >= c.base {
		return c.mem[i-c.base : i-c.base+n], nil
	}
	out := make([]T, n)
	size := int64(unsafe.Sizeof(*new(T)))
	if _, err := c.f.ReadAt(RecordData(out), int64(i)*size); err != nil {
		return nil, fmt.Errorf("index: reading back: %w", err)
	}
	return out, nil
}

// Bytes is the column's length in bytes.
func (c *Column[T]) Bytes() int64 { return int64(c.Len()) * int64(unsafe.Sizeof(*new(T))) }

// CopyTo writes the column's elements, those written out first.
func (c *Column[T]) CopyTo(w io.Writer) error {
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
	_, err := w.Write(RecordData(c.mem))
	return err
}

// Close closes a spilling column's file (and removes it where it could
// not be unlinked at once).
func (c *Column[T]) Close() error {
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

// SectionSource is a section's bytes that are not in memory as one
// slice: a spilling column's.
type SectionSource interface {
	Bytes() int64
	CopyTo(w io.Writer) error
}

// Mem are the elements in memory: all of them when the column does not
// spill.
func (c *Column[T]) Mem() []T { return c.mem }

// SetMem replaces the elements of a column that does not spill (a
// builder that knows their number makes them at once).
func (c *Column[T]) SetMem(m []T) { c.mem = m }

// Reorder puts the column's elements in a new order: the element at i
// goes to to[i] (to is a permutation of the column's positions). In
// memory it is one pass. Spilling, the new file is written a block of
// new positions at a time (block bytes of elements, at least one), each
// block filled by one pass reading the old file in order: memory stays
// at a block, and the reads are sequential, in the page cache the file
// was just written to (D125).
func (c *Column[T]) Reorder(to []int32, block int) error {
	if c.err != nil {
		return c.err
	}
	n := c.Len()
	if len(to) != n {
		return fmt.Errorf("index: reordering %d elements by %d positions", n, len(to))
	}
	if c.f == nil {
		out := make([]T, n)
		for i, v := range c.mem {
			out[to[i]] = v
		}
		c.mem = out
		return nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	per := max(1, block/max(size, 1))
	f, unlinked, err := spillFile(filepath.Dir(c.f.Name()))
	if err != nil {
		return err
	}
	fail := func(err error) error {
		f.Close()
		if !unlinked {
			os.Remove(f.Name())
		}
		return fmt.Errorf("index: reordering: %w", err)
	}
	buf := make([]T, min(per, n))
	chunk := make([]T, max(1, (1<<20)/max(size, 1)))
	w := bufio.NewWriterSize(f, 1<<20)
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		out := buf[:hi-lo]
		// One pass over the old elements: the file's, then memory's.
		for at := 0; at < c.base; at += len(chunk) {
			part := chunk[:min(len(chunk), c.base-at)]
			if _, err := c.f.ReadAt(RecordData(part), int64(at)*int64(size)); err != nil {
				return fail(err)
			}
			for i, v := range part {
				if t := int(to[at+i]); t >= lo && t < hi {
					out[t-lo] = v
				}
			}
		}
		for i, v := range c.mem {
			if t := int(to[c.base+i]); t >= lo && t < hi {
				out[t-lo] = v
			}
		}
		if _, err := w.Write(RecordData(out)); err != nil {
			return fail(err)
		}
	}
	if err := w.Flush(); err != nil {
		return fail(err)
	}
	if err := c.Close(); err != nil {
		return fail(err)
	}
	c.f, c.unlinked, c.base, c.mem = f, unlinked, n, c.mem[:0]
	return nil
}
