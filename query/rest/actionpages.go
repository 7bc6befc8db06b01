package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// formInput is one control of an action's web form.
type formInput struct {
	ID, Name, Label, Type, Value, Hint, Auto string
	Min, Max                                 int
	Required                                 bool
	Options                                  []formOption
}

type formOption struct{ Value, Label string }

type actionFormView struct {
	Lang, Title, Base, Heading, Name, EntryPage, Action, Wording string
	T                                                            *pageTexts
	Inputs                                                       []formInput
	Errors                                                       []string
}

// formLanguage is a form's language: ?lang=, else the browser's first
// Accept-Language, else the entry's default language (German or English).
func formLanguage(c *gin.Context, entryLang string) string {
	if l := c.Query("lang"); l != "" {
		return actions.PageLanguage(l)
	}
	if l := c.PostForm("lang"); l != "" {
		return actions.PageLanguage(l)
	}
	if al := c.GetHeader("Accept-Language"); al != "" {
		first, _, _ := strings.Cut(al, ",")
		first, _, _ = strings.Cut(first, ";")
		return actions.PageLanguage(strings.TrimSpace(first))
	}
	return actions.PageLanguage(entryLang)
}

// actionForm shows an action's web form (HTTP-36), for actions that have
// one (D14). It starts the same pending run as the tools do.
func (s *Server) actionForm(c *gin.Context, rd *query.Read, slug, actionID string) error {
	e, a, err := s.formAction(rd, slug, actionID)
	if err != nil {
		return err
	}
	lang := formLanguage(c, e.DefaultLanguage)
	v := s.formView(e, a, lang, nil)
	return s.writePage(c, http.StatusOK, actionFormPage, v)
}

// formAction finds an action with a web form.
func (s *Server) formAction(rd *query.Read, slug, actionID string) (*schemas.Entry, *schemas.Action, error) {
	r, err := rd.BySlug(slug)
	if err != nil {
		return nil, nil, err
	}
	e, err := rd.Revision(r.ID)
	if err != nil {
		return nil, nil, err
	}
	a := e.Action(actionID)
	if a == nil || !a.Enabled || !a.WebForm || a.Handoff() {
		return nil, nil, &query.Error{Code: query.CodeNotFound, Message: "the entry " + e.Slug + " has no web form for " + actionID}
	}
	return e, a, nil
}

func (s *Server) formView(e *schemas.Entry, a *schemas.Action, lang string, vals url.Values) actionFormView {
	t := textsFor(lang)
	name := a.Name.Resolve(lang, e.DefaultLanguage)
	v := actionFormView{Lang: lang, T: t, Base: s.site.BaseURL, Name: e.DisplayName, EntryPage: s.site.PageURL(e.Slug),
		Action: "/" + e.Slug + "/actions/" + a.ID, Heading: name + " – " + e.DisplayName, Title: name + " – " + e.DisplayName}
	if e.BelowDomain() {
		v.Wording = actions.ContactWording(e, lang) // ACT-35
	}
	v.Inputs = formInputs(e, a, lang, t)
	for i := range v.Inputs {
		if vals != nil {
			v.Inputs[i].Value = vals.Get(v.Inputs[i].Name)
		}
	}
	return v
}

