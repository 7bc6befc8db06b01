package site

import (
	"regexp"
	"strings"

	"github.com/daawid/registry/schemas"
	"github.com/nyaruka/phonenumbers"
)

// E164 normalises a phone number as pages show it ("0202 9999002",
// "+49 (0)202 999-9002", "tel:+492029999002") to E.164, reading national
// numbers in the site's country.
func E164(s, region string) (string, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "tel:"))
	s = strings.ReplaceAll(s, "(0)", "")
	if s == "" {
		return "", false
	}
	n, err := phonenumbers.Parse(s, region)
	if err != nil || !phonenumbers.IsPossibleNumber(n) {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

var emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)

// deobfuscate undoes the usual spam guards: "info (at) example.de",
// "info[at]example[dot]de".
var deobfuscate = strings.NewReplacer(" (at) ", "@", "(at)", "@", "[at]", "@", " [at] ", "@", " (dot) ", ".", "(dot)", ".", "[dot]", ".", " [dot] ", ".")

func cleanEmail(s string) string {
	m := emailRE.FindString(deobfuscate.Replace(s))
	return strings.ToLower(strings.Trim(m, "."))
}

var (
	headingRE    = regexp.MustCompile(`(?i)^(impressum|imprint|legal notice|legal information|site notice|mentions l[ée]gales|aviso legal|nota legal|k[üu]nye|angaben gem[äa][ßs]s?\s*§\s*5)`)
	phoneRE      = regexp.MustCompile(`(?i)(?:^|[\s|·,;])(?:tel(?:efon|ephone|[ée]fono|[ée]phone)?|phone|fon|t[ée]l)\.?\s*(?:\([^)]*\))?\s*[:.]?\s*(\+?\(?\d[\d\s()/.\-]{5,}\d)`)
	faxRE        = regexp.MustCompile(`(?i)\b(fax|telefax)\b`)
	deCourtRE    = regexp.MustCompile(`(?i)Amtsgericht\s+([A-ZÄÖÜ][\pL\-]+(?:\s*\([\pL \-]+\))?(?:\s+(?:am|an der|im|in der)\s+[\pL\-]+)?)`)
	deNumberRE   = regexp.MustCompile(`\b(HRA|HRB|VR|PR|GnR|GsR)\s*(\d{1,7}(?:\s?[A-Z]{1,2}\b)?)`)
	ukNumberRE   = regexp.MustCompile(`(?i)(?:company\s+(?:registration\s+)?(?:number|no\.?)|registered\s+in\s+(?:england(?:\s+and\s+wales)?|scotland|wales|northern\s+ireland)(?:,)?\s*(?:with\s+)?(?:company\s+)?(?:no\.?|number|under\s+(?:company\s+)?number))\s*:?\s*((?:SC|NI|OC|SO|NC|R)?\d{6,8})\b`)
	frRCSRE      = regexp.MustCompile(`(?i)\bRCS\s+([\pL][\pL\-' ]*?)\s+(?:[AB]\s+)?(\d{3}\s?\d{3}\s?\d{3})\b`)
	esRegRE      = regexp.MustCompile(`(?i)Registro\s+Mercantil\s+de\s+([\pL][\pL\- ]+?)(?:[,.;]|\s+(?:tomo|hoja|folio|inscrip))`)
	esCIFRE      = regexp.MustCompile(`(?i)\b(?:CIF|NIF)\s*[:.]?\s*([A-Z]\-?\d{7}[0-9A-Z]|\d{8}[A-Z])\b`)
	trSicilRE    = regexp.MustCompile(`(?i)ticaret\s+sicil\s+(?:no|numaras[ıi])\s*[:.]?\s*(\d{3,10})`)
	trMersisRE   = regexp.MustCompile(`(?i)mers[İi]s\s*(?:no|numaras[ıi])?\s*[:.]?\s*(\d{16})`)
	vatRE        = regexp.MustCompile(`(?i)(?:ust[\-. ]?id(?:[\-. ]?nr)?\.?|umsatzsteuer[\- ]?identifikationsnummer|vat(?:\s+reg(?:istration)?)?(?:\s+(?:number|no\.?|id))?|(?:n°\s*)?tva(?:\s+intracommunautaire)?|n\.?\s?i\.?\s?f\.?\s+intracomunitario|vat\s+id)\s*(?:nr\.?|number|no\.?)?\s*[:.]?\s*((?:DE|GB|FR|ES|AT|NL|BE|IT|PL|DK|SE|FI|IE|PT|LU|CZ|SK|HU|SI|HR|RO|BG|GR|EL|CY|MT|LT|LV|EE|XI|CHE|TR)[\s\-]?[0-9A-Z][0-9A-Z \-.]{6,16}[0-9A-Z])`)
	directorRE   = regexp.MustCompile(`(?i)(?:^|[\s·|,;])(?:vertreten\s+durch(?:\s+(?:den|die))?(?:\s+gesch[äa]ftsf[üu]hrer(?:in)?)?|gesch[äa]ftsf[üu]hr(?:er(?:in)?|ung|ende\s+gesellschafter(?:in)?)|inhaber(?:in)?|managing\s+directors?|directors?|g[ée]rante?s?|pr[ée]sidente?|administrador(?:a|es)?(?:\s+[úu]nico)?|[şs]irket\s+m[üu]d[üu]r[üu]|y[öo]netim\s+kurulu\s+ba[şs]kan[ıi])\s*[:\-–]?\s*(.+)`)
	postalTownRE = regexp.MustCompile(`^(?:D-|F-|E-)?(\d{5})\s+(\pL[\pL .\-()]*\pL)\.?$`)
	ukPostcodeRE = regexp.MustCompile(`\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\b`)
	streetRE     = regexp.MustCompile(`\d`)
)

