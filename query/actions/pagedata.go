package actions

import (
	"strings"

	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// PageData is what a run's page, card and mails show, made when the run
// starts from the revision it was started on, so the page needs no
// publication and shows what the person was asked to confirm even if
// the entry changes meanwhile.
type PageData struct {
	// Lang is the page's and the code mail's language (the requester's,
	// when Daawid has it; else English); MailLang the business mail's
	// (the entry's default language, when Daawid has it).
	Lang, MailLang string
	EntryID, Slug  string
	EntryPage      string
	// Business is who the request goes to: the operator's legal name,
	// else the display name (D17).
	Business    string
	DisplayName string
	Kind        string
	// Title is the kind of request in Lang ("Quote request"), ActionName
	// the action's name in Lang.
	Title, ActionName string
	// MailActionName is the action's name in MailLang.
	MailActionName string
	// Fields are what goes to the business, in Lang; MailFields the same
	// in MailLang.
	Fields, MailFields []check.Field
	// PrivacyURL is the business's privacy notice ("" when it has none).
	PrivacyURL string
	// Wording is the §2.3 contact wording for an entry below level
	// domain (ACT-35), in Lang; "" at level domain and above.
	Wording string
	Summary string
	// ExpectedResponse is the action's expected response time (ISO 8601).
	ExpectedResponse string
}

func (s *Service) pageData(e *schemas.Entry, a *schemas.Action, req *check.Request, env check.Env, lang string) PageData {
	mailLang := PageLanguage(e.DefaultLanguage)
	pd := PageData{Lang: lang, MailLang: mailLang, EntryID: e.ID, Slug: e.Slug, EntryPage: s.cfg.Site.PageURL(e.Slug),
		Business: businessName(e), DisplayName: e.DisplayName, Kind: string(a.Type),
		Title: check.KindTitle(a.Type, lang), ActionName: a.Name.Resolve(lang, e.DefaultLanguage),
		MailActionName: a.Name.Resolve(mailLang, e.DefaultLanguage),
		Fields:         check.Fields(e, a, req, lang), MailFields: check.Fields(e, a, req, mailLang),
		PrivacyURL: render.PrivacyURL(s.cfg.Site, e), Summary: check.Summary(e, a, req, env), ExpectedResponse: a.ExpectedResponse}
	if e.BelowDomain() {
		pd.Wording = ContactWording(e, lang)
	}
	return pd
}

// businessName is the controller a request goes to (D17).
func businessName(e *schemas.Entry) string {
	if e.Operator != nil && e.Operator.LegalName != "" {
		return e.Operator.LegalName
	}
	return e.DisplayName
}

// PageLanguage is the language Daawid's pages and mails are written in
// for a language tag: German or English (D75).
func PageLanguage(tag string) string {
	primary, _, _ := strings.Cut(strings.ToLower(tag), "-")
	if primary == "de" {
		return "de"
	}
	return "en"
}

// ContactWording is §2.3's wording for an entry below level domain, in
// German or English (ACT-35).
func ContactWording(e *schemas.Entry, lang string) string {
	subject := map[string]string{"en": "business", "de": "Unternehmen"}[lang]
	if e.Kind == schemas.KindPerson {
		subject = map[string]string{"en": "person", "de": "Person"}[lang]
	}
	date := func(ts string) string {
		t := schemas.ParseTime(ts)
		if t.IsZero() {
			return ts
		}
		return t.Format("2006-01-02")
	}
	de := lang == "de"
	switch {
	case e.Status == schemas.StatusUnclaimed:
		if de {
			return "Von Daawid aus öffentlichen Quellen zusammengestellt; nicht vom " + subject + " bestätigt."
		}
		return "Compiled by Daawid from public sources; not confirmed by the " + subject + "."
	case e.Status == schemas.StatusLapsed:
		if de {
			return "Die Verifizierung ist am " + date(e.Verification.LapsedAt) + " abgelaufen; die Angaben können veraltet sein."
		}
		return "The " + subject + "'s verification lapsed on " + date(e.Verification.LapsedAt) + "; information may be outdated."
	case e.Verification.ContactConfirmedAt != "":
		if de {
			return "Angaben des Inhabers des Eintrags. Am " + date(e.Verification.ContactConfirmedAt) + " hat Daawid eine E-Mail-Adresse für diesen Eintrag bestätigt, nicht, wer ihn führt."
		}
		return "Information provided by the entry's owner. On " + date(e.Verification.ContactConfirmedAt) + ", Daawid confirmed an email address for this entry, not who runs it."
	default:
		if de {
			return "Angaben des Inhabers des Eintrags. Daawid hat nicht bestätigt, wer diesen Eintrag führt."
		}
		return "Information provided by the entry's owner. Daawid has not confirmed who runs this entry."
	}
}

// FieldRequired reports whether an action requires a field of its kind
// (a dotted path, "requester.phone"), by the same table the server checks
// calls with (ACT-22, ACT-23, ACT-24): the web form marks what it must
// have.
func FieldRequired(a *schemas.Action, path string) bool {
	k := schemas.RequestKindOf(a.Type)
	if k == nil {
		return false
	}
	f := k.Field(path)
	return f != nil && f.RequiredFor(a)
}
