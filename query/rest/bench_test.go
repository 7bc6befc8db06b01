package rest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
)

// The read path's hot routes through the handler (no network): a
// document by path, the negotiated page, and an entry's view through the
// REST mirror with its limit and counting.
func BenchmarkHandler(b *testing.B) {
	snaps, err := query.OpenSnapshots(reg.Out)
	if err != nil {
		b.Fatal(err)
	}
	defer snaps.Close()
	srv, err := rest.New(rest.Config{Now: func() time.Time { return testserver.Run2 }}, query.NewService(snaps, reg.Site))
	if err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	for _, c := range []struct{ name, path, accept string }{
		{"markdown", "/" + hkSlug + ".md", ""},
		{"negotiated", "/" + hkSlug, "text/markdown"},
		{"view", "/v1/entries/" + hkID, ""},
		{"sections", "/v1/entries/" + hkID + "?sections=contact,hours", ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, c.path, nil)
			if c.accept != "" {
				req.Header.Set("Accept", c.accept)
			}
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("%s: %d", c.path, w.Code)
				}
			}
		})
	}
}

// BenchmarkHandlerCached is the markdown route with the server's document
// cache on, as production runs it (D74): after the first read a document
// is copied from the cache, and its checksum, checked when it went in,
// costs nothing per hit (issue 15).
func BenchmarkHandlerCached(b *testing.B) {
	snaps := query.NewSnapshots(reg.Out)
	snaps.DocCacheBytes = 32 << 20
	if _, err := snaps.Refresh(); err != nil {
		b.Fatal(err)
	}
	defer snaps.Close()
	srv, err := rest.New(rest.Config{Now: func() time.Time { return testserver.Run2 }}, query.NewService(snaps, reg.Site))
	if err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	req := httptest.NewRequest(http.MethodGet, "/"+hkSlug+".md", nil)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("%d", w.Code)
		}
	}
}
