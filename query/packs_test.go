package query

import (
	"bytes"
	"encoding/binary"
	"github.com/daawid/registry/export/publication"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/VictoriaMetrics/fastcache"
)

// The document cache (D74): a document read once is served from memory
// after, byte for byte; one too large for the cache is read from its pack
// every time; nothing is served from the cache under another pack's key.
func TestDocCache_D74(t *testing.T) {
	dir := t.TempDir()
	small := bytes.Repeat([]byte("Holzwerk Krause\n"), 70)  // 1 120 bytes
	large := bytes.Repeat([]byte("0123456789abcdef"), 5000) // 80 000 bytes: over the cache's 64 KB
	pack1 := append(append(append([]byte(nil), small...), large...), "tail"...)
	for name, b := range map[string][]byte{"a.pack": pack1, "b.pack": bytes.ToUpper(pack1)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := fastcache.New(32 << 20)
	a, err := openPack(filepath.Join(dir, "a.pack"), cache)
	if err != nil {
		t.Fatal(err)
	}
	b, err := openPack(filepath.Join(dir, "b.pack"), cache)
	if err != nil {
		t.Fatal(err)
	}
	read := func(p *pack, off, n int64) ([]byte, error) { return p.appendAt([]byte("prefix:"), off, n, 0, true) }
	want := func(got []byte, err error, w []byte, what string) {
		t.Helper()
		if err != nil || !bytes.Equal(got, append([]byte("prefix:"), w...)) {
			t.Errorf("%s: %d bytes, %v", what, len(got), err)
		}
	}
	got, err := read(a, 0, int64(len(small)))
	want(got, err, small, "first read")
	got, err = read(a, int64(len(small)), int64(len(large)))
	want(got, err, large, "large document")
	got, err = read(b, 0, int64(len(small)))
	want(got, err, bytes.ToUpper(small), "same offset in another pack")
	got, err = read(a, int64(len(pack1))-4, 4)
	want(got, err, []byte("tail"), "the last bytes of a pack")

	// A delta publication hard-links the packs it shares: the link is the
	// same file, and finds what the cache holds for it.
	if err := os.Link(filepath.Join(dir, "a.pack"), filepath.Join(dir, "linked.pack")); err != nil {
		t.Fatal(err)
	}
	linked, err := openPack(filepath.Join(dir, "linked.pack"), cache)
	if err != nil {
		t.Fatal(err)
	}
	if linked.key != a.key || linked.key == b.key {
		t.Errorf("pack keys: a %x, its hard link %x, b %x", a.key, linked.key, b.key)
	}
	linked.f.Close()
	got, err = read(linked, 0, int64(len(small)))
	want(got, err, small, "cached read through a hard link, closed")

	// With the pack closed, only what the cache holds can be served.
	a.f.Close()
	got, err = read(a, 0, int64(len(small)))
	want(got, err, small, "cached read, pack closed")
	if _, err := read(a, int64(len(small)), int64(len(large))); err == nil {
		t.Error("the large document was served without its pack: it must not be cached")
	}
	if got, err := read(a, 1, int64(len(small))); err == nil {
		t.Errorf("an uncached offset was served without its pack: %q", got)
	}
	// A document asked for with another length is not the cached one.
	if _, err := read(a, 0, 10); err == nil {
		t.Error("a cached document was cut to another length")
	}
}

// The checksum (issue 15) is checked when a document is read from its
// pack, before the document cache keeps it: a damaged document is a
// CorruptError and is not cached, so a later read checks it again; a
// sound one is cached and then served without reading the pack.
func TestDocCache_ChecksumBeforeCaching(t *testing.T) {
	dir := t.TempDir()
	good, bad := []byte("# Holzwerk Krause\n"), []byte("# Holzwerk Krause\n")
	path := filepath.Join(dir, "p.pack")
	damaged := append(append([]byte(nil), good...), bad...)
	damaged[len(good)+3] ^= 0x20
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	cache := fastcache.New(32 << 20)
	p, err := openPack(path, cache)
	if err != nil {
		t.Fatal(err)
	}
	defer p.f.Close()
	sum := publication.DocChecksum(good)
	n := int64(len(good))
	if got, err := p.appendAt(nil, 0, n, sum, true); err != nil || !bytes.Equal(got, good) {
		t.Fatalf("the sound document: %q, %v", got, err)
	}
	for range 2 {
		got, err := p.appendAt([]byte("prefix:"), n, n, sum, true)
		if _, ok := AsCorrupt(err); !ok || string(got) != "prefix:" {
			t.Fatalf("the damaged document: %q, %v; want a CorruptError and nothing appended", got, err)
		}
	}
	if cache.Has(cacheKey(p.key, n)) {
		t.Error("the damaged document entered the document cache")
	}
	if !cache.Has(cacheKey(p.key, 0)) {
		t.Error("the sound document was not cached")
	}
}

func cacheKey(pack uint64, off int64) []byte {
	var k [16]byte
	binary.LittleEndian.PutUint64(k[:8], pack)
	binary.LittleEndian.PutUint64(k[8:], uint64(off))
	return k[:]
}

// TestDocRec_StaysSmall: the checksum fits the document record's padding,
// so five million documents cost no more memory than before (D71).
func TestDocRec_StaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(docRec{}); n != 32 {
		t.Errorf("a document record is %d bytes, want 32", n)
	}
}

// TestDocCache_DecodedForIdentityClients: a compressed document (D111)
// read for a client that takes no content coding is decoded once and its
// decoded bytes are kept, so the next such read comes from memory with no
// pack read and no decoding; the stored bytes are then read for a client
// that takes them, and kept in turn.
func TestDocCache_DecodedForIdentityClients(t *testing.T) {
	dir := t.TempDir()
	body := bytes.Repeat([]byte("Tischlerei in Wuppertal: Einbauküchen nach Maß.\n"), 40)
	stored, enc := publication.EncodeDoc(nil, body)
	if enc != publication.EncodingZstd {
		t.Fatalf("the document was stored %q", enc)
	}
	path := filepath.Join(dir, "c.pack")
	if err := os.WriteFile(path, stored, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := openPack(path, fastcache.New(32<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer p.f.Close()
	d := &Doc{DocRow: publication.DocRow{Offset: 0, Length: int64(len(stored)), Checksum: publication.DocChecksum(stored),
		Encoding: enc, IdentityLength: int64(len(body))}, pack: p}
	if got, err := d.AppendBody(nil); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("first read: %v", err)
	}
	// The pack is now unreadable: only the cache can answer.
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := d.AppendBody([]byte("x")); err != nil || !bytes.Equal(got[1:], body) {
		t.Errorf("second identity read is not from the cache: %v", err)
	}
	if _, err := d.AppendStored(nil); err == nil {
		t.Error("the stored bytes were kept though no client took them")
	}
}
