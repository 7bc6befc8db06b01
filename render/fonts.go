package render

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/daawid/registry/schemas"
)

// The font families the registry hosts (VIEW-29, decision D21): each at
// /assets/fonts/{slug}/font.css, a style sheet of @font-face rules whose
// files sit beside it, with the family's OFL licence. They are published
// with the other registry-level files, so the static tree and every
// mirror of a publication serve them as well as the server does.

//go:embed fonts/*/*.woff2 fonts/*/OFL.txt
var fontFiles embed.FS

// FontWeights are the weights hosted for each family: the text (400),
// the site header (600) and the headings (700).
var FontWeights = []int{400, 600, 700}

// FontsPath is where the hosted fonts are served.
const FontsPath = "/assets/fonts/"

// latinRange is the latin subset's unicode-range, as @fontsource gives it.
const latinRange = "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD"

// FontCSS is a hosted family's font.css: one @font-face rule per weight,
// each pointing at its file beside the style sheet (a relative URL, so the
// sheet works on any host that serves the folder).
func FontCSS(family string) []byte {
	var b strings.Builder
	for _, w := range FontWeights {
		fmt.Fprintf(&b, "@font-face {\n  font-family: '%s';\n  font-style: normal;\n  font-display: swap;\n  font-weight: %d;\n  src: url(latin-%d-normal.woff2) format('woff2');\n  unicode-range: %s;\n}\n",
			family, w, w, latinRange)
	}
	return []byte(b.String())
}

// FontAssets are the hosted fonts' files as registry-level documents, in
// path order: per family its font.css, its woff2 files and OFL.txt.
func FontAssets() []Document {
	var out []Document
	for _, family := range schemas.HostedFontFamilies() {
		slug := FontSlug(family)
		dir := FontsPath + slug + "/"
		out = append(out, Document{Path: dir + "OFL.txt", MediaType: "text/plain; charset=utf-8", Body: mustFontFile(slug, "OFL.txt")},
			Document{Path: dir + "font.css", MediaType: "text/css; charset=utf-8", Body: FontCSS(family)})
		for _, w := range FontWeights {
			name := fmt.Sprintf("latin-%d-normal.woff2", w)
			out = append(out, Document{Path: dir + name, MediaType: "font/woff2", Body: mustFontFile(slug, name)})
		}
	}
	return out
}

// mustFontFile reads an embedded font file; a missing one is a build
// mistake that the font test catches, so it panics.
func mustFontFile(slug, name string) []byte {
	b, err := fs.ReadFile(fontFiles, path.Join("fonts", slug, name))
	if err != nil {
		panic("render: hosted font " + slug + ": " + err.Error())
	}
	return b
}

// HostedFontDirs lists the folders of embedded font files, for the test
// that holds them equal to schemas.HostedFontFamilies.
func HostedFontDirs() []string {
	entries, _ := fs.ReadDir(fontFiles, "fonts")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
