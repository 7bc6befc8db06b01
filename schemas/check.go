package schemas

import (
	"fmt"

	"github.com/daawid/registry/schemas/lint"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// ReservedSlugs are the top-level paths of the registry's own pages, which
// no entry may take (decision D30).
var ReservedSlugs = map[string]bool{
	"about": true, "admin": true, "api": true, "assets": true, "auth": true, "claim": true, "confirm": true,
	"console": true, "docs": true, "export": true, "exports": true, "feeds": true, "help": true, "id": true,
	"llms": true, "login": true, "mcp": true, "media": true, "ns": true, "privacy": true, "robots": true,
	"schemas": true, "search": true, "sitemap": true, "static": true, "status": true, "terms": true, "v1": true,
	"well-known": true, "www": true,
}

// checker collects issues while walking an entry.
type checker struct {
	e      *Entry
	issues Issues
}

func (c *checker) add(path, format string, args ...any) {
	c.issues = append(c.issues, Issue{Path: path, Message: fmt.Sprintf(format, args...)})
}

// Check applies the rules across fields that a JSON Schema can't express
// (ENTRY-MODEL §4 and docs/decisions.md): languages, identifiers and
// references, prices, capacity, status and level, person entries, hours,
// actions. It assumes the shape is right (Validate checks that first).
func (e *Entry) Check() Issues {
	c := &checker{e: e}
	c.identity()
	c.languages()
	c.ids()
	c.references()
	c.statusLevel()
	c.record()
	c.places()
	c.offerings()
	c.actions()
	c.capacity()
	c.policies()
	c.texts()
	return c.issues
}

func (c *checker) identity() {
	e := c.e
	if ReservedSlugs[e.Slug] {
		c.add("/slug", "%q is reserved for the registry's own pages", e.Slug)
	}
	if e.SchemaVersion != SchemaVersion {
		c.add("/schemaVersion", "must be %q", SchemaVersion)
	}
}

func (c *checker) languages() {
	e := c.e
	seen := map[string]bool{}
	for i, l := range e.Languages {
		if seen[l] {
			c.add("/languages/"+strconv.Itoa(i), "%s is listed twice", l)
		}
		seen[l] = true
	}
	if !seen[e.DefaultLanguage] {
		c.add("/defaultLanguage", "%s must be one of languages", e.DefaultLanguage)
	} else if len(e.Languages) > 0 && e.Languages[0] != e.DefaultLanguage {
		c.add("/languages", "must list defaultLanguage %s first", e.DefaultLanguage)
	}
	// Every localized text: keys within languages, default language present.
	walkTexts(reflect.ValueOf(e).Elem(), "", func(path string, t localized) {
		for _, l := range t.Languages() {
			if !seen[l] {
				c.add(path+"/"+l, "language %s is not one of the entry's languages", l)
			}
		}
		if !t.Has(e.DefaultLanguage) {
			c.add(path, "needs a text in the default language %s", e.DefaultLanguage)
		}
	})
}

// localized is what every Text[M] has.
type localized interface {
	Languages() []string
	Get(lang string) string
	Has(string) bool
	Max() int
}

var localizedType = reflect.TypeFor[localized]()

// walkTexts calls f for every non-empty localized text under v, with its
// JSON pointer.
func walkTexts(v reflect.Value, path string, f func(string, localized)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkTexts(v.Elem(), path, f)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			walkTexts(v.Field(i), path+"/"+name, f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkTexts(v.Index(i), path+"/"+strconv.Itoa(i), f)
		}
	case reflect.Map:
		if v.Type().Implements(localizedType) {
			if v.Len() > 0 {
				f(path, v.Interface().(localized))
			}
		}
	}
}

func (c *checker) ids() {
	e := c.e
	seen := map[string]string{}
	claim := func(id, path string) {
		if id == "" {
			return
		}
		if first, ok := seen[id]; ok {
			c.add(path, "%s is already used at %s; item IDs are unique within an entry", id, first)
			return
		}
		seen[id] = path
	}
	for i, x := range e.Locations {
		claim(x.ID, "/locations/"+strconv.Itoa(i)+"/id")
	}
	for i, x := range e.ContactPoints {
		claim(x.ID, "/contactPoints/"+strconv.Itoa(i)+"/id")
	}
	for i, x := range e.Offerings {
		claim(x.ID, "/offerings/"+strconv.Itoa(i)+"/id")
	}
	for i, x := range e.Actions {
		claim(x.ID, "/actions/"+strconv.Itoa(i)+"/id")
	}
	for i, x := range e.Credentials {
		claim(x.ID, "/credentials/"+strconv.Itoa(i)+"/id")
	}
	for i, x := range e.Media {
		claim(x.ID, "/media/"+strconv.Itoa(i)+"/id")
	}
}

