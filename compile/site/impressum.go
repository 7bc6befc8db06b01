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
	headingRE      = regexp.MustCompile(`(?i)^(impressum|imprint|legal notice|legal information|site notice|mentions l[ée]gales|aviso legal|nota legal|k[üu]nye|angaben gem[äa][ßs]s?\s*§\s*5)`)
	phoneRE        = regexp.MustCompile(`(?i)(?:^|[\s|·,;])(?:t[eé]l(?:efon|ephone|[eé]fono|[eé]phone)?|phone|fon|rufen sie uns an)\.?\s*(?:\([^)]*\))?\s*[:.]?\s*(\+?\(?\d[\d\s()/.\-]{5,}\d)`)
	faxRE          = regexp.MustCompile(`(?i)\b(fax|telefax)\b`)
	deCourtRE      = regexp.MustCompile(`(?i)Amtsgericht\s+([A-ZÄÖÜ][\pL\-]+(?:\s*\([\pL \-]+\))?(?:\s+(?:am|an der|im|in der)\s+[\pL\-]+|\s+(?:i|a|a\.d)\.\s*[\pL]{1,4}\.)?)`)
	deNumberRE     = regexp.MustCompile(`\b(HRA|HRB|VR|PR|GnR|GsR)\s*(\d{1,7}(?:\s?[A-Z]{1,2}\b)?)`)
	ukNumberRE     = regexp.MustCompile(`(?i)(?:company\s+(?:registration\s+)?(?:number|no\.?)|registered\s+in\s+(?:england(?:\s+and\s+wales)?|scotland|wales|northern\s+ireland)(?:,)?\s*(?:with\s+)?(?:company\s+)?(?:no\.?|number|under\s+(?:company\s+)?number))\s*:?\s*((?:SC|NI|OC|SO|NC|R)?\d{6,8})\b`)
	frRCSRE        = regexp.MustCompile(`(?i)\bRCS\s+([\pL][\pL\-' ]*?)\s+(?:[AB]\s+)?(\d{3}\s?\d{3}\s?\d{3})\b`)
	esRegRE        = regexp.MustCompile(`(?i)Registro\s+Mercantil\s+de\s+([\pL][\pL\- ]+?)(?:[,.;]|\s+(?:tomo|hoja|folio|inscrip))`)
	esCIFRE        = regexp.MustCompile(`(?i)\b(?:CIF|NIF)\s*[:.]?\s*([A-Z]\-?\d{7}[0-9A-Z]|\d{8}[A-Z])\b`)
	trSicilRE      = regexp.MustCompile(`(?i)ticaret\s+sicil\s+(?:no|numaras[ıi])\s*[:.]?\s*(\d{3,10}(?:-\d{1,3})?)`)
	trMersisRE     = regexp.MustCompile(`(?i)mers[İi]s\s*(?:no|numaras[ıi])?\s*[:.]?\s*(\d{16})`)
	vatRE          = regexp.MustCompile(`(?i)(?:ust[\-. ]?id(?:[\-. ]?nr)?\.?|umsatzsteuer[\- ]?id(?:entifikationsnummer)?|vat(?:\s+reg(?:istration)?)?(?:\s+(?:number|no\.?|id))?|(?:n°\s*(?:de\s+)?)?tva(?:\s+intracommunautaire)?|n\.?\s?i\.?\s?f\.?\s+intracomunitario|vat\s+id)\s*(?:nr\.?|number|no\.?)?(?:[^:\n]{0,60}:)?\s*[:.]?\s*((?:DE|GB|FR|ES|AT|NL|BE|IT|PL|DK|SE|FI|IE|PT|LU|CZ|SK|HU|SI|HR|RO|BG|GR|EL|CY|MT|LT|LV|EE|XI|CHE|TR)[\s\-]?[0-9A-Z][0-9A-Z \-.]{6,16}[0-9A-Z])`)
	directorRE     = regexp.MustCompile(`(?i)(?:^|[\s·|,;])(?:vertreten\s+durch(?:\s+(?:den|die))?(?:\s+gesch[äa]ftsf[üu]hrer(?:in)?)?|gesch[äa]ftsf[üu]hr(?:er(?:in)?|ung|ende\s+gesellschafter(?:in)?)|inhaber(?:in)?|managing\s+directors?|directors?|g[ée]rante?s?|pr[ée]sidente?|administrador(?:a|es)?(?:\s+[úu]nico)?|[şs]irket\s+m[üu]d[üu]r[üu]|y[öo]netim\s+kurulu\s+ba[şs]kan[ıi])\s*[:\-–]?\s*(.+)`)
	postalTownRE   = regexp.MustCompile(`^(?:D-|F-|E-)?(\d{5})\s+(\pL[\pL .\-()/]*\pL)\.?$`)
	labelPrefixRE  = regexp.MustCompile(`^[\pL][\pL .\-/]{1,38}:\s*`)
	ukPostcodeRE   = regexp.MustCompile(`\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\b`)
	esHojaRE       = regexp.MustCompile(`(?i)\bhoja\s+(?:n[º°.]?\s*)?([A-Z]{1,2}-?\d{1,7})`)
	trSicilCourtRE = regexp.MustCompile(`\(([^()]*Ticaret Sicil[^()]*)\)`)
	trVergiRE      = regexp.MustCompile(`(?i)vergi\s+(?:dairesi\s*/\s*vergi\s+)?no\s*:?\s*(?:[^/:]{1,40}/\s*)?(\d{10,11})\b`)
	streetRE       = regexp.MustCompile(`\d`)
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
	before := lines[:start]
	lines = lines[start:]
	if len(lines) > 400 {
		lines = lines[:400] // a legal notice is short; the rest of a huge page is not it
	}
	lines = joinLabels(lines)
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
			if lg.Address = addressAt(lines, i, region); lg.Address != nil && lg.Name == "" {
				lg.Name = nameBefore(lines, i, lg.Address.Street != "" && !strings.Contains(l, ","))
			}
		}
		if lg.Register == nil || lg.Register.Type == "TR:MERSIS" {
			// The MERSİS number only stands in when no trade register number is given.
			if r := registerIn(l, lines, i); r != nil && (lg.Register == nil || r.Type != "TR:MERSIS") {
				lg.Register = r
			}
		}
		if lg.VATID == "" {
			if m := vatRE.FindStringSubmatch(l); m != nil {
				lg.VATID = strings.NewReplacer(" ", "", "-", "", ".", "").Replace(strings.ToUpper(m[1]))
			} else if m := trVergiRE.FindStringSubmatch(l); m != nil && region == "TR" {
				lg.VATID = m[1]
			} else if m := esCIFRE.FindStringSubmatch(l); m != nil && region == "ES" {
				lg.VATID = "ES" + strings.ReplaceAll(strings.ToUpper(m[1]), "-", "")
			}
		}
		if m := directorRE.FindStringSubmatch(l); m != nil && len(lg.Directors) == 0 {
			lg.Directors = personNames(m[1])
		}
	}
	// A page that holds contact details and the notice may list the phone
	// and email above the notice's heading.
	if start > 0 && (lg.Phone == "" || lg.Email == "") && len(before) < 200 {
		for _, l := range joinLabels(before) {
			if lg.Phone == "" && !faxRE.MatchString(strings.SplitN(l, ":", 2)[0]) {
				if m := phoneRE.FindStringSubmatch(l); m != nil {
					lg.Phone, _ = E164(m[1], region)
				}
			}
			if lg.Email == "" {
				lg.Email = cleanEmail(l)
			}
		}
	}
	lg.Name = ownerClause.ReplaceAllString(lg.Name, "")
	return lg
}

