package register

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/schemas"
	sjson "github.com/segmentio/encoding/json"
)

// decodeLine decodes a line into v with segmentio/encoding/json, about
// three times as fast as encoding/json, which decoding every German row
// twice (Brief, then Parse) made a sixth of a 10M compile's time (D135).
// A line it refuses is decoded again, from a zero value, by encoding/json,
// whose errors (the field of a wrong type, with every other field filled)
// the rows' problems are made from; so only a line both decode is taken
// from segmentio (TestDecodeLine_SameAsEncodingJSON, FuzzDecodeLine).
func decodeLine[T any](b []byte, v *T) error {
	if sjson.Unmarshal(b, v) == nil {
		return nil
	}
	var zero T
	*v = zero
	return json.Unmarshal(b, v)
}

// OffeneRegister / OpenCorporates JSON lines: one company per line with
// company_number, name, registered_address, current_status, officers,
// retrieved_at and all_attributes (_registerArt, _registerNummer,
// registrar, federal_state, native_company_number). See
// fixtures/registers/FORMATS.md.

type orLine struct {
	AllAttributes struct {
		RegisterArt         string `json:"_registerArt"`
		RegisterNummer      string `json:"_registerNummer"`
		FederalState        string `json:"federal_state"`
		NativeCompanyNumber string `json:"native_company_number"`
		RegisteredOffice    string `json:"registered_office"`
		Registrar           string `json:"registrar"`
	} `json:"all_attributes"`
	CompanyNumber     string `json:"company_number"`
	CurrentStatus     string `json:"current_status"`
	JurisdictionCode  string `json:"jurisdiction_code"`
	Name              string `json:"name"`
	RegisteredAddress string `json:"registered_address"`
	RetrievedAt       string `json:"retrieved_at"`
	Officers          []struct {
		Name     string `json:"name"`
		Position string `json:"position"`
		Type     string `json:"type"`
	} `json:"officers"`
}

// registerSections are the German register sections and their register
// types.
var registerSections = map[string]string{
	"HRA": "DE:Handelsregister", "HRB": "DE:Handelsregister", "VR": "DE:Vereinsregister",
	"PR": "DE:Partnerschaftsregister", "GnR": "DE:Genossenschaftsregister", "GsR": "DE:Gesellschaftsregister",
}

// OffeneRegister reads German register records in JSON lines.
type OffeneRegister struct {
	file string
	r    *lineReader
	line int
	kind *Kind
}

// maxLine caps one JSON line; a longer line is reported and skipped.
const maxLine = 4 << 20

// NewOffeneRegister starts reading.
func NewOffeneRegister(r io.Reader, file string) *OffeneRegister {
	return newOffeneRegister(&offeneRegisterKind, r, file)
}

// newOffeneRegister is NewOffeneRegister for the table's row, which hands
// itself in.
func newOffeneRegister(k *Kind, r io.Reader, file string) *OffeneRegister {
	return &OffeneRegister{file: file, r: newLineReader(r, maxLine), kind: k}
}

// Next returns the next record, a *RowError for a bad line, or io.EOF.
func (o *OffeneRegister) Next() (*Record, error) {
	raw, err := o.Frame()
	if err != nil {
		return nil, err
	}
	return o.Parse(raw)
}

// Frame returns the next non-blank line.
func (o *OffeneRegister) Frame() (Raw, error) {
	for {
		b, tooLong, err := o.r.next()
		if err != nil {
			if err == io.EOF {
				return Raw{}, io.EOF
			}
			return Raw{}, fmt.Errorf("%s:%d: %w", o.file, o.line+1, err)
		}
		o.line++
		if tooLong {
			return Raw{Line: o.line, Err: &RowError{File: o.file, Line: o.line, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}}, nil
		}
		b = bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\ufeff")))
		if len(b) == 0 {
			continue
		}
		return Raw{Line: o.line, Text: b}, nil
	}
}

// Parse parses a framed line.
func (o *OffeneRegister) Parse(raw Raw) (*Record, error) {
	if raw.Err != nil {
		return nil, raw.Err
	}
	rec, err := o.record(raw.Text, raw.Line)
	if rec != nil {
		rec.Hash = fnv64(raw.Text)
	}
	return rec, err
}

// orBrief is the part of a line Brief decodes.
type orBrief struct {
	AllAttributes struct {
		RegisterArt    string `json:"_registerArt"`
		RegisterNummer string `json:"_registerNummer"`
		Registrar      string `json:"registrar"`
	} `json:"all_attributes"`
	CurrentStatus     string `json:"current_status"`
	JurisdictionCode  string `json:"jurisdiction_code"`
	Name              string `json:"name"`
	RegisteredAddress string `json:"registered_address"`
	RetrievedAt       string `json:"retrieved_at"`
}

