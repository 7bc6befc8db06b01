package rest_test

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/internal/testserver"
)

// TestPage_HTTP01_HTTP07_HTTP08_HTTP09_Negotiation: /{slug} is HTML by
// default and markdown when Accept lists text/markdown at least as high
// as text/html; it varies by Accept (HTTP-14).
func TestPage_HTTP01_HTTP07_HTTP08_HTTP09_Negotiation(t *testing.T) {
	ts := newServer(t)
	_, md := ts.get(t, "/"+hkSlug+".md")
	cases := []struct {
		accept string
		want   string // "html" or "md"
	}{
		{"", "html"},            // HTTP-08
		{"text/markdown", "md"}, // HTTP-09: Claude Code, OpenCode
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "html"}, // a browser
		{"text/markdown, text/html", "md"},                                          // a tie goes to markdown (HTTP-07)
		{"text/html;q=0.9, text/markdown;q=0.9", "md"},                              // a tie at 0.9
		{"text/html, text/markdown;q=0.5", "html"},                                  // html higher
		{"text/markdown;q=0.8, */*;q=0.9", "html"},                                  // html by */* higher
		{"text/markdown;q=0.8, */*;q=0.5", "md"},                                    // html by */* lower
		{"*/*", "html"},                                                             // markdown must be named
		{"text/*", "html"},
		{"text/markdown;q=0", "html"},   // refused
		{"text/markdown;q=abc", "html"}, // unreadable q
		{";;;,,, garbage/", "html"},     // odd headers
		{"TEXT/MARKDOWN", "md"},         // case
		{"application/json", "html"},    // nothing acceptable: the default
		{strings.Repeat("a/b;q=0.1,", 500) + "text/markdown", "md"},
	}
	for _, c := range cases {
		var h []string
		if c.accept != "" {
			h = append(h, "Accept: "+c.accept)
		}
		resp, body := ts.get(t, "/"+hkSlug, h...)
		if resp.StatusCode != 200 {
			t.Fatalf("Accept %q: %d", c.accept, resp.StatusCode)
		}
		got := "html"
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
			got = "md"
			if !bytes.Equal(body, md) {
				t.Errorf("Accept %q: the negotiated markdown is not /%s.md", c.accept, hkSlug)
			}
		} else if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("<!DOCTYPE html>")) {
			t.Errorf("Accept %q: neither markdown nor HTML: %s", c.accept, resp.Header.Get("Content-Type"))
		}
		if got != c.want {
			t.Errorf("Accept %q: got %s, want %s", c.accept, got, c.want)
		}
		// Accept-Encoding joins Accept: every document varies by content
		// coding (issue 18, RFC 9110 §12.5.5).
		if resp.Header.Get("Vary") != "Accept, Accept-Encoding" {
			t.Errorf("Accept %q: Vary %q (HTTP-14)", c.accept, resp.Header.Get("Vary"))
		}
	}
	// HTTP-14: Vary: Accept only on /{slug}; the other documents vary by
	// content coding alone.
	for p, want := range map[string]string{"/" + hkSlug + ".md": "Accept-Encoding", "/" + hkSlug + ".json": "Accept-Encoding",
		"/v1/entries/" + hkID: ""} { // the REST view is built per request, never content-coded
		if resp, _ := ts.get(t, p); resp.Header.Get("Vary") != want {
			t.Errorf("%s has Vary %q, want %q", p, resp.Header.Get("Vary"), want)
		}
	}
}

