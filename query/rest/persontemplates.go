package rest

import "html/template"

// The pages a person uses to send a request (§7.6): the web form of an
// action (HTTP-36), the confirmation page (HTTP-37) and Daawid's privacy
// policy. Like the other pages for people: semantic HTML, one inline
// style sheet, no script, no cookie, nothing loaded from elsewhere; in
// the person's language (German or English) and Daawid's look, never
// the business's colours.

var personBase = template.Must(template.New("person").Parse(formCSS + `<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="same-origin">
<title>{{.Title}}</title>
<style>
:root{--brand:#1f4e79}
{{template "formcss"}}body{overflow-wrap:anywhere}
header.site{border-bottom:4px solid var(--brand);padding-bottom:.5rem;margin-bottom:1rem}
header.site a{font-weight:700;text-decoration:none;color:var(--brand)}
h1{font-size:1.5rem;line-height:1.25}
h2{font-size:1.15rem;margin-top:1.5rem}
.hint{font-weight:400;color:#555;font-size:.9rem}
input[type=checkbox],input[type=radio]{width:auto}
fieldset label{font-weight:400}
fieldset{border:1px solid #ccc;margin-top:1rem;padding:.5rem 1rem 1rem}
button{font:inherit;margin-top:1rem;padding:.55rem 1.1rem;border-radius:4px;border:1px solid var(--brand);background:#fff;color:var(--brand);cursor:pointer}
button.primary{background:var(--brand);color:#fff}
button:disabled{opacity:.5;cursor:not-allowed}
.words{border-left:4px solid #999;padding:.25rem 0 .25rem 1rem;background:#f6f6f6}
.words dt{font-weight:600;margin-top:.5rem}
.words dd{margin:0;white-space:pre-wrap}
.notice{border:1px solid #c9a200;background:#fff8db;padding:.5rem 1rem}
.ok{border:1px solid #2e7d32;background:#edf7ed;padding:.5rem 1rem}
.error{border:1px solid #a00000;background:#fdecec;color:#700000;padding:.5rem 1rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}
.row form{margin:0}
footer{border-top:1px solid #ddd;padding-top:.5rem}
</style>
</head>
<body>
<header class="site"><a href="{{.Base}}/">Daawid</a></header>
<main>
{{template "body" .}}
</main>
<footer><a href="{{.Base}}/privacy{{if eq .Lang "de"}}?lang=de{{end}}">{{.T.DaawidPrivacy}}</a> · <a href="{{.Base}}/llms.txt">llms.txt</a> · <a href="{{.Base}}/docs/api">API</a></footer>
</body>
</html>
`))