// Brief reads a framed line's key, name, town and status.
func (o *OffeneRegister) Brief(raw Raw) (Brief, bool) {
	b := raw.Text
	if raw.Err != nil || !utf8.Valid(b) || len(b) == 0 || b[0] != '{' {
		return Brief{}, false
	}
	var l orBrief
	if err := decodeLine(b, &l); err != nil {
		return Brief{}, false
	}
	a := l.AllAttributes
	name, number, court := strings.TrimSpace(l.Name), strings.TrimSpace(a.RegisterNummer), strings.TrimSpace(a.Registrar)
	if _, ok := registerSections[a.RegisterArt]; !ok || name == "" || number == "" || court == "" || (l.JurisdictionCode != "" && l.JurisdictionCode != "de") {
		return Brief{}, false
	}
	if l.RetrievedAt != "" {
		if _, err := parseLooseTime(l.RetrievedAt); err != nil {
			return Brief{}, false
		}
	}
	display, _, liquidating := splitGermanForm(caseName(name, "de"))
	return Brief{Key: orKey(court, a.RegisterArt, number), Name: display, Locality: germanAddress(l.RegisteredAddress, "").Locality,
		Active: orActive(strings.TrimSpace(l.CurrentStatus)) && !liquidating}, true
}

// deKey is the identity key of a German register entry named elsewhere:
// the court without "Amtsgericht", the section and the number, folded as
// orKey folds them.
func deKey(r schemas.Register) string {
	court := strings.TrimSpace(strings.TrimPrefix(r.Court, "Amtsgericht"))
	if court == "" || r.Section == "" {
		return ""
	}
	return "de/" + keyPart(court) + "/" + strings.ToLower(r.Section) + "/" + keyPart(r.Number)
}

func orKey(court, art, number string) string {
	return "de/" + keyPart(court) + "/" + strings.ToLower(art) + "/" + keyPart(number)
}

func orActive(status string) bool {
	return status == "" || strings.EqualFold(status, "currently registered") || strings.EqualFold(status, "active")
}

var companyNumberKey = []byte(`"company_number"`)

// Route hashes the company_number value, found without decoding the line.
func (o *OffeneRegister) Route(raw Raw) uint32 {
	b := raw.Text
	if i := bytes.Index(b, companyNumberKey); i >= 0 {
		rest := bytes.TrimLeft(b[i+len(companyNumberKey):], " \t:")
		if len(rest) > 0 && rest[0] == '"' {
			if j := bytes.IndexByte(rest[1:], '"'); j >= 0 {
				return routeHash(rest[1 : 1+j])
			}
		}
	}
	return routeHash(b)
}

var postalTown = regexp.MustCompile(`^(\d{5})\s+(.+)$`)

