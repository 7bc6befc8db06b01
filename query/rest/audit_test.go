package rest_test

import (
	"net/http"
	"testing"
)

// TestServerCard_DISC12_Headers: the server card is cached for an hour,
// publicly, has an ETag that revalidates, and is readable from any
// origin (DISC-12).
func TestServerCard_DISC12_Headers(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/mcp/server-card")
	if resp.StatusCode != 200 || len(body) == 0 {
		t.Fatalf("server card: %d", resp.StatusCode)
	}
	if got := resp.Header.Get("Cache-Control"); got != "public, max-age=3600" {
		t.Errorf("Cache-Control %q, want public, max-age=3600", got)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin %q, want *", got)
	}
	etag := resp.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	if again, _ := ts.get(t, "/mcp/server-card", "If-None-Match: "+etag); again.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with its ETag: %d, want 304", again.StatusCode)
	}
}

// TestMarkdown_HTTP03_DefaultLanguageRedirects: /{slug}/{lang}.md for
// the entry's default language moves to /{slug}.md with 301, and
// /{slug}/{lang} to /{slug}; another language of the entry is served
// there; a language the entry lacks is 404 (HTTP-03, D67).
func TestMarkdown_HTTP03_DefaultLanguageRedirects(t *testing.T) {
	ts := newServer(t)
	for _, c := range []struct {
		path   string
		status int
		to     string
	}{
		{"/" + hkSlug + "/de.md", http.StatusMovedPermanently, reg.Site.BaseURL + "/" + hkSlug + ".md"},
		{"/" + hkSlug + "/de", http.StatusMovedPermanently, reg.Site.BaseURL + "/" + hkSlug},
		{"/" + hkSlug + "/en.md", http.StatusOK, ""},
		{"/" + hkSlug + "/fr.md", http.StatusNotFound, ""},
		{"/" + hkSlug + "/de/x.md", http.StatusNotFound, ""},
	} {
		resp, _ := ts.get(t, c.path)
		if resp.StatusCode != c.status || resp.Header.Get("Location") != c.to {
			t.Errorf("%s: %d to %q, want %d to %q", c.path, resp.StatusCode, resp.Header.Get("Location"), c.status, c.to)
		}
	}
	// The old slug of a renamed entry reaches the default language's
	// document in two documented moves, never a 404.
	resp, _ := ts.get(t, "/"+reg.OldSlug+"/en.md")
	if resp.StatusCode != http.StatusMovedPermanently {
		t.Errorf("old slug's /en.md: %d, want 301", resp.StatusCode)
	}
}

// TestDocs_DISC06_ServedAsMarkdownAndPages: the four docs llms.txt links,
// the price list and the schemas' index answer 200 with their media
// types, an hour of caching and CORS (DISC-06, PRIV-25, PRIV-02).
func TestDocs_DISC06_ServedAsMarkdownAndPages(t *testing.T) {
	ts := newServer(t)
	for _, c := range []struct{ path, media string }{
		{"/docs/data-contract.md", "text/markdown; charset=utf-8"},
		{"/docs/entry-schema.md", "text/markdown; charset=utf-8"},
		{"/docs/identifiers.md", "text/markdown; charset=utf-8"},
		{"/docs/verification.md", "text/markdown; charset=utf-8"},
		{"/docs/prices.md", "text/markdown; charset=utf-8"},
		{"/docs/data-contract", "text/html; charset=utf-8"},
		{"/docs/prices", "text/html; charset=utf-8"},
		{"/schemas/0.1/", "text/html; charset=utf-8"},
	} {
		resp, body := ts.get(t, c.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.media || len(body) == 0 ||
			resp.Header.Get("Cache-Control") != "public, max-age=3600" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d %q %q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
		}
	}
}
