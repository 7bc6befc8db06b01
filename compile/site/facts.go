// Package site reads what a business's own website says about it: the
// crawler fetches the home page and the legal notice page politely
// (robots.txt, one request at a time per host, timeouts, size and redirect
// caps, charsets), and the extractor finds schema.org JSON-LD and
// microdata, tel: and mailto: links, social profiles and the fields of an
// Impressum or legal notice. Every fact keeps the page it was read from.
package site

import (
	"time"

	"github.com/daawid/registry/schemas"
)

// Facts is what one website says, with where it said it.
type Facts struct {
	Host       string    // the site's host, lower case: "schreinerei-beispiel.example"
	HomeURL    string    // the home page as a canonical https URL
	LegalURL   string    // the legal notice page, "" if none was found
	ObservedAt time.Time // when the pages were fetched

	// From structured data (JSON-LD, microdata) on any page.
	Name      string
	Telephone string // E.164
	Email     string
	Address   *schemas.Address
	Geo       *schemas.Geo
	Hours     []schemas.HoursRule
	SameAs    []string
	Types     []string // schema.org types the site gives itself

	// From the legal notice (Impressum), with LegalURL as the source.
	Legal Legal

	// From links anywhere.
	Phones   []string // E.164, from tel: links
	Emails   []string // from mailto: links
	Profiles []string // social profile URLs (https)

	// Problems are why a page could not be read (robots.txt, 404, too
	// large, timeout, redirect loop); they go into the run report.
	Problems []string
}

// Legal is what a legal notice states.
type Legal struct {
	Name       string // legal name with its form: "Schreinerei Beispiel GmbH"
	Form       string
	Address    *schemas.Address
	Phone      string // E.164
	Email      string
	Register   *schemas.Register
	VATID      string
	Directors  []string
	FoundOnURL string
}

// Empty reports whether the legal notice gave nothing.
func (l Legal) Empty() bool {
	return l.Name == "" && l.Address == nil && l.Phone == "" && l.Email == "" && l.Register == nil && l.VATID == ""
}
