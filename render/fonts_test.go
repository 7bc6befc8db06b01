package render_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestFonts_VIEW29: the registry hosts exactly the families a brand kit
// may name (schemas.HostedFontFamilies), each with its OFL licence, real
// woff2 files, and a font.css whose every url() is one of its files, at
// /assets/fonts/{slug}/ (decision D21's slug).
func TestFonts_VIEW29(t *testing.T) {
	var slugs []string
	for _, f := range schemas.HostedFontFamilies() {
		slugs = append(slugs, render.FontSlug(f))
	}
	if dirs := render.HostedFontDirs(); !slices.Equal(dirs, slugs) {
		t.Fatalf("font folders %v, hosted families' slugs %v", dirs, slugs)
	}
	byPath := map[string]render.Document{}
	var paths []string
	for _, d := range render.FontAssets() {
		byPath[d.Path] = d
		paths = append(paths, d.Path)
	}
	if !slices.IsSorted(paths) {
		t.Errorf("font assets not in path order: %v", paths)
	}
	url := regexp.MustCompile(`url\(([^)]+)\)`)
	for _, family := range schemas.HostedFontFamilies() {
		dir := "/assets/fonts/" + render.FontSlug(family) + "/"
		if lic := byPath[dir+"OFL.txt"]; !bytes.Contains(lic.Body, []byte("SIL OPEN FONT LICENSE Version 1.1")) {
			t.Errorf("%s: no OFL licence", family)
		}
		css, ok := byPath[dir+"font.css"]
		if !ok || css.MediaType != "text/css; charset=utf-8" || !strings.Contains(string(css.Body), "font-family: '"+family+"'") {
			t.Fatalf("%s: font.css %q %s", family, css.MediaType, css.Body)
		}
		refs := url.FindAllStringSubmatch(string(css.Body), -1)
		if len(refs) != len(render.FontWeights) {
			t.Errorf("%s: %d files in font.css, want one per weight", family, len(refs))
		}
		for _, m := range refs {
			f, ok := byPath[dir+m[1]]
			if !ok || f.MediaType != "font/woff2" || !bytes.HasPrefix(f.Body, []byte("wOF2")) {
				t.Errorf("%s: font.css names %s, which is not a hosted woff2 file", family, m[1])
			}
		}
	}
	// The address the brand kit and the pages give is one of them.
	site, _ := render.NewSite(render.DefaultBaseURL, nil)
	if u := render.FontCSSURL(site, "Source Sans 3"); !strings.HasSuffix(u, "/assets/fonts/source-sans-3/font.css") || byPath[strings.TrimPrefix(u, site.BaseURL)].Body == nil {
		t.Errorf("FontCSSURL %s is not hosted", u)
	}
}