// formInputs are an action's form controls, in the order of its kind's
// fields (§7.5), required as the action's rules say (the same rules as
// its inputSchema, ACT-24).
func formInputs(e *schemas.Entry, a *schemas.Action, lang string, t *pageTexts) []formInput {
	req := func(name string) bool { return actions.FieldRequired(a, name) }
	l := func(en, de string) string {
		if lang == "de" {
			return de
		}
		return en
	}
	var in []formInput
	add := func(f formInput) {
		f.ID = strings.NewReplacer(".", "-", "[", "-", "]", "").Replace(f.Name)
		in = append(in, f)
	}
	offerings := a.OfferingIDs
	if len(offerings) == 0 {
		for _, o := range e.Offerings {
			offerings = append(offerings, o.ID)
		}
	}
	if a.Type != schemas.ActionSendMessage && len(offerings) > 0 {
		f := formInput{Name: "offeringId", Label: t.Offering, Type: "select"}
		for _, id := range offerings {
			if o := e.Offering(id); o != nil {
				f.Options = append(f.Options, formOption{Value: id, Label: o.Name.Resolve(lang, e.DefaultLanguage)})
			}
		}
		add(f)
	}
	zone := entryZone(e)
	timeHint := fmt.Sprintf(t.TimesIn, zone)
	switch a.Type {
	case schemas.ActionRequestQuote:
		add(formInput{Name: "description", Label: l("What do you need?", "Was brauchen Sie?"), Type: "textarea", Min: 10, Max: 4000, Required: true})
		add(formInput{Name: "postalCode", Label: l("Postal code where the work is", "Postleitzahl des Auftragsorts"), Type: "text", Min: 3, Max: 10, Auto: "postal-code", Required: req("postalCode")})
		add(formInput{Name: "desiredTiming", Label: l("When?", "Wann?"), Type: "text", Max: 200, Required: req("desiredTiming")})
		add(formInput{Name: "budget.max", Label: t.BudgetMax, Type: "text", Max: 15, Hint: "5000.00", Required: req("budget")})
		add(formInput{Name: "budget.currency", Label: t.BudgetCurrency, Type: "text", Max: 3, Hint: "EUR", Required: req("budget")})
	case schemas.ActionRequestCallback:
		add(formInput{Name: "topic", Label: l("What is it about?", "Worum geht es?"), Type: "textarea", Min: 3, Max: 500, Required: true})
		for i := range 3 {
			add(formInput{Name: fmt.Sprintf("preferredTimes.%d.from", i), Label: fmt.Sprintf(l("Preferred time %d, from", "Wunschzeit %d, von"), i+1), Type: "datetime-local", Hint: timeHint})
			add(formInput{Name: fmt.Sprintf("preferredTimes.%d.to", i), Label: fmt.Sprintf(l("Preferred time %d, until", "Wunschzeit %d, bis"), i+1), Type: "datetime-local", Hint: timeHint})
		}
	case schemas.ActionRequestAppointment:
		add(formInput{Name: "purpose", Label: l("What is the appointment for?", "Wofür ist der Termin?"), Type: "textarea", Min: 3, Max: 1000, Required: true})
		add(formInput{Name: "postalCode", Label: l("Postal code", "Postleitzahl"), Type: "text", Min: 3, Max: 10, Auto: "postal-code", Required: req("postalCode")})
		for i := range 3 {
			add(formInput{Name: fmt.Sprintf("preferredSlots.%d.from", i), Label: fmt.Sprintf(l("Preferred slot %d, from", "Wunschtermin %d, von"), i+1), Type: "datetime-local", Hint: timeHint, Required: i == 0})
			add(formInput{Name: fmt.Sprintf("preferredSlots.%d.to", i), Label: fmt.Sprintf(l("Preferred slot %d, until", "Wunschtermin %d, bis"), i+1), Type: "datetime-local", Hint: timeHint, Required: i == 0})
		}
	case schemas.ActionSendMessage:
		add(formInput{Name: "subject", Label: l("Subject", "Betreff"), Type: "text", Min: 3, Max: 200, Required: true})
		add(formInput{Name: "message", Label: l("Message", "Nachricht"), Type: "textarea", Min: 10, Max: 4000, Required: true})
	}
	for _, q := range a.Questions {
		f := formInput{Name: "answers." + q.Key, Label: q.Label.Resolve(lang, e.DefaultLanguage), Required: q.Required}
		switch q.Type {
		case schemas.QuestionBoolean:
			f.Type, f.Required = "checkbox", false
		case schemas.QuestionNumber:
			f.Type = "number"
		case schemas.QuestionChoice:
			f.Type = "select"
			for _, o := range q.Options {
				f.Options = append(f.Options, formOption{Value: o.Value, Label: o.Label.Resolve(lang, e.DefaultLanguage)})
			}
		default:
			f.Type, f.Max = "text", 1000
		}
		add(f)
	}
	add(formInput{Name: "requester.name", Label: t.Name, Type: "text", Min: 2, Max: 120, Auto: "name", Required: true})
	add(formInput{Name: "requester.email", Label: t.Email, Type: "email", Max: 254, Auto: "email", Required: true,
		Hint: l("(Daawid emails you a code there to confirm)", "(dorthin mailt Daawid den Code zum Bestätigen)")})
	add(formInput{Name: "requester.phone", Label: t.Phone, Type: "tel", Max: 30, Auto: "tel", Required: req("requester.phone")})
	add(formInput{Name: "requester.preferredChannel", Label: t.PreferredChannel, Type: "select",
		Options: []formOption{{"email", t.ChannelEmail}, {"phone", t.ChannelPhone}}})
	return in
}

