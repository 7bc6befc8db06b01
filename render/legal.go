package render

import (
	"strings"

	"github.com/daawid/registry/schemas"
)

// legal is the ## Legal section (§3.5): the German Impressum for operators
// in Germany, an English legal notice for everyone else, and register data
// only for unclaimed entries (MD-36..MD-43).
func (b *builder) legal() []group {
	op := b.e.Operator
	if op == nil {
		return nil // MD-20
	}
	if b.e.Status == schemas.StatusUnclaimed {
		s := op.LegalName
		if r := op.Register; r != nil {
			s += ", " + germanRegisterLine(r)
		}
		return []group{{list(line{fixed("Register data: "), text(s)})}}
	}
	if op.Address.Country == "DE" {
		return []group{{para(line{fixed("Impressum (Angaben gemäß § 5 DDG), also at "), link(LegalURL(b.site, b.e))}), list(b.impressumLines()...)}}
	}
	return []group{{para(line{fixed("Legal notice, also at "), link(LegalURL(b.site, b.e))}), list(b.legalNoticeLines()...)}}
}

// germanRegisterLine is "Amtsgericht Wuppertal, HRB 99901".
func germanRegisterLine(r *schemas.Register) string {
	num := strings.TrimSpace(r.Section + " " + r.Number)
	if r.Court == "" {
		return registerName(r.Type) + " " + num
	}
	return r.Court + ", " + num
}

func fullAddress(a schemas.Address) string {
	return addressText(a, schemas.DisplayFull)
}

// germanArticle is the accusative article before a German title:
// "die Geschäftsführerin", "den Geschäftsführer" (decision D18).
func germanArticle(title string) string {
	if strings.HasSuffix(title, "in") {
		return "die "
	}
	return "den "
}

var disputeDE = map[schemas.DisputeResolution]string{
	"not_willing_not_obliged": "Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.",
	"willing":                 "Wir sind bereit, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.",
	"obliged":                 "Wir sind verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen.",
}

var disputeEN = map[schemas.DisputeResolution]string{
	"not_willing_not_obliged": "We are neither willing nor obliged to take part in dispute resolution proceedings before a consumer arbitration board.",
	"willing":                 "We are willing to take part in dispute resolution proceedings before a consumer arbitration board.",
	"obliged":                 "We are obliged to take part in dispute resolution proceedings before a consumer arbitration board.",
}

// impressumLines are the Impressum's lines, in German whatever the
// document's language (MD-38, MD-42).
func (b *builder) impressumLines() []line {
	op := b.e.Operator
	ls := []line{{text(op.LegalName + ", " + fullAddress(op.Address) + ", " + countryDE(op.Address.Country))}}
	if len(op.Representatives) > 0 {
		parts := make([]string, len(op.Representatives))
		for i, r := range op.Representatives {
			if r.Title != "" {
				parts[i] = germanArticle(r.Title) + r.Title + " " + r.Name
			} else {
				parts[i] = r.Name
			}
		}
		ls = append(ls, line{fixed("Vertreten durch "), text(joinGerman(parts))})
	}
	if r := op.Register; r != nil {
		if r.Court != "" {
			ls = append(ls, line{fixed("Registergericht: "), text(germanRegisterLine(r))})
		} else {
			ls = append(ls, line{fixed("Register: "), text(germanRegisterLine(r))})
		}
	}
	var ids []string
	if op.VATID != "" {
		ids = append(ids, "USt-IdNr.: "+op.VATID)
	}
	if op.EconomicID != "" {
		ids = append(ids, "W-IdNr.: "+op.EconomicID)
	}
	if len(ids) > 0 {
		ls = append(ls, line{text(strings.Join(ids, " · "))})
	}
	if c := b.operatorContact(); c != "" {
		ls = append(ls, line{fixed("Kontakt: " + c)})
	}
	if p := op.Profession; p != nil {
		l := line{fixed("Berufsbezeichnung: "), text(p.Title + ", verliehen in " + countryDE(p.AwardedIn))}
		if p.Chamber != nil {
			l = append(l, fixed(" · Zuständige Kammer: "), text(p.Chamber.Name))
		}
		if len(p.Rules) > 0 {
			l = append(l, fixed(" · Berufsrechtliche Regelungen: "))
			l = append(l, orgRuns(p.Rules)...)
		}
		ls = append(ls, l)
	}
	if s, ok := disputeDE[op.ConsumerDisputeResolution]; ok {
		ls = append(ls, line{fixed("Verbraucherstreitbeilegung: " + s)})
	}
	if u := PrivacyURL(b.site, b.e); u != "" {
		ls = append(ls, line{fixed("Datenschutz: "), link(u)})
	}
	return ls
}

