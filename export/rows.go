package export

import (
	"encoding/json"
	"time"

	"github.com/daawid/registry/schemas"
)

// The bulk exports are built from each entry's EntryView, so they hold
// exactly what the public projections show: only public contact points, no
// street and no point for a locality-only location, no expired capacity;
// the operator's representatives only in the legal columns (decision D60).
// The text columns are in the entry's default language; the maps beside
// them hold the same text in each of the entry's languages, each taken from
// that language's view.
//
// Every column's `doc` tag is its description: the same text stands in
// docs/exports.md's table (a test holds them equal) and in each file's
// `daawid:columns` key-value metadata, so a reader of a lone file learns what
// a column means.

// SchemaVersion is the version of the exports' schema, written in
// exports/manifest.json as schema_version. Version 2 broke version 1 (see
// docs/exports.md, "Version 2").
const SchemaVersion = 2

// EntryRow is one row of entries.
type EntryRow struct {
	EntryID           string            `parquet:"entry_id" doc:"The entry ID (ent_…)."`
	Slug              string            `parquet:"slug" doc:"The entry's slug: its page is /{slug}."`
	Kind              string            `parquet:"kind,dict" doc:"Entry kind (organization, person, …)."`
	Status            string            `parquet:"status,dict" doc:"Entry status (unclaimed, published, verified, lapsed, suspended)."`
	Name              string            `parquet:"name" doc:"Display name in the default language."`
	Names             map[string]string `parquet:"names" doc:"Display name by language code, one key per language the entry is published in."`
	Summary           string            `parquet:"summary,optional" doc:"Summary in the entry's default language."`
	Summaries         map[string]string `parquet:"summaries" doc:"Summary by language code (languages without one are left out)."`
	Description       string            `parquet:"description,optional" doc:"Description in the default language."`
	Descriptions      map[string]string `parquet:"descriptions" doc:"Description by language code (languages without one are left out)."`
	Language          string            `parquet:"language,dict" doc:"Language of the text columns (the entry's default language)."`
	Languages         []string          `parquet:"languages,list" doc:"Languages the entry is published in, default first."`
	Categories        []string          `parquet:"categories,list" doc:"Category codes of the taxonomy."`
	FoundingYear      int32             `parquet:"founding_year,optional" doc:"Year founded."`
	Employees         string            `parquet:"employees,dict,optional" doc:"Employees range."`
	Locality          string            `parquet:"locality,optional" doc:"Town of the primary location."`
	PostalCode        string            `parquet:"postal_code,optional" doc:"Postal code of the primary location."`
	Region            string            `parquet:"region,optional" doc:"Region or state."`
	Lat               float64           `parquet:"lat,optional" doc:"Latitude, only where the address is shown in full."`
	Lon               float64           `parquet:"lon,optional" doc:"Longitude, only where the address is shown in full."`
	Geometry          []byte            `parquet:"geometry,optional" doc:"The primary location's point as little-endian WKB (GeoParquet 1.1, OGC:CRS84), only where the address is shown in full."`
	BBox              *BBox             `parquet:"bbox,optional" doc:"Bounding box of geometry (GeoParquet covering), null with it."`
	VerificationLevel string            `parquet:"verification_level,dict" doc:"Verification level."`
	VerifiedHosts     []string          `parquet:"verified_hosts,list" doc:"Domains verified for the entry (grace period included)."`
	CapacityStatus    string            `parquet:"capacity_status,dict,optional" doc:"Capacity status, only while not expired."`
	CapacityExpiresAt time.Time         `parquet:"capacity_expires_at,timestamp(millisecond),optional" doc:"When that capacity statement expires."`
	Revision          int32             `parquet:"revision" doc:"Revision the row was made from."`
	UpdatedAt         time.Time         `parquet:"updated_at,timestamp(millisecond)" doc:"When that revision was issued."`
	URL               string            `parquet:"url" doc:"The entry's page."`
	MarkdownURL       string            `parquet:"markdown_url" doc:"The entry's markdown document."`
	LegalName         string            `parquet:"legal_name,optional" doc:"Operator's legal name (legal notice)."`
	LegalForm         string            `parquet:"legal_form,optional" doc:"Operator's legal form."`
	RegisterType      string            `parquet:"register_type,dict,optional" doc:"Company register."`
	RegisterCourt     string            `parquet:"register_court,optional" doc:"Register court."`
	RegisterNumber    string            `parquet:"register_number,optional" doc:"Register number."`
	VATID             string            `parquet:"vat_id,optional" doc:"VAT ID."`
	Representatives   []string          `parquet:"representatives,list" doc:"Representatives named in the legal notice (legal columns only)."`
}

