package render_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
)

// mdOutline parses markdown with a CommonMark + GFM parser and returns the
// top-level headings by level, the number of raw HTML nodes, links, images
// and each table's row widths.
type mdOutline struct {
	h1, h2, h3        []string
	rawHTML           int
	links, images     int
	tableRowsBadWidth int
	tables            int
}

func outline(t *testing.T, src []byte) mdOutline {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	// Drop the frontmatter: it is YAML, not markdown.
	body := src
	if bytes.HasPrefix(src, []byte("---\n")) {
		if i := bytes.Index(src[4:], []byte("\n---\n")); i >= 0 {
			body = src[4+i+5:]
		}
	}
	doc := md.Parser().Parse(text.NewReader(body))
	var o mdOutline
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindHeading:
			h := n.(*ast.Heading)
			txt := string(h.Lines().Value(body))
			if h.Parent() != doc {
				t.Errorf("heading %q is nested inside a %s", txt, h.Parent().Kind())
			}
			switch h.Level {
			case 1:
				o.h1 = append(o.h1, txt)
			case 2:
				o.h2 = append(o.h2, txt)
			case 3:
				o.h3 = append(o.h3, txt)
			default:
				t.Errorf("unexpected level-%d heading %q", h.Level, txt)
			}
		case ast.KindHTMLBlock, ast.KindRawHTML:
			o.rawHTML++
		case ast.KindLink:
			// The renderer writes URLs bare (GFM autolinks them); an inline
			// link [text](url) can only come from owner text.
			o.links++
		case ast.KindAutoLink:
			if u := string(n.(*ast.AutoLink).URL(body)); !strings.HasPrefix(u, "https://") && !strings.Contains(u, "@") {
				t.Errorf("autolink to %q", u)
			}
		case ast.KindImage:
			o.images++
		case extast.KindTable:
			o.tables++
			width := -1
			for r := n.FirstChild(); r != nil; r = r.NextSibling() {
				c := r.ChildCount()
				if width == -1 {
					width = c
				} else if c != width {
					o.tableRowsBadWidth++
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return o
}

// TestInjection_MD_SectionsSurviveHostileText renders the injection fixture
// in every language: the markdown parses to exactly the sections, headings
// and table the entry has, with no HTML, image or link that came from its
// texts (MD-17, MD-32, MD-56, PRIV-13 framing "data, not instructions").
func TestInjection_MD_SectionsSurviveHostileText(t *testing.T) {
	site := testSite(t)
	e := fixtures.Entry("injection-werkstatt-probe")
	wantH2 := []string{"Facts", "Offerings", "Hours", "Contact & routing", "Actions", "Credentials", "FAQ", "Voice", "Legal", "Provenance"}
	for _, lang := range e.Languages {
		o := outline(t, render.Markdown(e, lang, site))
		if len(o.h1) != 1 {
			t.Errorf("%s: %d level-1 headings, want 1: %q", lang, len(o.h1), o.h1)
		}
		if strings.Join(o.h2, "|") != strings.Join(wantH2, "|") {
			t.Errorf("%s: sections %q, want %q", lang, o.h2, wantH2)
		}
		if want := len(e.Offerings) + len(e.EnabledActions()); len(o.h3) != want {
			t.Errorf("%s: %d level-3 headings, want %d (one per offering and action): %q", lang, len(o.h3), want, o.h3)
		}
		if o.rawHTML != 0 || o.images != 0 {
			t.Errorf("%s: %d raw HTML nodes and %d images came through", lang, o.rawHTML, o.images)
		}
		if o.links != 0 {
			t.Errorf("%s: %d markdown links parsed; owner text must not form links", lang, o.links)
		}
		if o.tables != 1 || o.tableRowsBadWidth != 0 {
			t.Errorf("%s: %d tables, %d rows of another width: the routing table must stay 3 columns", lang, o.tables, o.tableRowsBadWidth)
		}
	}
}

var allowedElements = map[string]bool{
	"html": true, "head": true, "meta": true, "title": true, "link": true, "style": true, "script": true,
	"body": true, "header": true, "main": true, "article": true, "section": true, "footer": true, "nav": true,
	"h1": true, "h2": true, "h3": true, "p": true, "ul": true, "li": true, "table": true, "thead": true,
	"tbody": true, "tr": true, "th": true, "td": true, "code": true, "strong": true, "br": true, "a": true,
	"div": true, // the box a table scrolls in on a phone (issue 15)
}

var allowedAttrs = map[string]bool{
	"lang": true, "charset": true, "name": true, "content": true, "rel": true, "href": true, "type": true,
	"hreflang": true, "class": true, "id": true, "scope": true,
}

// checkHTMLStructure parses a page and fails on any element, attribute or
// link that is not one the renderer writes itself.
func checkHTMLStructure(t *testing.T, label string, page []byte) (ldScripts []string) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if !allowedElements[n.Data] {
				t.Errorf("%s: element <%s> is not one the renderer writes", label, n.Data)
			}
			for _, a := range n.Attr {
				if !allowedAttrs[a.Key] {
					t.Errorf("%s: attribute %s on <%s> is not one the renderer writes", label, a.Key, n.Data)
				}
				if a.Key == "href" && !strings.HasPrefix(a.Val, "https://") {
					t.Errorf("%s: href %q is not https", label, a.Val)
				}
				if a.Key == "href" && strings.Contains(a.Val, "evil.example") {
					t.Errorf("%s: a link to %q came from owner text", label, a.Val)
				}
			}
			if n.Data == "script" {
				if typ := attr(n, "type"); typ != "application/ld+json" {
					t.Errorf("%s: a script of type %q", label, typ)
				}
				if n.FirstChild != nil {
					ldScripts = append(ldScripts, n.FirstChild.Data)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return ldScripts
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestInjection_HTTP17_HTMLHasNoElementFromText renders every fixture's
// pages and checks that the only elements and attributes are the
// renderer's own: no script but the JSON-LD, no element or attribute an
// owner typed (HTTP-17, PRIV-22), and that the embedded JSON-LD is exactly
// one script that parses (HTTP-18, LD-15).
func TestInjection_HTTP17_HTMLHasNoElementFromText(t *testing.T) {
	site := testSite(t)
	for _, e := range allEntries(t) {
		for _, lang := range e.Languages {
			label := e.Slug + "/" + lang
			scripts := checkHTMLStructure(t, label, render.HTML(e, lang, site))
			if len(scripts) != 1 {
				t.Fatalf("%s: %d JSON-LD scripts, want 1", label, len(scripts))
			}
			if !json.Valid([]byte(scripts[0])) {
				t.Errorf("%s: the embedded JSON-LD does not parse", label)
			}
			if want := string(render.EmbeddedJSONLD(e, lang, site)); scripts[0] != want {
				t.Errorf("%s: the script holds something other than the embedded JSON-LD", label)
			}
			if page, ok := render.LegalPage(e, lang, site); ok {
				checkHTMLStructure(t, label+" legal", page)
			}
		}
	}
}

// TestInjection_LD11_JSONLDParses checks that the standalone JSON-LD of
// every fixture parses and keeps hostile text as string values.
func TestInjection_LD11_JSONLDParses(t *testing.T) {
	site := testSite(t)
	for _, e := range allEntries(t) {
		var v map[string]any
		if err := json.Unmarshal(render.JSONLD(e, site), &v); err != nil {
			t.Errorf("%s: %v", e.Slug, err)
		}
	}
	e := fixtures.Entry("injection-werkstatt-probe")
	var v struct {
		Graph []map[string]any `json:"@graph"`
	}
	if err := json.Unmarshal(render.JSONLD(e, site), &v); err != nil {
		t.Fatal(err)
	}
	if got := v.Graph[1]["name"]; got != e.DisplayName {
		t.Errorf("name = %q, want the display name as it was typed %q", got, e.DisplayName)
	}
}

// TestLocalityOnly_PRIV18_StreetInNoOutput renders the locality-only person
// in every format and language and looks for its stored street and extra
// line (PRIV-18, I15, VIEW-23, LD-61).
func TestLocalityOnly_PRIV18_StreetInNoOutput(t *testing.T) {
	site := testSite(t)
	e := fixtures.Entry("person-miriam-hoffmann")
	loc := e.Locations[0]
	if loc.Address.Street == "" || loc.Address.Extra == "" || loc.AddressDisplay != "locality_only" {
		t.Fatal("the fixture must store a street and an extra line at locality level")
	}
	for _, f := range render.Formats {
		for _, lang := range e.Languages {
			out := f.Render(e, lang, site, nil)
			for _, secret := range []string{loc.Address.Street, loc.Address.Extra, "Geheimweg"} {
				if bytes.Contains(out, []byte(secret)) {
					t.Errorf("%s/%s shows %q", f.Name, lang, secret)
				}
			}
		}
	}
}
