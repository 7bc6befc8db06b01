package register

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/daawid/registry/schemas"
)

// Kind is one register the registry compiles entries from: a row of the
// register table. Everything the rest of the system knows about a register
// is here, so a new register is one more row and one reader; nothing else
// asks which register a file or a record came from (issue 17, D78).
type Kind struct {
	// Name names the register on the command line (--register NAME:FILE),
	// in Record.Source and in messages.
	Name string
	// Display and Product name the register and the data product its
	// files come from, in run reports ("Companies House",
	// "BasicCompanyData").
	Display, Product string
	// Jurisdiction is the ISO 3166-1 country of the register; Language the
	// language its entries are compiled in; TimeZone the IANA zone of the
	// hours compiled for its companies.
	Jurisdiction, Language, TimeZone string
	// KeyPrefix begins the identity key of every company of the register
	// ("gb/"); Key makes the whole key from a register reference,
	// normalising its number the way the reader does (D43), or "" when
	// the reference is incomplete.
	KeyPrefix string
	Key       func(schemas.Register) string
	// RegisterTypes are the schemas.Register types the register's keys
	// and references are made for: those its reader writes and those a
	// website's legal notice names for the same companies. An entry that
	// ends in ":" stands for every type with that prefix.
	RegisterTypes []string
	// Reference is how documents name an entry of the register
	// ("Companies House 09999991").
	Reference func(schemas.Register) string
	// Sniff recognises a file of the register by its first bytes (a
	// header line, the first JSON object); Expect says what it looks for,
	// for the error about a file no row recognises.
	Sniff  func(head []byte) bool
	Expect string
	// Open starts reading a file of the register. The row hands itself
	// in, so the reader can stamp its records without the row naming a
	// function that names the row (an initialisation cycle).
	Open func(k *Kind, r io.Reader, o Opening) (Framed, error)
	// Complete, when set, reports whether files (by base name) make up a
	// whole data product: a live company missing from all of them has
	// left the register (D54).
	Complete func(names []string) bool
}

// Opening is what a register file is opened with.
type Opening struct {
	// File is the file's base name, for messages and for the product date
	// some registers write into it.
	File string
	// Now is the run's instant: the retrieval date of a file whose name
	// carries none.
	Now time.Time
}

// kinds is the register table. Order matters only for sniffing: the first
// row that recognises a file reads it.
var kinds = []*Kind{&companiesHouseKind, &offeneRegisterKind, &sireneKind}

// companiesHouseKind is the UK register: Companies House BasicCompanyData.
var companiesHouseKind = Kind{
	Name: "companies-house", Display: "Companies House", Product: "BasicCompanyData",
	Jurisdiction: "GB", Language: "en", TimeZone: "Europe/London",
	KeyPrefix: "gb/", Key: chKey, RegisterTypes: []string{"GB:CompaniesHouse"},
	Reference: func(r schemas.Register) string { return "Companies House " + r.Number },
	Sniff:     sniffCSVHeader("CompanyName", "CompanyNumber"),
	Expect:    "a CSV header naming CompanyName and CompanyNumber (BasicCompanyData)",
	Open: func(k *Kind, r io.Reader, o Opening) (Framed, error) {
		return newCompaniesHouse(k, r, o.File, DateInName(o.File, o.Now))
	},
	Complete: completeProduct,
}

// offeneRegisterKind is the German register as OffeneRegister dumps it.
var offeneRegisterKind = Kind{
	Name: "offeneregister", Display: "OffeneRegister", Product: "Handelsregister dump",
	Jurisdiction: "DE", Language: "de", TimeZone: "Europe/Berlin",
	KeyPrefix: "de/", Key: deKey, RegisterTypes: []string{"DE:"},
	Reference: joinReference,
	Sniff:     sniffJSONKeys("company_number", "all_attributes"),
	Expect:    "JSON lines whose first object has the keys company_number and all_attributes",
	Open: func(k *Kind, r io.Reader, o Opening) (Framed, error) {
		return newOffeneRegister(k, r, o.File), nil
	},
}

// sireneKind is the French register: INSEE's SIRENE stock of
// establishments, read for head offices (D77).
var sireneKind = Kind{
	Name: "sirene", Display: "SIRENE", Product: "StockEtablissement",
	Jurisdiction: "FR", Language: "fr", TimeZone: "Europe/Paris",
	KeyPrefix: "fr/", Key: frKey, RegisterTypes: []string{"FR:SIREN", "FR:RCS"},
	Reference: sireneReference,
	Sniff:     sniffCSVHeader("siren", "siret", "etablissementSiege", "statutDiffusionEtablissement"),
	Expect:    "a CSV header of INSEE's StockEtablissement naming siren, siret, etablissementSiege and statutDiffusionEtablissement",
	Open: func(k *Kind, r io.Reader, o Opening) (Framed, error) {
		return newSirene(k, r, o.File, DateInName(o.File, o.Now))
	},
}

// Kinds returns the register table's rows, in sniffing order.
func Kinds() []*Kind { return append([]*Kind(nil), kinds...) }

