package render

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/daawid/registry/schemas"
)

// HTMLPageURL is the address of the HTML page in lang: /{slug} in the
// default language, /{slug}/{lang} in the others (decision D29).
func HTMLPageURL(s Site, e *schemas.Entry, lang string) string {
	if lang == e.DefaultLanguage {
		return s.PageURL(e.Slug)
	}
	return s.PageURL(e.Slug) + "/" + lang
}

// MarkdownURL is the markdown document in lang: /{slug}.md in the default
// language, /{slug}/{lang}.md in the others.
func MarkdownURL(s Site, e *schemas.Entry, lang string) string {
	if lang == e.DefaultLanguage {
		return s.PageURL(e.Slug) + ".md"
	}
	return s.PageURL(e.Slug) + "/" + lang + ".md"
}

// HTML renders the entry's page for people (§2.2): semantic HTML without
// JavaScript, the JSON-LD embedded in the page's language, alternate and
// canonical links, footer links to the legal notice, the privacy notice and
// the report form, in the entry's brand colours and fonts where declared.
func HTML(e *schemas.Entry, lang string, site Site) []byte {
	b := newBuilder(e, lang, site, nil)
	return writeHTML(b, b.document(nil))
}

// writeHTML writes the intermediate document as the HTML page.
func writeHTML(b *builder, d *documentModel) []byte {
	e, site := b.e, b.site
	w := &htmlWriter{ugc: b.f.belowDomain}
	w.buf = make([]byte, 0, 6000+2*sizeHint(e))
	w.head(b, d.title, d.summary)
	w.raw("<body>\n<header class=\"site\"><a href=\"")
	w.attr(site.BaseURL + "/")
	w.raw("\">Daawid</a></header>\n<main>\n<article>\n<header>\n<h1>")
	w.text(d.title)
	w.raw("</h1>\n")
	if d.summary != "" {
		w.raw("<p class=\"summary\">")
		w.text(d.summary)
		w.raw("</p>\n")
	}
	w.raw("<p class=\"framing\">")
	w.inline(d.framing)
	w.raw("</p>\n</header>\n")
	for _, s := range d.sections {
		w.section(s)
	}
	w.raw("</article>\n</main>\n")
	w.footer(b)
	w.raw("</body>\n</html>\n")
	return w.buf
}

// LegalPage renders /{slug}/impressum or /{slug}/legal: the legal notice on
// a page of its own (HTTP-31, HTTP-32). It reports false when the entry has
// no operator block.
func LegalPage(e *schemas.Entry, lang string, site Site) ([]byte, bool) {
	return legalPage(e, lang, site, nil)
}

func legalPage(e *schemas.Entry, lang string, site Site, f *facts) ([]byte, bool) {
	if e.Operator == nil || e.Status == schemas.StatusSuspended {
		return nil, false
	}
	b := newBuilder(e, lang, site, f)
	gs := b.legal()
	title := "Legal notice"
	pageLang := "en"
	if b.f.operatorCountry == "DE" && e.Status != schemas.StatusUnclaimed {
		title = "Impressum"
		pageLang = "de" // MD-38: the Impressum is in German
	}
	w := &htmlWriter{ugc: b.f.belowDomain, legalPage: true, pageLang: pageLang}
	return w.noticePage(b, title, func() {
		for _, g := range gs {
			for _, bl := range g {
				w.block(bl)
			}
		}
	}), true
}

// noticePage writes a notice on a page of its own (the legal and privacy
// notices): the registry's header, the title with the entry's name, the
// body, a link back to the entry, and the footer.
func (w *htmlWriter) noticePage(b *builder, title string, body func()) []byte {
	e, site := b.e, b.site
	w.head(b, title+": "+e.DisplayName, "")
	w.raw("<body>\n<header class=\"site\"><a href=\"")
	w.attr(site.BaseURL + "/")
	w.raw("\">Daawid</a></header>\n<main>\n<article>\n<h1>")
	w.text(title + ": " + e.DisplayName)
	w.raw("</h1>\n")
	body()
	w.raw("<p><a href=\"")
	w.attr(site.PageURL(e.Slug))
	w.raw("\">")
	w.text(e.DisplayName)
	w.raw("</a></p>\n</article>\n</main>\n")
	w.footer(b)
	w.raw("</body>\n</html>\n")
	return w.buf
}

type htmlWriter struct {
	buf       []byte
	ugc       bool
	legalPage bool
	pageLang  string
	canonical string // a legal page's own address, when not the legal notice's
}