// ownerClause is ", Inhaber Tobias Sommer" after a trading name.
var ownerClause = regexp.MustCompile(`(?i),\s*(?:inhaber(?:in)?|owner|propri[ée]taire|titular)\b.*$`)

// nameLabels introduce a legal name.
var nameLabels = []string{"firma", "firmenname", "company", "company name", "raison sociale", "razón social", "titular",
	"ticaret unvanı", "ticaret ünvanı", "unvan", "ünvan", "betreiber", "anbieter", "éditeur du site", "denominación social"}

// legalNameLine finds a legal name in a line: the capitalised words before
// a legal form ("This website is operated by Thornbury & Hale Joinery Ltd,
// a private …" → "Thornbury & Hale Joinery Ltd"), or the value of a label
// such as "Firma:" or "Titular:".
func legalNameLine(l string) (name, form string, ok bool) {
	if len(l) < 4 {
		return "", "", false
	}
	if label, value, found := strings.Cut(l, ":"); found && len(label) < 30 {
		low := strings.ToLower(strings.TrimSpace(label))
		for _, nl := range nameLabels {
			if low == nl {
				v := strings.TrimSpace(value)
				if v != "" && len(v) < 120 {
					for _, f := range legalForms {
						if strings.HasSuffix(v, " "+f) {
							return v, f, true
						}
					}
					return v, "", true
				}
			}
		}
	}
	if strings.ContainsAny(l, "@") {
		return "", "", false
	}
	for _, f := range legalForms {
		i := strings.Index(l, " "+f)
		for i >= 0 {
			end := i + 1 + len(f)
			if end == len(l) || strings.ContainsRune(" ,;·|–(", rune(l[end])) {
				if n := capitalisedBefore(l[:end]); n != "" && n != f {
					return n, f, true
				}
			}
			next := strings.Index(l[i+1:], " "+f)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	return "", "", false
}

// joiners are the lower-case words a company name may hold.
var joiners = map[string]bool{"&": true, "und": true, "and": true, "et": true, "y": true, "de": true, "la": true, "le": true,
	"du": true, "des": true, "von": true, "der": true, "die": true, "+": true, "ve": true, "e": true, "del": true, "los": true, "las": true, "-": true}

// capitalisedBefore walks back from a legal form over the name's words.
func capitalisedBefore(s string) string {
	words := strings.Fields(s)
	i := len(words) - 1 // the form's last word
	start := i
	for j := i - 1; j >= 0; j-- {
		w := strings.Trim(words[j], ",.;:")
		if w == "" {
			break
		}
		r := []rune(w)[0]
		if (r >= 'A' && r <= 'Z') || r > 127 && strings.ToUpper(string(r)) == string(r) || joiners[w] || (r >= '0' && r <= '9') {
			if strings.HasSuffix(words[j], ",") || strings.HasSuffix(words[j], ":") {
				break
			}
			start = j
			continue
		}
		break
	}
	for start <= i && joiners[words[start]] {
		start++
	}
	return strings.Join(words[start:], " ")
}

// nameBefore takes the line above an address as the name, as notices list
// name, street, town: i is the town line; streetAbove says the street is
// the line above it.
func nameBefore(lines []string, i int, streetAbove bool) string {
	j := i - 1
	if streetAbove {
		j--
	}
	// Skip label lines ("Inhaberin: Dr. Anna Licht") between name and street.
	for k := 0; k < 3 && j >= 0 && labelPrefixRE.MatchString(strings.TrimSpace(lines[j])); k++ {
		j--
	}
	if j < 0 {
		return ""
	}
	l := strings.TrimSpace(lines[j])
	if headingRE.MatchString(l) || strings.ContainsAny(l, "@:") || len(l) > 90 || len(l) < 3 {
		return ""
	}
	return l
}

// labelWords are labels that stand alone on a line, their value on the
// next ("Telefon" / "0231 / 9999066").
var labelWords = map[string]bool{
	"telefon": true, "telephone": true, "phone": true, "tel": true, "tel.": true, "e-mail": true, "email": true,
	"e-posta": true, "courriel": true, "fax": true, "telefax": true, "company number": true, "registered office": true,
	"vat registration number": true, "vat number": true, "vat": true, "directors": true, "director": true,
	"ticaret unvanı": true, "adres": true, "mersis no": true, "ticaret sicil no": true, "vergi dairesi / vergi no": true,
	"şirket müdürü": true, "anschrift": true, "firma": true, "inhaber": true, "inhaberin": true, "registergericht": true,
	"registernummer": true, "ust-idnr.": true, "umsatzsteuer-id": true, "geschäftsführer": true, "geschäftsführerin": true,
	"vertreten durch": true, "address": true, "registered address": true,
}

// joinLabels puts a label alone on its line together with the value on
// the next line.
func joinLabels(lines []string) []string {
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		label := strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(l, ":")), " ")
		isLabel := ((strings.HasSuffix(l, ":") && len(l) <= 40) || labelWords[strings.ToLower(label)]) && !headingRE.MatchString(l)
		if isLabel && i+1 < len(lines) && !strings.HasSuffix(strings.TrimSpace(lines[i+1]), ":") {
			out = append(out, label+": "+strings.TrimSpace(lines[i+1]))
			i++
			continue
		}
		out = append(out, l)
	}
	return out
}