// KindNamed returns the row named name, or nil.
func KindNamed(name string) *Kind {
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// KindOfType returns the row that owns a register type, or nil.
func KindOfType(typ string) *Kind {
	for _, k := range kinds {
		for _, t := range k.RegisterTypes {
			if typ == t || (strings.HasSuffix(t, ":") && strings.HasPrefix(typ, t)) {
				return k
			}
		}
	}
	return nil
}

// Owns reports whether an identity key is one of the register's.
func (k *Kind) Owns(key string) bool { return strings.HasPrefix(key, k.KeyPrefix) }

// Source is one --register argument: a file and, when the command line
// named it, the register to read it as (else the file's content says).
type Source struct {
	Kind *Kind
	Path string
}

// kindPrefix is what a register name looks like before "KIND:FILE"'s
// colon. Two characters at least, so a Windows drive letter is a path.
var kindPrefix = regexp.MustCompile(`^[a-z][a-z0-9-]+$`)

// ParseSource reads a --register argument: "FILE", read as the register
// its content names, or "KIND:FILE", read as that register whatever its
// content. A prefix that looks like a register name but is none is an
// error naming the known ones, rather than a file that is not there.
func ParseSource(arg string) (Source, error) {
	name, path, ok := strings.Cut(arg, ":")
	if !ok || !kindPrefix.MatchString(name) {
		return Source{Path: arg}, nil
	}
	if k := KindNamed(name); k != nil {
		if path == "" {
			return Source{}, fmt.Errorf("--register %s: no file after %q", arg, name+":")
		}
		return Source{Kind: k, Path: path}, nil
	}
	return Source{}, fmt.Errorf("--register %s: %q is not a register this registry reads (%s); write ./%s for a file of that name",
		arg, name, strings.Join(kindNames(), ", "), arg)
}

func kindNames() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	return names
}

// sniffSize is how much of a file sniffing looks at: the longest header
// line and first JSON object of the registers fit many times over.
const sniffSize = 64 << 10

// Detect names the register a file belongs to from its first bytes,
// which it peeks at without consuming them. A file no row recognises is
// an *UnknownFileError.
func Detect(br *bufio.Reader, file string) (*Kind, error) {
	head, err := br.Peek(sniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, k := range kinds {
		if k.Sniff(head) {
			return k, nil
		}
	}
	return nil, &UnknownFileError{File: file, First: firstLine(head)}
}

// NewSniffer wraps a file's reader for Detect; the kind's Open reads the
// wrapper, so nothing Detect looked at is lost.
func NewSniffer(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, sniffSize) }

// UnknownFileError is a file no row of the register table recognises.
type UnknownFileError struct {
	File  string
	First string // the start of its first line, for the operator to see what it is
}

func (e *UnknownFileError) Error() string {
	var want []string
	for _, k := range kinds {
		want = append(want, k.Name+": "+k.Expect)
	}
	seen := "it is empty"
	if e.First != "" {
		seen = fmt.Sprintf("its first line begins %q", e.First)
	}
	return fmt.Sprintf("%s: not a register file this registry reads (%s); expected one of: %s. Name the register with --register KIND:FILE if it is one of these",
		e.File, seen, strings.Join(want, "; "))
}

// firstLine is the start of the first non-blank line, cut to 60 bytes.
func firstLine(head []byte) string {
	for _, l := range bytes.Split(head, []byte("\n")) {
		l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte("\ufeff")))
		if len(l) > 0 {
			if len(l) > 60 {
				l = l[:60]
			}
			return strings.ToValidUTF8(string(l), "?")
		}
	}
	return ""
}

// sniffCSVHeader recognises a CSV file whose first line names every one
// of cols (names trimmed of stray spaces, as Companies House writes them).
func sniffCSVHeader(cols ...string) func([]byte) bool {
	return func(head []byte) bool {
		line, _, _ := bytes.Cut(head, []byte("\n"))
		line = bytes.TrimSuffix(bytes.TrimPrefix(line, []byte("\ufeff")), []byte("\r"))
		names, open := splitCSVLine(string(line), nil)
		if open {
			return false
		}
		have := make(map[string]bool, len(names))
		for _, n := range names {
			have[strings.TrimSpace(n)] = true
		}
		for _, c := range cols {
			if !have[c] {
				return false
			}
		}
		return true
	}
}

// sniffJSONKeys recognises JSON lines whose first object has every one of
// keys at its top level. The object may be cut off by the sniffing
// window: the keys read before the cut count.
func sniffJSONKeys(keys ...string) func([]byte) bool {
	return func(head []byte) bool {
		var line []byte
		for _, l := range bytes.Split(head, []byte("\n")) {
			if l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte("\ufeff"))); len(l) > 0 {
				line = l
				break
			}
		}
		if len(line) == 0 || line[0] != '{' {
			return false
		}
		have := map[string]bool{}
		dec := json.NewDecoder(bytes.NewReader(line))
		if _, err := dec.Token(); err != nil {
			return false
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				break
			}
			if k, ok := t.(string); ok {
				have[k] = true
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				break
			}
		}
		for _, k := range keys {
			if !have[k] {
				return false
			}
		}
		return true
	}
}

// productDateRE finds a date in a file name.
var productDateRE = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})`)

// DateInName is the date of a data product, from its file name
// (BasicCompanyData-2026-10-01-part1_7.csv), else the run's.
func DateInName(file string, now time.Time) time.Time {
	if m := productDateRE.FindString(filepath.Base(file)); m != "" {
		if t, err := time.Parse(time.DateOnly, m); err == nil {
			return t
		}
	}
	return now
}