// entryZone is the time zone the form's times are read in: the primary
// location's (times from a form have no offset, and ACT-19 refuses a time
// whose clock is unknown), else UTC.
func entryZone(e *schemas.Entry) string {
	if l := e.PrimaryLocation(); l != nil && l.TimeZone != "" {
		return l.TimeZone
	}
	return "UTC"
}

// formRequest turns a form's values into the kind's input, as a tool
// call would send it.
func formRequest(e *schemas.Entry, a *schemas.Action, vals url.Values, lang string) []byte {
	m := map[string]any{"entry": e.Slug, "actionId": a.ID}
	requester := map[string]any{"language": lang}
	loc, err := time.LoadLocation(entryZone(e))
	if err != nil {
		loc = time.UTC
	}
	ranges := map[string][]map[string]any{}
	for k, vs := range vals {
		v := strings.TrimSpace(vs[0])
		switch {
		case k == "lang" || v == "" && !strings.HasPrefix(k, "answers."):
		case strings.HasPrefix(k, "requester."):
			requester[strings.TrimPrefix(k, "requester.")] = v
		case strings.HasPrefix(k, "budget."):
			b, _ := m["budget"].(map[string]any)
			if b == nil {
				b = map[string]any{}
				m["budget"] = b
			}
			b[strings.TrimPrefix(k, "budget.")] = v
		case strings.HasPrefix(k, "answers."):
			key := strings.TrimPrefix(k, "answers.")
			ans, _ := m["answers"].(map[string]any)
			if ans == nil {
				ans = map[string]any{}
				m["answers"] = ans
			}
			var q *schemas.Question
			for i := range a.Questions {
				if a.Questions[i].Key == key {
					q = &a.Questions[i]
				}
			}
			switch {
			case q != nil && q.Type == schemas.QuestionBoolean:
				ans[key] = v == "true"
			case v == "":
				delete(ans, key)
			case q != nil && q.Type == schemas.QuestionNumber:
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					ans[key] = f
				} else {
					ans[key] = v
				}
			default:
				ans[key] = v
			}
		case strings.HasPrefix(k, "preferredTimes.") || strings.HasPrefix(k, "preferredSlots."):
			parts := strings.Split(k, ".")
			if len(parts) != 3 {
				continue
			}
			i, err := strconv.Atoi(parts[1])
			if err != nil || i < 0 || i > 4 {
				continue
			}
			list := ranges[parts[0]]
			for len(list) <= i {
				list = append(list, map[string]any{})
			}
			if t, err := time.ParseInLocation("2006-01-02T15:04", v, loc); err == nil {
				v = t.Format(time.RFC3339)
			}
			list[i][parts[2]] = v
			ranges[parts[0]] = list
		default:
			m[k] = v
		}
	}
	// Unchecked boxes send nothing: a boolean question left unchecked is
	// answered "no".
	for _, q := range a.Questions {
		if q.Type == schemas.QuestionBoolean {
			ans, _ := m["answers"].(map[string]any)
			if ans == nil {
				ans = map[string]any{}
				m["answers"] = ans
			}
			if _, ok := ans[q.Key]; !ok {
				ans[q.Key] = false
			}
		}
	}
	for k, list := range ranges {
		var kept []map[string]any
		for _, r := range list {
			if len(r) > 0 {
				kept = append(kept, r)
			}
		}
		if len(kept) > 0 {
			m[k] = kept
		}
	}
	m["requester"] = requester
	b, _ := json.Marshal(m)
	return b
}