func (c *checker) references() {
	e := c.e
	if e.PrimaryLocationID != "" && e.Location(e.PrimaryLocationID) == nil {
		c.add("/primaryLocationId", "%s is not one of the entry's locations", e.PrimaryLocationID)
	}
	if len(e.Locations) > 1 && e.PrimaryLocationID == "" {
		c.add("/primaryLocationId", "is required when the entry has several locations")
	}
	c.serviceArea("/serviceArea", e.ServiceArea)
	for i, r := range e.Routing {
		p := "/routing/" + strconv.Itoa(i)
		switch {
		case r.Decline && r.RouteTo != "":
			c.add(p, "must have either routeTo or decline, not both")
		case !r.Decline && r.RouteTo == "":
			c.add(p, "must have routeTo or decline")
		case r.RouteTo != "":
			if cp := e.ContactPoint(r.RouteTo); cp != nil {
				if cp.Visibility != "public" {
					c.add(p+"/routeTo", "%s is a private contact point; routing is public", r.RouteTo)
				}
			} else if a := e.Action(r.RouteTo); a != nil {
				if !a.Enabled {
					c.add(p+"/routeTo", "%s is a disabled action", r.RouteTo)
				}
			} else {
				c.add(p+"/routeTo", "%s is neither a contact point nor an action of this entry", r.RouteTo)
			}
		}
	}
	for i, a := range e.Actions {
		for j, id := range a.OfferingIDs {
			if e.Offering(id) == nil {
				c.add(fmt.Sprintf("/actions/%d/offeringIds/%d", i, j), "%s is not one of the entry's offerings", id)
			}
		}
	}
	for i, o := range e.Offerings {
		for j, id := range o.MediaIDs {
			if e.MediaItem(id) == nil {
				c.add(fmt.Sprintf("/offerings/%d/mediaIds/%d", i, j), "%s is not one of the entry's media", id)
			}
		}
	}
	if b := e.Brand; b != nil {
		if b.Logo != "" && e.MediaItem(b.Logo) == nil {
			c.add("/brand/logo", "%s is not one of the entry's media", b.Logo)
		}
		for j, id := range b.Imagery {
			if e.MediaItem(id) == nil {
				c.add("/brand/imagery/"+strconv.Itoa(j), "%s is not one of the entry's media", id)
			}
		}
		c.checkFonts(b.Fonts)
	}
	primaries := 0
	for _, d := range e.Domains {
		if d.Primary {
			primaries++
		}
	}
	if primaries > 1 {
		c.add("/domains", "at most one domain can be primary")
	}
}

func (c *checker) serviceArea(path string, sa *ServiceArea) {
	if sa == nil {
		return
	}
	if r := sa.Radius; r != nil {
		switch {
		case r.Center.LocationID != "":
			if c.e.Location(r.Center.LocationID) == nil {
				c.add(path+"/radius/center/locationId", "%s is not one of the entry's locations", r.Center.LocationID)
			}
		case r.Center.Place == "" || r.Center.Geo == nil:
			c.add(path+"/radius/center", "must name a locationId, or a place with its geo")
		}
	}
	if sa.Radius == nil && len(sa.Places) == 0 && !sa.Anywhere {
		c.add(path, "must have a radius, places, or anywhere")
	}
}

var levelRank = map[VerificationLevel]int{LevelNone: 0, LevelContact: 1, LevelDomain: 2, LevelBusiness: 3, LevelIdentity: 4}

// statusLevel checks the status against the verification (decision D6).
func (c *checker) statusLevel() {
	e := c.e
	v := e.Verification
	rank := levelRank[v.Level]
	switch e.Status {
	case StatusVerified:
		if rank < 2 {
			c.add("/verification/level", "a verified entry needs level domain, business or identity")
		}
		if len(e.VerifiedHosts()) == 0 {
			c.add("/verification/domains", "a verified entry needs at least one domain with status verified or grace")
		}
	case StatusPublished:
		if rank > 1 {
			c.add("/verification/level", "a published entry is at level none or contact; with a verified domain it is verified")
		}
		if v.Level == LevelContact && v.ContactConfirmedAt == "" {
			c.add("/verification/contactConfirmedAt", "is required at level contact")
		}
	case StatusUnclaimed:
		if v.Level != LevelNone {
			c.add("/verification/level", "an unclaimed entry is at level none")
		}
		if e.Record.LastConfirmedAt != "" {
			c.add("/record/lastConfirmedAt", "an unclaimed entry has never been confirmed")
		}
	case StatusLapsed:
		if v.LapsedAt == "" {
			c.add("/verification/lapsedAt", "is required for a lapsed entry")
		}
		if rank > 1 {
			c.add("/verification/level", "a lapsed entry keeps only level none or contact")
		}
	}
	if v.Level == LevelContact && v.ContactConfirmedAt == "" && e.Status != StatusPublished {
		c.add("/verification/contactConfirmedAt", "is required at level contact")
	}
	for i, d := range v.Domains {
		p := "/verification/domains/" + strconv.Itoa(i)
		if d.Status == DomainGrace && d.GraceUntil == "" {
			c.add(p+"/graceUntil", "is required for a domain in its grace period")
		}
		if (d.Status == DomainVerified || d.Status == DomainGrace) && d.VerifiedAt == "" {
			c.add(p+"/verifiedAt", "is required for a verified domain")
		}
	}
}

