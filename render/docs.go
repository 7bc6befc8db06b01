package render

import (
	"bytes"
	_ "embed"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// The documentation pages llms.txt links (DISC-06) and the pages beside
// them: the price list (PRIV-25, DISC-09) and the index of the published
// schemas (PRIV-02). Each is written once, as markdown, and the page for
// people is made from that markdown, so the two never say different
// things. Like every registry page they are pure functions of the site.

// A docPage is one documentation page: its name (the path under /docs/),
// its title, and its markdown.
type docPage struct {
	Name, Title string
	Markdown    func(Site) string
}

// docPages are the documentation pages in the order the pages list them
// (a function, since the pages' footers list them in turn).
func docPages() []docPage {
	return []docPage{
		{"data-contract", "What AI apps read: the data contract", dataContractMarkdown},
		{"entry-schema", "The entry schema", entrySchemaMarkdown},
		{"identifiers", "Identifiers and addresses", identifiersMarkdown},
		{"verification", "Verification", verificationMarkdown},
		{"prices", "Price list", pricesMarkdown},
	}
}

// DocsPages are the documentation pages as published documents: for each,
// the markdown at /docs/{name}.md and the page at /docs/{name}; and the
// index of the published schemas at /schemas/0.1/.
func DocsPages(s Site) []Document { return renderSpecs(docsPageSpecs(s)) }

func docsPageSpecs(s Site) []pageSpec {
	var out []pageSpec
	for _, d := range docPages() {
		out = append(out,
			pageSpec{"/docs/" + d.Name + ".md", "text/markdown; charset=utf-8", func() []byte { return []byte(d.Markdown(s)) }},
			pageSpec{"/docs/" + d.Name, "text/html; charset=utf-8", func() []byte { return docHTML(s, d, d.Markdown(s)) }})
	}
	return append(out, pageSpec{SchemaIndexPath, "text/html; charset=utf-8", func() []byte { return SchemaIndexPage(s) }})
}

// docsFooter is the list of documentation links every documentation
// page ends with, so a reader reaches every page from every other.
func docsFooter(s Site) string {
	var b strings.Builder
	b.WriteString("\n## More documentation\n\n")
	for _, d := range docPages() {
		b.WriteString("- [" + d.Title + "](" + s.BaseURL + "/docs/" + d.Name + ".md)\n")
	}
	b.WriteString("- [The REST API](" + s.BaseURL + "/docs/api)\n")
	b.WriteString("- [How search ranks](" + s.BaseURL + "/docs/ranking.md)\n")
	b.WriteString("- [The published schemas](" + s.BaseURL + SchemaIndexPath + ")\n")
	b.WriteString("- [llms.txt](" + s.BaseURL + "/llms.txt)\n")
	return b.String()
}

// docMarkdown renders markdown to HTML with GitHub's tables.
var docMarkdown = goldmark.New(goldmark.WithExtensions(extension.Table), goldmark.WithParserOptions(parser.WithAutoHeadingID()))

// docHTML is a documentation page for people: its markdown as HTML,
// with the links between documentation pages pointing at the pages
// rather than the markdown, and a footer naming Daawid's privacy notice
// (HTTP-21).
func docHTML(s Site, d docPage, md string) []byte {
	var body bytes.Buffer
	if err := docMarkdown.Convert([]byte(md), &body); err != nil {
		panic("render: docs " + d.Name + ": " + err.Error())
	}
	html := body.String()
	for _, other := range docPages() {
		html = strings.ReplaceAll(html, `href="`+s.BaseURL+"/docs/"+other.Name+`.md"`, `href="`+s.BaseURL+"/docs/"+other.Name+`"`)
	}
	var b bytes.Buffer
	err := docPageHTML.Execute(&b, map[string]any{"Base": s.BaseURL, "Title": d.Title, "Name": d.Name, "Body": template.HTML(html)})
	if err != nil {
		panic("render: docs " + d.Name + ": " + err.Error())
	}
	return b.Bytes()
}

// docStyle keeps documentation pages readable at 390 px: wide tables and
// the contract's preformatted text scroll or wrap inside the page.
const docStyle = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1b1b1b;overflow-wrap:anywhere}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}th,td{text-align:left;vertical-align:top;padding:.25rem .5rem;border-bottom:1px solid #ddd}
footer{margin-top:2rem;border-top:1px solid #ddd;padding-top:.5rem}`

var docPageHTML = template.Must(template.New("doc").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Daawid</title>
<link rel="alternate" type="text/markdown" href="{{.Base}}/docs/{{.Name}}.md">
<style>
` + docStyle + `
</style>
</head>
<body>
<header><a href="{{.Base}}/">Daawid</a> · <a href="{{.Base}}/docs/{{.Name}}.md">markdown</a></header>
<main>
{{.Body}}</main>
<footer><a href="{{.Base}}/docs/api">API</a> · <a href="{{.Base}}/docs/prices">Prices</a> · <a href="{{.Base}}/privacy">Privacy</a></footer>
</body>
</html>
`))

//go:embed contract/data-contract-0.1.txt
var dataContractText string

// dataContractMarkdown is the data contract as published (DISC-06): its
// text, byte for byte, inside one fenced block, so the contract's own
// examples (which hold markdown headings and frontmatter) cannot be read
// as this document's structure. PRIV-02: the text is CC BY 4.0, and it
// says so with its attribution.
func dataContractMarkdown(s Site) string {
	fence := "```"
	for strings.Contains(dataContractText, fence) {
		fence += "`"
	}
	var b strings.Builder
	b.WriteString("# What AI apps read: the data contract (v0.1)\n\n")
	b.WriteString("This is the data contract this registry implements, as Daawid published it: \"What AI apps read\", version 0.1 of Daawid's open specification, by Daawid, licensed under [CC BY 4.0](https://creativecommons.org/licenses/by/4.0/). It is reproduced unchanged. The reference schemas and validator are Apache 2.0, published at [" + s.BaseURL + SchemaIndexPath + "](" + s.BaseURL + SchemaIndexPath + ").\n\n")
	b.WriteString("In the text, `daawid.example`, `api.daawid.example` and `mcp.daawid.example` stand for this registry's addresses: " + s.BaseURL + ", " + s.APIURL + " and " + s.MCPURL + ". Where the contract leaves a question open, [the entry schema](" + s.BaseURL + "/docs/entry-schema.md), [identifiers](" + s.BaseURL + "/docs/identifiers.md) and [verification](" + s.BaseURL + "/docs/verification.md) say what this registry does.\n\n")
	b.WriteString(fence + "text\n" + strings.TrimRight(dataContractText, "\n") + "\n" + fence + "\n")
	b.WriteString(docsFooter(s))
	return b.String()
}