// TestDocuments_HTTP02_HTTP03_HTTP04_MediaTypes: the representations
// with their media types, languages and bytes.
func TestDocuments_HTTP02_HTTP03_HTTP04_MediaTypes(t *testing.T) {
	ts := newServer(t)
	cases := []struct{ path, media, lang string }{
		{"/" + hkSlug + ".md", "text/markdown; charset=utf-8", "de"},           // HTTP-02: default language
		{"/" + hkSlug + "/en.md", "text/markdown; charset=utf-8", "en"},        // HTTP-03
		{"/" + hkSlug + ".json", "application/ld+json", "de, en"},              // HTTP-04: every language
		{"/" + hkSlug, "text/html; charset=utf-8", "de"},                       // HTTP-01
		{"/" + hkSlug + "/en", "text/html; charset=utf-8", "en"},               // D29
		{"/" + hkSlug + "/offerings.md", "text/markdown; charset=utf-8", "de"}, // HTTP-35
		{"/" + hkSlug + "/impressum", "text/html; charset=utf-8", "de"},        // HTTP-31
	}
	for _, c := range cases {
		resp, body := ts.get(t, c.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.media || resp.Header.Get("Content-Language") != c.lang || len(body) == 0 {
			t.Errorf("%s: %d %q %q (%d bytes)", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Language"), len(body))
		}
	}
	// HTTP-03: a language the entry does not have is not found, and the
	// problem says so.
	resp, body := ts.get(t, "/"+hkSlug+"/fr.md")
	if p := problemOf(t, resp, body); resp.StatusCode != 404 || p.Code != "not_found" {
		t.Errorf("/%s/fr.md: %d %s", hkSlug, resp.StatusCode, p.Code)
	}
	// HTTP-32: the legal notice of an operator outside Germany.
	tb := fixtures.Entry("thornbury-hale-joinery")
	if resp, _ := ts.get(t, "/"+tb.Slug+"/legal"); resp.StatusCode != 200 {
		t.Errorf("/%s/legal: %d", tb.Slug, resp.StatusCode)
	}
}

// TestHeaders_HTTP10_to_HTTP16: the §2.2 header set on every
// representation of an entry.
func TestHeaders_HTTP10_to_HTTP16(t *testing.T) {
	ts := newServer(t)
	base := reg.Site.BaseURL
	cases := []struct {
		path string
		cors bool
		link string // the canonical page
	}{
		{"/" + hkSlug, false, base + "/" + hkSlug},
		{"/" + hkSlug + ".md", true, base + "/" + hkSlug},
		{"/" + hkSlug + "/en.md", true, base + "/" + hkSlug + "/en"},
		{"/" + hkSlug + ".json", true, base + "/" + hkSlug},
		{"/v1/entries/" + hkID, true, base + "/" + hkSlug},
		{"/v1/entries/" + hkID + "?lang=en", true, base + "/" + hkSlug + "/en"},
	}
	etags := map[string]string{}
	for _, c := range cases {
		resp, _ := ts.get(t, c.path)
		h := resp.Header
		etag := h.Get("ETag")
		// HTTP-10: "ent_…-r{revision}", then the representation.
		if !strings.HasPrefix(etag, `"`+hkID+"-r") || !strings.HasSuffix(etag, `"`) {
			t.Errorf("%s: ETag %q (HTTP-10)", c.path, etag)
		}
		if other, dup := etags[etag]; dup {
			t.Errorf("%s and %s share the strong ETag %s", c.path, other, etag)
		}
		etags[etag] = c.path
		if _, err := http.ParseTime(h.Get("Last-Modified")); err != nil { // HTTP-11
			t.Errorf("%s: Last-Modified %q", c.path, h.Get("Last-Modified"))
		}
		if h.Get("Content-Language") == "" { // HTTP-12
			t.Errorf("%s: no Content-Language", c.path)
		}
		if h.Get("Cache-Control") != "public, max-age=300, stale-while-revalidate=86400" { // HTTP-13
			t.Errorf("%s: Cache-Control %q", c.path, h.Get("Cache-Control"))
		}
		if got := h.Get("Access-Control-Allow-Origin") == "*"; got != c.cors { // HTTP-15
			t.Errorf("%s: CORS %v, want %v", c.path, got, c.cors)
		}
		link := h.Get("Link") // HTTP-16
		for _, want := range []string{`type="text/markdown"`, `rel="alternate"; type="application/ld+json"`, "<" + c.link + `>; rel="canonical"`, "<" + base + "/" + hkSlug + `.json>`} {
			if !strings.Contains(link, want) {
				t.Errorf("%s: Link %q lacks %q", c.path, link, want)
			}
		}
		if h.Get("Set-Cookie") != "" {
			t.Errorf("%s sets a cookie", c.path)
		}
	}
}

// TestConditional_REST34_HEAD_REST39: a matching If-None-Match gets 304
// without a body, If-Modified-Since too, and HEAD answers as GET does
// without a body.
func TestConditional_REST34_HEAD_REST39(t *testing.T) {
	ts := newServer(t)
	for _, p := range []string{"/" + hkSlug + ".md", "/" + hkSlug, "/v1/entries/" + hkID, "/v1/entries/" + hkID + "/offerings", "/v1/entries/" + hkSlug + "/brand-kit", "/llms.txt"} {
		resp, body := ts.get(t, p)
		etag := resp.Header.Get("ETag")
		if resp.StatusCode != 200 || etag == "" {
			t.Fatalf("%s: %d, ETag %q", p, resp.StatusCode, etag)
		}
		r304, b304 := ts.get(t, p, "If-None-Match: W/"+etag+`, "other"`)
		if r304.StatusCode != http.StatusNotModified || len(b304) != 0 || r304.Header.Get("ETag") != etag {
			t.Errorf("%s If-None-Match: %d, %d bytes, ETag %q", p, r304.StatusCode, len(b304), r304.Header.Get("ETag"))
		}
		if r, _ := ts.get(t, p, `If-None-Match: "nope"`); r.StatusCode != 200 {
			t.Errorf("%s with another ETag: %d", p, r.StatusCode)
		}
		if lm := resp.Header.Get("Last-Modified"); lm != "" {
			if r, _ := ts.get(t, p, "If-Modified-Since: "+lm); r.StatusCode != http.StatusNotModified {
				t.Errorf("%s If-Modified-Since: %d", p, r.StatusCode)
			}
		}
		head, hb := ts.do(t, http.MethodHead, p)
		if head.StatusCode != 200 || len(hb) != 0 || head.Header.Get("ETag") != etag || head.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("HEAD %s: %d, %d bytes, ETag %q, length %q (GET: %d)", p, head.StatusCode, len(hb), head.Header.Get("ETag"), head.Header.Get("Content-Length"), len(body))
		}
	}
}

// TestPage_HTTP23_HTTP27_Robots: unclaimed entries' pages are noindex,
// follow; their markdown and API are served normally (HTTP-26).
func TestPage_HTTP23_HTTP27_Robots(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/"+reg.NewSlug) // a register company: unclaimed
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`<meta name="robots" content="noindex, follow">`)) {
		t.Errorf("unclaimed page: %d, robots meta missing", resp.StatusCode)
	}
	if resp, _ := ts.get(t, "/"+reg.NewSlug+".md"); resp.StatusCode != 200 {
		t.Errorf("unclaimed markdown: %d", resp.StatusCode)
	}
	if resp, _ := ts.get(t, "/v1/entries/by-slug/"+reg.NewSlug); resp.StatusCode != 200 {
		t.Errorf("unclaimed API: %d", resp.StatusCode)
	}
	_, hk := ts.get(t, "/"+hkSlug)
	if bytes.Contains(hk, []byte(`name="robots"`)) {
		t.Error("a verified entry's page is noindex")
	}
}