// actionFormPost starts a run from the web form and sends the person to
// its confirmation page; a mistake shows the form again with it.
func (s *Server) actionFormPost(c *gin.Context, rd *query.Read, slug, actionID string) error {
	if err := s.sameOrigin(c); err != nil {
		return err
	}
	if s.cfg.Actions == nil {
		return s.noActions()
	}
	e, a, err := s.formAction(rd, slug, actionID)
	if err != nil {
		return err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxRequestBody)
	if err := c.Request.ParseForm(); err != nil {
		return query.InvalidInput([]query.Issue{{Field: "form", Message: "could not be read"}})
	}
	vals := c.Request.PostForm
	lang := formLanguage(c, e.DefaultLanguage)
	body := formRequest(e, a, vals, lang)
	res, err := s.cfg.Actions.Start(c.Request.Context(), rd, a.Type, body, actions.Call{Platform: "other"})
	if err != nil {
		qe, ok := query.AsError(err)
		if !ok {
			return err
		}
		v := s.formView(e, a, lang, vals)
		if len(qe.Issues) > 0 {
			for _, is := range qe.Issues {
				v.Errors = append(v.Errors, fieldLabel(v.Inputs, is.Field)+": "+is.Message)
			}
		} else {
			v.Errors = []string{qe.Message}
		}
		return s.writePage(c, s.problemOf(qe).Status, actionFormPage, v)
	}
	if res.Status == "handoff" {
		c.Redirect(http.StatusSeeOther, res.URL)
		return nil
	}
	c.Redirect(http.StatusSeeOther, res.ConfirmURL)
	return nil
}

// fieldLabel is the label of the control an input's field names.
func fieldLabel(inputs []formInput, field string) string {
	name := strings.NewReplacer("[", ".", "]", "").Replace(field)
	for _, in := range inputs {
		if in.Name == name || strings.HasPrefix(in.Name, name+".") {
			return in.Label
		}
	}
	return field
}

// sameOrigin refuses a POST a page of another site made the browser send
// (the buttons of the request pages change things; ACT-42): a browser's
// Sec-Fetch-Site must say same-origin (or none: typed by the person), or,
// from a browser without it, the Origin must be Daawid's. Clients that are
// not browsers send neither and are let through: they need the run's
// token like anyone.
func (s *Server) sameOrigin(c *gin.Context) error {
	r := c.Request
	refused := &query.Error{Code: query.CodeNotAllowed, Message: "this form can only be sent from Daawid's own page"}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return nil
	case "":
	default:
		return refused
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return nil
	}
	for _, ok := range []string{s.site.BaseURL, "http://" + r.Host, "https://" + r.Host} {
		if strings.EqualFold(o, ok) {
			return nil
		}
	}
	return refused
}

type confirmView struct {
	Lang, Title, Base, Heading, Action, Message, Error, StatusLine, CodeLine, ExpiresLine string
	T                                                                                     *pageTexts
	P                                                                                     actions.PageData
	Requester                                                                             any
	Waiting                                                                               bool
	CodesLeft                                                                             int
}

// confirmPage is the confirmation page (HTTP-37, ACT-36): what goes to
// whom, both privacy notices, the contact wording below level domain,
// and the buttons. A GET changes nothing (ACT-42).
func (s *Server) confirmPage(c *gin.Context, token string) error {
	if s.cfg.Actions == nil {
		return s.noActions()
	}
	p, err := s.cfg.Actions.Page(c.Request.Context(), token, s.cfg.Now())
	if err != nil {
		return err
	}
	v := s.confirmViewOf(p, token)
	switch c.Query("done") {
	case "code":
		v.Message = v.T.MsgCodeSent
	case "sent":
		v.Message = v.T.MsgSent
	case "cancelled":
		v.Message = v.T.MsgCancelled
	}
	return s.writePage(c, http.StatusOK, confirmPage, v)
}

