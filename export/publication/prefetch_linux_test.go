package publication

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident is the share of a mapping's pages in the page cache (mincore).
func resident(t *testing.T, data []byte) float64 {
	t.Helper()
	vec := make([]byte, (len(data)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&data[0])), uintptr(len(data)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return float64(n) / float64(len(vec))
}

// TestPrefetchFile_ReadsIntoPageCache: a server index file dropped from the
// page cache is back in it after PrefetchFile, before anything reads it
// (D129).
func TestPrefetchFile_ReadsIntoPageCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "search.bin")
	body := make([]byte, 16<<20)
	for i := range body {
		body[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, len(body), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(data)
	if r := resident(t, data); r > 0.5 {
		t.Skipf("SKIP: the file system kept %.0f%% of the file cached after FADV_DONTNEED (tmpfs?): nothing to measure", 100*r)
	}
	if err := PrefetchFile(path); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for resident(t, data) < 0.99 {
		if time.Now().After(deadline) {
			t.Fatalf("%.0f%% of the file in the page cache 5 s after PrefetchFile", 100*resident(t, data))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
