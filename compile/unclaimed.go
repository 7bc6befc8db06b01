package compile

import (
	"strings"
	"time"

	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/schemas"
)

// Compiler builds revisions from sources. It holds only lookup tables; each
// call is a pure function of its arguments.
type Compiler struct {
	cats *Categorizer
	tax  labeler
}

type labeler interface {
	Label(code, lang string) string
}

// NewCompiler makes a compiler over the taxonomy.
func NewCompiler(cats *Categorizer, tax labeler) *Compiler { return &Compiler{cats: cats, tax: tax} }

// jurisdictionLanguage is the language a register's entries are compiled
// in when the record does not say (a record rebuilt from an entry whose
// register the register table does not know); the table's rows say it
// for the registers Daawid reads.
var jurisdictionLanguage = map[string]string{
	"DE": "de", "AT": "de", "CH": "de", "GB": "en", "IE": "en", "FR": "fr", "ES": "es", "TR": "tr", "NL": "nl", "IT": "it", "PL": "pl",
}

// contactName names a compiled contact point in the entry's language.
var contactName = map[string]string{"de": "Kontakt", "en": "Contact", "fr": "Contact", "es": "Contacto", "tr": "İletişim", "nl": "Contact", "it": "Contatto", "pl": "Kontakt"}

// countryZones are the time zones of compiled hours by country, when the
// record does not name its register's zone.
var countryZones = map[string]string{
	"DE": "Europe/Berlin", "AT": "Europe/Vienna", "CH": "Europe/Zurich", "GB": "Europe/London", "IE": "Europe/Dublin",
	"FR": "Europe/Paris", "ES": "Europe/Madrid", "TR": "Europe/Istanbul", "NL": "Europe/Amsterdam", "IT": "Europe/Rome", "PL": "Europe/Warsaw",
}

// Unclaimed compiles the entry of a company no owner has claimed, from its
// register record and, when one was matched, what its website says
// (§3.7). Register data makes the entry's identity and legal section;
// the website adds its domain, contact details, profiles and hours; Daawid
// compiles the category and the summary. Every fact carries its source and
// date (PRIV-10). prev is the current revision or nil; the result has
// revision prev+1 dated now, or is prev itself when nothing changed
// (idempotence, decision D48).
func (c *Compiler) Unclaimed(rec *register.Record, web *site.Facts, id *Identity, prev *schemas.Entry, now time.Time) *schemas.Entry {
	now = now.UTC().Truncate(time.Second)
	lang := rec.Language
	if lang == "" {
		lang = jurisdictionLanguage[rec.Jurisdiction]
	}
	if lang == "" {
		lang = "en"
	}
	regAt := schemas.FormatTime(rec.RetrievedAt)
	if rec.RetrievedAt.IsZero() {
		regAt = schemas.FormatTime(now)
	}
	e := &schemas.Entry{
		SchemaVersion:   schemas.SchemaVersion,
		ID:              id.EntryID,
		Slug:            id.Slug,
		Kind:            schemas.KindOrganization,
		Status:          schemas.StatusUnclaimed,
		Listed:          true,
		DefaultLanguage: lang,
		Languages:       []string{lang},
		Record:          schemas.Record{Revision: id.LastRevision + 1, CreatedAt: id.CreatedAt, UpdatedAt: schemas.FormatTime(now)},
		Verification:    schemas.Verification{Level: schemas.LevelNone, Domains: []schemas.DomainCheck{}},
		DisplayName:     rec.Name,
	}
	reg := schemas.Provenance{Source: schemas.SourceRegister, ObservedAt: regAt, Reference: rec.Reference()}
	e.Provenance = append(e.Provenance, with(reg, "/displayName"), with(reg, "/operator"), with(reg, "/locations"))

	loc := schemas.Location{ID: id.Item(schemas.PrefixLocation, "location:register", now), Address: rec.Address, AddressDisplay: schemas.DisplayFull}
	e.Operator = &schemas.Operator{LegalName: rec.LegalName, LegalForm: rec.LegalForm, Address: rec.Address}
	r := rec.Register
	e.Operator.Register = &r

	if web != nil {
		zone := rec.TimeZone
		if zone == "" {
			zone = countryZones[rec.Jurisdiction]
		}
		c.addWebsite(e, &loc, web, id, zone, now)
	}
	e.Locations = []schemas.Location{loc}
	e.PrimaryLocationID = loc.ID

	// Category and summary are Daawid's own compilation.
	e.Categories = c.cats.ForRecord(rec, lang)
	if len(rec.NACE) > 0 {
		e.NACECodes = rec.NACE
	}
	if len(e.Categories) == 0 {
		e.Categories = []string{FallbackCategory}
	}
	e.Summary = schemas.Text[schemas.Max300]{lang: c.summary(e, rec, lang)}
	daawid := schemas.Provenance{Source: schemas.SourceDaawid, ObservedAt: schemas.FormatTime(now)}
	if len(rec.NACE) > 0 {
		// The category comes from the register's activity codes.
		e.Provenance = append(e.Provenance, with(reg, "/naceCodes"))
	}
	e.Provenance = append(e.Provenance, with(daawid, "/categories"), with(daawid, "/summary"))
	return nextRevision(prev, e)
}