// TestPage_HTTP21_HTTP22_Footer: every page links the legal notice, the
// privacy notice and the report form, one click away; those pages are
// served; a suspended entry's page has no report link.
func TestPage_HTTP21_HTTP22_Footer(t *testing.T) {
	ts := newServer(t)
	_, page := ts.get(t, "/"+hkSlug)
	for _, href := range []string{"/" + hkSlug + "/impressum", "/" + hkSlug + "/datenschutz", "/" + hkSlug + "/report"} {
		if !bytes.Contains(page, []byte(reg.Site.BaseURL+href)) {
			t.Errorf("the page does not link %s", href)
		}
		if resp, _ := ts.get(t, href); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s", href, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if !bytes.Contains(page, []byte(">Impressum<")) || !bytes.Contains(page, []byte(">Datenschutz<")) {
		t.Error("an operator in Germany: the footer says Impressum and Datenschutz (HTTP-21)")
	}
	ks := fixtures.Entry("kfz-rasant-dortmund")
	_, susp := ts.get(t, "/"+ks.Slug)
	if bytes.Contains(susp, []byte("/report")) {
		t.Error("a suspended entry's page links the report form (HTTP-22)")
	}
	// HTTP-33: the hosted privacy notice.
	_, priv := ts.get(t, "/"+hkSlug+"/datenschutz")
	if !bytes.Contains(priv, []byte(`<link rel="canonical" href="`+reg.Site.BaseURL+"/"+hkSlug+`/datenschutz">`)) {
		t.Error("the privacy notice's canonical is not its own address")
	}
}