// orgRuns writes "Handwerksordnung (HwO), https://…" for each rule, joined
// by "; ".
func orgRuns(orgs []schemas.Organization) line {
	var l line
	for i, r := range orgs {
		if i > 0 {
			l = append(l, fixed("; "))
		}
		l = append(l, text(r.Name))
		if r.URL != "" {
			l = append(l, fixed(", "), link(r.URL))
		}
	}
	return l
}

func joinGerman(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " und " + items[len(items)-1]
}

func (b *builder) operatorContact() string {
	c := b.e.Operator.Contact
	if c == nil {
		return ""
	}
	var parts []string
	if c.Email != "" {
		parts = append(parts, c.Email)
	}
	if c.Phone != "" {
		parts = append(parts, phoneText(c.Phone))
	}
	return strings.Join(parts, " · ")
}

var roleWords = map[schemas.RepresentativeRole]string{
	"managing_director": "managing director", "owner": "owner", "board_member": "board member",
	"partner": "partner", "authorised_officer": "authorised officer",
}

// legalNoticeLines are the English legal notice's lines: the same facts as
// the Impressum with fixed English labels and no German law (MD-39).
func (b *builder) legalNoticeLines() []line {
	op := b.e.Operator
	name := op.LegalName
	if op.LegalForm != "" && !strings.Contains(op.LegalName, op.LegalForm) {
		name += " (" + op.LegalForm + ")"
	}
	ls := []line{
		{fixed("Legal name and form: "), text(name)},
		{fixed("Address: "), text(fullAddress(op.Address) + ", " + countryEN(op.Address.Country))},
	}
	if len(op.Representatives) > 0 {
		parts := make([]string, len(op.Representatives))
		for i, r := range op.Representatives {
			role := roleWords[r.Role]
			if role == "" {
				role = string(r.Role)
			}
			parts[i] = r.Name + " (" + role + ")"
		}
		ls = append(ls, line{fixed("Represented by: "), text(strings.Join(parts, ", "))})
	}
	if r := op.Register; r != nil {
		ls = append(ls, line{fixed("Register: "), text(registerName(r.Type) + ", " + registerReference(r))})
	}
	if op.VATID != "" {
		ls = append(ls, line{fixed("VAT ID: "), text(op.VATID)})
	}
	if op.EconomicID != "" {
		ls = append(ls, line{fixed("Business ID: "), text(op.EconomicID)})
	}
	if c := b.operatorContact(); c != "" {
		ls = append(ls, line{fixed("Contact: " + c)})
	}
	if p := op.Profession; p != nil {
		l := line{fixed("Profession: "), text(p.Title + ", awarded in " + countryEN(p.AwardedIn))}
		if p.Chamber != nil {
			l = append(l, fixed(" · Professional body: "), text(p.Chamber.Name))
		}
		if len(p.Rules) > 0 {
			l = append(l, fixed(" · Professional rules: "))
			l = append(l, orgRuns(p.Rules)...)
		}
		ls = append(ls, l)
	}
	if s, ok := disputeEN[op.ConsumerDisputeResolution]; ok {
		ls = append(ls, line{fixed("Consumer dispute resolution: " + s)})
	}
	if u := PrivacyURL(b.site, b.e); u != "" {
		ls = append(ls, line{fixed("Privacy notice: "), link(u)})
	}
	return ls
}