func with(p schemas.Provenance, path string) schemas.Provenance {
	p.Path = path
	return p
}

// summary is "Tischlerei in Wuppertal. GmbH, Amtsgericht Wuppertal HRB
// 99902." (§3.7): what the company does, where, and its legal identity.
func (c *Compiler) summary(e *schemas.Entry, rec *register.Record, lang string) string {
	var b strings.Builder
	b.WriteString(c.tax.Label(e.Categories[0], lang))
	if rec.Address.Locality != "" {
		b.WriteString(inWord(lang) + rec.Address.Locality)
	}
	b.WriteString(". ")
	if rec.LegalForm != "" {
		b.WriteString(rec.LegalForm + ", ")
	}
	b.WriteString(rec.Reference() + ".")
	s := b.String()
	if r := []rune(s); len(r) > 300 {
		s = string(r[:299]) + "…"
	}
	return s
}

// inWord is " in " in the entry's language.
func inWord(lang string) string {
	switch lang {
	case "fr":
		return " à "
	case "es":
		return " en "
	case "tr":
		return ", "
	case "it":
		return " a "
	case "nl":
		return " in "
	}
	return " in "
}

// addWebsite adds what the company's website says where the register is
// silent: the domain, a contact point, profiles, hours and the point on
// the map. Facts from the legal notice cite that page as an Impressum.
func (c *Compiler) addWebsite(e *schemas.Entry, loc *schemas.Location, web *site.Facts, id *Identity, zone string, now time.Time) {
	at := schemas.FormatTime(web.ObservedAt)
	src := schemas.Provenance{Source: schemas.SourceWebsite, ObservedAt: at, Reference: web.HomeURL}
	impressum := src
	if web.LegalURL != "" {
		impressum.Reference = web.LegalURL
		impressum.ReferenceKind = "impressum"
	}
	e.Domains = []schemas.Domain{{Host: web.Host, Primary: true}}
	matchedBy := src
	if !web.Legal.Empty() {
		matchedBy = impressum
	}
	e.Provenance = append(e.Provenance, with(matchedBy, "/domains"))

	cp := schemas.ContactPoint{ID: id.Item(schemas.PrefixContact, "contact:website", now), Name: contactName[e.DefaultLanguage], Visibility: "public"}
	cpSrc := src
	if web.Legal.Phone != "" || web.Legal.Email != "" {
		cp.Phone, cp.Email, cpSrc = web.Legal.Phone, web.Legal.Email, impressum
	} else {
		cp.Phone, cp.Email = web.Telephone, web.Email
		if cp.Phone == "" && len(web.Phones) > 0 {
			cp.Phone = web.Phones[0]
		}
		if cp.Email == "" && len(web.Emails) > 0 {
			cp.Email = web.Emails[0]
		}
	}
	if cp.Phone != "" || cp.Email != "" {
		e.ContactPoints = []schemas.ContactPoint{cp}
		e.Provenance = append(e.Provenance, with(cpSrc, "/contactPoints"))
	}
	if len(web.Profiles) > 0 {
		e.Profiles = web.Profiles
		e.Provenance = append(e.Provenance, with(src, "/profiles"))
	}
	// The website's own map point and hours count for the registered
	// office only when its structured address is that office.
	if web.Address != nil && web.Address.PostalCode == loc.Address.PostalCode {
		if web.Geo != nil {
			g := *web.Geo
			loc.Geo = &g
		}
		if len(web.Hours) > 0 {
			loc.Hours = web.Hours
			loc.TimeZone = zone
		}
	}
}

// nextRevision numbers a compiled entry after the previous revision, or
// returns the previous revision unchanged when the content is the same
// (only dates of observation differ): compiling the same inputs twice
// makes no new revision.
func nextRevision(prev, next *schemas.Entry) *schemas.Entry {
	if prev == nil {
		return next
	}
	next.Record.CreatedAt = prev.Record.CreatedAt
	if ContentHash(prev) == ContentHash(next) {
		return prev
	}
	next.Record.Revision = prev.Record.Revision + 1
	return next
}
