package rest

import (
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/claim"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The claim pages (HTTP-34, D96): /claim/{entryId} starts a claim (the
// person's address, the domain and the method of proof), and
// /claim/{entryId}/{token} is the claim's own page: the mailed code, the
// DNS record or file to place with its "Check now" button, and the end.
// Pages for people like the action pages: semantic HTML, one inline style
// sheet, no script, no cookie; every step is a form POST answered by a
// redirect (or the page again with the refusal), so it works without
// JavaScript.

var (
	claimStartPage = template.Must(template.Must(personBase.Clone()).Parse(`{{define "body"}}<h1>Claim {{.Name}}</h1>
<p>The entry <a href="{{.Page}}">{{.Name}}</a> (<code>{{.ID}}</code>) was compiled by Daawid from public sources. If it is your business, claim it: once you prove that you control its website's domain, the entry is yours, reads as declared by the business from the next publication, and you can keep it true from the AI app you use. <a href="{{.Base}}/docs/verification">What claiming and verification mean</a>.</p>
{{with .Error}}<p class="error" role="alert">{{.}}</p>{{end}}
{{if not .Unclaimed}}<p class="notice">This entry is already claimed: its owner keeps it.</p>
{{else if not .Hosts}}<p class="notice">This entry names no website, so it cannot be claimed online yet: a claim proves control of the business's domain, and Daawid knows none for this entry. Daawid does not offer another way to claim it online today.</p>
{{else if not .Open}}<p class="notice">This registry takes no claims online.</p>
{{else}}<form method="post" action="/claim/{{.ID}}">
<label for="email">Your email address <span class="hint">(you sign in with it to manage the entry)</span></label>
<input id="email" name="email" type="email" maxlength="254" autocomplete="email" value="{{.Email}}" required>
{{if eq (len .Hosts) 1}}<input type="hidden" name="domain" value="{{index .Hosts 0}}">
<p>The business's domain: <strong>{{index .Hosts 0}}</strong></p>
{{else}}<label for="domain">The business's domain</label>
<select id="domain" name="domain" required>{{range .Hosts}}<option value="{{.}}"{{if eq . $.Host}} selected{{end}}>{{.}}</option>{{end}}</select>
{{end}}<fieldset><legend>How you prove the business is yours</legend>
<label><input type="radio" name="method" value="email_code"{{if or (eq .Method "") (eq .Method "email_code")}} checked{{end}}> A code mailed to your address at the domain <span class="hint">(your email address above must be at the domain)</span></label>
<label><input type="radio" name="method" value="dns_txt"{{if eq .Method "dns_txt"}} checked{{end}}> A TXT record in the domain's DNS</label>
<label><input type="radio" name="method" value="well_known_file"{{if eq .Method "well_known_file"}} checked{{end}}> A file on the website, at /.well-known/daawid-verification.txt</label>
</fieldset>
<p>Next, Daawid emails you a code. For a DNS record or a file, the next page shows what to put there; a claim waits 7 days for it.</p>
<button class="primary" type="submit">Continue</button>
</form>{{end}}{{end}}`))

	claimStatusPage = template.Must(template.Must(personBase.Clone()).Parse(`{{define "body"}}<h1>Claim {{.Name}}</h1>
{{with .Message}}<p class="ok" role="status">{{.}}</p>{{end}}
{{with .Error}}<p class="error" role="alert">{{.}}</p>{{end}}
{{if .C.Done}}<p class="ok" id="claimed">Claimed. <a href="{{.Page}}">{{.Name}}</a> is yours: it becomes your entry with the next publication, within a minute on the registry's schedule.</p>
<h2>Keep it true from your AI app</h2>
<p>Add Daawid's MCP server, <code>{{.MCP}}</code>, to the AI app you use. When the app asks to manage your entries, it opens Daawid's connect page: sign in there with {{.C.Email}} and the code Daawid emails you, and allow the app. It can then update your entry, its offerings and how busy you are.</p>
{{else}}<p>You claim <a href="{{.Page}}">{{.Name}}</a> as <strong>{{.C.Email}}</strong>, by {{.How}} on <strong>{{.C.Host}}</strong>. This claim waits until {{.Expires}} UTC.</p>
<h2>{{if eq .C.Method "email_code"}}Type the code{{else}}1. Confirm your email address{{end}}</h2>
{{if .C.EmailConfirmed}}<p class="ok">{{.C.Email}} is confirmed.</p>
{{else if .C.Locked}}<p class="error">Too many wrong codes: this claim is locked. <a href="/claim/{{.ID}}">Start again</a>.</p>
{{else}}<p>Daawid emailed a code to {{.C.Email}}. It works for 15 minutes.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="op" value="code">
<label for="code">The six-digit code from the email</label>
<input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required>
<button class="primary" type="submit">Confirm</button>
</form>
<form method="post" action="{{.Action}}"><input type="hidden" name="op" value="resend"><button type="submit"{{if not .C.CodesLeft}} disabled{{end}}>Email me a new code</button></form>
{{end}}{{if ne .C.Method "email_code"}}<h2>2. {{if eq .C.Method "dns_txt"}}Add the DNS record{{else}}Put the file on the website{{end}}</h2>
{{if .C.Proved}}<p class="ok">Found: {{.C.Host}} holds this claim's value.</p>
{{else}}{{if eq .C.Method "dns_txt"}}<p>Add this TXT record to the domain {{.C.Host}} itself (the name "@" in most DNS panels):</p>
<p class="words"><code id="value">daawid-verification={{.C.Value}}</code></p>
{{else}}<p>Put a plain-text file at <code>https://{{.C.Host}}/.well-known/daawid-verification.txt</code> whose first line is:</p>
<p class="words"><code id="value">{{.C.Value}}</code></p>
{{end}}<p class="hint">The value is this claim's alone; keep it to yourself until it is in place.</p>
<form method="post" action="{{.Action}}"><input type="hidden" name="op" value="check"><button class="primary" type="submit">Check now</button></form>
{{end}}{{end}}{{end}}{{end}}`))
)

// claimView is what the claim pages show.
type claimView struct {
	Lang, Title, Base, Name, Page, ID string
	T                                 *pageTexts
	Hosts                             []string
	Unclaimed, Open                   bool
	Email, Host, Method, Error        string
	// The claim's own page.
	C                                  *claim.Claim
	Action, How, Expires, Message, MCP string
}

// MountClaims puts the claim flow (query/claim) behind the claim pages;
// without it the pages say that the registry takes no claims online.
func (s *Server) MountClaims(c *claim.Service) { s.claims = c }

// claimEntry reads what a claim needs of an entry from its published
// view: its name, revision, status and the domains it names.
func (s *Server) claimEntry(rd *query.Read, id string) (claim.Entry, claimView, error) {
	if !schemas.ValidID(schemas.PrefixEntry, id) {
		return claim.Entry{}, claimView{}, &query.Error{Code: query.CodeNotFound, Message: id + " is not an entry ID"}
	}
	r, err := rd.ByID(id)
	if err != nil {
		return claim.Entry{}, claimView{}, err
	}
	d, err := rd.EntryDoc(r.ID, render.KindView, r.DefaultLanguage())
	if err != nil {
		return claim.Entry{}, claimView{}, err
	}
	b, err := d.Bytes()
	if err != nil {
		return claim.Entry{}, claimView{}, err
	}
	var v schemas.EntryView
	if err := json.Unmarshal(b, &v); err != nil {
		return claim.Entry{}, claimView{}, err
	}
	e := claim.Entry{ID: r.ID, Name: v.DisplayName, Revision: v.Record.Revision, Unclaimed: v.Status == schemas.StatusUnclaimed}
	for _, h := range v.Domains {
		e.Hosts = append(e.Hosts, strings.ToLower(h.Host))
	}
	for _, h := range v.Verification.Domains {
		e.Hosts = append(e.Hosts, strings.ToLower(h.Host))
	}
	slices.Sort(e.Hosts)
	e.Hosts = slices.Compact(e.Hosts)
	cv := claimView{Lang: "en", T: textsFor("en"), Title: "Claim " + v.DisplayName, Base: s.site.BaseURL, Name: v.DisplayName,
		Page: s.site.PageURL(r.Slug), ID: r.ID, Hosts: e.Hosts, Unclaimed: e.Unclaimed, Open: s.claims != nil, MCP: s.site.MCPURL}
	return e, cv, nil
}

// claimPage serves GET /claim/{entryId} and GET /claim/{entryId}/{token}.
func (s *Server) claimPage(c *gin.Context, rd *query.Read, rest string) error {
	id, token, hasToken := strings.Cut(rest, "/")
	e, v, err := s.claimEntry(rd, id)
	if err != nil {
		return err
	}
	if !hasToken {
		return s.writePage(c, http.StatusOK, claimStartPage, v)
	}
	if s.claims == nil {
		return &query.Error{Code: query.CodeNotFound, Message: "this registry takes no claims online"}
	}
	cl, err := s.claims.Load(c.Request.Context(), e.ID, token, s.cfg.Now())
	if err != nil {
		return s.claimRefusal(c, claimStartPage, v, err)
	}
	v.Message = claimMessages[c.Query("done")]
	return s.writeClaim(c, http.StatusOK, v, cl)
}

// claimMessages are what a step's redirect says it did.
var claimMessages = map[string]string{
	"code":    "Your email address is confirmed.",
	"resend":  "Daawid has emailed you a new code.",
	"check":   "Found: the domain holds this claim's value.",
	"started": "Daawid has emailed you a code.",
}

func (s *Server) writeClaim(c *gin.Context, status int, v claimView, cl *claim.Claim) error {
	return s.writePage(c, status, claimStatusPage, withClaim(v, cl))
}

// claimRefusal shows a refusal of the claim flow on a page, naming its
// field (claim.Error); any other error is the server's.
func (s *Server) claimRefusal(c *gin.Context, t *template.Template, v claimView, err error) error {
	var ce *claim.Error
	if !errors.As(err, &ce) {
		return err
	}
	v.Error = ce.Error()
	return s.writePage(c, ce.Status, t, v)
}

// claimPost serves POST /claim/{entryId} (start) and POST
// /claim/{entryId}/{token} (a step: op code, resend or check).
func (s *Server) claimPost(c *gin.Context, rd *query.Read, rest string) error {
	if err := s.limit(c); err != nil {
		return err
	}
	id, token, hasToken := strings.Cut(rest, "/")
	e, v, err := s.claimEntry(rd, id)
	if err != nil {
		return err
	}
	if s.claims == nil {
		return &query.Error{Code: query.CodeUnavailable, Message: "this registry takes no claims online"}
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 16<<10)
	ctx, now := c.Request.Context(), s.cfg.Now()
	if !hasToken {
		v.Email, v.Host, v.Method = strings.TrimSpace(c.PostForm("email")), c.PostForm("domain"), c.PostForm("method")
		cl, err := s.claims.Start(ctx, e, v.Email, v.Method, v.Host, now)
		if err != nil {
			return s.claimRefusal(c, claimStartPage, v, err)
		}
		c.Redirect(http.StatusSeeOther, "/claim/"+e.ID+"/"+cl.Token+"?done=started")
		return nil
	}
	cl, err := s.claims.Load(ctx, e.ID, token, now)
	if err != nil {
		return s.claimRefusal(c, claimStartPage, v, err)
	}
	op := c.PostForm("op")
	switch op {
	case "code":
		err = s.claims.ConfirmCode(ctx, cl, c.PostForm("code"), now)
	case "resend":
		err = s.claims.SendCode(ctx, cl, e.Name, now)
	case "check":
		err = s.claims.Check(ctx, cl, now)
	default:
		err = &claim.Error{Field: "op", Message: "is not a step of a claim", Status: http.StatusBadRequest}
	}
	if err == nil {
		err = s.claims.Finish(ctx, cl, e, now)
	}
	if err != nil {
		return s.claimRefusal(c, claimStatusPage, withClaim(v, cl), err)
	}
	c.Redirect(http.StatusSeeOther, "/claim/"+e.ID+"/"+cl.Token+"?done="+op)
	return nil
}

// withClaim fills a view for the claim's own page.
func withClaim(v claimView, cl *claim.Claim) claimView {
	v.C, v.Action, v.Expires = cl, "/claim/"+v.ID+"/"+cl.Token, cl.Expires.UTC().Format("2006-01-02 15:04")
	v.How = map[string]string{claim.MethodEmail: "a code mailed to your address at the domain", claim.MethodDNS: "a DNS TXT record",
		claim.MethodFile: "a file on the website"}[cl.Method]
	return v
}