// TestRedirects_HTTP39_OldSlugs_Gone: /id/{id} answers 303 to the page;
// an old slug's paths move permanently to the new slug's; a removed
// entry's paths are gone (410).
func TestRedirects_HTTP39_OldSlugs_Gone(t *testing.T) {
	ts := newServer(t)
	resp, _ := ts.get(t, "/id/"+hkID)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != reg.Site.BaseURL+"/"+hkSlug {
		t.Errorf("/id/: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := ts.get(t, "/id/"+hkID, "Accept: text/markdown"); resp.Header.Get("Location") != reg.Site.BaseURL+"/"+hkSlug+".md" {
		t.Errorf("/id/ for markdown → %q", resp.Header.Get("Location"))
	}
	for _, tail := range []string{"", ".md", ".json", "/impressum"} {
		resp, _ := ts.get(t, "/"+reg.OldSlug+tail)
		if tail == "/impressum" {
			continue // unclaimed: register data only, no legal page of its own
		}
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != reg.Site.BaseURL+"/"+reg.NewSlug+tail {
			t.Errorf("/%s%s: %d → %q", reg.OldSlug, tail, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	for _, p := range []string{"/" + reg.RemovedSlug, "/" + reg.RemovedSlug + ".md", "/v1/entries/" + reg.RemovedID, "/v1/entries/by-slug/" + reg.RemovedSlug} {
		resp, body := ts.get(t, p)
		if pr := problemOf(t, resp, body); resp.StatusCode != http.StatusGone || pr.Code != "gone" || !strings.Contains(pr.Detail, "removed") {
			t.Errorf("%s: %d %+v", p, resp.StatusCode, pr)
		}
	}
	if resp, body := ts.get(t, "/no-such-entry.md"); resp.StatusCode != 404 || problemOf(t, resp, body).Code != "not_found" {
		t.Errorf("unknown path: %d", resp.StatusCode)
	}
	// A person's browser gets a page with the same status (D67).
	resp, body := ts.get(t, "/"+reg.RemovedSlug, "Accept: text/html,application/xhtml+xml,*/*;q=0.8")
	if resp.StatusCode != http.StatusGone || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("<h1>Gone</h1>")) {
		t.Errorf("a browser's 410: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// TestTimeGuard_D66: Holzwerk Krause's capacity expired after the last
// publication; the server never serves it, and its stand-in is the very
// revision the pipeline issues next, byte for byte.
func TestTimeGuard_D66(t *testing.T) {
	ts := newServer(t)
	ts.Now = testserver.Run2 // before the expiry: the published revision
	_, before := ts.get(t, "/"+hkSlug+".md")
	if !bytes.Contains(before, []byte("## Capacity")) {
		t.Fatal("the published revision should still show its capacity")
	}
	if n := ts.Service.StandIns(); n != 0 {
		t.Errorf("%d stand-ins before any nextChangeAt came", n)
	}
	ts.Now = testserver.ServeNow
	resp, after := ts.get(t, "/"+hkSlug+".md")
	if bytes.Contains(after, []byte("## Capacity")) {
		t.Fatal("the server served an expired capacity (PRIV-11)")
	}
	// The operators' metric counts the entry re-issued, once.
	ts.get(t, "/"+hkSlug+"/en.md")
	if n := ts.Service.StandIns(); n != 1 {
		t.Errorf("stand-ins made: %d, want 1 (Holzwerk Krause, once for all its documents)", n)
	}
	_, view := ts.get(t, "/v1/entries/"+hkID)
	if bytes.Contains(view, []byte(`"capacity"`)) {
		t.Fatal("the view shows an expired capacity")
	}
	// The pipeline catches up: its expired revision equals the stand-in.
	dir := t.TempDir()
	if err := copyTree(reg.State, dir+"/state"); err != nil {
		t.Fatal(err)
	}
	out := dir + "/out"
	if err := copyTree(reg.Out, out); err != nil {
		t.Fatal(err)
	}
	caughtUp := publishAt(t, dir+"/state", out, testserver.ServeNow)
	md := readDoc(t, caughtUp, "/"+hkSlug+".md")
	if !bytes.Equal(md, after) {
		t.Errorf("the stand-in differs from the revision the pipeline issued:\n--- stand-in\n%s\n--- pipeline\n%s", after, md)
	}
	if resp.Header.Get("ETag") != docETag(t, caughtUp, "/"+hkSlug+".md") {
		t.Errorf("stand-in ETag %s differs from the pipeline's", resp.Header.Get("ETag"))
	}
}

// TestDocuments_D74_OneWriteSameAnswer: a plain GET is answered without
// http.ServeContent (D74); its status, headers and bytes are the ones
// ServeContent gives the same request with a precondition that does not
// hold, for every kind of document and registry-level file, uncached and
// from the document cache; HEAD answers the same headers without a body
// (REST-39), and ranges still work.
func TestDocuments_D74_OneWriteSameAnswer(t *testing.T) {
	ts := newServer(t)
	tb := fixtures.Entry("thornbury-hale-joinery")
	paths := []string{"/" + hkSlug + ".md", "/" + hkSlug + "/en.md", "/" + hkSlug + ".json", "/" + hkSlug, "/" + hkSlug + "/en",
		"/" + hkSlug + "/offerings.md", "/" + hkSlug + "/impressum", "/" + hkSlug + "/datenschutz", "/" + tb.Slug + "/legal",
		"/" + tb.Slug + ".md", "/llms.txt", "/robots.txt", "/sitemap.xml"}
	same := func(p, what string, a, b http.Header) {
		t.Helper()
		for _, h := range []http.Header{a, b} {
			h.Del("Date")
			h.Del("X-Trace-Id")
		}
		for k := range a {
			if strings.Join(a[k], "\n") != strings.Join(b[k], "\n") {
				t.Errorf("%s %s: %s %q, ServeContent %q", p, what, k, a[k], b[k])
			}
		}
		for k := range b {
			if a[k] == nil {
				t.Errorf("%s %s: no %s (ServeContent: %q)", p, what, k, b[k])
			}
		}
	}
	for round := range 2 { // the first reads the packs, the second the document cache
		for _, p := range paths {
			plain, body := ts.get(t, p)
			slow, slowBody := ts.get(t, p, `If-None-Match: "not-this-one"`)
			if plain.StatusCode != 200 || slow.StatusCode != 200 || !bytes.Equal(body, slowBody) || len(body) == 0 {
				t.Fatalf("round %d %s: %d (%d bytes), with a precondition %d (%d bytes)", round, p, plain.StatusCode, len(body), slow.StatusCode, len(slowBody))
			}
			if plain.Header.Get("Accept-Ranges") != "bytes" || plain.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("%s: Accept-Ranges %q, Content-Length %q for %d bytes", p, plain.Header.Get("Accept-Ranges"), plain.Header.Get("Content-Length"), len(body))
			}
			same(p, "GET", plain.Header, slow.Header)
			head, hb := ts.do(t, http.MethodHead, p)
			if head.StatusCode != 200 || len(hb) != 0 {
				t.Errorf("HEAD %s: %d, %d bytes", p, head.StatusCode, len(hb))
			}
			same(p, "HEAD", head.Header, plain.Header)
			part, pb := ts.get(t, p, "Range: bytes=3-12")
			if part.StatusCode != http.StatusPartialContent || !bytes.Equal(pb, body[3:13]) ||
				part.Header.Get("Content-Range") != "bytes 3-12/"+strconv.Itoa(len(body)) {
				t.Errorf("%s Range: %d %q %q", p, part.StatusCode, part.Header.Get("Content-Range"), pb)
			}
		}
	}
}
