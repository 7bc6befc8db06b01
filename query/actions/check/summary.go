package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// Summary is the plain-language summary of a waiting request (§7.5
// ActionResult, ACT-13): what will be sent, to whom, the privacy notice,
// and that nothing is sent before the person confirms. It is in English:
// the model reads it and tells the user in their own words. For the
// contract's example it reads "Quote request to Holzwerk Krause GmbH for
// 'Einbauschränke und Dachschrägenmöbel' (42105 Wuppertal, Februar oder
// März 2027). Your name and email go to Holzwerk Krause GmbH; privacy
// notice: https://daawid.example/holzwerk-krause/datenschutz. Nothing is
// sent until you confirm." (ACT-65): the offering in the requester's
// language when the entry has it, else the entry's default language; the
// desired timing as written; the postal code's town when the gazetteer
// knows it.
func Summary(e *schemas.Entry, a *schemas.Action, req *Request, env Env) string {
	to := controller(e)
	var b strings.Builder
	b.WriteString(KindTitle(a.Type, "en") + " to " + to)
	lang := textLanguage(e, req.Requester.Language)
	if o := e.Offering(req.OfferingID); o != nil {
		fmt.Fprintf(&b, " for '%s'", o.Name.Resolve(lang, e.DefaultLanguage))
	} else {
		switch a.Type {
		case schemas.ActionRequestQuote:
			fmt.Fprintf(&b, " for '%s'", clip(req.Description, 60))
		case schemas.ActionRequestAppointment:
			fmt.Fprintf(&b, " for '%s'", clip(req.Purpose, 60))
		case schemas.ActionRequestCallback:
			fmt.Fprintf(&b, " about '%s'", clip(req.Topic, 60))
		case schemas.ActionSendMessage:
			fmt.Fprintf(&b, " about '%s'", clip(req.Subject, 60))
		}
	}
	var details []string
	if req.PostalCode != "" {
		where := req.PostalCode
		if m, ok := placeCode(e, req, env); ok {
			where += " " + m.Place.Name
		}
		details = append(details, where)
	}
	if req.DesiredTiming != "" {
		details = append(details, req.DesiredTiming)
	}
	if bu := req.Budget; bu != nil {
		details = append(details, "budget up to "+bu.Max+" "+bu.Currency)
	}
	if n := len(req.PreferredTimes); n > 0 {
		details = append(details, strconv.Itoa(n)+" preferred "+plural(n, "time", "times"))
	}
	if n := len(req.PreferredSlots); n > 0 {
		details = append(details, strconv.Itoa(n)+" preferred "+plural(n, "slot", "slots"))
	}
	if len(details) > 0 {
		b.WriteString(" (" + strings.Join(details, ", ") + ")")
	}
	// D17: the controller is who the personal data goes to.
	data := "name and email"
	if req.Requester.Phone != "" {
		data = "name, email and phone number"
	}
	b.WriteString(". Your " + data + " go to " + to)
	if u := render.PrivacyURL(env.Site, e); u != "" {
		b.WriteString("; privacy notice: " + u)
	}
	b.WriteString(". Nothing is sent until you confirm.")
	return b.String()
}

// controller is who a request goes to: the operator's legal name, else
// the display name (D17).
func controller(e *schemas.Entry) string {
	if e.Operator != nil && e.Operator.LegalName != "" {
		return e.Operator.LegalName
	}
	return e.DisplayName
}

// KindTitle names a kind's request in English (the summary) or German
// (the pages and mails of a German requester or business).
func KindTitle(kind schemas.ActionType, lang string) string {
	titles := map[schemas.ActionType][2]string{
		schemas.ActionRequestQuote:       {"Quote request", "Angebotsanfrage"},
		schemas.ActionRequestCallback:    {"Callback request", "Rückrufbitte"},
		schemas.ActionRequestAppointment: {"Appointment request", "Terminanfrage"},
		schemas.ActionSendMessage:        {"Message", "Nachricht"},
	}
	t, ok := titles[kind]
	if !ok {
		return map[bool]string{true: "Anfrage", false: "Request"}[lang == "de"]
	}
	if lang == "de" {
		return t[1]
	}
	return t[0]
}

// textLanguage is the language an entry's texts are shown in for a
// requester: theirs when the entry has it (or its first part: "de-AT"
// reads "de"), else the entry's default language.
func textLanguage(e *schemas.Entry, lang string) string {
	if slices.Contains(e.Languages, lang) {
		return lang
	}
	if first, _, _ := strings.Cut(lang, "-"); slices.Contains(e.Languages, first) {
		return first
	}
	return e.DefaultLanguage
}

// clip shortens a text to n characters, on a word when it can.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// Field is one thing a request sends, as the confirmation page and the
// delivery mail show it.
type Field struct {
	Label, Value string
}

