package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
	"github.com/nyaruka/phonenumbers"
)

// Resolve applies an entry's rules to a decoded request (§7.5 input
// mapping, §7.6 step 1) and answers the action it goes to. The action is
// the one actionId names, which must be of the request's kind (ACT-25),
// or the entry's one enabled action of the kind (ACT-26); a kind the
// entry doesn't take is refused politely with its public ways to reach it
// (ACT-27). A handoff action is answered like any other (D15): the caller
// hands over. Then the action's requireFields (ACT-22, ACT-23), questions
// (D16) and offerings (ACT-21) apply, every time must end after it starts
// and not be over at env.Now (ACT-20), and an action that takes requests
// within its service area only refuses a postal code Daawid knows to lie
// outside it (ACT-31); whatever Daawid doesn't know goes through (ACT-32).
// Every error is a *query.Error with the contract's code.
func Resolve(e *schemas.Entry, req *Request, env Env) (*schemas.Action, error) {
	if schemas.RequestKindOf(req.Kind) == nil {
		return nil, query.InvalidInput([]query.Issue{{Field: "tool", Message: fmt.Sprintf("%q is not a request kind", req.Kind)}})
	}
	if e.Status == schemas.StatusSuspended {
		return nil, &query.Error{Code: query.CodeActionUnavailable,
			Message: e.DisplayName + " takes no requests through Daawid at the moment."}
	}
	a, err := findAction(e, req, env)
	if err != nil {
		return nil, err
	}
	in := schemas.NewActionInput(e, a, e.DefaultLanguage)
	m, err := asMap(req)
	if err != nil {
		return nil, err
	}
	var issues []query.Issue
	add := func(field, format string, args ...any) {
		issues = append(issues, query.Issue{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	// ACT-22, ACT-23: what the action asks for, where the kind has it.
	for _, p := range in.Kind.Paths() {
		if i := strings.LastIndexByte(p, '.'); i > 0 && lookup(m, p[:i]) == nil {
			continue // budget.max is required only with a budget
		}
		if in.Required(p) && lookup(m, p) == nil {
			if f := in.Kind.Field(p); f.Required {
				add(p, "is required")
			} else {
				add(p, "is required by this action")
			}
		}
	}
	answerIssues(in, req.Answers, add)
	// ACT-21: an offering of the entry, and of the action when it names some.
	if id := req.OfferingID; id != "" {
		switch {
		case len(in.Offerings) == 0:
			add("offeringId", "names an offering, but this action takes none: leave it out")
		case e.Offering(id) == nil:
			add("offeringId", "is not one of %s's offerings; this action takes %s", e.DisplayName, strings.Join(in.Offerings, ", "))
		case !slices.Contains(in.Offerings, id):
			add("offeringId", "is not one this action takes; it takes %s", strings.Join(in.Offerings, ", "))
		}
	}
	timeIssues(in.Kind, m, env.Now, add)
	if len(issues) > 0 {
		return nil, query.InvalidInput(issues)
	}
	if a.ServiceAreaOnly && req.PostalCode != "" {
		sa := areaOf(e, req)
		if out, place := outside(e, sa, req.PostalCode, env); out {
			where := req.PostalCode
			if place != "" {
				where += " (" + place + ")"
			}
			return nil, &query.Error{Code: query.CodeOutsideServiceArea,
				Message: fmt.Sprintf("%s takes these requests within its service area only (%s), and %s lies outside it. %s",
					e.DisplayName, areaWords(e, sa), where, Reach(e, env))}
		}
	}
	return a, nil
}

// findAction finds the action a request goes to (§7.5 input mapping).
func findAction(e *schemas.Entry, req *Request, env Env) (*schemas.Action, error) {
	kind := req.Kind
	if req.ActionID != "" {
		a := e.Action(req.ActionID)
		if a == nil {
			return nil, &query.Error{Code: query.CodeNotFound,
				Message: fmt.Sprintf("%s has no action %s.%s", e.DisplayName, req.ActionID, offer(e, kind))}
		}
		if a.Type != kind {
			// ACT-25: request_quote takes only request_quote actions.
			return nil, query.InvalidInput([]query.Issue{{Field: "actionId",
				Message: fmt.Sprintf("is a %s action, not a %s one: call %s for it.%s", a.Type, kind, a.Type, offer(e, kind))}})
		}
		if !a.Enabled {
			return nil, unavailable(e, kind, env)
		}
		return a, nil
	}
	as := e.ActionsOfType(kind)
	switch len(as) {
	case 0:
		return nil, unavailable(e, kind, env) // ACT-27
	case 1:
		return e.Action(as[0].ID), nil
	}
	// ACT-26: with several, the error lists them.
	return nil, query.InvalidInput([]query.Issue{{Field: "actionId",
		Message: fmt.Sprintf("is required: %s takes %s through several actions: %s", e.DisplayName, kindNoun(kind), list(e, as))}})
}

// offer names the entry's enabled actions of a kind, for an error about
// another.
func offer(e *schemas.Entry, kind schemas.ActionType) string {
	as := e.ActionsOfType(kind)
	if len(as) == 0 {
		return ""
	}
	return fmt.Sprintf(" Its %s actions: %s.", kind, list(e, as))
}

func list(e *schemas.Entry, as []schemas.Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.ID
		if n := a.Name.Resolve(e.DefaultLanguage, e.DefaultLanguage); n != "" {
			parts[i] += " (" + n + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// unavailable is ACT-27's polite refusal, with the entry's public ways to
// reach it.
func unavailable(e *schemas.Entry, kind schemas.ActionType, env Env) error {
	return &query.Error{Code: query.CodeActionUnavailable,
		Message: fmt.Sprintf("%s takes no %s through Daawid. %s", e.DisplayName, kindNoun(kind), Reach(e, env))}
}

// kindNoun is what a kind's requests are called in the answers.
func kindNoun(kind schemas.ActionType) string {
	switch kind {
	case schemas.ActionRequestQuote:
		return "quote requests"
	case schemas.ActionRequestCallback:
		return "callback requests"
	case schemas.ActionRequestAppointment:
		return "appointment requests"
	case schemas.ActionSendMessage:
		return "messages"
	}
	return "requests of this kind"
}

// Reach is the entry's public ways to reach it (ACT-27, ACT-31): the
// phones and emails of its public contact points, leaving out those for
// jobs or the press only, and its page.
func Reach(e *schemas.Entry, env Env) string {
	var ways []string
	seen := map[string]bool{}
	addWay := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			ways = append(ways, w)
		}
	}
	for _, c := range e.PublicContactPoints() {
		if len(c.Purposes) > 0 && !slices.ContainsFunc(c.Purposes, func(p schemas.ContactPurpose) bool { return p != "jobs" && p != "press" }) {
			continue
		}
		addWay(phoneText(c.Phone))
		addWay(c.Email)
	}
	if env.Site.BaseURL != "" {
		addWay(env.Site.PageURL(e.Slug))
	}
	if len(ways) == 0 {
		return ""
	}
	return "You can reach it directly: " + strings.Join(ways, ", ") + "."
}

// phoneText shows an E.164 number as people read it (D28).
func phoneText(e164 string) string {
	if e164 == "" {
		return ""
	}
	if n, err := phonenumbers.Parse(e164, ""); err == nil {
		return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
	}
	return e164
}

// answerIssues checks the answers against the action's questions (D16):
// no answer to a question it doesn't ask, every required one answered,
// each of its question's type.
func answerIssues(in *schemas.ActionInput, answers map[string]any, add func(field, format string, args ...any)) {
	keys := make([]string, 0, len(answers))
	for k := range answers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var asked []string
	for _, q := range in.Questions {
		asked = append(asked, q.Key)
	}
	for _, k := range keys {
		p := member("answers.", k)
		q := in.Question(k)
		if q == nil {
			if len(asked) == 0 {
				add(p, "is not a question of this action, which asks none")
			} else {
				add(p, "is not a question of this action, which asks %s", strings.Join(asked, ", "))
			}
			continue
		}
		v := answers[k]
		switch q.Type {
		case schemas.QuestionBoolean:
			if _, ok := v.(bool); !ok {
				add(p, "must be true or false (%s)", q.Title)
			}
		case schemas.QuestionNumber:
			if _, ok := number(v); !ok {
				add(p, "must be a number (%s)", q.Title)
			}
		case schemas.QuestionChoice:
			if s, ok := v.(string); !ok || !slices.Contains(q.Options, s) {
				add(p, "must be one of %s (%s)", strings.Join(q.Options, ", "), q.Title)
			}
		default:
			if s, ok := v.(string); !ok || len([]rune(s)) > schemas.AnswerMaxLength {
				add(p, "must be a text of at most %d characters (%s)", schemas.AnswerMaxLength, q.Title)
			}
		}
	}
	for _, q := range in.Questions {
		if _, ok := answers[q.Key]; q.Required && !ok {
			add("answers."+q.Key, "is required: %s", q.Title)
		}
	}
}

// number reads a number answer, however it was decoded.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int:
		return float64(n), true
	}
	return 0, false
}

// timeIssues checks every time window of the request (ACT-20): it ends
// after it starts, and has not ended at now. A window already begun but
// not over is taken: the business can still use what is left of it.
func timeIssues(k *schemas.RequestKind, m map[string]any, now time.Time, add func(field, format string, args ...any)) {
	nowText := now.UTC().Format(time.RFC3339)
	for _, f := range k.Fields {
		if f.Type != schemas.InputArray {
			continue
		}
		items, _ := m[f.Name].([]any)
		for i, it := range items {
			w, _ := it.(map[string]any)
			from, errF := time.Parse(time.RFC3339, str(w["from"]))
			to, errT := time.Parse(time.RFC3339, str(w["to"]))
			p := f.Name + "[" + strconv.Itoa(i) + "]"
			switch {
			case errF != nil:
				add(p+".from", "must be a time with its offset, like 2027-02-01T09:00:00+01:00")
			case errT != nil:
				add(p+".to", "must be a time with its offset, like 2027-02-01T09:00:00+01:00")
			case !to.After(from):
				add(p+".to", "must be after from (%s)", str(w["from"]))
			case !to.After(now):
				add(p, "is over already: it is now %s (UTC)", nowText)
			}
		}
	}
}

func str(v any) string { s, _ := v.(string); return s }

// asMap is the request as its JSON reads, so that the table's paths find
// its values.
func asMap(req *Request) (map[string]any, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("check: resolve: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("check: resolve: %w", err)
	}
	return m, nil
}

// lookup finds a dotted path's value, or nil.
func lookup(m map[string]any, path string) any {
	var v any = m
	for _, part := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[part]
	}
	return v
}
