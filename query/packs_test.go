package query

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
	read := func(p *pack, off, n int64) ([]byte, error) { return p.appendAt([]byte("prefix:"), off, n) }
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
