package register

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/schemas"
)

// Companies House "Free Company Data Product" (BasicCompanyData CSV): one
// header line whose names carry stray leading spaces (" CompanyNumber"),
// every field quoted, dates dd/mm/yyyy, SIC codes as "43320 - Joinery
// installation". See fixtures/registers/FORMATS.md.

// chColumns are the columns the reader uses, by their trimmed names.
var chColumns = []string{
	"CompanyName", "CompanyNumber", "RegAddress.CareOf", "RegAddress.POBox", "RegAddress.AddressLine1",
	"RegAddress.AddressLine2", "RegAddress.PostTown", "RegAddress.County", "RegAddress.Country",
	"RegAddress.PostCode", "CompanyCategory", "CompanyStatus", "DissolutionDate", "IncorporationDate",
	"SICCode.SicText_1", "SICCode.SicText_2", "SICCode.SicText_3", "SICCode.SicText_4",
}

// CompaniesHouse reads a BasicCompanyData CSV file.
type CompaniesHouse struct {
	*csvFrames
	col       map[string]int
	width     int
	retrieved time.Time
	kind      *Kind
}

// NewCompaniesHouse starts reading. retrieved is the date of the data
// product (its file name carries it: BasicCompanyData-2026-10-01-…); it is
// the provenance date of every record.
func NewCompaniesHouse(r io.Reader, file string, retrieved time.Time) (*CompaniesHouse, error) {
	return newCompaniesHouse(&companiesHouseKind, r, file, retrieved)
}

// newCompaniesHouse is NewCompaniesHouse for the table's row, which hands
// itself in (a row that named its own reader would be an initialisation
// cycle).
func newCompaniesHouse(k *Kind, r io.Reader, file string, retrieved time.Time) (*CompaniesHouse, error) {
	c := &CompaniesHouse{csvFrames: newCSVFrames(r, file), retrieved: retrieved, kind: k}
	col, width, n, err := c.header()
	if err != nil {
		return nil, err
	}
	c.col, c.width = col, width
	if missing := missingColumns(col, chColumns); len(missing) > 0 {
		return nil, fmt.Errorf("%s:%d: not a Companies House BasicCompanyData header: missing %s", file, n, strings.Join(missing, ", "))
	}
	return c, nil
}

// Next returns the next record, a *RowError for a bad row, or io.EOF.
func (c *CompaniesHouse) Next() (*Record, error) {
	raw, err := c.Frame()
	if err != nil {
		return nil, err
	}
	return c.Parse(raw)
}

// Parse parses a framed record.
func (c *CompaniesHouse) Parse(raw Raw) (*Record, error) {
	if raw.Err != nil {
		return nil, raw.Err
	}
	text := string(raw.Text)
	fields, _ := splitCSVLine(text, make([]string, 0, c.width))
	rec, err := c.record(raw.Line, fields)
	if rec != nil {
		rec.Hash = fnv64(raw.Text)
	}
	return rec, err
}

// Brief reads a framed record's key, name, town and status.
func (c *CompaniesHouse) Brief(raw Raw) (Brief, bool) {
	if raw.Err != nil || !utf8.Valid(raw.Text) {
		return Brief{}, false
	}
	fields, _ := splitCSVLine(string(raw.Text), make([]string, 0, c.width))
	if len(fields) != c.width {
		return Brief{}, false
	}
	number := strings.ToUpper(c.get(fields, "CompanyNumber"))
	name := c.get(fields, "CompanyName")
	if len(number) != 8 || name == "" {
		return Brief{}, false
	}
	dis, _ := ukDate(c.get(fields, "DissolutionDate"))
	_, leftOut := c.leftOut(fields)
	return Brief{Key: "gb/" + strings.ToLower(number), Name: caseName(ukDisplayName(name), "en"),
		Locality: titleCase(c.get(fields, "RegAddress.PostTown")), Active: ukActive(c.get(fields, "CompanyStatus")) && dis == "" && !leftOut}, true
}

// Route hashes the company number, found without splitting the line.
func (c *CompaniesHouse) Route(raw Raw) uint32 {
	if f, ok := csvField(raw.Text, c.col["CompanyNumber"]); ok {
		return routeHash(bytes.ToUpper(bytes.TrimSpace(f)))
	}
	return routeHash(raw.Text)
}

func (c *CompaniesHouse) get(fields []string, name string) string {
	return strings.TrimSpace(fields[c.col[name]])
}