var (
	actionFormPage = template.Must(template.Must(personBase.Clone()).Parse(`{{define "body"}}<h1>{{.Heading}}</h1>
<p>{{.T.FormIntro}} <a href="{{.EntryPage}}">{{.Name}}</a>.</p>
{{with .Wording}}<p class="notice">{{.}}</p>{{end}}
{{if .Errors}}<div class="error" role="alert"><p>{{.T.FixThese}}</p><ul>{{range .Errors}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
<form method="post" action="{{.Action}}">
{{range .Inputs}}{{if eq .Type "textarea"}}<label for="{{.ID}}">{{.Label}}{{if not .Required}} <span class="hint">({{$.T.Optional}})</span>{{end}}</label>
<textarea id="{{.ID}}" name="{{.Name}}" rows="6"{{if .Min}} minlength="{{.Min}}"{{end}}{{if .Max}} maxlength="{{.Max}}"{{end}}{{if .Required}} required{{end}}>{{.Value}}</textarea>
{{else if eq .Type "select"}}<label for="{{.ID}}">{{.Label}}{{if not .Required}} <span class="hint">({{$.T.Optional}})</span>{{end}}</label>
<select id="{{.ID}}" name="{{.Name}}"{{if .Required}} required{{end}}>{{if not .Required}}<option value="">–</option>{{end}}{{$v := .Value}}{{range .Options}}<option value="{{.Value}}"{{if eq .Value $v}} selected{{end}}>{{.Label}}</option>{{end}}</select>
{{else if eq .Type "checkbox"}}<label><input type="checkbox" id="{{.ID}}" name="{{.Name}}" value="true"{{if eq .Value "true"}} checked{{end}}> {{.Label}}</label>
{{else}}<label for="{{.ID}}">{{.Label}}{{if not .Required}} <span class="hint">({{$.T.Optional}})</span>{{end}}{{with .Hint}} <span class="hint">{{.}}</span>{{end}}</label>
<input id="{{.ID}}" name="{{.Name}}" type="{{.Type}}" value="{{.Value}}"{{if .Min}} minlength="{{.Min}}"{{end}}{{if .Max}} maxlength="{{.Max}}"{{end}}{{with .Auto}} autocomplete="{{.}}"{{end}}{{if .Required}} required{{end}}>
{{end}}{{end}}<input type="hidden" name="lang" value="{{.Lang}}">
<p>{{.T.FormNext}}</p>
<button class="primary" type="submit">{{.T.Continue}}</button>
</form>{{end}}`))

	confirmPage = template.Must(template.Must(personBase.Clone()).Parse(`{{define "body"}}<h1>{{.Heading}}</h1>
{{with .Message}}<p class="ok" role="status">{{.}}</p>{{end}}
{{with .Error}}<p class="error" role="alert">{{.}}</p>{{end}}
{{if .Waiting}}<p>{{.T.ConfirmIntro}}</p>{{else}}<p class="notice">{{.StatusLine}}</p>{{end}}
<h2>{{.T.WhatGoes}}</h2>
<p>{{.T.To}} <strong>{{.P.Business}}</strong>{{if ne .P.Business .P.DisplayName}} ({{.P.DisplayName}}){{end}}, <a href="{{.P.EntryPage}}">{{.P.EntryPage}}</a></p>
{{with .P.Wording}}<p class="notice">{{.}}</p>{{end}}
<div class="words"><p><strong>{{.T.YourWords}}</strong></p>
<dl>{{range .P.Fields}}<dt>{{.Label}}</dt><dd>{{.Value}}</dd>{{end}}
<dt>{{.T.Name}}</dt><dd>{{.Requester.Name}}</dd>
<dt>{{.T.Email}}</dt><dd>{{.Requester.Email}}</dd>
{{with .Requester.Phone}}<dt>{{$.T.Phone}}</dt><dd>{{.}}</dd>{{end}}</dl></div>
<h2>{{.T.Privacy}}</h2>
<ul>
{{with .P.PrivacyURL}}<li><a href="{{.}}">{{$.T.BusinessPrivacy}} {{$.P.Business}}</a></li>{{else}}<li>{{.T.NoBusinessPrivacy}}</li>{{end}}
<li><a href="{{.Base}}/privacy{{if eq .Lang "de"}}?lang=de{{end}}">{{.T.DaawidPrivacy}}</a></li>
</ul>
{{if .Waiting}}<h2>{{.T.Confirm}}</h2>
<p>{{.CodeLine}}</p>
<div class="row">
<form method="post" action="{{.Action}}"><input type="hidden" name="op" value="code"><button type="submit"{{if not .CodesLeft}} disabled{{end}}>{{.T.EmailCode}}</button></form>
</div>
<form method="post" action="{{.Action}}">
<input type="hidden" name="op" value="send">
<label for="code">{{.T.Code}}</label>
<input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required>
<button class="primary" type="submit">{{.T.Send}}</button>
</form>
<form method="post" action="{{.Action}}"><input type="hidden" name="op" value="cancel"><button type="submit">{{.T.Cancel}}</button></form>
<p class="hint">{{.ExpiresLine}}</p>{{end}}{{end}}`))

	privacyPolicyPage = template.Must(template.Must(personBase.Clone()).Parse(`{{define "body"}}{{if eq .Lang "de"}}<h1>Datenschutzerklärung von Daawid</h1>
<p>Daawid ist ein offenes Verzeichnis dessen, was Unternehmen und Personen über sich selbst angeben. Diese Erklärung sagt, was Daawid mit den Daten von Menschen tut, die über Daawid eine Anfrage an ein Unternehmen senden oder das Verzeichnis lesen.</p>
<h2>Anfragen</h2>
<p>Wenn Sie (oder eine KI-App in Ihrem Auftrag) eine Anfrage starten, speichert Daawid, was Sie schreiben, Ihren Namen, Ihre E-Mail-Adresse und, wenn angegeben, Ihre Telefonnummer. Nichts davon wird gesendet, bevor Sie auf der Bestätigungsseite mit einem Code bestätigen, den Daawid an Ihre Adresse mailt. Die Code-E-Mail enthält nur den Code und den Namen des Unternehmens.</p>
<p>Nach Ihrer Bestätigung sendet Daawid die Anfrage per E-Mail an das Unternehmen, mit Ihrer Adresse als Antwortadresse. Ab dann ist das Unternehmen für Ihre Daten verantwortlich; seine Datenschutzhinweise verlinkt die Bestätigungsseite.</p>
<p>Eine nie gesendete Anfrage wird spätestens einen Tag, nachdem sie abgelaufen ist, gelöscht; eine gesendete nach 90 Tagen. Daawid zählt die Schritte von Anfragen je Eintrag, Tag, KI-Plattform und Art, ohne Personendaten.</p>
<h2>Grenzen gegen Missbrauch</h2>
<p>Um Missbrauch zu begrenzen, zählt Daawid Code-E-Mails je Adresse und je Browser-Adresse (IP) eine Stunde lang, unter einem geheimen Schlüssel gehasht; die IP-Adresse selbst wird nicht gespeichert.</p>
<h2>Lesen</h2>
<p>Wer das Verzeichnis liest, wird nicht verfolgt: keine Cookies, kein Skript. Lesezugriffe werden je Eintrag, Tag und Art des Lesers gezählt; Adressen werden nur eine Minute im Speicher gehalten, um die faire Nutzung zu begrenzen.</p>
<h2>Ihre Rechte</h2>
<p>Sie können Auskunft, Berichtigung und Löschung verlangen; schreiben Sie an den Betreiber dieses Verzeichnisses. Eine gesendete Anfrage liegt auch beim Unternehmen, an das Sie sie gesendet haben.</p>
{{else}}<h1>Daawid's privacy policy</h1>
<p>Daawid is an open registry of what businesses and people declare about themselves. This policy says what Daawid does with the data of people who send a request to a business through Daawid, or read the registry.</p>
<h2>Requests</h2>
<p>When you (or an AI app on your behalf) start a request, Daawid keeps what you wrote, your name, your email address and, when you give it, your phone number. Nothing of it is sent until you confirm on the confirmation page with a code Daawid emails to your address. The code email holds only the code and the business's name.</p>
<p>Once you confirm, Daawid emails the request to the business, with your address to reply to. From then on the business is responsible for your data; the confirmation page links its privacy notice.</p>
<p>A request never sent is deleted at the latest a day after it ran out; a sent one after 90 days. Daawid counts the steps of requests per entry, day, AI platform and type, without any personal data.</p>
<h2>Limits against abuse</h2>
<p>To limit abuse, Daawid counts code emails per address and per browser address (IP) for an hour, hashed under a secret key; the IP address itself is not kept.</p>
<h2>Reading</h2>
<p>Reading the registry is not tracked: no cookies, no script. Reads are counted per entry, day and kind of reader; addresses are held in memory for one minute only, to keep the fair-use limit.</p>
<h2>Your rights</h2>
<p>You may ask for access, correction and deletion; write to the operator of this registry. A request you sent is also with the business you sent it to.</p>
{{end}}{{end}}`))
)