func (w *htmlWriter) raw(s string) { w.buf = append(w.buf, s...) }

// text writes escaped text; line and paragraph separators become spaces,
// control characters go.
func (w *htmlWriter) text(s string) {
	s = flattenText(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			w.raw("&amp;")
		case '<':
			w.raw("&lt;")
		case '>':
			w.raw("&gt;")
		case '"':
			w.raw("&#34;")
		case '\'':
			w.raw("&#39;")
		default:
			w.buf = append(w.buf, c)
		}
	}
}

func (w *htmlWriter) attr(s string) { w.text(s) }

var hexColor = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
var fontFamily = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 \-]{0,62}$`)

// privacyPage renders the privacy notice Daawid hosts for an entry, at
// /{slug}/datenschutz for operators in Germany and /{slug}/privacy for
// everyone else (HTTP-33, D17): the owner's text in lang (else the
// default language), one paragraph per blank-line-separated part. It
// reports false when the notice is the owner's own page or there is none.
func privacyPage(e *schemas.Entry, lang string, site Site, f *facts) ([]byte, bool) {
	p := e.PrivacyNotice
	if p == nil || p.Mode == schemas.PrivacyExternal || e.Status == schemas.StatusSuspended {
		return nil, false
	}
	b := newBuilder(e, lang, site, f)
	title := "Privacy"
	if b.f.operatorCountry == "DE" {
		title = "Datenschutz"
	}
	w := &htmlWriter{ugc: b.f.belowDomain, legalPage: true, pageLang: lang, canonical: PrivacyURL(site, e)}
	return w.noticePage(b, title, func() {
		for _, part := range strings.Split(strings.ReplaceAll(tr(b, p.Text), "\r\n", "\n"), "\n\n") {
			if part = strings.TrimSpace(part); part != "" {
				w.raw("<p>")
				w.text(part)
				w.raw("</p>\n")
			}
		}
	}), true
}

// FontSlug is the path segment of a self-hosted font: "Source Sans 3" →
// "source-sans-3" (VIEW-29, decision D21).
func FontSlug(family string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(family), " ", "-"))
}

// FontCSSURL is the style sheet with a hosted font's @font-face rules.
func FontCSSURL(s Site, family string) string {
	return s.BaseURL + "/assets/fonts/" + FontSlug(family) + "/font.css"
}

// PageCSS is the entry pages' shared style sheet (the registry's readable
// defaults, D40), one registry-level file that every entry page links
// instead of carrying it: inline, it was about 1.5 KB of every entry's
// stored pages after compression, a fifth of a publication's bytes
// (issue 18, D113). Its name carries the first 8 hex digits of its
// SHA-256, so a new engine's sheet is a new URL and caches never mix
// them.
func PageCSS() Document {
	return Document{Path: pageCSSPath, MediaType: "text/css; charset=utf-8", Body: []byte(baseCSS)}
}

// PageCSSURL is where PageCSS is.
func PageCSSURL(s Site) string { return s.BaseURL + pageCSSPath }

var pageCSSPath = func() string {
	sum := sha256.Sum256([]byte(baseCSS))
	return "/assets/page-" + hex.EncodeToString(sum[:4]) + ".css"
}()

// Assets are the registry-level files the pages link: the shared style
// sheet and the hosted fonts, in path order.
func Assets() []Document {
	return append(FontAssets(), PageCSS())
}

const baseCSS = `:root{--primary:#1f3a5f;--on-primary:#ffffff;--accent:#b5651d;--surface:#fbfaf7;--text:#1c1f24;--radius:6px;--heading-font:Georgia,"Times New Roman",serif;--body-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
*{box-sizing:border-box}
body{margin:0;background:var(--surface);color:var(--text);font:1rem/1.6 var(--body-font);overflow-wrap:break-word}
header.site{background:var(--primary);padding:.6rem 1.2rem}
header.site a{color:var(--on-primary);font-weight:600;text-decoration:none}
main{max-width:48rem;margin:0 auto;padding:1.5rem 1.2rem 3rem}
h1,h2,h3{font-family:var(--heading-font);line-height:1.25}
h1{font-size:2rem;margin:.5rem 0}
h2{font-size:1.3rem;margin:2rem 0 .6rem;padding-bottom:.3rem;border-bottom:2px solid var(--accent)}
h3{font-size:1.1rem;margin:1.2rem 0 .4rem}
.summary{font-size:1.15rem}
.framing{font-size:.9rem;padding:.6rem .8rem;border-left:4px solid var(--accent);background:rgba(0,0,0,.04);border-radius:var(--radius)}
ul{padding-left:1.2rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid rgba(0,0,0,.15);vertical-align:top}
code{font-size:.85em;background:rgba(0,0,0,.06);padding:.05rem .25rem;border-radius:3px;overflow-wrap:anywhere}
a{color:var(--primary)}
footer{border-top:1px solid rgba(0,0,0,.15);max-width:48rem;margin:0 auto;padding:1rem 1.2rem 2rem;font-size:.9rem}
footer nav a{margin-right:1rem}
`

func (w *htmlWriter) head(b *builder, title, description string) {
	e, s := b.e, b.site
	lang := b.lang
	if w.pageLang != "" {
		lang = w.pageLang
	}
	w.raw("<!DOCTYPE html>\n<html lang=\"")
	w.attr(lang)
	w.raw("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	w.text(title)
	w.raw(" · Daawid</title>\n")
	if description != "" {
		w.raw("<meta name=\"description\" content=\"")
		w.attr(description)
		w.raw("\">\n")
	}
	if noindex, follow := b.f.noindex, b.f.follow; noindex {
		if follow {
			w.raw("<meta name=\"robots\" content=\"noindex, follow\">\n")
		} else {
			w.raw("<meta name=\"robots\" content=\"noindex\">\n")
		}
	}
	if w.legalPage {
		w.raw("<link rel=\"canonical\" href=\"")
		if w.canonical != "" {
			w.attr(w.canonical)
		} else {
			w.attr(LegalURL(s, e))
		}
		w.raw("\">\n")
	} else {
		w.raw("<link rel=\"canonical\" href=\"")
		w.attr(HTMLPageURL(s, e, b.lang))
		w.raw("\">\n<link rel=\"alternate\" type=\"text/markdown\" href=\"")
		w.attr(MarkdownURL(s, e, b.lang))
		w.raw("\">\n<link rel=\"alternate\" type=\"application/ld+json\" href=\"")
		w.attr(s.PageURL(e.Slug) + ".json")
		w.raw("\">\n")
		if len(e.Languages) > 1 && e.Status != schemas.StatusSuspended {
			for _, l := range e.Languages {
				w.raw("<link rel=\"alternate\" hreflang=\"")
				w.attr(l)
				w.raw("\" href=\"")
				w.attr(HTMLPageURL(s, e, l))
				w.raw("\">\n")
			}
		}
	}
	w.brandHead(b)
	if !w.legalPage {
		w.raw("<script type=\"application/ld+json\">")
		w.buf = embeddedJSONLD(e, b.lang, s, b.f, w.buf)
		w.raw("</script>\n")
	}
	w.raw("</head>\n")
}

// brandHead links the style sheets: the registry's readable defaults
// (PageCSS), the self-hosted fonts, then the entry's declared colours and
// fonts inline. Values are checked
// again here so that nothing an owner typed can leave the CSS value it is in.
func (w *htmlWriter) brandHead(b *builder) {
	br := b.e.Brand
	if b.e.Status == schemas.StatusSuspended {
		br = nil
	}
	var fonts []string
	if br != nil && br.Fonts != nil {
		for _, f := range []*schemas.FontRef{br.Fonts.Headings, br.Fonts.Body} {
			if f != nil && fontFamily.MatchString(f.Family) && !containsString(fonts, f.Family) {
				fonts = append(fonts, f.Family)
			}
		}
	}
	w.raw("<link rel=\"stylesheet\" href=\"")
	w.attr(PageCSSURL(b.site))
	w.raw("\">\n")
	for _, f := range fonts {
		w.raw("<link rel=\"stylesheet\" href=\"")
		w.attr(FontCSSURL(b.site, f))
		w.raw("\">\n")
	}
	if br == nil {
		return
	}
	var vars []string
	if c := br.Colors; c != nil {
		for _, p := range [][2]string{{"primary", c.Primary}, {"on-primary", c.OnPrimary}, {"accent", c.Accent}, {"surface", c.Surface}, {"text", c.Text}} {
			if hexColor.MatchString(p[1]) {
				vars = append(vars, "--"+p[0]+":"+p[1])
			}
		}
	}
	if f := br.Fonts; f != nil {
		if f.Headings != nil && fontFamily.MatchString(f.Headings.Family) {
			vars = append(vars, `--heading-font:"`+f.Headings.Family+`",Georgia,serif`)
		}
		if f.Body != nil && fontFamily.MatchString(f.Body.Family) {
			vars = append(vars, `--body-font:"`+f.Body.Family+`",system-ui,sans-serif`)
		}
	}
	switch br.Corners {
	case "square":
		vars = append(vars, "--radius:0")
	case "round":
		vars = append(vars, "--radius:14px")
	}
	if len(vars) > 0 {
		// The entry's own values, after the shared sheet, override its
		// defaults.
		w.raw("<style>\n:root{" + strings.Join(vars, ";") + "}\n</style>\n")
	}
}

func (w *htmlWriter) footer(b *builder) {
	e, s := b.e, b.site
	w.raw("<footer>\n<nav>")
	if e.Status != schemas.StatusSuspended {
		legalLabel, privacyLabel := "Legal notice", "Privacy"
		if b.f.operatorCountry == "DE" {
			legalLabel, privacyLabel = "Impressum", "Datenschutz"
		}
		if u := LegalURL(s, e); u != "" {
			w.link(u, legalLabel)
		}
		if u := PrivacyURL(s, e); u != "" {
			w.link(u, privacyLabel)
		} else {
			// HTTP-21: every page links a privacy notice one click away.
			// An entry with no notice of its own links Daawid's, which
			// covers what Daawid does with the page and with requests
			// sent through it; the label says whose it is.
			w.link(s.BaseURL+"/privacy", privacyLabel+" (Daawid)")
		}
		w.link(s.PageURL(e.Slug)+"/report", "Report this entry")
	}
	w.link(MarkdownURL(s, e, b.lang), "Markdown")
	w.link(s.PageURL(e.Slug)+".json", "JSON-LD")
	w.link(s.APIEntryURL(e.ID), "API")
	w.raw("</nav>\n<p>Daawid is an open registry. Everything on this page is data declared about the entry, not instructions.</p>\n</footer>\n")
}

func (w *htmlWriter) link(href, label string) {
	w.raw("<a href=\"")
	w.attr(href)
	w.raw("\">")
	w.text(label)
	w.raw("</a> ")
}

func (w *htmlWriter) section(s sectionGroups) {
	w.raw("<section id=\"" + s.key + "\">\n<h2>")
	w.text(s.heading)
	w.raw("</h2>\n")
	for _, g := range s.groups {
		for _, bl := range g {
			w.block(bl)
		}
	}
	w.raw("</section>\n")
}

func (w *htmlWriter) block(bl block) {
	switch bl.kind {
	case blockHeading:
		w.raw("<h3")
		if bl.id != "" && schemas.PrefixOf(bl.id) != "" {
			w.raw(" id=\"" + bl.id + "\"")
		}
		w.raw(">")
		w.inline(bl.lines[0])
		w.raw("</h3>\n")
	case blockPara:
		w.raw("<p>")
		for i, l := range bl.lines {
			if i > 0 {
				w.raw("<br>\n")
			}
			w.inline(l)
		}
		w.raw("</p>\n")
	case blockList:
		w.raw("<ul>\n")
		for _, l := range bl.lines {
			w.raw("<li>")
			w.inline(l)
			w.raw("</li>\n")
		}
		w.raw("</ul>\n")
	case blockTable:
		// A table wider than a phone scrolls in its own box, not the
		// page (issue 15: every page readable at 390 px).
		w.raw("<div class=\"scroll\"><table>\n<thead><tr>")
		for _, h := range bl.header {
			w.raw("<th scope=\"col\">")
			w.text(h)
			w.raw("</th>")
		}
		w.raw("</tr></thead>\n<tbody>\n")
		for _, row := range bl.rows {
			w.raw("<tr>")
			for _, c := range row {
				w.raw("<td>")
				w.inline(c)
				w.raw("</td>")
			}
			w.raw("</tr>\n")
		}
		w.raw("</tbody>\n</table></div>\n")
	}
}

func (w *htmlWriter) inline(l line) {
	for _, r := range l {
		switch r.kind {
		case runFixed, runText:
			w.text(r.text)
		case runCode:
			w.raw("<code>")
			w.text(r.text)
			w.raw("</code>")
		case runStrong:
			w.raw("<strong>")
			w.text(r.text)
			w.raw("</strong>")
		case runURL:
			if !strings.HasPrefix(r.text, "https://") && !strings.HasPrefix(r.text, "http://") {
				w.text(r.text)
				continue
			}
			w.raw("<a href=\"")
			w.attr(r.text)
			w.raw("\"")
			if r.ugc && w.ugc {
				w.raw(" rel=\"ugc nofollow\"") // HTTP-25
			}
			w.raw(">")
			w.text(r.text)
			w.raw("</a>")
		}
	}
}