func (c *CompaniesHouse) record(n int, fields []string) (*Record, error) {
	rowErr := func(field, format string, args ...any) (*Record, error) {
		return nil, &RowError{File: c.file, Line: n, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(fields) != c.width {
		return rowErr("", "%d columns, the header has %d", len(fields), c.width)
	}
	for i, f := range fields {
		if !utf8.ValidString(f) {
			return rowErr(strings.TrimSpace(c.headerName(i)), "invalid UTF-8")
		}
	}
	number := strings.ToUpper(c.get(fields, "CompanyNumber"))
	if number == "" {
		return rowErr("CompanyNumber", "is empty")
	}
	if len(number) != 8 {
		return rowErr("CompanyNumber", "%q is not an 8-character company number", number)
	}
	name := c.get(fields, "CompanyName")
	if name == "" {
		return rowErr("CompanyName", "is empty")
	}
	// A bad date loses the date, not the company; it is reported.
	var warnings []*RowError
	date := func(col string) string {
		d, err := ukDate(c.get(fields, col))
		if err != nil {
			warnings = append(warnings, &RowError{File: c.file, Line: n, Field: col, Msg: err.Error() + "; the date is left out"})
		}
		return d
	}
	inc, dis := date("IncorporationDate"), date("DissolutionDate")
	status, leftOut := c.leftOut(fields)
	legal := caseName(name, "en")
	r := &Record{
		Source:         c.kind.Name,
		File:           c.file,
		Line:           n,
		Key:            "gb/" + strings.ToLower(number),
		Jurisdiction:   c.kind.Jurisdiction,
		Language:       c.kind.Language,
		TimeZone:       c.kind.TimeZone,
		Register:       schemas.Register{Type: "GB:CompaniesHouse", Number: number},
		LegalName:      legal,
		LegalForm:      ukForm(c.get(fields, "CompanyCategory")),
		Name:           caseName(ukDisplayName(name), "en"),
		Status:         status,
		Active:         ukActive(status) && dis == "" && !leftOut,
		IncorporatedOn: inc,
		DissolvedOn:    dis,
		RetrievedAt:    c.retrieved,
		Address:        c.address(fields),
		Warnings:       warnings,
	}
	for _, col := range []string{"SICCode.SicText_1", "SICCode.SicText_2", "SICCode.SicText_3", "SICCode.SicText_4"} {
		if nace, ok := sicToNACE(c.get(fields, col)); ok {
			r.NACE = append(r.NACE, nace)
			r.Activities = append(r.Activities, c.get(fields, col))
		}
	}
	return r, nil
}

func (c *CompaniesHouse) headerName(i int) string {
	for k, v := range c.col {
		if v == i {
			return k
		}
	}
	return fmt.Sprintf("column %d", i+1)
}

// address turns the registered office into an Address; the country of a
// UK register is GB whatever the column says ("ENGLAND", "WALES").
func (c *CompaniesHouse) address(fields []string) schemas.Address {
	line := func(col string) string {
		return titleCase(strings.ReplaceAll(c.get(fields, col), "\n", ", "))
	}
	street, extra := line("RegAddress.AddressLine1"), line("RegAddress.AddressLine2")
	if po := c.get(fields, "RegAddress.POBox"); po != "" && street == "" {
		street = "PO Box " + po
	}
	return schemas.Address{
		Street:     street,
		Extra:      extra,
		PostalCode: strings.ToUpper(c.get(fields, "RegAddress.PostCode")),
		Locality:   titleCase(c.get(fields, "RegAddress.PostTown")),
		Region:     titleCase(c.get(fields, "RegAddress.County")),
		Country:    "GB",
	}
}

// ukDate reads dd/mm/yyyy; "" is no date.
func ukDate(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	t, err := time.Parse("02/01/2006", s)
	if err != nil {
		return "", fmt.Errorf("%q is not a date dd/mm/yyyy", s)
	}
	return t.Format(time.DateOnly), nil
}

// ukActive says whether a company status keeps the company on the
// register: everything but dissolved, converted or closed ones.
func ukActive(status string) bool {
	s := strings.ToLower(status)
	return !strings.HasPrefix(s, "dissolved") && !strings.Contains(s, "converted") && !strings.Contains(s, "closed") && s != "removed"
}

// leftOut applies D98 to a row: a company in liquidation or receivership,
// or a dormant one (SIC 99999 "Dormant Company", 74990 "Non-trading
// company", or accounts filed as DORMANT), is not a trading business and
// is left out of the registry as a dissolved one is. It returns the status
// the record carries: the register's own, or the register's word for the
// dormancy.
func (c *CompaniesHouse) leftOut(fields []string) (status string, out bool) {
	status = c.get(fields, "CompanyStatus")
	s := strings.ToLower(status)
	if strings.Contains(s, "liquidation") || strings.Contains(s, "receiver") {
		return status, true
	}
	for _, col := range []string{"SICCode.SicText_1", "SICCode.SicText_2", "SICCode.SicText_3", "SICCode.SicText_4"} {
		sic := c.get(fields, col)
		if strings.HasPrefix(sic, "99999") || strings.HasPrefix(sic, "74990") {
			return "Dormant (SIC " + sic + ")", true
		}
	}
	if i, ok := c.col["Accounts.AccountCategory"]; ok && strings.EqualFold(strings.TrimSpace(fields[i]), "DORMANT") {
		return "Dormant (accounts category DORMANT)", true
	}
	return status, false
}

// sicToNACE maps "43320 - Joinery installation" to NACE "43.32": UK SIC
// 2007 subclasses are NACE Rev. 2 classes with a fifth digit.
func sicToNACE(sic string) (string, bool) {
	code, _, _ := strings.Cut(sic, " ")
	if len(code) != 5 {
		return "", false
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	return code[:2] + "." + code[2:4], true
}

// chKey is the identity key of a Companies House number: "gb/" and the
// number in lower case ("gb/sc999001").
func chKey(r schemas.Register) string {
	return "gb/" + strings.ToLower(r.Number)
}

var partRE = regexp.MustCompile(`^BasicCompanyData-(\d{4}-\d{2}-\d{2})-part(\d+)_(\d+)\.csv$`)

// completeProduct reports whether the files include every part of a
// Companies House BasicCompanyData product (part1_7 … part7_7 of one
// date), read whole in this run.
func completeProduct(files []string) bool {
	parts := map[string]map[int]bool{}
	total := map[string]int{}
	for _, f := range files {
		m := partRE.FindStringSubmatch(filepath.Base(f))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		t, _ := strconv.Atoi(m[3])
		if parts[m[1]] == nil {
			parts[m[1]] = map[int]bool{}
		}
		parts[m[1]][n] = true
		total[m[1]] = t
	}
	for date, ps := range parts {
		t := total[date]
		if t == 0 {
			continue
		}
		all := true
		for i := 1; i <= t; i++ {
			all = all && ps[i]
		}
		if all {
			return true
		}
	}
	return false
}
