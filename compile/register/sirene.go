package register

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/schemas"
)

// INSEE's SIRENE stock of establishments, "Base Sirene des entreprises et
// de leurs établissements" (StockEtablissement_utf8.csv): one header line
// of camel-case names, comma-separated, dates YYYY-MM-DD, one row per
// establishment (SIRET). The reader keeps the head offices
// (etablissementSiege = true), one per company (SIREN): they carry the
// address, status, activity code and founding date an entry needs, which
// StockUniteLegale lacks (it has no address). What the establishment file
// lacks is the legal name and form; an entry is named by the head office's
// usual name or sign (decision D77). See fixtures/registers/FORMATS.md §3.

// sireneColumns are the columns the reader uses.
var sireneColumns = []string{
	"siren", "nic", "siret", "statutDiffusionEtablissement", "dateCreationEtablissement", "etablissementSiege",
	"complementAdresseEtablissement", "numeroVoieEtablissement", "indiceRepetitionEtablissement",
	"typeVoieEtablissement", "libelleVoieEtablissement", "codePostalEtablissement", "libelleCommuneEtablissement",
	"libelleCommuneEtrangerEtablissement", "distributionSpecialeEtablissement", "codeCedexEtablissement",
	"libelleCedexEtablissement", "codePaysEtrangerEtablissement", "dateDebut", "etatAdministratifEtablissement",
	"enseigne1Etablissement", "denominationUsuelleEtablissement", "activitePrincipaleEtablissement",
	"nomenclatureActivitePrincipaleEtablissement",
}

// notDisclosed is what INSEE writes in a field it withholds.
const notDisclosed = "[ND]"

// Sirene reads the head offices of a StockEtablissement CSV file.
type Sirene struct {
	*csvFrames
	col       map[string]int
	width     int
	siege     int // column of etablissementSiege, read while framing
	retrieved time.Time
	kind      *Kind
}

// NewSirene starts reading. retrieved is the date of the stock file (a
// date in its file name, else the run's); it is the provenance date of
// every record.
func NewSirene(r io.Reader, file string, retrieved time.Time) (*Sirene, error) {
	return newSirene(&sireneKind, r, file, retrieved)
}

// newSirene is NewSirene for the table's row, which hands itself in.
func newSirene(k *Kind, r io.Reader, file string, retrieved time.Time) (*Sirene, error) {
	s := &Sirene{csvFrames: newCSVFrames(r, file), retrieved: retrieved, kind: k}
	col, width, n, err := s.header()
	if err != nil {
		return nil, err
	}
	s.col, s.width = col, width
	if missing := missingColumns(col, sireneColumns); len(missing) > 0 {
		hint := ""
		if _, ok := col["denominationUniteLegale"]; ok {
			hint = " (this is StockUniteLegale, which has no addresses; the sirene register reads StockEtablissement)"
		}
		return nil, fmt.Errorf("%s:%d: not an INSEE StockEtablissement header: missing %s%s", file, n, strings.Join(missing, ", "), hint)
	}
	s.siege = col["etablissementSiege"]
	return s, nil
}

// Next returns the next head office's record, a *RowError for a bad row,
// or io.EOF.
func (s *Sirene) Next() (*Record, error) {
	raw, err := s.Frame()
	if err != nil {
		return nil, err
	}
	return s.Parse(raw)
}

// Frame returns the next head office's row. The other establishments (most
// rows of the file) are passed over here, before any parsing: they are
// neither companies nor errors.
func (s *Sirene) Frame() (Raw, error) {
	for {
		raw, err := s.csvFrames.Frame()
		if err != nil || raw.Err != nil {
			return raw, err
		}
		if f, ok := csvField(raw.Text, s.siege); ok && string(bytes.TrimSpace(f)) == "false" {
			continue
		}
		return raw, nil
	}
}

// Parse parses a framed row.
func (s *Sirene) Parse(raw Raw) (*Record, error) {
	if raw.Err != nil {
		return nil, raw.Err
	}
	fields, _ := splitCSVLine(string(raw.Text), make([]string, 0, s.width))
	rec, err := s.record(raw.Line, fields)
	if rec != nil {
		rec.Hash = fnv64(raw.Text)
	}
	return rec, err
}