// OfferingRow is one row of offerings. Prices are DECIMAL(14,2) in cents
// (Parquet DECIMAL over INT64), so DuckDB sums and averages them; Price
// keeps the view's price for the registry database, which is not Parquet.
type OfferingRow struct {
	EntryID      string            `parquet:"entry_id" doc:"The entry ID (ent_…)."`
	OfferingID   string            `parquet:"offering_id" doc:"Offering ID."`
	Kind         string            `parquet:"kind,dict" doc:"Offering kind (service, product, …)."`
	Name         string            `parquet:"name" doc:"Offering name in the default language."`
	Names        map[string]string `parquet:"names" doc:"Offering name by language code."`
	Description  string            `parquet:"description,optional" doc:"Offering description in the default language."`
	Descriptions map[string]string `parquet:"descriptions" doc:"Offering description by language code (languages without one are left out)."`
	Category     string            `parquet:"category,dict,optional" doc:"Category code."`
	Audience     string            `parquet:"audience,dict,optional" doc:"Audience."`
	PriceKind    string            `parquet:"price_kind,dict,optional" doc:"Price kind (fixed, from, range, on_request, …)."`
	PriceAmount  *int64            `parquet:"price_amount,decimal(2:14),optional" doc:"Price amount."`
	PriceMin     *int64            `parquet:"price_min,decimal(2:14),optional" doc:"Lower bound of a price range."`
	PriceMax     *int64            `parquet:"price_max,decimal(2:14),optional" doc:"Upper bound of a price range."`
	Currency     string            `parquet:"currency,dict,optional" doc:"ISO 4217 currency of the prices."`
	PriceUnit    string            `parquet:"price_unit,dict,optional" doc:"Price unit."`
	Language     string            `parquet:"language,dict" doc:"Language of the text columns (the entry's default language)."`

	Price *schemas.PriceView `parquet:"-"`
}

// LocationRow is one row of locations. HoursJSON keeps the hours as the
// view shows them for the registry database, which is not Parquet.
type LocationRow struct {
	EntryID        string         `parquet:"entry_id" doc:"The entry ID (ent_…)."`
	LocationID     string         `parquet:"location_id" doc:"Location ID."`
	Name           string         `parquet:"name,optional" doc:"Location name."`
	Street         string         `parquet:"street,optional" doc:"Street, only where the address is shown in full."`
	PostalCode     string         `parquet:"postal_code,optional" doc:"Postal code."`
	Locality       string         `parquet:"locality,optional" doc:"Town."`
	Region         string         `parquet:"region,optional" doc:"Region or state."`
	AddressDisplay string         `parquet:"address_display,dict" doc:"How the address is shown: full or locality."`
	Lat            float64        `parquet:"lat,optional" doc:"Latitude, only where the address is shown in full."`
	Lon            float64        `parquet:"lon,optional" doc:"Longitude, only where the address is shown in full."`
	Geometry       []byte         `parquet:"geometry,optional" doc:"The location's point as little-endian WKB (GeoParquet 1.1, OGC:CRS84), only where the address is shown in full."`
	BBox           *BBox          `parquet:"bbox,optional" doc:"Bounding box of geometry (GeoParquet covering), null with it."`
	TimeZone       string         `parquet:"time_zone,dict,optional" doc:"IANA time zone the hours are in."`
	Hours          []HoursRow     `parquet:"hours,list" doc:"Weekly opening hours, one element per day and range; opens and closes are local HH:MM, closes before opens ends the next day."`
	Exceptions     []ExceptionRow `parquet:"exceptions,list" doc:"Dated exceptions to the weekly hours, one element per date."`

	HoursJSON string `parquet:"-"`
}

