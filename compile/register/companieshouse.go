package register

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
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

// maxContinuation caps how many physical lines one record may span (a
// quoted address line with a line break); beyond it the quote is broken.
const maxContinuation = 8

// CompaniesHouse reads a BasicCompanyData CSV file.
type CompaniesHouse struct {
	file      string
	sc        *bufio.Scanner
	line      int // physical lines read
	pending   []pendingLine
	col       map[string]int
	width     int
	retrieved time.Time
}

type pendingLine struct {
	n    int
	text string
}

// NewCompaniesHouse starts reading. retrieved is the date of the data
// product (its file name carries it: BasicCompanyData-2026-10-01-…); it is
// the provenance date of every record.
func NewCompaniesHouse(r io.Reader, file string, retrieved time.Time) (*CompaniesHouse, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	c := &CompaniesHouse{file: file, sc: sc, retrieved: retrieved, col: map[string]int{}}
	n, head, ok := c.physical()
	if !ok {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return nil, fmt.Errorf("%s: empty file, no header", file)
	}
	head = strings.TrimPrefix(head, "\ufeff")
	names, open := splitCSVLine(head, nil)
	if open {
		return nil, fmt.Errorf("%s:%d: header has an unterminated quote", file, n)
	}
	for i, name := range names {
		c.col[strings.TrimSpace(name)] = i
	}
	c.width = len(names)
	var missing []string
	for _, want := range chColumns {
		if _, ok := c.col[want]; !ok {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s:%d: not a Companies House BasicCompanyData header: missing %s", file, n, strings.Join(missing, ", "))
	}
	return c, nil
}

// physical returns the next physical line, from the pushed-back ones first.
func (c *CompaniesHouse) physical() (int, string, bool) {
	if len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		return p.n, p.text, true
	}
	if !c.sc.Scan() {
		return 0, "", false
	}
	c.line++
	return c.line, strings.TrimSuffix(c.sc.Text(), "\r"), true
}

// Next returns the next record, a *RowError for a bad row, or io.EOF.
func (c *CompaniesHouse) Next() (*Record, error) {
	raw, err := c.Frame()
	if err != nil {
		return nil, err
	}
	return c.Parse(raw)
}

// Frame returns the next record's lines: one physical line, or a few when
// a quoted field holds a line break.
func (c *CompaniesHouse) Frame() (Raw, error) {
	for {
		n, text, ok := c.physical()
		if !ok {
			if err := c.sc.Err(); err != nil {
				// The scanner stops for good (a line over its limit): the rest
				// of the file can't be read.
				return Raw{}, fmt.Errorf("%s:%d: unreadable line: %w", c.file, c.line+1, err)
			}
			return Raw{}, io.EOF
		}
		if strings.TrimSpace(text) == "" {
			continue // blank lines carry nothing
		}
		open := csvOpen(text)
		var extra []pendingLine
		for open && len(extra) < maxContinuation {
			m, more, ok := c.physical()
			if !ok {
				break
			}
			extra = append(extra, pendingLine{m, more})
			text += "\n" + more
			open = csvOpen(text)
		}
		if open {
			// Give the lines back: they are records of their own.
			c.pending = append(extra, c.pending...)
			return Raw{Line: n, Err: &RowError{File: c.file, Line: n, Msg: "unterminated quote"}}, nil
		}
		return Raw{Line: n, Text: []byte(text)}, nil
	}
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
	return Brief{Key: "gb/" + strings.ToLower(number), Name: titleCase(ukDisplayName(name)),
		Locality: titleCase(c.get(fields, "RegAddress.PostTown")), Active: ukActive(c.get(fields, "CompanyStatus")) && dis == ""}, true
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
	status := c.get(fields, "CompanyStatus")
	legal := titleCase(name)
	r := &Record{
		Source:         "companies-house",
		File:           c.file,
		Line:           n,
		Key:            "gb/" + strings.ToLower(number),
		Jurisdiction:   "GB",
		Register:       schemas.Register{Type: "GB:CompaniesHouse", Number: number},
		LegalName:      legal,
		LegalForm:      ukForm(c.get(fields, "CompanyCategory")),
		Name:           titleCase(ukDisplayName(name)),
		Status:         status,
		Active:         ukActive(status) && dis == "",
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