// fieldLabels are the labels of the kinds' own fields, in English and
// German; every other language reads English.
var fieldLabels = map[string][2]string{
	"description":    {"Description", "Beschreibung"},
	"postalCode":     {"Postal code", "Postleitzahl"},
	"desiredTiming":  {"Desired timing", "Gewünschter Zeitraum"},
	"budget":         {"Budget", "Budget"},
	"topic":          {"Topic", "Thema"},
	"preferredTimes": {"Preferred times", "Bevorzugte Zeiten"},
	"purpose":        {"Purpose", "Anliegen"},
	"preferredSlots": {"Preferred slots", "Wunschtermine"},
	"subject":        {"Subject", "Betreff"},
	"message":        {"Message", "Nachricht"},
	"offeringId":     {"Offering", "Leistung"},
}

// Label is a field's label in "en" or "de" (English for any other
// language), "" for a field with none.
func Label(field, lang string) string {
	l, ok := fieldLabels[field]
	if !ok {
		return ""
	}
	if lang == "de" {
		return l[1]
	}
	return l[0]
}

// commonFields are ActionCall's own fields, which Fields doesn't list:
// the requester is shown apart, and the rest say where the request goes.
var commonFields = []string{"entry", "actionId", "requester", "answers", "idempotencyKey", "offeringId"}

// Fields lists what a request sends, in the order its kind's table lists
// the fields, then each answer by its question's label, then the
// offering, with labels and values in lang ("en" or "de"). The requester
// is not among them.
func Fields(e *schemas.Entry, a *schemas.Action, req *Request, lang string) []Field {
	k := schemas.RequestKindOf(a.Type)
	if k == nil {
		return nil
	}
	de := lang == "de"
	var out []Field
	add := func(name, value string) {
		if value != "" {
			out = append(out, Field{Label: Label(name, lang), Value: value})
		}
	}
	for _, f := range k.Fields {
		if slices.Contains(commonFields, f.Name) {
			continue
		}
		switch f.Name {
		case "description":
			add(f.Name, req.Description)
		case "postalCode":
			add(f.Name, req.PostalCode)
		case "desiredTiming":
			add(f.Name, req.DesiredTiming)
		case "budget":
			if bu := req.Budget; bu != nil {
				add(f.Name, pick(de, "up to ", "bis ")+bu.Max+" "+bu.Currency)
			}
		case "topic":
			add(f.Name, req.Topic)
		case "preferredTimes":
			add(f.Name, windows(req.PreferredTimes, de))
		case "purpose":
			add(f.Name, req.Purpose)
		case "preferredSlots":
			add(f.Name, windows(req.PreferredSlots, de))
		case "subject":
			add(f.Name, req.Subject)
		case "message":
			add(f.Name, req.Message)
		}
	}
	textLang := lang
	if !slices.Contains(e.Languages, textLang) {
		textLang = e.DefaultLanguage
	}
	for _, q := range a.Questions {
		v, ok := req.Answers[q.Key]
		if !ok {
			continue
		}
		out = append(out, Field{Label: q.Label.Resolve(textLang, e.DefaultLanguage), Value: answerText(q, v, textLang, e.DefaultLanguage, de)})
	}
	if o := e.Offering(req.OfferingID); o != nil {
		add("offeringId", o.Name.Resolve(textLang, e.DefaultLanguage))
	}
	return out
}

func pick(de bool, en, deText string) string {
	if de {
		return deText
	}
	return en
}

// answerText shows an answer: yes or no, a number as written, a choice by
// its option's label, a text as it is.
func answerText(q schemas.Question, v any, lang, def string, de bool) string {
	switch a := v.(type) {
	case bool:
		if a {
			return pick(de, "Yes", "Ja")
		}
		return pick(de, "No", "Nein")
	case string:
		for _, o := range q.Options {
			if o.Value == a {
				return o.Label.Resolve(lang, def)
			}
		}
		return a
	}
	if f, ok := number(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// windows shows time windows one a line, each in its own offset:
// "2 Nov 2026, 09:00–11:00 (UTC+01:00)", in German
// "02.11.2026, 09:00–11:00 Uhr (UTC+01:00)".
func windows(ws []TimeRange, de bool) string {
	lines := make([]string, 0, len(ws))
	for _, w := range ws {
		from, err1 := time.Parse(time.RFC3339, w.From)
		to, err2 := time.Parse(time.RFC3339, w.To)
		if err1 != nil || err2 != nil {
			lines = append(lines, w.From+" – "+w.To)
			continue
		}
		date := "2 Jan 2006"
		clock := "15:04"
		if de {
			date = "02.01.2006"
		}
		_, off1 := from.Zone()
		_, off2 := to.Zone()
		var s string
		if from.Format(time.DateOnly) == to.Format(time.DateOnly) && off1 == off2 {
			s = from.Format(date) + ", " + from.Format(clock) + "–" + to.Format(clock)
			if de {
				s += " Uhr"
			}
			s += " (" + zone(from) + ")"
		} else {
			s = from.Format(date+", "+clock) + " (" + zone(from) + ") – " + to.Format(date+", "+clock) + " (" + zone(to) + ")"
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

// zone is a time's offset as "UTC+01:00", or "UTC".
func zone(t time.Time) string {
	if _, off := t.Zone(); off == 0 {
		return "UTC"
	}
	return "UTC" + t.Format("-07:00")
}