// addressAt reads an address whose town line is lines[i]: "42103
// Wuppertal" after a street line, "Beispielweg 3, 42103 Wuppertal" on one
// line, or a UK town and postcode.
func addressAt(lines []string, i int, region string) *schemas.Address {
	l := labelPrefixRE.ReplaceAllString(strings.TrimSpace(lines[i]), "")
	parts := strings.Split(l, ",")
	last := strings.TrimSpace(parts[len(parts)-1])
	if m := postalTownRE.FindStringSubmatch(last); m != nil {
		a := &schemas.Address{PostalCode: m[1], Locality: strings.TrimSpace(m[2]), Country: region}
		if town, reg, ok := strings.Cut(a.Locality, "/"); ok { // "Beşiktaş/İstanbul"
			a.Locality, a.Region = strings.TrimSpace(town), strings.TrimSpace(reg)
		}
		if len(parts) > 1 {
			a.Street = strings.TrimSpace(strings.Join(parts[:len(parts)-1], ","))
		} else if i > 0 && streetRE.MatchString(lines[i-1]) && len(lines[i-1]) < 80 {
			a.Street = labelPrefixRE.ReplaceAllString(strings.TrimSpace(lines[i-1]), "")
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
		return &schemas.Register{Type: "FR:RCS", Court: "RCS " + strings.TrimSpace(m[1]), Number: strings.ReplaceAll(m[2], " ", "")}
	}
	if m := esRegRE.FindStringSubmatch(l); m != nil {
		r := &schemas.Register{Type: "ES:RegistroMercantil", Court: "Registro Mercantil de " + strings.TrimSpace(m[1])}
		if h := esHojaRE.FindStringSubmatch(l); h != nil {
			r.Number = strings.ToUpper(h[1])
		}
		if r.Number != "" {
			return r
		}
	}
	if m := trSicilRE.FindStringSubmatch(l); m != nil {
		r := &schemas.Register{Type: "TR:TicaretSicili", Number: m[1]}
		if c := trSicilCourtRE.FindStringSubmatch(l); c != nil {
			r.Court = strings.TrimSpace(c[1])
		}
		return r
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
