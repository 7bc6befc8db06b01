package render

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/daawid/registry/schemas"
)

// APIDocs renders /docs/api, the REST mirror's page for people (REST-13):
// every route of schemas.APIRoutes with its parameters, and every error
// code with its status at the anchor a problem's type points to
// (/docs/api#{code}, REST-28). Semantic HTML, no script.
func APIDocs(s Site) []byte {
	type param struct{ Name, In, Type, Description string }
	type kind struct {
		Tool   string
		Fields []param
	}
	type route struct {
		Method, Path, ID, Summary, Description, Tool, Cache string
		Buyer                                               bool
		Params                                              []param
		Errors                                              string
		Kinds                                               []kind // the request body's kinds
	}
	var routes []route
	for _, r := range schemas.APIRoutes() {
		rt := route{Method: r.Method, Path: r.Path, ID: r.OperationID, Summary: r.Summary, Description: r.Description,
			Tool: r.Tool, Cache: r.Cache, Buyer: r.Buyer, Errors: strings.Join(r.Errors, ", ")}
		for _, p := range r.Params {
			t, _ := p.Schema["type"].(string)
			if p.List {
				t = "list"
			}
			rt.Params = append(rt.Params, param{Name: p.Name, In: p.In, Type: t, Description: p.Description})
		}
		if r.Body != nil {
			for _, k := range schemas.RequestKinds() {
				kd := kind{Tool: string(k.Type)}
				for _, f := range k.Fields {
					need := "optional"
					switch {
					case f.Required:
						need = "required"
					case f.RequiredBy != "":
						need = "when the action asks for it"
					}
					kd.Fields = append(kd.Fields, param{Name: f.Name, In: need, Type: string(f.Type), Description: f.Description})
				}
				rt.Kinds = append(rt.Kinds, kd)
			}
		}
		routes = append(routes, rt)
	}
	var b bytes.Buffer
	err := apiDocsPage.Execute(&b, map[string]any{"Base": s.BaseURL, "API": s.APIURL, "MCP": s.MCPURL, "Routes": routes, "Codes": schemas.ErrorCodes})
	if err != nil {
		panic("render: api docs: " + err.Error())
	}
	return b.Bytes()
}

var apiDocsPage = template.Must(template.New("api").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Daawid REST API</title>
<link rel="alternate" type="application/vnd.oai.openapi+json" href="{{.Base}}/schemas/0.1/openapi.json">
<style>
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1b1b1b;overflow-wrap:break-word}
.scroll{overflow-x:auto}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.25rem .5rem;border-bottom:1px solid #ddd}
section{margin-top:2rem}
</style>
</head>
<body>
<header><a href="{{.Base}}/">Daawid</a></header>
<main>
<h1>The REST API</h1>
<p>The registry's reads, and requests to businesses, over HTTP at <code>{{.API}}/v1</code>: the same data, inputs and error codes as the MCP server at <code>{{.MCP}}</code>. A request waits until the person confirms it on Daawid's page with a code Daawid emails them; nothing is sent before. Reads are public and free: 300 a minute for each kind of reader from one address (an IPv6 address counts by its /64). Answers are JSON; errors are <a href="https://www.rfc-editor.org/rfc/rfc9457">RFC 9457</a> problems. The machine-readable description is <a href="{{.Base}}/schemas/0.1/openapi.json">openapi.json</a> (OpenAPI 3.1, Apache 2.0).</p>
<p>Entry answers carry <code>ETag</code>, <code>Last-Modified</code>, <code>Content-Language</code>, <code>Cache-Control</code> and <code>Link</code>; send <code>If-None-Match</code> to get <code>304 Not Modified</code>. Parameters nobody defined are ignored.</p>
{{range .Routes}}<section id="{{.ID}}">
<h2><code>{{.Method}} {{.Path}}</code></h2>
<p>{{.Summary}}{{if .Tool}} (MCP: <code>{{.Tool}}</code>){{end}}.{{if .Buyer}} Needs a buyer key, sent as <code>Authorization: Bearer dwk_…</code>.{{end}}</p>
<p>{{.Description}}</p>
{{if .Params}}<div class="scroll"><table>
<thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Meaning</th></tr></thead>
<tbody>{{range .Params}}
<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{.Type}}</td><td>{{.Description}}</td></tr>{{end}}
</tbody>
</table></div>{{end}}
{{range .Kinds}}<h3>The body of <code>{{.Tool}}</code></h3>
<div class="scroll"><table>
<thead><tr><th>Field</th><th></th><th>Type</th><th>Meaning</th></tr></thead>
<tbody>{{range .Fields}}
<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{.Type}}</td><td>{{.Description}}</td></tr>{{end}}
</tbody>
</table></div>
{{end}}<p>Cache-Control: <code>{{.Cache}}</code>. Errors: {{.Errors}}.</p>
</section>
{{end}}<section id="errors">
<h2>Errors</h2>
<p>Every error is <code>application/problem+json</code>: <code>{type, title, status, detail, code, retryAfterSeconds?, issues?}</code>. <code>code</code> is one of these, and <code>type</code> points here.</p>
<dl>
{{range .Codes}}<dt id="{{.Code}}"><code>{{.Code}}</code> ({{.Status}})</dt>
<dd>{{.Meaning}}</dd>
{{end}}</dl>
</section>
</main>
<footer><p>More: <a href="{{.Base}}/docs/data-contract">the data contract</a> · <a href="{{.Base}}/docs/entry-schema">the entry schema</a> · <a href="{{.Base}}/docs/identifiers">identifiers</a> · <a href="{{.Base}}/docs/verification">verification</a> · <a href="{{.Base}}/docs/ranking">how search ranks</a> · <a href="{{.Base}}/docs/prices">price list</a> (bulk exports and the change feed) · <a href="{{.Base}}/schemas/0.1/">schemas</a> · <a href="{{.Base}}/llms.txt">llms.txt</a> · <a href="{{.Base}}/privacy">privacy</a></p></footer>
</body>
</html>
`))
