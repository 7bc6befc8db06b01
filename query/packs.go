package query

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"sync"
	"syscall"

	"github.com/VictoriaMetrics/fastcache"

	"github.com/daawid/registry/export/publication"
)

// DefaultDocCacheBytes is the document cache a server keeps unless told
// otherwise (D74): the most read documents' bytes in memory, so a read
// of one costs no system call.
const DefaultDocCacheBytes = 256 << 20

// pack is a publication's pack file open for reading, with the key its
// documents have in the document cache.
type pack struct {
	f     *os.File
	key   uint64 // the file's identity: packs are never rewritten
	cache *fastcache.Cache
}

var packSeed = maphash.MakeSeed()

func openPack(path string, cache *fastcache.Cache) (*pack, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &pack{f: f, key: packKey(path, fi), cache: cache}, nil
}

// packKey identifies a pack file in the document cache. A delta
// publication hard-links the packs it shares with the one before it, so
// the key is the file (device and inode), not its path: a swap keeps the
// cache. Size and modification time join it, so a new pack that gets a
// deleted one's inode is never taken for it.
func packKey(path string, fi os.FileInfo) uint64 {
	var h maphash.Hash
	h.SetSeed(packSeed)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		maphash.WriteComparable(&h, [2]uint64{uint64(st.Dev), uint64(st.Ino)})
	} else {
		h.WriteString(path)
	}
	maphash.WriteComparable(&h, [2]int64{fi.Size(), fi.ModTime().UnixNano()})
	return h.Sum64()
}

// decodedKey marks a document cache key whose value is the document's
// decoded bytes (for clients that take no content coding), beside the key
// of its stored bytes (for clients that take the stored one).
const decodedKey = 1 << 63

// cached appends the cache's value for the document at off (or'ed with
// decodedKey for the decoded bytes) to b when the cache holds n bytes
// for it.
func (p *pack) cached(b []byte, off uint64, n int64) ([]byte, bool) {
	if p.cache == nil {
		return b, false
	}
	var k [16]byte
	binary.LittleEndian.PutUint64(k[:8], p.key)
	binary.LittleEndian.PutUint64(k[8:], off)
	out, ok := p.cache.HasGet(b, k[:])
	if !ok || int64(len(out)-len(b)) != n {
		return b, false
	}
	return out, true
}

// keep puts a document's bytes into the cache (documents over 64 KB are
// not kept).
func (p *pack) keep(off uint64, v []byte) {
	if p.cache == nil {
		return
	}
	var k [16]byte
	binary.LittleEndian.PutUint64(k[:8], p.key)
	binary.LittleEndian.PutUint64(k[8:], off)
	p.cache.Set(k[:], v)
}

// appendAt appends n bytes of the pack at off to b: from the document
// cache when it holds them, else with one read, which the cache then
// keeps when keep is set. Bytes read from the pack are checked against
// the index's checksum (sum, 0 for none) before they enter the cache or
// are returned, once per document and not on every hit: a document that
// fails is a *CorruptError and never served (issue 15). What is in the
// cache was checked when it went in.
func (p *pack) appendAt(b []byte, off, n int64, sum uint32, keep bool) ([]byte, error) {
	if out, ok := p.cached(b, uint64(off), n); ok {
		return out, nil
	}
	start := len(b)
	b = grow(b, int(n))
	m, err := p.f.ReadAt(b[start:], off)
	if int64(m) == n {
		err = nil // io.EOF with the last byte of the file
	}
	if err != nil {
		return b[:start], err
	}
	if !publication.DocChecksumOK(b[start:], sum) {
		return b[:start], &CorruptError{Pack: p.f.Name(), Offset: off, Length: n, Want: sum, Got: publication.DocChecksum(b[start:])}
	}
	if keep {
		p.keep(uint64(off), b[start:])
	}
	return b, nil
}

// CorruptError is a document whose bytes in its pack do not match the
// checksum its index row records: the pack was damaged after it was
// written (a disk, a copy, a hand). The server answers it 503 and logs
// it; it never serves the bytes (issue 15). Every publication that links
// the pack shares the damage, so the error names the pack file.
type CorruptError struct {
	Pack      string
	Offset    int64
	Length    int64
	Want, Got uint32
	// Decode is why bytes that passed their checksum did not decode in
	// the encoding the index names (nil for a checksum failure).
	Decode error
}

