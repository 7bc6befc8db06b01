package publication

import (
	"encoding/binary"
	"fmt"
	"io"
	"unsafe"
)

// A sections file is how the server's indexes are written at publish and
// memory-mapped at open (D115): a header, a table of named sections, and
// each section's bytes aligned to 64 from the file's start, so that an
// array of fixed-size records is used where it lies. Numbers are
// little-endian; a big-endian machine refuses the file (the records are
// read as the machine lays them out).
//
//	magic "DAAWIDIX" | kind [8]byte | version u32 | sections u32
//	sections × { name [16]byte | record size u32 | 0 u32 | offset u64 | length u64 }
//	section bytes, each at a multiple of 64
const (
	sectionsMagic = "DAAWIDIX"
	sectionAlign  = 64
	sectionEntry  = 16 + 4 + 4 + 8 + 8
)

// Section is one named array of a sections file: Data holds records of
// Size bytes each (1 for bytes).
type Section struct {
	Name string
	Size int
	Data []byte
	// Source, when set, holds the bytes instead of Data (a spilling
	// column's, D116).
	Source SectionSource
}

// len is the section's length in bytes.
func (s *Section) len() int64 {
	if s.Source != nil {
		return s.Source.Bytes()
	}
	return int64(len(s.Data))
}

// WriteSections writes a sections file of a kind and version.
func WriteSections(w io.Writer, kind string, version uint32, secs []Section) (int64, error) {
	if len(kind) > 8 {
		return 0, fmt.Errorf("sections: kind %q is longer than 8 bytes", kind)
	}
	head := make([]byte, 24+sectionEntry*len(secs))
	copy(head, sectionsMagic)
	copy(head[8:16], kind)
	binary.LittleEndian.PutUint32(head[16:], version)
	binary.LittleEndian.PutUint32(head[20:], uint32(len(secs)))
	off := alignUp(int64(len(head)))
	for i, s := range secs {
		if len(s.Name) == 0 || len(s.Name) > 16 {
			return 0, fmt.Errorf("sections: name %q is not 1 to 16 bytes", s.Name)
		}
		if s.Size < 1 || s.len()%int64(s.Size) != 0 {
			return 0, fmt.Errorf("sections: section %s: %d bytes are not records of %d", s.Name, s.len(), s.Size)
		}
		e := head[24+i*sectionEntry:]
		copy(e[:16], s.Name)
		binary.LittleEndian.PutUint32(e[16:], uint32(s.Size))
		binary.LittleEndian.PutUint64(e[24:], uint64(off))
		binary.LittleEndian.PutUint64(e[32:], uint64(s.len()))
		off = alignUp(off + s.len())
	}
	var n int64
	write := func(b []byte) error {
		k, err := w.Write(b)
		n += int64(k)
		return err
	}
	var zeros [sectionAlign]byte
	if err := write(head); err != nil {
		return n, err
	}
	for _, s := range secs {
		if err := write(zeros[:alignUp(n)-n]); err != nil {
			return n, err
		}
		if s.Source != nil {
			if err := s.Source.CopyTo(writerFunc(write)); err != nil {
				return n, err
			}
			continue
		}
		if err := write(s.Data); err != nil {
			return n, err
		}
	}
	return n, nil
}

// writerFunc is a write function as an io.Writer.
type writerFunc func([]byte) error

func (f writerFunc) Write(b []byte) (int, error) {
	if err := f(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

func alignUp(n int64) int64 { return (n + sectionAlign - 1) &^ (sectionAlign - 1) }

// Sections are a sections file's sections by name.
type Sections struct {
	Version uint32
	byName  map[string]Section
}

// ReadSections reads the table of a sections file of a kind (b is the
// whole file, mapped), refusing another kind, a version newer than max, a
// section out of the file or not aligned, and a big-endian machine.
func ReadSections(b []byte, kind string, max uint32) (*Sections, error) {
	if !LittleEndian() {
		return nil, fmt.Errorf("sections: this machine is big-endian; the file is little-endian")
	}
	if len(b) < 24 || string(b[:8]) != sectionsMagic {
		return nil, fmt.Errorf("sections: not a sections file (magic)")
	}
	if k := trimNUL(b[8:16]); k != kind {
		return nil, fmt.Errorf("sections: a file of kind %q, not %q", k, kind)
	}
	s := &Sections{Version: binary.LittleEndian.Uint32(b[16:]), byName: map[string]Section{}}
	if s.Version > max || s.Version == 0 {
		return nil, fmt.Errorf("sections: %s version %d; this engine reads 1 to %d", kind, s.Version, max)
	}
	count := int64(binary.LittleEndian.Uint32(b[20:]))
	if 24+count*sectionEntry > int64(len(b)) {
		return nil, fmt.Errorf("sections: the table of %d sections is longer than the file", count)
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
		return nil, fmt.Errorf("sections: the file's bytes are not aligned to 8")
	}
	for i := int64(0); i < count; i++ {
		e := b[24+i*sectionEntry:]
		name := trimNUL(e[:16])
		size := int64(binary.LittleEndian.Uint32(e[16:]))
		off, n := binary.LittleEndian.Uint64(e[24:]), binary.LittleEndian.Uint64(e[32:])
		if off%sectionAlign != 0 || off > uint64(len(b)) || n > uint64(len(b))-off {
			return nil, fmt.Errorf("sections: section %s: bytes %d+%d are not within the file's %d, aligned", name, off, n, len(b))
		}
		if size < 1 || int64(n)%size != 0 {
			return nil, fmt.Errorf("sections: section %s: %d bytes are not records of %d", name, n, size)
		}
		if _, dup := s.byName[name]; dup {
			return nil, fmt.Errorf("sections: section %s twice", name)
		}
		s.byName[name] = Section{Name: name, Size: int(size), Data: b[off : off+n : off+n]}
	}
	return s, nil
}

// Get is a section's bytes, checked to hold records of size bytes.
func (s *Sections) Get(name string, size int) ([]byte, error) {
	sec, ok := s.byName[name]
	if !ok {
		return nil, fmt.Errorf("sections: no section %s", name)
	}
	if sec.Size != size {
		return nil, fmt.Errorf("sections: section %s holds records of %d bytes, not %d", name, sec.Size, size)
	}
	return sec.Data, nil
}

// Records is a section as a slice of T, where it lies (T must be a record
// without pointers and without padding the compiler adds: the writer
// wrote it with RecordBytes).
func Records[T any](s *Sections, name string) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	b, err := s.Get(name, size)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, nil
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%unsafe.Alignof(zero) != 0 {
		return nil, fmt.Errorf("sections: section %s is not aligned for its records", name)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size), nil
}

// RecordBytes are the bytes of a slice of records, as Records reads them.
func RecordBytes[T any](s []T) Section {
	var zero T
	return Section{Size: int(unsafe.Sizeof(zero)), Data: RecordData(s)}
}

// RecordData is a slice's records as the bytes they lie in (nil for
// none): what a file that is used where it lies holds.
func RecordData[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// LittleEndian reports whether this machine's memory is little-endian, as
// the records of the files the server maps are.
func LittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

func trimNUL(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