// legalForms end legal names, longest first.
var legalForms = []string{
	"GmbH & Co. KGaA", "GmbH & Co. KG", "UG (haftungsbeschränkt)", "gGmbH", "GmbH", "KGaA", "AG", "e. K.", "e.K.",
	"OHG", "KG", "PartG mbB", "e. V.", "e.V.", "eG", "GbR", "Limited", "Ltd.", "Ltd", "LLP", "PLC", "plc",
	"SARL", "S.A.R.L.", "SASU", "SAS", "EURL", "S.A.", "SA", "S.L.U.", "S.L.", "SL", "S.A.U.",
	"Ltd. Şti.", "Ltd.Şti.", "A.Ş.", "Ltd. Şti",
}

// ParseLegal reads the fields of a legal notice from a page's text lines
// (an Impressum, legal notice, mentions légales, aviso legal or künye).
// region is the site's country for national phone numbers. It starts at the
// notice's heading when the page has one, so a footer's navigation does not
// count.
func ParseLegal(lines []string, region string) Legal {
	start := 0
	for i, l := range lines {
		if headingRE.MatchString(strings.TrimSpace(l)) {
			start = i
			break
		}
	}
	lines = lines[start:]
	if len(lines) > 400 {
		lines = lines[:400] // a legal notice is short; the rest of a huge page is not it
	}
	var lg Legal
	for i, raw := range lines {
		l := strings.TrimSpace(raw)
		if len(l) > 1000 {
			l = l[:1000]
		}
		if lg.Name == "" {
			if name, form, ok := legalNameLine(l); ok {
				lg.Name, lg.Form = name, form
			}
		}
		if lg.Phone == "" && !faxRE.MatchString(strings.SplitN(l, ":", 2)[0]) {
			if m := phoneRE.FindStringSubmatch(l); m != nil {
				if p, ok := E164(m[1], region); ok {
					lg.Phone = p
				}
			}
		}
		if lg.Email == "" {
			lg.Email = cleanEmail(l)
		}
		if lg.Address == nil {
			lg.Address = addressAt(lines, i, region)
		}
		if lg.Register == nil {
			lg.Register = registerIn(l, lines, i)
		}
		if lg.VATID == "" {
			if m := vatRE.FindStringSubmatch(l); m != nil {
				lg.VATID = strings.NewReplacer(" ", "", "-", "", ".", "").Replace(strings.ToUpper(m[1]))
			}
		}
		if m := directorRE.FindStringSubmatch(l); m != nil && len(lg.Directors) == 0 {
			lg.Directors = personNames(m[1])
		}
	}
	return lg
}

// legalNameLine recognises a line that is a legal name: short, ending in a
// legal form, after an optional label.
func legalNameLine(l string) (name, form string, ok bool) {
	if len(l) > 90 || len(l) < 4 {
		return "", "", false
	}
	for _, label := range []string{"Firma:", "Firmenname:", "Company:", "Company name:", "Raison sociale :", "Raison sociale:", "Razón social:", "Ünvan:", "Unvan:", "Betreiber:", "Anbieter:"} {
		l = strings.TrimSpace(strings.TrimPrefix(l, label))
	}
	l = strings.TrimRight(l, " ,")
	for _, f := range legalForms {
		if strings.HasSuffix(l, " "+f) && !strings.ContainsAny(l, ":@") {
			return l, f, true
		}
	}
	return "", "", false
}