// HoursRow is one day's range of a weekly hours rule (a rule for several
// days gives one element per day, so `day = 'sun'` finds Sunday's).
type HoursRow struct {
	Day    string `parquet:"day"`
	Opens  string `parquet:"opens,optional"`
	Closes string `parquet:"closes,optional"`
	Closed bool   `parquet:"closed"`
}

// ExceptionRow is one date of a dated exception (a range of dates gives one
// element per date). Date is days since 1970-01-01 (Parquet DATE).
type ExceptionRow struct {
	Date   int32  `parquet:"date,date"`
	Opens  string `parquet:"opens,optional"`
	Closes string `parquet:"closes,optional"`
	Closed bool   `parquet:"closed"`
	Note   string `parquet:"note,optional"`
}

// ContactRow is one public contact point.
type ContactRow struct {
	EntryID   string   `parquet:"entry_id" doc:"The entry ID (ent_…)."`
	ContactID string   `parquet:"contact_id" doc:"Contact point ID (public ones only)."`
	Name      string   `parquet:"name" doc:"Contact point name."`
	Purposes  []string `parquet:"purposes,list" doc:"What the contact point is for."`
	Phone     string   `parquet:"phone,optional" doc:"Phone (E.164)."`
	Email     string   `parquet:"email,optional" doc:"Email."`
	Languages []string `parquet:"languages,list" doc:"Languages spoken at the contact point."`
}

// ActionRow is one action.
type ActionRow struct {
	EntryID     string   `parquet:"entry_id" doc:"The entry ID (ent_…)."`
	ActionID    string   `parquet:"action_id" doc:"Action ID."`
	Type        string   `parquet:"type,dict" doc:"Action type."`
	Name        string   `parquet:"name" doc:"Action name in the default language."`
	OfferingIDs []string `parquet:"offering_ids,list" doc:"Offerings the action is for."`
}

// CategoryRow is one category of the taxonomy with its words.
type CategoryRow struct {
	Code       string   `parquet:"code" doc:"Category code."`
	Sector     string   `parquet:"sector,dict" doc:"Sector code."`
	Label      string   `parquet:"label" doc:"English label."`
	SchemaType string   `parquet:"schema_type,dict" doc:"schema.org type."`
	NACE       []string `parquet:"nace,list" doc:"NACE Rev. 2 classes."`
	Terms      []string `parquet:"terms_en,list" doc:"English everyday words for the category."`
}

// ChangeRow is one change of the change feed. The feed's own segments name
// the time `at`, a DuckDB keyword; the export names it changed_at (v2).
type ChangeRow struct {
	Seq         int64     `parquet:"seq" doc:"Sequence number of the change, increasing across publications."`
	Type        string    `parquet:"type,dict" doc:"What changed: created, updated, removed, suspended, unlisted or expired."`
	EntryID     string    `parquet:"entry_id" doc:"The entry ID (ent_…)."`
	Slug        string    `parquet:"slug" doc:"The entry's slug at the change."`
	Revision    int32     `parquet:"revision" doc:"Revision the change published."`
	ChangedAt   time.Time `parquet:"changed_at,timestamp(millisecond)" doc:"When the change was published."`
	Publication string    `parquet:"publication,dict" doc:"The publication that carried the change."`
}

