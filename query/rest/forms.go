package rest

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
	"github.com/oklog/ulid/v2"
)

// The pages for people besides the entry pages: the report form (HTTP-22,
// verification.md §2.1 as D68 decides it) and the home page; the claim
// pages (HTTP-34) are claim.go's. Semantic HTML with one inline style
// sheet and no script (HTTP-17); nothing sets a cookie and nothing is
// loaded from elsewhere.

// formCSS is the style every page for people shares: the page's width and
// type, and the form controls. Each page set adds its own rules after it.
const formCSS = `{{define "formcss"}}body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:42rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#fff}
label{display:block;margin-top:1rem;font-weight:600}
select,textarea,input{font:inherit;width:100%;box-sizing:border-box;padding:.4rem;margin-top:.25rem}
footer{margin-top:2rem;font-size:.9rem;color:#555}
{{end}}`

var pageTemplates = template.Must(template.New("page").Parse(formCSS + `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, follow">
<title>{{.Title}}</title>
<style>
{{template "formcss"}}header.site a{font-weight:700;text-decoration:none;color:#1b1b1b}
button{font:inherit;margin-top:1rem;padding:.5rem 1rem}
.error{color:#a00000}
</style>
</head>
<body>
<header class="site"><a href="{{.Base}}/">Daawid</a></header>
<main>
{{template "body" .}}
</main>
<footer>{{with .Legal}}<a href="{{.}}">{{$.LegalLabel}}</a> · {{end}}{{with .Privacy}}<a href="{{.}}">{{$.PrivacyLabel}}</a> · {{end}}<a href="{{.Base}}/llms.txt">llms.txt</a> · <a href="{{.Base}}/docs/api">API</a></footer>
</body>
</html>
`))

var (
	reportPage = template.Must(template.Must(pageTemplates.Clone()).Parse(`{{define "body"}}<h1>Report {{.Name}}</h1>
{{if .Sent}}<p>Thank you. Your report about <a href="{{.Page}}">{{.Name}}</a> was recorded and will be reviewed. While it is open, search engines are asked not to index the entry's page.</p>
{{else}}<p>Tell us what is wrong with the entry <a href="{{.Page}}">{{.Name}}</a>. Reports are reviewed by people; the entry's owner does not see who reported it.</p>
{{range .Errors}}<p class="error">{{.}}</p>{{end}}
<form method="post" action="{{.Action}}">
<label for="reason">Reason</label>
<select id="reason" name="reason" required>
{{range .Reasons}}<option value="{{.Code}}"{{if eq .Code $.Reason}} selected{{end}}>{{.Label}}</option>
{{end}}</select>
<label for="message">What is wrong (10 to 4000 characters)</label>
<textarea id="message" name="message" rows="6" minlength="10" maxlength="4000" required>{{.Message}}</textarea>
<label for="email">Your email, if we may ask you about the report (optional)</label>
<input id="email" name="email" type="email" maxlength="254" value="{{.Email}}">
<button type="submit">Send report</button>
</form>{{end}}{{end}}`))
	errorPage = template.Must(template.Must(pageTemplates.Clone()).Parse(`{{define "body"}}<h1>{{.Problem.Title}}</h1>
<p>{{.Problem.Detail}}</p>
<p><a href="{{.Base}}/">Daawid</a> · <a href="{{.Base}}/docs/api#{{.Problem.Code}}">{{.Problem.Code}}</a></p>{{end}}`))
)

// reportReasons are what a report can be about (D68).
var reportReasons = []struct{ Code, Label string }{
	{"wrong_information", "The information is wrong or outdated"},
	{"impersonation", "Someone else claims to be this business or person"},
	{"illegal_content", "It contains illegal content"},
	{"personal_data", "It shows personal data that should not be public"},
	{"spam_or_fraud", "It is spam or fraud"},
	{"other", "Something else"},
}

type reportView struct {
	entryPage
	Action, Reason, Message, Email string
	Sent                           bool
	Errors                         []string
	Reasons                        any
}

// entryPage is what a page for people about an entry shows of it: its
// name and page, and the footer links to its legal and privacy notices
// (HTTP-21: one click from every page).
type entryPage struct {
	Title, Base, Name, Page, ID              string
	Legal, LegalLabel, Privacy, PrivacyLabel string
}