func (e *CorruptError) Error() string {
	if e.Decode != nil {
		return fmt.Sprintf("document at %s:%d (%d bytes) does not decode: %v", e.Pack, e.Offset, e.Length, e.Decode)
	}
	return fmt.Sprintf("document at %s:%d (%d bytes) fails its checksum: CRC-32C %08x, the index says %08x", e.Pack, e.Offset, e.Length, e.Got, e.Want)
}

// AsCorrupt finds a *CorruptError in err's chain.
func AsCorrupt(err error) (*CorruptError, bool) {
	var e *CorruptError
	ok := errors.As(err, &e)
	return e, ok
}

// grow extends b by n bytes.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}

// AppendStored appends the document's bytes as its pack stores them, in
// d.Encoding, to b: from memory when the document is a stand-in (always
// identity), from the document cache when it holds them, else with one
// read of its pack. The cache keeps stored bytes, compressed ones for a
// publication of pack format 2, so the same memory holds about three
// times the documents, and a client that accepts the stored encoding is
// answered without any work on the bytes (issue 18).
func (d *Doc) AppendStored(b []byte) ([]byte, error) {
	if d.pack == nil {
		return append(b, d.body...), nil
	}
	return d.pack.appendAt(b, d.Offset, d.Length, d.Checksum, true)
}

// AppendBody appends the document's bytes as served without a content
// coding to b: the stored bytes (AppendStored), decoded. scratch, when
// not nil, is used for the stored bytes of an encoded document, so a
// caller that keeps a buffer decodes without allocating.
func (d *Doc) AppendBody(b []byte) ([]byte, error) {
	if d.pack == nil || d.Encoding == publication.EncodingIdentity {
		return d.AppendStored(b)
	}
	// A client that takes no content coding is answered from the decoded
	// bytes the cache keeps for it, so a hot document is decoded once,
	// not on every request (about 5 µs of a 40 µs answer,
	// docs/performance.md); the stored bytes it was decoded from are kept
	// only when a client takes them.
	if out, ok := d.pack.cached(b, uint64(d.Offset)|decodedKey, d.DecodedLength()); ok {
		return out, nil
	}
	sp := storedBufs.Get().(*[]byte)
	defer storedBufs.Put(sp)
	stored, err := d.pack.appendAt((*sp)[:0], d.Offset, d.Length, d.Checksum, false)
	if err != nil {
		return b, err
	}
	if cap(stored) <= 1<<20 {
		*sp = stored[:0]
	}
	start := len(b)
	out, err := decodeDoc(b, stored, &d.DocRow)
	if err == nil {
		d.pack.keep(uint64(d.Offset)|decodedKey, out[start:])
	}
	return out, err
}

// storedBufs hold a document's stored bytes while it is decoded.
var storedBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// decodeDoc appends the document stored as stored to b. The stored bytes
// passed their checksum, so a failure here is a writer's fault, not the
// disk's; it is a *CorruptError all the same, answered 503 and never
// served.
func decodeDoc(b, stored []byte, d *publication.DocRow) ([]byte, error) {
	start := len(b)
	out, err := publication.DecodeDoc(b, stored, d.Encoding)
	if err == nil && int64(len(out)-start) != d.DecodedLength() {
		err = fmt.Errorf("%d bytes decoded, the index says %d", len(out)-start, d.DecodedLength())
	}
	if err != nil {
		return b[:start], fmt.Errorf("%s: %w", d.Path, &CorruptError{Pack: d.Pack, Offset: d.Offset, Length: d.Length, Want: d.Checksum, Got: d.Checksum, Decode: err})
	}
	return out, nil
}

// Bytes reads the document whole, decoded.
func (d *Doc) Bytes() ([]byte, error) { return d.AppendBody(make([]byte, 0, d.DecodedLength())) }

// DocCacheStats is what the document cache has done since the server
// started, for its metrics.
type DocCacheStats struct {
	Reads, Misses, Entries, Bytes uint64
}

// DocCacheStats reports the document cache; all zero without one.
func (s *Snapshots) DocCacheStats() DocCacheStats {
	c := s.cache.Load()
	if c == nil {
		return DocCacheStats{}
	}
	var st fastcache.Stats
	c.UpdateStats(&st)
	return DocCacheStats{Reads: st.GetCalls, Misses: st.Misses, Entries: st.EntriesCount, Bytes: st.BytesSize}
}
