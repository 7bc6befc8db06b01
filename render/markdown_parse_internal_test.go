package render

import (
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmtext "github.com/yuin/goldmark/text"
)

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// checkInlineMarkdown parses "- {out}" and fails when the item holds
// anything but text: a heading, HTML, a link, an image, emphasis or code.
func checkInlineMarkdown(t *testing.T, in string, out []byte) {
	src := append([]byte("- "), out...)
	doc := gfm.Parser().Parse(gmtext.NewReader(src))
	items := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindListItem:
			items++
		case ast.KindDocument, ast.KindList, ast.KindParagraph, ast.KindTextBlock, ast.KindText, ast.KindString:
		case ast.KindAutoLink:
			// GFM turns a bare www. or https:// in text into a link; that is
			// the text itself, not markup.
		default:
			t.Fatalf("%q became %s in %q", in, n.Kind(), src)
		}
		return ast.WalkContinue, nil
	})
	if items > 1 {
		t.Fatalf("%q made %d list items: %q", in, items, src)
	}
}