// Rows are one entry's rows in every table.
type Rows struct {
	Country   string // the primary location's country: the entry's partition
	Entry     EntryRow
	Offerings []OfferingRow
	Locations []LocationRow // each with its own country in LocationCountry
	Contacts  []ContactRow
	Actions   []ActionRow
	// LocationCountry is each location's country (its partition).
	LocationCountry []string
}

// RowsOf makes an entry's rows from its view (default language); the
// legal columns come from the operator block as the legal notice shows it.
// The exports and the publication's registry.duckdb both use them; the
// per-language maps hold the view's language only until AddLanguage adds
// the others.
func RowsOf(v *schemas.EntryView, url, mdURL string) Rows {
	country := ""
	var primary *schemas.LocationView
	for i := range v.Locations {
		if primary == nil || v.Locations[i].ID == v.PrimaryLocationID {
			primary = &v.Locations[i]
		}
	}
	er := EntryRow{EntryID: v.ID, Slug: v.Slug, Kind: string(v.Kind), Status: string(v.Status), Name: v.DisplayName, Summary: v.Summary,
		Description: v.Description, Language: v.Language, Languages: nonNil(v.AvailableLanguages), Categories: nonNil(v.Categories),
		FoundingYear: int32(v.FoundingYear), Employees: string(v.Employees), VerificationLevel: string(v.Verification.Level),
		VerifiedHosts: []string{}, Revision: int32(v.Record.Revision), UpdatedAt: schemas.ParseTime(v.Record.UpdatedAt), URL: url, MarkdownURL: mdURL,
		Representatives: []string{}, Names: map[string]string{}, Summaries: map[string]string{}, Descriptions: map[string]string{}}
	for _, d := range v.Domains {
		if d.Verified {
			er.VerifiedHosts = append(er.VerifiedHosts, d.Host)
		}
	}
	if primary != nil {
		a := primary.Address
		er.Locality, er.PostalCode, er.Region, country = a.Locality, a.PostalCode, a.Region, a.Country
		// PRIV-18, I15: a point only where the address is shown in full.
		if primary.Geo != nil && primary.AddressDisplay == schemas.DisplayFull {
			er.Lat, er.Lon = primary.Geo.Lat, primary.Geo.Lng
			er.Geometry, er.BBox = pointWKB(er.Lon, er.Lat), &BBox{er.Lon, er.Lat, er.Lon, er.Lat}
		}
	}
	if v.Capacity != nil {
		er.CapacityStatus, er.CapacityExpiresAt = string(v.Capacity.Status), schemas.ParseTime(v.Capacity.ExpiresAt)
	}
	if op := v.Operator; op != nil {
		er.LegalName, er.LegalForm, er.VATID = op.LegalName, op.LegalForm, op.VATID
		if op.Register != nil {
			er.RegisterType, er.RegisterCourt, er.RegisterNumber = op.Register.Type, op.Register.Court, op.Register.Number
		}
		for _, r := range op.Representatives {
			er.Representatives = append(er.Representatives, r.Name)
		}
		if country == "" {
			country = op.Address.Country
		}
	}
	out := Rows{Country: country, Entry: er}
	for _, o := range v.Offerings {
		or := OfferingRow{EntryID: v.ID, OfferingID: o.ID, Kind: string(o.Kind), Name: o.Name, Description: o.Description, Category: o.Category,
			Audience: string(o.Audience), Language: v.Language, Names: map[string]string{}, Descriptions: map[string]string{}, Price: o.Price}
		if p := o.Price; p != nil {
			or.PriceKind, or.Currency, or.PriceUnit = string(p.Kind), p.Currency, string(p.Unit)
			// A malformed amount is left null here; Exporter.Add refuses it
			// by name, so no export carries a silently dropped price.
			or.PriceAmount, _ = parseCents(p.Amount)
			or.PriceMin, _ = parseCents(p.Min)
			or.PriceMax, _ = parseCents(p.Max)
		}
		out.Offerings = append(out.Offerings, or)
	}
	for _, l := range v.Locations {
		out.Locations = append(out.Locations, locationRow(v.ID, &l))
		lc := l.Address.Country
		if lc == "" {
			lc = country
		}
		out.LocationCountry = append(out.LocationCountry, lc)
	}
	for _, c := range v.ContactPoints { // the view holds public ones only
		cr := ContactRow{EntryID: v.ID, ContactID: c.ID, Name: c.Name, Phone: c.Phone, Email: c.Email, Languages: nonNil(c.Languages), Purposes: []string{}}
		for _, p := range c.Purposes {
			cr.Purposes = append(cr.Purposes, string(p))
		}
		out.Contacts = append(out.Contacts, cr)
	}
	for _, a := range v.Actions {
		out.Actions = append(out.Actions, ActionRow{EntryID: v.ID, ActionID: a.ID, Type: string(a.Type), Name: a.Name, OfferingIDs: nonNil(a.OfferingIDs)})
	}
	out.AddLanguage(v)
	return out
}

