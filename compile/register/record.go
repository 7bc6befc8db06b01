// Package register reads public company registers, streaming, into
// Records: one company each, with its register reference and the date it
// was retrieved. A bad row never stops a read: it comes back as a RowError
// naming the file, the line and the field, and the next call goes on with
// the next row.
package register

import (
	"fmt"
	"hash/fnv"
	"time"

	"github.com/daawid/registry/schemas"
)

// Record is one company as a register states it.
type Record struct {
	// Source names the register it was read from: the Name of its row in
	// the register table ("companies-house", "offeneregister", "sirene").
	Source string
	// File and Line say where the record was read.
	File string
	Line int
	// Key identifies the company across runs and files: jurisdiction and
	// register reference, lower case ("gb/09999991",
	// "de/wuppertal/hrb/99901").
	Key          string
	Jurisdiction string // ISO country of the register: GB, DE, FR
	// Language and TimeZone are the register's, from its row in the
	// register table: the language its entries are compiled in and the
	// zone of the hours a website gives for the registered office.
	Language string
	TimeZone string
	Register schemas.Register
	// LegalName is the name as registered, in normal case
	// ("Thornbury & Hale Joinery Ltd", "Schreinerei Beispiel GmbH").
	LegalName string
	// LegalForm is the short form ("Ltd", "GmbH", "e.K.").
	LegalForm string
	// Name is the legal name without its legal form, for display.
	Name    string
	Address schemas.Address
	// Active is false for a company that has left the register (dissolved,
	// removed) or whose data the register withholds; Status is the
	// register's own word for it.
	Active bool
	Status string
	// Withheld is true for a company whose data the register does not
	// publish at the company's or person's request (SIRENE's
	// "diffusion partielle"): the record carries its key and status only,
	// so that an entry compiled before the request is taken down.
	Withheld bool
	// IncorporatedOn and DissolvedOn are dates (YYYY-MM-DD) or "".
	IncorporatedOn string
	DissolvedOn    string
	// NACE classes from the register's activity codes (UK SIC 2007 →
	// NACE Rev. 2), in the register's order.
	NACE []string
	// Activities are the register's words for each NACE class, in the same
	// order ("43320 - Joinery installation").
	Activities []string
	// Officers are used to match websites to records; they are not copied
	// into unclaimed entries (personal data, decision D44).
	Officers      []Officer
	PreviousNames []string
	RetrievedAt   time.Time
	// Hash is an FNV-64a hash of the row as read: an unchanged row need not
	// be compiled again.
	Hash uint64
	// Warnings are problems in fields the record can do without: the
	// record is kept, the field dropped, and the run report lists them.
	Warnings []*RowError
}

// Officer is a person or company with a role at the company.
type Officer struct {
	Name     string
	Position string
}

// Reference is how documents name the register entry: "Amtsgericht
// Wuppertal HRB 99901", "Companies House 09999991". The register table
// says it for the registers it knows; any other (a register an owner
// declared) is named by its court, section and number.
func (r *Record) Reference() string {
	if k := KindOfType(r.Register.Type); k != nil && k.Reference != nil {
		return k.Reference(r.Register)
	}
	return joinReference(r.Register)
}

// joinReference names a register entry by its court, section and number.
func joinReference(reg schemas.Register) string {
	s := reg.Court
	for _, p := range []string{reg.Section, reg.Number} {
		if p != "" {
			if s != "" {
				s += " "
			}
			s += p
		}
	}
	return s
}

// RowError is a row that could not be read. The read goes on.
type RowError struct {
	File  string
	Line  int
	Field string // the column or key, when one is to blame
	Msg   string
}

func (e *RowError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Reader is a register file read one record at a time. Next returns a
// *RowError for a bad row (the caller reports it and calls Next again),
// io.EOF at the end, and any other error when the file can't be read on.
type Reader interface {
	Next() (*Record, error)
}

// Raw is one record's text as a reader framed it, not yet parsed. Framing
// is cheap and must be sequential; parsing costs more and can run on every
// core (Framed).
type Raw struct {
	Line int
	Text []byte
	// Err is a row the framing already found bad (*RowError): it is
	// reported, not parsed.
	Err error
}

// Framed is a Reader whose framing and parsing can be split: Frame on one
// goroutine, Parse on many.
type Framed interface {
	Reader
	// Frame returns the next record's text, io.EOF at the end, or another
	// error when the file can't be read on.
	Frame() (Raw, error)
	// Parse turns framed text into a record or a *RowError; it is safe for
	// concurrent use.
	Parse(Raw) (*Record, error)
	// Brief reads only what identifies the company and makes its slug,
	// for a first pass over the files; ok is false for a row Parse would
	// refuse (a row whose other fields are broken may still pass: it
	// keeps an identity until it can be compiled).
	Brief(Raw) (b Brief, ok bool)
	// Route is a hash of the company a framed record is about, found
	// without parsing it, so that a company's rows can be kept in order
	// on one worker.
	Route(Raw) uint32
}

// Brief is a record's identity and slug material: its key, its display
// name and town, and whether the company is live.
type Brief struct {
	Key, Name, Locality string
	Active              bool
}

func routeHash(b []byte) uint32 {
	h := fnv.New32a()
	h.Write(b)
	return h.Sum32()
}

// KeyFor is the identity key of a register entry named elsewhere (in an
// Impressum): the same key the readers give records, made by the row of
// the register table that owns the register type; "" when none does or
// the reference is incomplete.
func KeyFor(r schemas.Register) string {
	if k := KindOfType(r.Type); k != nil {
		return k.Key(r)
	}
	return ""
}

func fnv64(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