func (s *Server) confirmViewOf(p *actions.Page, token string) confirmView {
	t := textsFor(p.Lang)
	v := confirmView{Lang: p.Lang, T: t, P: p.PageData, Base: s.site.BaseURL, Action: "/confirm/" + token,
		Heading: t.HeadingConfirm + " " + p.Business, Requester: p.Requester, Waiting: p.Status == actions.StatusAwaiting, CodesLeft: p.CodesLeft}
	v.Title = v.Heading
	switch p.Status {
	case actions.StatusSubmitted, actions.StatusAcknowledged:
		v.StatusLine = t.Sent
	case actions.StatusDelivered:
		v.StatusLine = t.Delivered
	case actions.StatusCancelled:
		v.StatusLine = t.Cancelled
	case actions.StatusExpired:
		v.StatusLine = t.Expired
		if p.TriesLeft == 0 {
			v.StatusLine = t.Locked
		}
	}
	switch {
	case p.CodeValid:
		v.CodeLine = fmt.Sprintf(t.CodeSentTo, p.Requester.Email, p.CodeExpiresAt.UTC().Format("15:04"))
	case p.CodesLeft == 0:
		v.CodeLine = t.CodesUsedUp
	default:
		v.CodeLine = fmt.Sprintf(t.NoCodeYet, p.Requester.Email)
	}
	v.ExpiresLine = fmt.Sprintf(t.Expires, p.ExpiresAt.UTC().Format("2006-01-02 15:04"))
	return v
}

// confirmPost is a button of the confirmation page: email a code, send
// with the code, or cancel. Only these change a run (ACT-42).
func (s *Server) confirmPost(c *gin.Context, token string) error {
	if err := s.sameOrigin(c); err != nil {
		return err
	}
	if s.cfg.Actions == nil {
		return s.noActions()
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 4<<10)
	op, code := c.PostForm("op"), c.PostForm("code")
	ctx, now := c.Request.Context(), s.cfg.Now()
	var err error
	var done string
	switch op {
	case "code":
		err, done = s.cfg.Actions.SendCode(ctx, token, clientAddr(c), now), "code"
	case "send":
		err, done = s.cfg.Actions.Confirm(ctx, token, code, now), "sent"
	case "cancel":
		err, done = s.cfg.Actions.Cancel(ctx, token, now), "cancelled"
	default:
		return query.InvalidInput([]query.Issue{{Field: "op", Message: "must be code, send or cancel"}})
	}
	if err != nil {
		qe, ok := query.AsError(err)
		if !ok || qe.Code == query.CodeNotFound || qe.Code == query.CodeUnavailable {
			return err
		}
		p, perr := s.cfg.Actions.Page(ctx, token, now)
		if perr != nil {
			return err
		}
		v := s.confirmViewOf(p, token)
		v.Error = qe.Message
		if qe.RetryAfterSeconds > 0 {
			c.Header("Retry-After", strconv.Itoa(qe.RetryAfterSeconds))
		}
		return s.writePage(c, s.problemOf(qe).Status, confirmPage, v)
	}
	c.Redirect(http.StatusSeeOther, "/confirm/"+token+"?done="+done)
	return nil
}

// privacyPolicy is Daawid's own privacy policy, which the request pages
// link (ACT-36).
func (s *Server) privacyPolicy(c *gin.Context) error {
	lang := actions.PageLanguage(c.Query("lang"))
	if c.Query("lang") == "" {
		lang = formLanguage(c, "en")
	}
	t := textsFor(lang)
	return s.writePage(c, http.StatusOK, privacyPolicyPage, map[string]any{"Lang": lang, "T": t, "Base": s.site.BaseURL, "Title": t.DaawidPrivacy})
}