// addressAt reads an address whose town line is lines[i]: "42103
// Wuppertal" after a street line, "Beispielweg 3, 42103 Wuppertal" on one
// line, or a UK town and postcode.
func addressAt(lines []string, i int, region string) *schemas.Address {
	l := strings.TrimSpace(lines[i])
	parts := strings.Split(l, ",")
	last := strings.TrimSpace(parts[len(parts)-1])
	if m := postalTownRE.FindStringSubmatch(last); m != nil {
		a := &schemas.Address{PostalCode: m[1], Locality: strings.TrimSpace(m[2]), Country: region}
		if len(parts) > 1 {
			a.Street = strings.TrimSpace(strings.Join(parts[:len(parts)-1], ","))
		} else if i > 0 && streetRE.MatchString(lines[i-1]) && len(lines[i-1]) < 80 {
			a.Street = strings.TrimSpace(lines[i-1])
		}
		if a.Street == "" || strings.ContainsAny(a.Street, "@:") {
			a.Street = ""
		}
		return a
	}
	if region == "GB" {
		if m := ukPostcodeRE.FindStringSubmatchIndex(l); m != nil {
			pc := l[m[2]:m[3]]
			town := strings.TrimSpace(strings.Trim(l[:m[2]], ", "))
			if j := strings.LastIndex(town, ","); j >= 0 {
				town = strings.TrimSpace(town[j+1:])
			}
			if town == "" {
				return nil
			}
			a := &schemas.Address{PostalCode: pc, Locality: town, Country: "GB"}
			if len(parts) > 1 {
				a.Street = strings.TrimSpace(parts[0])
			} else if i > 0 && streetRE.MatchString(lines[i-1]) {
				a.Street = strings.TrimSpace(lines[i-1])
			}
			return a
		}
	}
	return nil
}

// registerIn reads a register reference from a line (and, for a German
// court and number on two lines, its neighbours).
func registerIn(l string, lines []string, i int) *schemas.Register {
	if m := deNumberRE.FindStringSubmatch(l); m != nil {
		r := &schemas.Register{Type: "DE:Handelsregister", Section: m[1], Number: strings.TrimSpace(m[2])}
		switch m[1] {
		case "VR":
			r.Type = "DE:Vereinsregister"
		case "PR":
			r.Type = "DE:Partnerschaftsregister"
		case "GnR":
			r.Type = "DE:Genossenschaftsregister"
		}
		for _, near := range []int{i, i - 1, i + 1, i - 2} {
			if near >= 0 && near < len(lines) {
				if c := deCourtRE.FindStringSubmatch(lines[near]); c != nil {
					r.Court = "Amtsgericht " + strings.TrimSpace(c[1])
					break
				}
			}
		}
		return r
	}
	if m := ukNumberRE.FindStringSubmatch(l); m != nil {
		n := strings.ToUpper(m[1])
		for len(n) < 8 {
			n = "0" + n
		}
		return &schemas.Register{Type: "GB:CompaniesHouse", Number: n}
	}
	if m := frRCSRE.FindStringSubmatch(l); m != nil {
		return &schemas.Register{Type: "FR:RCS", Court: strings.TrimSpace(m[1]), Number: strings.ReplaceAll(m[2], " ", "")}
	}
	if m := esRegRE.FindStringSubmatch(l); m != nil {
		r := &schemas.Register{Type: "ES:RegistroMercantil", Court: strings.TrimSpace(m[1])}
		for _, near := range []int{i, i + 1, i - 1} {
			if near >= 0 && near < len(lines) {
				if c := esCIFRE.FindStringSubmatch(lines[near]); c != nil {
					r.Number = strings.ReplaceAll(c[1], "-", "")
					break
				}
			}
		}
		if r.Number != "" {
			return r
		}
	}
	if m := trSicilRE.FindStringSubmatch(l); m != nil {
		return &schemas.Register{Type: "TR:TicaretSicili", Number: m[1]}
	}
	if m := trMersisRE.FindStringSubmatch(l); m != nil {
		return &schemas.Register{Type: "TR:MERSIS", Number: m[1]}
	}
	return nil
}

// personNames splits "Jana Krause und Max Muster" into names.
func personNames(s string) []string {
	s = strings.TrimSpace(s)
	for _, stop := range []string{" Registergericht", " Amtsgericht", " Register", " Handelsregister", " USt", " Tel", " E-Mail", " Sitz", " Registered", " Company", " VAT", " RCS", " SIRET"} {
		if i := strings.Index(s, stop); i > 0 {
			s = s[:i]
		}
	}
	s = strings.NewReplacer(" und ", ",", " and ", ",", " et ", ",", " y ", ",", " ve ", ",", " & ", ",", ";", ",").Replace(s)
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.Trim(strings.TrimSpace(p), ".:")
		words := strings.Fields(p)
		if len(words) < 2 || len(words) > 5 || strings.ContainsAny(p, "@0123456789") {
			continue
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}
