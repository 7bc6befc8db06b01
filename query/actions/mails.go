package actions

import (
	"fmt"
	"strings"
	"time"

	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/schemas"
)

type mailText struct{ subject, body string }

// codeMail is the code email: the code and the business's name, nothing
// of the request (ACT-40), and no link (mail scanners open links).
func codeMail(pd PageData, code string, ttl time.Duration) mailText {
	mins := int(ttl.Minutes())
	if pd.Lang == "de" {
		return mailText{
			subject: "Ihr Daawid-Code für " + pd.Business,
			body: fmt.Sprintf("Ihr Code: %s\n\nGeben Sie ihn auf der Seite von Daawid ein, um Ihre Anfrage an %s zu senden. "+
				"Er gilt %d Minuten.\n\nWenn Sie keinen Code angefordert haben, ignorieren Sie diese E-Mail: ohne den Code wird nichts gesendet.\n\n-- \nDaawid\n",
				code, pd.Business, mins),
		}
	}
	return mailText{
		subject: "Your Daawid code for " + pd.Business,
		body: fmt.Sprintf("Your code: %s\n\nType it on Daawid's page to send your request to %s. It works for %d minutes.\n\n"+
			"If you did not ask for a code, ignore this email: nothing is sent without it.\n\n-- \nDaawid\n", code, pd.Business, mins),
	}
}

// deliveryMail is the request as the business gets it (ACT-44), in its
// language: what the person asked, who they are, and that a reply goes
// to them (the mail's Reply-To).
func deliveryMail(pd PageData, req check.Request, runID string, now time.Time) mailText {
	de := pd.MailLang == "de"
	var b strings.Builder
	who := req.Requester.Name
	subject := fmt.Sprintf("%s via Daawid: %s", check.KindTitle(schemas.ActionType(pd.Kind), pd.MailLang), who)
	if de {
		fmt.Fprintf(&b, "%s hat über Daawid eine Anfrage an %s gesendet (%s).\n\n", who, pd.DisplayName, actionOr(pd))
	} else {
		fmt.Fprintf(&b, "%s sent %s a request through Daawid (%s).\n\n", who, pd.DisplayName, actionOr(pd))
	}
	for _, f := range pd.MailFields {
		label := f.Label
		if !strings.HasSuffix(label, "?") && !strings.HasSuffix(label, ":") {
			label += ":"
		}
		fmt.Fprintf(&b, "%s\n%s\n\n", label, indent(f.Value))
	}
	label := func(en, deLabel string) string {
		if de {
			return deLabel
		}
		return en
	}
	fmt.Fprintf(&b, "%s: %s\n", label("Name", "Name"), req.Requester.Name)
	fmt.Fprintf(&b, "%s: %s\n", label("Email", "E-Mail"), req.Requester.Email)
	if req.Requester.Phone != "" {
		fmt.Fprintf(&b, "%s: %s\n", label("Phone", "Telefon"), req.Requester.Phone)
	}
	if req.Requester.PreferredChannel != "" {
		ch := req.Requester.PreferredChannel
		if de {
			ch = map[string]string{"email": "E-Mail", "phone": "Telefon"}[ch]
		}
		fmt.Fprintf(&b, "%s: %s\n", label("Prefers", "Bevorzugt"), ch)
	}
	if req.Requester.Language != "" {
		fmt.Fprintf(&b, "%s: %s\n", label("Language", "Sprache"), req.Requester.Language)
	}
	b.WriteString("\n")
	if de {
		fmt.Fprintf(&b, "Antworten Sie auf diese E-Mail, um %s direkt zu antworten.\n\n", who)
		fmt.Fprintf(&b, "Die Person hat ihre E-Mail-Adresse am %s UTC mit einem Code bestätigt. Daawid hat den Inhalt nicht geprüft. "+
			"Referenz: %s. Daawid bewahrt die Anfrage 90 Tage auf.\n\n-- \nDaawid\n", now.UTC().Format("2006-01-02 15:04"), runID)
	} else {
		fmt.Fprintf(&b, "Reply to this email to answer %s directly.\n\n", who)
		fmt.Fprintf(&b, "They confirmed their email address with a code on %s UTC. Daawid did not check what they wrote. "+
			"Reference: %s. Daawid keeps this request for 90 days.\n\n-- \nDaawid\n", now.UTC().Format("2006-01-02 15:04"), runID)
	}
	return mailText{subject: subject, body: b.String()}
}

func actionOr(pd PageData) string {
	if pd.MailActionName != "" {
		return pd.MailActionName
	}
	return pd.Title
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