// Brief reads a framed row's key, name, town and status. It parses the
// whole row: a SIRENE row is short, and Brief then refuses exactly what
// Parse refuses.
func (s *Sirene) Brief(raw Raw) (Brief, bool) {
	if raw.Err != nil {
		return Brief{}, false
	}
	fields, _ := splitCSVLine(string(raw.Text), make([]string, 0, s.width))
	rec, err := s.record(raw.Line, fields)
	if err != nil {
		return Brief{}, false
	}
	return Brief{Key: rec.Key, Name: rec.Name, Locality: rec.Address.Locality, Active: rec.Active}, true
}

// Route hashes the siren, found without splitting the row.
func (s *Sirene) Route(raw Raw) uint32 {
	if f, ok := csvField(raw.Text, s.col["siren"]); ok {
		return routeHash(bytes.TrimSpace(f))
	}
	return routeHash(raw.Text)
}

// get returns a field trimmed, and "" for a field INSEE withholds.
func (s *Sirene) get(fields []string, name string) string {
	v := strings.TrimSpace(fields[s.col[name]])
	if v == notDisclosed {
		return ""
	}
	return v
}

var (
	nineDigits     = regexp.MustCompile(`^\d{9}$`)
	fourteenDigits = regexp.MustCompile(`^\d{14}$`)
	nafRev2        = regexp.MustCompile(`^\d{2}\.\d{2}[A-Z]$`)
)