func (c *checker) record() {
	e := c.e
	created, updated := ParseTime(e.Record.CreatedAt), ParseTime(e.Record.UpdatedAt)
	if !created.IsZero() && !updated.IsZero() && updated.Before(created) {
		c.add("/record/updatedAt", "is before createdAt")
	}
	if e.Kind == KindPerson && e.Operator == nil {
		// PRIV-19: a person who is not commercial publishes no home address.
		for i, l := range e.Locations {
			if l.AddressDisplay != DisplayLocalityOnly {
				c.add(fmt.Sprintf("/locations/%d/addressDisplay", i), "must be locality_only for a person entry without an operator block")
			}
		}
	}
}

func (c *checker) places() {
	for i, l := range c.e.Locations {
		p := "/locations/" + strconv.Itoa(i)
		if (len(l.Hours) > 0 || len(l.HoursExceptions) > 0) && l.TimeZone == "" {
			c.add(p+"/timeZone", "is required when the location states hours")
		}
		if l.TimeZone != "" {
			if _, err := time.LoadLocation(l.TimeZone); err != nil {
				c.add(p+"/timeZone", "%s is not an IANA time zone", l.TimeZone)
			}
		}
		c.hours(p+"/hours", l.Hours)
		for j, x := range l.HoursExceptions {
			xp := fmt.Sprintf("%s/hoursExceptions/%d", p, j)
			if x.To < x.From {
				c.add(xp+"/to", "is before from")
			}
			if x.Closed == (x.Opens != "" || x.Closes != "") {
				c.add(xp, "must be either closed, or have opens and closes")
			} else if !x.Closed && (x.Opens == "" || x.Closes == "") {
				c.add(xp, "needs both opens and closes")
			}
		}
	}
	for i, cp := range c.e.ContactPoints {
		c.hours(fmt.Sprintf("/contactPoints/%d/hours", i), cp.Hours)
		if cp.Phone == "" && cp.Email == "" {
			c.add(fmt.Sprintf("/contactPoints/%d", i), "needs a phone or an email")
		}
	}
}

func (c *checker) hours(path string, rules []HoursRule) {
	for i, r := range rules {
		p := path + "/" + strconv.Itoa(i)
		if r.Closed && (r.Opens != "" || r.Closes != "") {
			c.add(p, "a closed rule has no opens or closes")
		}
		if !r.Closed && (r.Opens == "" || r.Closes == "") {
			c.add(p, "needs opens and closes, or closed: true")
		}
		seen := map[DayOfWeek]bool{}
		for j, d := range r.Days {
			if seen[d] {
				c.add(fmt.Sprintf("%s/days/%d", p, j), "%s is listed twice", d)
			}
			seen[d] = true
		}
	}
}

// price checks the amounts a price kind needs (ENTRY-MODEL §4 Prices).
func (c *checker) price(path string, p *Price) {
	if p == nil {
		return
	}
	switch p.Kind {
	case PriceFixed:
		if p.Amount == "" {
			c.add(path+"/amount", "is required for a fixed price")
		}
		if p.Min != "" || p.Max != "" {
			c.add(path, "a fixed price has amount only, not min or max")
		}
	case PriceFrom:
		if p.Min == "" {
			c.add(path+"/min", "is required for a from price")
		}
		if p.Amount != "" || p.Max != "" {
			c.add(path, "a from price has min only")
		}
	case PriceRange:
		if p.Min == "" || p.Max == "" {
			c.add(path, "a range needs min and max")
		} else if a, b := moneyCents(p.Min), moneyCents(p.Max); a >= b {
			c.add(path+"/max", "must be more than min")
		}
	case PriceOnRequest:
		if p.Amount != "" || p.Min != "" || p.Max != "" {
			c.add(path, "a price on request has no amounts (PRIV-43)")
		}
		return
	}
	if p.Currency == "" {
		c.add(path+"/currency", "is required")
	}
	if p.VATIncluded == nil {
		c.add(path+"/vatIncluded", "is required: say whether VAT is included")
	}
}

func moneyCents(s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole+frac, 10, 64)
	return n
}