func (s *Server) reportEntry(rd *query.Read, slug string) (*query.Resolved, entryPage, error) {
	e, err := rd.BySlug(slug)
	if err != nil {
		return nil, entryPage{}, err
	}
	d, err := rd.EntryDoc(e.ID, render.KindView, e.DefaultLanguage())
	if err != nil {
		return nil, entryPage{}, err
	}
	b, err := d.Bytes()
	if err != nil {
		return nil, entryPage{}, err
	}
	var v schemas.EntryView
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, entryPage{}, err
	}
	p := entryPage{Base: s.site.BaseURL, Name: v.DisplayName, Page: s.site.PageURL(e.Slug), ID: e.ID,
		Legal: v.Links.Legal, LegalLabel: "Legal notice", Privacy: v.Links.Privacy, PrivacyLabel: "Privacy"}
	if strings.HasSuffix(p.Legal, "/impressum") {
		p.LegalLabel = "Impressum"
	}
	if strings.HasSuffix(p.Privacy, "/datenschutz") {
		p.PrivacyLabel = "Datenschutz"
	}
	return e, p, nil
}

// reportForm shows the report form of an entry (HTTP-22).
func (s *Server) reportForm(c *gin.Context, rd *query.Read, slug string) error {
	e, page, err := s.reportEntry(rd, slug)
	if err != nil {
		return err
	}
	page.Title = "Report " + page.Name
	v := reportView{entryPage: page, Action: "/" + e.Slug + "/report", Reasons: reportReasons, Sent: c.Query("sent") == "1"}
	return s.writePage(c, http.StatusOK, reportPage, v)
}

// report is a report as the moderators' file keeps it. The reporter's
// address is kept only when given, for the moderators, and never leaves
// that file.
type report struct {
	ID      string `json:"id"`
	Entry   string `json:"entry"`
	Slug    string `json:"slug"`
	At      string `json:"at"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Email   string `json:"email,omitempty"`
}

// reportPost records a report: one line in reports.jsonl for the
// moderators, and a report_opened event (D49) in events.jsonl, which the
// next pipeline run applies, opening the entry's noindex window (§2.2,
// HTTP-24) within a minute on the schedule.
func (s *Server) reportPost(c *gin.Context, rd *query.Read, slug string) error {
	if s.cfg.Reports == "" {
		return &query.Error{Code: query.CodeUnavailable, Message: "this registry takes no reports"}
	}
	if err := s.limit(c); err != nil {
		return err
	}
	e, page, err := s.reportEntry(rd, slug)
	if err != nil {
		return err
	}
	page.Title = "Report " + page.Name
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 64<<10)
	reason, message, email := c.PostForm("reason"), strings.TrimSpace(c.PostForm("message")), strings.TrimSpace(c.PostForm("email"))
	var problems []string
	known := false
	for _, r := range reportReasons {
		known = known || r.Code == reason
	}
	if !known {
		problems = append(problems, "reason: choose one of the reasons")
	}
	if n := utf8.RuneCountInString(message); n < 10 || n > 4000 {
		problems = append(problems, "message: say in 10 to 4000 characters what is wrong")
	}
	if email != "" {
		if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
			problems = append(problems, "email: is not an email address")
		}
	}
	if len(problems) > 0 {
		v := reportView{entryPage: page, Action: "/" + e.Slug + "/report", Reasons: reportReasons, Reason: reason, Message: message, Email: email, Errors: problems}
		return s.writePage(c, http.StatusUnprocessableEntity, reportPage, v)
	}
	now := s.cfg.Now().UTC()
	id := "rep_" + strings.ToLower(ulid.MustNew(ulid.Timestamp(now), rand.Reader).String())
	at := schemas.FormatTime(now)
	if err := s.appendReport(report{ID: id, Entry: e.ID, Slug: e.Slug, At: at, Reason: reason, Message: message, Email: email},
		map[string]string{"entry": e.ID, "type": "report_opened", "at": at}); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	s.log.Info("report recorded", "report", id, "entry", e.ID, "reason", reason)
	c.Redirect(http.StatusSeeOther, "/"+e.Slug+"/report?sent=1")
	return nil
}

func (s *Server) appendReport(r report, event map[string]string) error {
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	if err := os.MkdirAll(s.cfg.Reports, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"reports.jsonl", r}, {"events.jsonl", event}} {
		b, _ := json.Marshal(f.v)
		fh, err := os.OpenFile(filepath.Join(s.cfg.Reports, f.name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		_, err = fh.Write(append(b, '\n'))
		if serr := fh.Sync(); err == nil {
			err = serr
		}
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) writePage(c *gin.Context, status int, t *template.Template, v any) error {
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return err
	}
	h := c.Writer.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	c.Status(status)
	if c.Request.Method != http.MethodHead {
		c.Writer.Write(buf.Bytes())
	}
	return nil
}
