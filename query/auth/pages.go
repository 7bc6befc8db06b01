package auth

import (
	"html/template"
	"net/http"
)

// The connect pages (MCP-16): like the registry's other pages for
// people (query/rest's person pages), semantic HTML with one inline
// style sheet, no script, no cookie, nothing loaded from elsewhere, in
// Daawid's look. The page's token in its path is what ties the steps
// together.

type pageData struct {
	// Step is "email", "code", "consent", "waiting", "confirmed" or
	// "error".
	Step, Token, App, AppURL, Email, Error string
	Home                                   string
	// Entries are the signed-in owner's entries, offered as downloads on
	// the consent step (PRIV-29).
	Entries []pageEntry
	// EntryName, EntryID, Sections and Expires describe a change waiting
	// for the owner (MCP-26).
	EntryName, EntryID, Expires string
	Sections                    []string
}

// pageEntry is one of the owner's entries on the connect page.
type pageEntry struct{ ID, Name string }

var pageTemplate = template.Must(template.New("connect").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>{{if eq .Step "error"}}Cannot go on{{else if or (eq .Step "waiting") (eq .Step "confirmed")}}Confirm a change to {{.EntryName}}{{else}}Connect an app to Daawid{{end}}</title>
<style>
:root{--brand:#1f4e79}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;max-width:40rem;margin:0 auto;padding:1rem;color:#1a1a1a;overflow-wrap:anywhere}
header.site{border-bottom:4px solid var(--brand);padding-bottom:.5rem;margin-bottom:1rem}
header.site a{font-weight:700;text-decoration:none;color:var(--brand)}
h1{font-size:1.5rem;line-height:1.25}
label{display:block;font-weight:600;margin-top:1rem}
input{font:inherit;width:100%;max-width:24rem;padding:.4rem;border:1px solid #888;border-radius:4px;box-sizing:border-box}
button{font:inherit;margin-top:1rem;padding:.55rem 1.1rem;border-radius:4px;border:1px solid var(--brand);background:#fff;color:var(--brand);cursor:pointer}
button.primary{background:var(--brand);color:#fff}
.app{border-left:4px solid #999;padding:.25rem 0 .25rem 1rem;background:#f6f6f6}
.error{border:1px solid #a00000;background:#fdecec;color:#700000;padding:.5rem 1rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}
.row form{margin:0}
footer{margin-top:2rem;border-top:1px solid #ccc;padding-top:.5rem;font-size:.9rem;color:#555}
</style>
</head>
<body>
<header class="site"><a href="{{.Home}}/">Daawid</a></header>
<main>
{{if eq .Step "error"}}<h1>Cannot go on</h1>
<p class="error" role="alert">{{.Error}}</p>
{{else if eq .Step "waiting"}}<h1>Confirm the change to {{.EntryName}}</h1>
<p>An app you connected asks to change these sections of <strong>{{.EntryName}}</strong> (<code>{{.EntryID}}</code>): {{range $i, $s := .Sections}}{{if $i}}, {{end}}<code>{{$s}}</code>{{end}}.</p>
<p>They go live with the next publication once you confirm. This link works once, until {{.Expires}}. If you did not ask for this change, close this page: nothing changes.</p>
<form method="post" action="/owner/confirm/{{.Token}}"><button class="primary" type="submit">Confirm the change</button></form>
{{else if eq .Step "confirmed"}}<h1>Change confirmed</h1>
<p>The change to {{range $i, $s := .Sections}}{{if $i}}, {{end}}<code>{{$s}}</code>{{end}} of <strong>{{.EntryName}}</strong> (<code>{{.EntryID}}</code>) goes live with the next publication, usually within minutes.</p>
{{else}}<h1>Connect {{.App}} to your Daawid entries</h1>
<div class="app"><p><strong>{{.App}}</strong><br><code>{{.AppURL}}</code></p></div>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{if eq .Step "email"}}<p>Sign in with the email address your entry was claimed with. Daawid emails you a code.</p>
<form method="post" action="/connect/{{.Token}}/email">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button class="primary" type="submit">Email me a code</button>
</form>
{{else if eq .Step "code"}}<p>If {{.Email}} owns an entry on Daawid, a code is on its way there. It works for 15 minutes.</p>
<form method="post" action="/connect/{{.Token}}/code">
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required>
<button class="primary" type="submit">Sign in</button>
</form>
{{else if eq .Step "consent"}}<p>{{.App}} asks to list and update your entries on Daawid for you (scope <code>entries:write</code>). It gets no other access, and changes to your name, contact details, addresses or legal details still wait for your confirmation by email.</p>
<div class="row">
<form method="post" action="/connect/{{.Token}}/consent"><input type="hidden" name="decision" value="allow"><button class="primary" type="submit">Allow</button></form>
<form method="post" action="/connect/{{.Token}}/consent"><input type="hidden" name="decision" value="deny"><button type="submit">Deny</button></form>
</div>
{{if .Entries}}<h2>Your entries in the open format</h2>
<ul>{{range .Entries}}<li><a href="/connect/{{$.Token}}/entries/{{.ID}}.json" download>{{.Name}} ({{.ID}}).json</a></li>{{end}}</ul>
<p>Each file is your entry as Daawid publishes it, in the open format. It does not hold what Daawid keeps private: contact points you marked private, where requests to you are delivered, and the street of an address shown only by its town. Those stay in Daawid's pipeline and are never published.</p>
{{end}}{{end}}{{end}}
</main>
<footer><a href="{{.Home}}/privacy">Privacy</a></footer>
</body>
</html>
`))

func (s *Server) page(w http.ResponseWriter, status int, pd pageData) {
	pd.Home = s.cfg.PagesURL
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.WriteHeader(status)
	if err := pageTemplate.Execute(w, pd); err != nil {
		s.cfg.Log.Error("auth: page", "err", err)
	}
}

func (s *Server) errorPage(w http.ResponseWriter, status int, msg string) {
	s.page(w, status, pageData{Step: "error", Error: msg})
}