func (s *Sirene) record(n int, fields []string) (*Record, error) {
	rowErr := func(field, format string, args ...any) (*Record, error) {
		return nil, &RowError{File: s.file, Line: n, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(fields) != s.width {
		return rowErr("", "%d columns, the header has %d", len(fields), s.width)
	}
	for i, f := range fields {
		if !utf8.ValidString(f) {
			return rowErr(s.headerName(i), "invalid UTF-8")
		}
	}
	get := func(name string) string { return s.get(fields, name) }
	siren := get("siren")
	if !nineDigits.MatchString(siren) {
		return rowErr("siren", "%q is not a 9-digit SIREN", siren)
	}
	if siret := get("siret"); !fourteenDigits.MatchString(siret) || !strings.HasPrefix(siret, siren) {
		return rowErr("siret", "%q is not 14 digits beginning with the siren %s", siret, siren)
	}
	if v := get("etablissementSiege"); v != "true" {
		return rowErr("etablissementSiege", "%q: only head offices (true) are read", v)
	}
	active := false
	switch v := get("etatAdministratifEtablissement"); v {
	case "A":
		active = true
	case "F":
	default:
		return rowErr("etatAdministratifEtablissement", "%q is not A (actif) or F (fermé)", v)
	}
	reg := schemas.Register{Type: "FR:SIREN", Number: siren}
	r := &Record{Source: s.kind.Name, File: s.file, Line: n, Key: s.kind.Key(reg), Jurisdiction: s.kind.Jurisdiction,
		Language: s.kind.Language, TimeZone: s.kind.TimeZone, Register: reg, RetrievedAt: s.retrieved}
	switch v := get("statutDiffusionEtablissement"); v {
	case "O":
	case "P", "N":
		// D77: the company or person asked INSEE not to publish it. The
		// record says so and nothing else, so an entry compiled before the
		// request is taken down and no new one is made.
		r.Status, r.Withheld = "diffusion partielle", true
		if v == "N" {
			r.Status = "non diffusible"
		}
		return r, nil
	default:
		return rowErr("statutDiffusionEtablissement", "%q is not O (diffusible) or P (diffusion partielle)", v)
	}
	r.Active, r.Status = active, "actif"
	if !active {
		r.Status = "fermé"
	}
	name := get("denominationUsuelleEtablissement")
	if name == "" {
		name = get("enseigne1Etablissement")
	}
	if name == "" && active {
		return rowErr("denominationUsuelleEtablissement", "no name: neither denominationUsuelleEtablissement nor enseigne1Etablissement is given (the legal name is in StockUniteLegale, which is not read)")
	}
	r.LegalName = frenchName(name)
	r.Name = r.LegalName
	if country := get("codePaysEtrangerEtablissement"); country != "" && active {
		return rowErr("codePaysEtrangerEtablissement", "a head office abroad (%s) is not compiled: its country is an INSEE code, not ISO 3166", country)
	}
	r.Address = sireneAddress(get)
	if active && (r.Address.Locality == "" || r.Address.PostalCode == "") {
		return rowErr("libelleCommuneEtablissement", "the head office has no postal code and town")
	}
	// A bad date loses the date, not the company; it is reported.
	date := func(col string) string {
		d := get(col)
		if d == "" {
			return ""
		}
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			r.Warnings = append(r.Warnings, &RowError{File: s.file, Line: n, Field: col, Msg: fmt.Sprintf("%q is not a date YYYY-MM-DD; the date is left out", d)})
			return ""
		}
		return d
	}
	r.IncorporatedOn = date("dateCreationEtablissement")
	if !active {
		// A closed establishment's current period began when it closed.
		r.DissolvedOn = date("dateDebut")
	}
	s.activity(r, get, n)
	return r, nil
}

// activity maps the NAF rév. 2 code to its NACE Rev. 2 class: a NAF
// subclass is a NACE class with a letter ("47.61Z" → "47.61"). Codes of
// the older nomenclatures (NAFRev1, NAF1993, NAP) give no class, as UK SIC
// 2003 codes give none.
func (s *Sirene) activity(r *Record, get func(string) string, n int) {
	code, nomenclature := get("activitePrincipaleEtablissement"), get("nomenclatureActivitePrincipaleEtablissement")
	if code == "" || nomenclature != "NAFRev2" {
		return
	}
	if !nafRev2.MatchString(code) {
		r.Warnings = append(r.Warnings, &RowError{File: s.file, Line: n, Field: "activitePrincipaleEtablissement",
			Msg: fmt.Sprintf("%q is not a NAF rév. 2 code (00.00A); left out", code)})
		return
	}
	r.NACE = append(r.NACE, code[:5])
	r.Activities = append(r.Activities, code)
}

func (s *Sirene) headerName(i int) string {
	for k, v := range s.col {
		if v == i {
			return k
		}
	}
	return fmt.Sprintf("column %d", i+1)
}

// sireneAddress writes the head office's address the French way: "27 rue
// du Quai-Fictif", "75011", "Paris".
func sireneAddress(field func(string) string) schemas.Address {
	// A quoted line break inside an address field reads as a comma.
	get := func(col string) string { return strings.ReplaceAll(field(col), "\n", ", ") }
	num := get("numeroVoieEtablissement")
	if num != "" {
		num += repetition(get("indiceRepetitionEtablissement"))
	}
	street := frenchStreet(num, get("typeVoieEtablissement"), get("libelleVoieEtablissement"))
	var extra []string
	for _, v := range []string{titleCase(get("complementAdresseEtablissement")), get("distributionSpecialeEtablissement")} {
		if v != "" {
			extra = append(extra, v)
		}
	}
	postal, town := get("codePostalEtablissement"), get("libelleCommuneEtablissement")
	if postal == "" {
		postal = get("codeCedexEtablissement")
	}
	if town == "" {
		town, _, _ = strings.Cut(get("libelleCedexEtablissement"), " CEDEX")
	}
	return schemas.Address{Street: street, Extra: strings.Join(extra, ", "), PostalCode: postal, Locality: frenchTown(town), Country: "FR"}
}

// repetition writes the repetition index after a street number: "B" is
// "bis" ("12 bis"); an index INSEE does not spell out is kept as a letter.
func repetition(code string) string {
	switch strings.ToUpper(code) {
	case "":
		return ""
	case "B":
		return " bis"
	case "T":
		return " ter"
	case "Q":
		return " quater"
	case "C":
		return " quinquies"
	}
	return code
}

// voieWords spell out INSEE's street-type codes, in lower case as French
// addresses write them.
var voieWords = map[string]string{
	"ALL": "allée", "AV": "avenue", "BD": "boulevard", "CAR": "carrefour", "CHE": "chemin", "CHS": "chaussée",
	"CITE": "cité", "COR": "corniche", "CRS": "cours", "DOM": "domaine", "DSC": "descente", "ECA": "écart",
	"ESP": "esplanade", "FG": "faubourg", "GR": "grande rue", "HAM": "hameau", "HLE": "halle", "IMP": "impasse",
	"LD": "lieu-dit", "LOT": "lotissement", "MAR": "marché", "MTE": "montée", "PAS": "passage", "PASS": "passage",
	"PL": "place", "PLN": "plaine", "PLT": "plateau", "PRO": "promenade", "PRV": "parvis", "QUA": "quartier",
	"QUAI": "quai", "RES": "résidence", "RLE": "ruelle", "ROC": "rocade", "RPT": "rond-point", "RTE": "route",
	"RUE": "rue", "SEN": "sentier", "SQ": "square", "TPL": "terre-plein", "TRA": "traverse", "VLA": "villa",
	"VLGE": "village",
}

// frenchStreet joins number, street type and street name: the type in
// lower case, the name in normal case ("27", "RUE", "DU QUAI-FICTIF" →
// "27 rue du Quai-Fictif").
func frenchStreet(num, typ, name string) string {
	word := voieWords[strings.ToUpper(typ)]
	if word == "" {
		word = strings.ToLower(typ)
	}
	street := titleCase(name)
	switch {
	case word != "" && name != "":
		// Title-case the name after its type, so a leading "du" or "des"
		// stays small, then write the type in lower case.
		t := strings.Fields(titleCase(strings.ToUpper(word) + " " + name))
		street = word + " " + strings.Join(t[len(strings.Fields(word)):], " ")
	case word != "":
		street = word
	}
	return strings.TrimSpace(num + " " + street)
}

// arrondissement is a town name with its arrondissement number ("PARIS
// 11", "LYON 3E"); a postal address names the town alone.
var arrondissement = regexp.MustCompile(`^(PARIS|MARSEILLE|LYON) \d{1,2}(E|ER|EME)?$`)

// frenchTown writes a commune's name in normal case, without an
// arrondissement, with the small words inside a compound name in lower
// case ("AIX-EN-PROVENCE" → "Aix-en-Provence").
func frenchTown(s string) string {
	s = strings.TrimSpace(s)
	if m := arrondissement.FindStringSubmatch(strings.ToUpper(s)); m != nil {
		s = m[1]
	}
	words := strings.Fields(titleCase(s))
	for i, w := range words {
		parts := strings.Split(w, "-")
		for j := 1; j < len(parts); j++ {
			if frenchSmall[strings.ToLower(parts[j])] {
				parts[j] = strings.ToLower(parts[j])
			}
		}
		words[i] = strings.Join(parts, "-")
	}
	return strings.Join(words, " ")
}

// frenchSmall are the words French writes in lower case inside a compound
// place name.
var frenchSmall = map[string]bool{"en": true, "sur": true, "sous": true, "de": true, "du": true, "des": true, "la": true,
	"le": true, "les": true, "lès": true, "aux": true, "au": true, "et": true}

// frenchName writes an all-capitals name in normal case, "et" in lower
// case ("FLEURS ET JARDINS" → "Fleurs et Jardins"); titleCase keeps the
// articles of a name ("Le Petit Zinc") capitalised, as French names do.
func frenchName(s string) string {
	words := strings.Fields(titleCase(s))
	for i := 1; i < len(words); i++ {
		if words[i] == "Et" {
			words[i] = "et"
		}
	}
	return strings.Join(words, " ")
}

// frKey is the identity key of a SIREN, and of an RCS registration (whose
// number is the SIREN): "fr/" and the nine digits, spaces and dots
// removed ("RCS Paris 999 999 901" → "fr/999999901").
func frKey(r schemas.Register) string {
	n := strings.NewReplacer(" ", "", ".", "", "\u00a0", "").Replace(r.Number)
	if !nineDigits.MatchString(n) {
		return ""
	}
	return "fr/" + n
}

// sireneReference names a SIREN "SIREN 999999901"; an RCS registration
// keeps its court ("RCS Paris 999999901").
func sireneReference(r schemas.Register) string {
	if r.Type == "FR:SIREN" {
		return "SIREN " + r.Number
	}
	return joinReference(r)
}
