package rest_test

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
)

// ownRegistry builds a test registry of the test's own, which it may
// damage without touching the shared one.
func ownRegistry(t *testing.T) *testserver.Registry {
	t.Helper()
	r, err := testserver.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// linkedDocs are the current publication's markdown, page and JSON-LD
// documents that sit in a pack it hard-links from the publication before
// it, and that the time guard does not replace at the server's clock
// (markdown first): what a damaged shared pack hurts.
func linkedDocs(t *testing.T, r *testserver.Registry) (string, []publication.DocRow) {
	t.Helper()
	cur, err := publication.Current(r.Out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := publication.ReadManifest(cur)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := publication.ReadDocs(cur, m)
	if err != nil {
		t.Fatal(err)
	}
	var out []publication.DocRow
	for _, kind := range []string{render.KindMarkdown, render.KindHTML, render.KindJSONLD} {
		for _, d := range docs {
			if d.Kind == kind && d.Pack != publication.OwnPack(m.ID) &&
				(d.NextChangeAt.IsZero() || testserver.ServeNow.Before(d.NextChangeAt)) {
				out = append(out, d)
			}
		}
	}
	if len(out) < 2 || out[0].Kind != render.KindMarkdown {
		t.Fatalf("the current publication hard-links %d documents served by path, markdown first; the test needs two", len(out))
	}
	return cur, out
}

// flipByte changes one byte of a file in place, as a failing disk would:
// every hard link to it sees the change.
func flipByte(t *testing.T, path string, off int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x20
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// TestIntegrity_CorruptPackByteIs503: one byte changed in a pack that the
// current publication hard-links from the one before it (so the damage is
// in both) makes that document answer 503 with a problem, for GET, HEAD
// and a conditional GET alike, and never its bytes or its ETag; the
// pack's other documents still answer 200 with their bytes (issue 15).
// The checksum comes from the index, so the document is checked before it
// first enters the document cache.
func TestIntegrity_CorruptPackByteIs503(t *testing.T) {
	r := ownRegistry(t)
	cur, docs := linkedDocs(t, r)
	bad, good := docs[0], docs[len(docs)-1]
	if bad.Checksum == 0 || good.Checksum == 0 {
		t.Fatalf("the index records no checksum: %+v", bad)
	}
	goodBody, err := os.ReadFile(filepath.Join(cur, filepath.FromSlash(good.Pack)))
	if err != nil {
		t.Fatal(err)
	}
	// The pack stores it compressed (issue 18); a GET without
	// Accept-Encoding gets it decoded.
	if goodBody, err = publication.DecodeDoc(nil, goodBody[good.Offset:good.Offset+good.Length], good.Encoding); err != nil {
		t.Fatal(err)
	}
	// The first publication's own pack is the file the current one links.
	first := filepath.Join(r.Out, publication.PublicationsDir, strings.TrimSuffix(filepath.Base(bad.Pack), ".pack"), filepath.FromSlash(bad.Pack))
	if _, err := os.Stat(first); err != nil {
		t.Fatalf("the pack is not the earlier publication's: %v", err)
	}
	flipByte(t, first, bad.Offset+bad.Length/2)

	var logs logBuffer
	ts := testserver.New(t, r, func(c *rest.Config) { c.Log = testLogger(&logs) })
	for _, req := range []struct{ method, header string }{
		{http.MethodGet, ""}, {http.MethodHead, ""}, {http.MethodGet, `If-None-Match: "x"`}, {http.MethodGet, "Range: bytes=0-9"},
	} {
		var hs []string
		if req.header != "" {
			hs = append(hs, req.header)
		}
		resp, body := ts.Do(t, req.method, bad.Path, hs...)
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s %s %s: status %d, want 503", req.method, bad.Path, req.header, resp.StatusCode)
		}
		if resp.Header.Get("ETag") != "" || strings.Contains(string(body), "# ") {
			t.Errorf("%s %s: the damaged document's ETag %q or bytes were served: %.80q", req.method, bad.Path, resp.Header.Get("ETag"), body)
		}
		if req.method == http.MethodGet && !strings.Contains(string(body), `"code":"unavailable"`) {
			t.Errorf("%s %s: the answer is not the unavailable problem: %s", req.method, bad.Path, body)
		}
	}
	if !strings.Contains(logs.String(), "document fails its checksum") || !strings.Contains(logs.String(), filepath.Base(bad.Pack)) {
		t.Errorf("the damage is not logged with its pack:\n%s", logs.String())
	}
	for range 2 { // uncached, then from the document cache
		resp, body := ts.Get(t, good.Path)
		if resp.StatusCode != http.StatusOK || string(body) != string(goodBody) {
			t.Errorf("GET %s, a sound document of the same pack: %d, %d bytes", good.Path, resp.StatusCode, len(body))
		}
	}
}

// logBuffer is a log the server writes while the test reads it.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func testLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
