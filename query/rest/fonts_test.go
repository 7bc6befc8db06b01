package rest_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/daawid/registry/render"
)

// TestFonts_VIEW29: every font style sheet an entry's brand kit and its
// page name answers 200 as CSS, cached for 30 days and open to any origin
// (fonts are fetched with CORS), and so does every file it names, as
// woff2. Holzwerk Krause names Lora and Source Sans 3.
func TestFonts_VIEW29(t *testing.T) {
	ts := newServer(t)
	_, kit := ts.get(t, "/v1/entries/holzwerk-krause/brand-kit")
	var sheets []string
	for _, m := range regexp.MustCompile(`"cssUrl":\s*"([^"]+)"`).FindAllStringSubmatch(string(kit), -1) {
		sheets = append(sheets, m[1])
	}
	_, page := ts.get(t, "/holzwerk-krause")
	for _, m := range regexp.MustCompile(`<link rel="stylesheet" href="([^"]+/assets/fonts/[^"]+)">`).FindAllStringSubmatch(string(page), -1) {
		sheets = append(sheets, m[1])
	}
	if len(sheets) != 4 {
		t.Fatalf("want Lora and Source Sans 3 from the brand kit and the page, got %v", sheets)
	}
	for _, u := range sheets {
		path := strings.TrimPrefix(u, reg.Site.BaseURL)
		resp, css := ts.get(t, path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/css; charset=utf-8" ||
			resp.Header.Get("Cache-Control") != "public, max-age=2592000" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, resp.Header)
		}
		files := regexp.MustCompile(`url\(([^)]+)\)`).FindAllStringSubmatch(string(css), -1)
		if len(files) == 0 {
			t.Fatalf("%s names no font file", path)
		}
		dir := path[:strings.LastIndex(path, "/")+1]
		for _, f := range files {
			resp, body := ts.get(t, dir+f[1])
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "font/woff2" || !strings.HasPrefix(string(body), "wOF2") ||
				resp.Header.Get("Cache-Control") != "public, max-age=2592000" {
				t.Errorf("%s: %d %q", dir+f[1], resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		}
		if resp, _ := ts.get(t, dir+"OFL.txt"); resp.StatusCode != 200 {
			t.Errorf("%sOFL.txt: %d", dir, resp.StatusCode)
		}
	}
}

// TestPageCSS: every entry page (the page, the legal notice, the privacy
// page) links the registry's one shared style sheet, which answers 200 as
// CSS with render.PageCSS's bytes, cached for a year as immutable (its
// name is its content's hash), open to any origin; a page keeps inline
// only the entry's own colours and fonts.
func TestPageCSS(t *testing.T) {
	ts := newServer(t)
	want := render.PageCSS()
	link := `<link rel="stylesheet" href="` + render.PageCSSURL(reg.Site) + `">`
	for _, path := range []string{"/holzwerk-krause", "/holzwerk-krause/en", "/holzwerk-krause/impressum", "/holzwerk-krause/datenschutz", "/nordlicht-software"} {
		resp, page := ts.get(t, path)
		if resp.StatusCode != 200 || !strings.Contains(string(page), link) {
			t.Errorf("%s: %d, no link to the shared style sheet", path, resp.StatusCode)
		}
		if strings.Contains(string(page), "box-sizing") {
			t.Errorf("%s still carries the shared rules inline", path)
		}
	}
	resp, css := ts.get(t, want.Path)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/css; charset=utf-8" || !bytes.Equal(css, want.Body) ||
		resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%s: %d %v", want.Path, resp.StatusCode, resp.Header)
	}
	if !strings.HasPrefix(want.Path, "/assets/page-") || !strings.Contains(string(css), "box-sizing") {
		t.Errorf("the shared style sheet is at %s with %d bytes", want.Path, len(css))
	}
}
