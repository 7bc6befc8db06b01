package publication

import (
	"fmt"
	"os"
	"sync/atomic"
)

// Mapped is a publication file memory-mapped read-only (D115): the
// server's indexes are used where they lie, so they cost page cache the
// kernel can drop, not heap the garbage collector scans, and a new
// publication is ready as soon as its files are mapped.
//
// A Mapped is shared by every snapshot that serves its publication's full
// layer: each takes a reference (Acquire) and gives it back (Release); the
// last release unmaps it. Nothing may read Bytes after that.
type Mapped struct {
	data []byte
	refs atomic.Int64
	done func() error
}

// MapFile maps a whole file read-only, with one reference held.
func MapFile(path string) (*Mapped, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	if int64(int(fi.Size())) != fi.Size() {
		return nil, fmt.Errorf("%s: %d bytes is more than this machine maps", path, fi.Size())
	}
	data, done, err := mapFile(f, int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	m := &Mapped{data: data, done: done}
	m.refs.Store(1)
	return m, nil
}

// Bytes is the file's content, valid until the last Release.
func (m *Mapped) Bytes() []byte { return m.data }

// Refs is how many references are held (0: unmapped).
func (m *Mapped) Refs() int64 { return m.refs.Load() }

// Acquire takes another reference.
func (m *Mapped) Acquire() { m.refs.Add(1) }

// Release gives a reference back; the last one unmaps the file.
func (m *Mapped) Release() error {
	if n := m.refs.Add(-1); n > 0 {
		return nil
	} else if n < 0 {
		panic("publication: Mapped released more often than acquired")
	}
	m.data = nil
	return m.done()
}