func (o *OffeneRegister) record(b []byte, line int) (*Record, error) {
	rowErr := func(field, format string, args ...any) (*Record, error) {
		return nil, &RowError{File: o.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if !utf8.Valid(b) {
		return rowErr("", "invalid UTF-8")
	}
	if b[0] != '{' {
		return rowErr("", "not a JSON object")
	}
	var l orLine
	var warnings []*RowError
	if err := decodeLine(b, &l); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && optionalKeys[te.Field]:
			// encoding/json fills every other field: keep the company
			// without this one, and say so.
			warnings = append(warnings, &RowError{File: o.file, Line: line, Field: te.Field,
				Msg: fmt.Sprintf("must be %s, not %s; left out", jsonKind(te.Type), te.Value)})
			l.Officers = nil
		case errors.As(err, &te):
			return rowErr(te.Field, "must be %s, not %s", jsonKind(te.Type), te.Value)
		case errors.As(err, &se):
			return rowErr("", "broken JSON at byte %d: %v", se.Offset, err)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return rowErr("", "the line ends in the middle of a JSON value")
		default:
			return rowErr("", "%v", err)
		}
	}
	if l.JurisdictionCode != "" && l.JurisdictionCode != "de" {
		return rowErr("jurisdiction_code", "%q is not de", l.JurisdictionCode)
	}
	name := strings.TrimSpace(l.Name)
	if name == "" {
		return rowErr("name", "is missing")
	}
	a := l.AllAttributes
	typ, ok := registerSections[a.RegisterArt]
	if !ok {
		return rowErr("all_attributes._registerArt", "%q is not a German register section (HRA, HRB, VR, PR, GnR, GsR)", a.RegisterArt)
	}
	number := strings.TrimSpace(a.RegisterNummer)
	if number == "" {
		return rowErr("all_attributes._registerNummer", "is missing")
	}
	court := strings.TrimSpace(a.Registrar)
	if court == "" {
		return rowErr("all_attributes.registrar", "is missing")
	}
	var retrieved time.Time
	if l.RetrievedAt != "" {
		t, err := parseLooseTime(l.RetrievedAt)
		if err != nil {
			return rowErr("retrieved_at", "%q is not a timestamp", l.RetrievedAt)
		}
		retrieved = t
	}
	legal := caseName(name, "de")
	display, form, liquidating := splitGermanForm(legal)
	status := strings.TrimSpace(l.CurrentStatus)
	active := orActive(status)
	if liquidating && active {
		// D98: a company being wound up is left out as a dissolved one
		// is; its name says so ("i.L."), the status column does not.
		active, status = false, "in Liquidation"
	}
	r := &Record{
		Source:       o.kind.Name,
		File:         o.file,
		Line:         line,
		Key:          orKey(court, a.RegisterArt, number),
		Jurisdiction: o.kind.Jurisdiction,
		Language:     o.kind.Language,
		TimeZone:     o.kind.TimeZone,
		Register:     schemas.Register{Type: typ, Court: "Amtsgericht " + court, Section: a.RegisterArt, Number: number},
		LegalName:    legal,
		LegalForm:    form,
		Name:         display,
		Status:       status,
		Active:       active,
		RetrievedAt:  retrieved,
		Address:      germanAddress(l.RegisteredAddress, a.FederalState),
		Warnings:     warnings,
	}
	for _, off := range l.Officers {
		if off.Name != "" {
			r.Officers = append(r.Officers, Officer{Name: off.Name, Position: off.Position})
		}
	}
	return r, nil
}

// optionalKeys are the keys a record can do without: a wrong type there
// drops the key, not the company.
var optionalKeys = map[string]bool{"officers": true, "officers.name": true, "officers.position": true, "officers.type": true}

// jsonKind names the JSON kind a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return "a number"
}

// parseLooseTime reads the timestamps OffeneRegister writes, with or
// without fractional seconds and zone.
func parseLooseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a timestamp")
}

// germanAddress splits "Beispielweg 3, 42103 Wuppertal." into street,
// postal code and town.
func germanAddress(s, federalState string) schemas.Address {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	a := schemas.Address{Country: "DE", Region: germanStates[federalState]}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	// The postal code and town are the last part that reads "12345 Town".
	for i := len(parts) - 1; i >= 0; i-- {
		if m := postalTown.FindStringSubmatch(parts[i]); m != nil {
			a.PostalCode, a.Locality = m[1], m[2]
			a.Street = strings.Join(parts[:i], ", ")
			return a
		}
	}
	a.Locality = s
	return a
}

// germanStates name the federal states as German addresses do.
var germanStates = map[string]string{
	"Baden-Württemberg": "Baden-Württemberg", "Baden-Wuerttemberg": "Baden-Württemberg", "Bavaria": "Bayern",
	"Berlin": "Berlin", "Brandenburg": "Brandenburg", "Bremen": "Bremen", "Hamburg": "Hamburg", "Hesse": "Hessen",
	"Lower Saxony": "Niedersachsen", "Mecklenburg-Vorpommern": "Mecklenburg-Vorpommern",
	"Mecklenburg-Western Pomerania": "Mecklenburg-Vorpommern", "North Rhine-Westphalia": "Nordrhein-Westfalen",
	"Rhineland-Palatinate": "Rheinland-Pfalz", "Saarland": "Saarland", "Saxony": "Sachsen",
	"Saxony-Anhalt": "Sachsen-Anhalt", "Schleswig-Holstein": "Schleswig-Holstein", "Thuringia": "Thüringen",
}

// keyPart lower-cases and folds a court name or number for identity keys:
// "Berlin (Charlottenburg)" → "berlin-charlottenburg".
func keyPart(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch r {
		case 'ä':
			b.WriteString("ae")
		case 'ö':
			b.WriteString("oe")
		case 'ü':
			b.WriteString("ue")
		case 'ß':
			b.WriteString("ss")
		default:
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				b.WriteRune(r)
				dash = false
				continue
			}
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
			continue
		}
		dash = false
	}
	return strings.TrimRight(b.String(), "-")
}