func (c *checker) offerings() {
	for i, o := range c.e.Offerings {
		p := "/offerings/" + strconv.Itoa(i)
		c.price(p+"/price", o.Price)
		c.serviceArea(p+"/serviceArea", o.ServiceArea)
	}
}

func (c *checker) actions() {
	for i, a := range c.e.Actions {
		p := "/actions/" + strconv.Itoa(i)
		for j, r := range a.RequireFields {
			if r == RequirePhotos {
				c.add(fmt.Sprintf("%s/requireFields/%d", p, j), "photos is reserved until owners can receive photos")
			}
		}
		keys := map[string]bool{}
		for j, q := range a.Questions {
			qp := fmt.Sprintf("%s/questions/%d", p, j)
			if keys[q.Key] {
				c.add(qp+"/key", "%s is used twice in this action", q.Key)
			}
			keys[q.Key] = true
			if q.Type == QuestionChoice && len(q.Options) < 2 {
				c.add(qp+"/options", "a choice needs at least two options")
			}
			if q.Type != QuestionChoice && len(q.Options) > 0 {
				c.add(qp+"/options", "only a choice has options")
			}
		}
		if d := a.Delivery; d != nil {
			switch d.Mode {
			case DeliveryEmail:
				if d.Email == "" {
					c.add(p+"/delivery/email", "is required for delivery by email")
				}
			case DeliveryHandoff:
				if d.URL == "" {
					c.add(p+"/delivery/url", "is required for a handoff")
				}
			}
		}
		if a.ServiceAreaOnly && c.e.ServiceArea == nil {
			for _, id := range a.OfferingIDs {
				if o := c.e.Offering(id); o != nil && o.ServiceArea != nil {
					goto ok
				}
			}
			c.add(p+"/serviceAreaOnly", "the entry states no service area")
		ok:
		}
	}
}

func (c *checker) capacity() {
	cap := c.e.Capacity
	if cap == nil {
		return
	}
	asOf, exp := ParseTime(cap.AsOf), ParseTime(cap.ExpiresAt)
	if asOf.IsZero() || exp.IsZero() {
		return
	}
	if !exp.After(asOf) {
		c.add("/capacity/expiresAt", "must be after asOf")
	} else if exp.Sub(asOf) > 30*24*time.Hour {
		c.add("/capacity/expiresAt", "must be at most 30 days after asOf (I7)")
	}
}

func (c *checker) policies() {
	for i, p := range c.e.Policies {
		path := "/policies/" + strconv.Itoa(i)
		c.price(path+"/price", p.Price)
		switch p.Type {
		case PolicyPayment:
			if len(p.Methods) == 0 {
				c.add(path+"/methods", "a payment policy names at least one method")
			}
		case PolicyDeposit:
			if p.Percent == nil {
				c.add(path+"/percent", "is required for a deposit")
			} else if *p.Percent <= 0 || *p.Percent > 100 {
				c.add(path+"/percent", "must be more than 0 and at most 100")
			}
		case PolicyWarranty, PolicyCancellation, PolicyReturns:
			if len(p.Summary) == 0 && p.Days == 0 {
				c.add(path+"/summary", "is required")
			}
		}
	}
}

// texts applies the write-time lint to every business text (PRIV-13, I14;
// docs/lint-rules.md): every language of every localized text and the plain
// names an owner types.
func (c *checker) texts() {
	e := c.e
	lintText := func(path, s string) {
		for _, f := range lint.Check(s) {
			c.add(path, "%s; business text is data, not instructions (PRIV-13)", f.Message)
			return // one reason per text is enough to act on
		}
	}
	walkTexts(reflect.ValueOf(e).Elem(), "", func(path string, t localized) {
		for _, l := range t.Languages() {
			lintText(path+"/"+l, t.Get(l))
		}
	})
	lintText("/displayName", e.DisplayName)
	for i, n := range e.AlternateNames {
		lintText(fmt.Sprintf("/alternateNames/%d", i), n)
	}
	for i, l := range e.Locations {
		lintText(fmt.Sprintf("/locations/%d/name", i), l.Name)
	}
	for i, cp := range e.ContactPoints {
		lintText(fmt.Sprintf("/contactPoints/%d/name", i), cp.Name)
	}
	for i, cr := range e.Credentials {
		lintText(fmt.Sprintf("/credentials/%d/name", i), cr.Name)
	}
	if v := e.Voice; v != nil {
		lintText("/voice/preferredName", v.PreferredName)
		for i, n := range v.AvoidNames {
			lintText(fmt.Sprintf("/voice/avoidNames/%d", i), n)
		}
		for i, n := range v.Tone {
			lintText(fmt.Sprintf("/voice/tone/%d", i), n)
		}
	}
}