// AddLanguage puts the texts of the entry's view in one more language into
// the per-language maps.
func (r *Rows) AddLanguage(v *schemas.EntryView) {
	lang := v.Language
	setText(r.Entry.Names, lang, v.DisplayName)
	setText(r.Entry.Summaries, lang, v.Summary)
	setText(r.Entry.Descriptions, lang, v.Description)
	byID := map[string]*schemas.OfferingView{}
	for i := range v.Offerings {
		byID[v.Offerings[i].ID] = &v.Offerings[i]
	}
	for i := range r.Offerings {
		if o := byID[r.Offerings[i].OfferingID]; o != nil {
			setText(r.Offerings[i].Names, lang, o.Name)
			setText(r.Offerings[i].Descriptions, lang, o.Description)
		}
	}
}

func setText(m map[string]string, lang, text string) {
	if text != "" {
		m[lang] = text
	}
}

// locationRow makes a location's row: street and point only where the
// address is shown in full (PRIV-18), hours as one element per day.
func locationRow(entryID string, l *schemas.LocationView) LocationRow {
	lr := LocationRow{EntryID: entryID, LocationID: l.ID, Name: l.Name, PostalCode: l.Address.PostalCode, Locality: l.Address.Locality,
		Region: l.Address.Region, AddressDisplay: string(l.AddressDisplay), TimeZone: l.TimeZone, Hours: []HoursRow{}, Exceptions: []ExceptionRow{}}
	if l.AddressDisplay == schemas.DisplayFull {
		lr.Street = l.Address.Street
		if l.Geo != nil {
			lr.Lat, lr.Lon = l.Geo.Lat, l.Geo.Lng
			lr.Geometry, lr.BBox = pointWKB(lr.Lon, lr.Lat), &BBox{lr.Lon, lr.Lat, lr.Lon, lr.Lat}
		}
	}
	for _, h := range l.Hours {
		for _, d := range h.Days {
			lr.Hours = append(lr.Hours, HoursRow{Day: string(d), Opens: h.Opens, Closes: h.Closes, Closed: h.Closed})
		}
	}
	for _, x := range l.HoursExceptions {
		from, err1 := time.Parse(time.DateOnly, x.From)
		to, err2 := time.Parse(time.DateOnly, x.To)
		if err1 != nil || err2 != nil {
			continue // the contract's check refuses such dates before a publication
		}
		for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
			lr.Exceptions = append(lr.Exceptions, ExceptionRow{Date: int32(d.Unix() / 86400), Opens: x.Opens, Closes: x.Closes, Closed: x.Closed, Note: x.Note})
		}
	}
	if len(l.Hours) > 0 || len(l.HoursExceptions) > 0 {
		b, _ := json.Marshal(map[string]any{"hours": l.Hours, "exceptions": l.HoursExceptions})
		lr.HoursJSON = string(b)
	}
	return lr
}