// pageTexts are the fixed texts of the person pages, per language.
type pageTexts struct {
	DaawidPrivacy, FormIntro, FixThese, Optional, FormNext, Continue                                   string
	ConfirmIntro, WhatGoes, To, YourWords, Name, Email, Phone, Privacy, BusinessPrivacy                string
	NoBusinessPrivacy, Confirm, EmailCode, Code, Send, Cancel                                          string
	HeadingConfirm, Sent, Delivered, Cancelled, Expired, Locked, CodeSentTo, NoCodeYet, CodesUsedUp    string
	Expires, MsgCodeSent, MsgSent, MsgCancelled, TimesIn, Offering, Answers, BudgetMax, BudgetCurrency string
	From, Until, PreferredChannel, ChannelEmail, ChannelPhone, RequestTo                               string
}

var texts = map[string]*pageTexts{
	"en": {
		DaawidPrivacy: "Daawid's privacy policy", FormIntro: "This form sends a request to", FixThese: "Please correct:",
		Optional: "optional", FormNext: "Next, Daawid shows you what will be sent and emails you a code to confirm it. Nothing is sent before that.",
		Continue: "Continue", ConfirmIntro: "Check what will be sent. To send it, ask for a code, which Daawid emails to your address, and type it here. Nothing is sent until you do.",
		WhatGoes: "What goes to whom", To: "To:", YourWords: "Your request, in your words:", Name: "Name", Email: "Email", Phone: "Phone",
		Privacy: "Privacy", BusinessPrivacy: "Privacy notice of", NoBusinessPrivacy: "The business has published no privacy notice on Daawid.",
		Confirm: "Confirm", EmailCode: "Email me a code", Code: "The six-digit code from the email", Send: "Send", Cancel: "Cancel",
		HeadingConfirm: "Confirm your request to", Sent: "This request was sent.", Delivered: "This request was sent and delivered to the business.",
		Cancelled: "This request was cancelled. Nothing was sent.", Expired: "This request ran out before it was confirmed. Nothing was sent.",
		Locked: "Too many wrong codes: this request is locked. Nothing was sent.", CodeSentTo: "A code was sent to %s. It works until %s UTC.",
		NoCodeYet: "Daawid will email the code to %s.", CodesUsedUp: "This request has had all its codes.", Expires: "This request waits until %s UTC.",
		MsgCodeSent: "Daawid has emailed you a code.", MsgSent: "Sent. The business will answer you by email.", MsgCancelled: "Cancelled. Nothing was sent.",
		TimesIn: "(times in %s)", Offering: "Offering", Answers: "Questions", BudgetMax: "Budget (at most)", BudgetCurrency: "Currency",
		From: "from", Until: "until", PreferredChannel: "How you prefer to be answered", ChannelEmail: "Email", ChannelPhone: "Phone", RequestTo: "to",
	},
	"de": {
		DaawidPrivacy: "Datenschutzerklärung von Daawid", FormIntro: "Mit diesem Formular senden Sie eine Anfrage an", FixThese: "Bitte korrigieren Sie:",
		Optional: "freiwillig", FormNext: "Danach zeigt Daawid Ihnen, was gesendet wird, und mailt Ihnen einen Code zum Bestätigen. Vorher wird nichts gesendet.",
		Continue: "Weiter", ConfirmIntro: "Prüfen Sie, was gesendet wird. Zum Senden fordern Sie einen Code an, den Daawid an Ihre Adresse mailt, und geben ihn hier ein. Vorher wird nichts gesendet.",
		WhatGoes: "Was an wen geht", To: "An:", YourWords: "Ihre Anfrage, in Ihren Worten:", Name: "Name", Email: "E-Mail", Phone: "Telefon",
		Privacy: "Datenschutz", BusinessPrivacy: "Datenschutzhinweise von", NoBusinessPrivacy: "Das Unternehmen hat auf Daawid keine Datenschutzhinweise veröffentlicht.",
		Confirm: "Bestätigen", EmailCode: "Code per E-Mail senden", Code: "Der sechsstellige Code aus der E-Mail", Send: "Senden", Cancel: "Abbrechen",
		HeadingConfirm: "Bestätigen Sie Ihre Anfrage an", Sent: "Diese Anfrage wurde gesendet.", Delivered: "Diese Anfrage wurde gesendet und dem Unternehmen zugestellt.",
		Cancelled: "Diese Anfrage wurde abgebrochen. Nichts wurde gesendet.", Expired: "Diese Anfrage ist abgelaufen, bevor sie bestätigt wurde. Nichts wurde gesendet.",
		Locked: "Zu viele falsche Codes: Diese Anfrage ist gesperrt. Nichts wurde gesendet.", CodeSentTo: "Ein Code wurde an %s gesendet. Er gilt bis %s UTC.",
		NoCodeYet: "Daawid mailt den Code an %s.", CodesUsedUp: "Für diese Anfrage wurden alle Codes verbraucht.", Expires: "Diese Anfrage wartet bis %s UTC.",
		MsgCodeSent: "Daawid hat Ihnen einen Code gemailt.", MsgSent: "Gesendet. Das Unternehmen antwortet Ihnen per E-Mail.", MsgCancelled: "Abgebrochen. Nichts wurde gesendet.",
		TimesIn: "(Zeiten in %s)", Offering: "Angebot", Answers: "Fragen", BudgetMax: "Budget (höchstens)", BudgetCurrency: "Währung",
		From: "von", Until: "bis", PreferredChannel: "Wie Sie Antwort bevorzugen", ChannelEmail: "E-Mail", ChannelPhone: "Telefon", RequestTo: "an",
	},
}

func textsFor(lang string) *pageTexts {
	if t, ok := texts[lang]; ok {
		return t
	}
	return texts["en"]
}
