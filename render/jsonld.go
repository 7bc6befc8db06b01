package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/daawid/registry/schemas"
)

// JSONLD renders the standalone JSON-LD document of /{slug}.json (§4): all
// languages, localized text as language-tagged values (LD-11, LD-12).
func JSONLD(e *schemas.Entry, site Site) []byte {
	l := &ldBuilder{e: e, site: site, lang: e.DefaultLanguage}
	w := jsonWriter{indent: "  "}
	w.value(l.document(), 0)
	w.buf = append(w.buf, '\n')
	return w.buf
}

// EmbeddedJSONLD renders the JSON-LD embedded in the HTML page in lang:
// plain strings in the page's language (LD-15), escaped for a <script>
// element.
func EmbeddedJSONLD(e *schemas.Entry, lang string, site Site) []byte {
	return embeddedJSONLD(e, lang, site, nil)
}

func embeddedJSONLD(e *schemas.Entry, lang string, site Site, buf []byte) []byte {
	l := &ldBuilder{e: e, site: site, lang: lang, embedded: true}
	w := jsonWriter{html: true, buf: buf}
	w.value(l.document(), 0)
	return w.buf
}

type ldBuilder struct {
	e        *schemas.Entry
	site     Site
	lang     string
	embedded bool
}

// ltext is localized text: tagged values in the standalone file, a plain
// string in the page's language when embedded.
func ltext[M schemas.MaxLen](l *ldBuilder, t schemas.Text[M]) any {
	if len(t) == 0 {
		return nil
	}
	if l.embedded {
		return t.Resolve(l.lang, l.e.DefaultLanguage)
	}
	var vals []any
	seen := 0
	for _, lang := range l.e.Languages {
		if s, ok := t[lang]; ok {
			vals = append(vals, obj{{"@value", s}, {"@language", lang}})
			seen++
		}
	}
	if seen < len(t) { // keys outside languages: keep them, sorted, rather than lose text
		for _, lang := range t.Languages() {
			if !containsString(l.e.Languages, lang) {
				vals = append(vals, obj{{"@value", t[lang]}, {"@language", lang}})
			}
		}
	}
	if len(vals) == 1 {
		return vals[0]
	}
	return vals
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (l *ldBuilder) iri(itemID string) string { return l.site.EntryIRI(l.e.ID) + "#" + itemID }

func (l *ldBuilder) ref(itemID string) obj { return obj{{"@id", l.iri(itemID)}} }

func (l *ldBuilder) document() obj {
	return obj{
		{"@context", []any{"https://schema.org", obj{{"daawid", l.site.BaseURL + "/ns#"}}}},
		{"@graph", []any{l.profilePage(), l.subject()}},
	}
}

// profilePage is graph node 1 (LD-04, LD-05, LD-58..LD-60).
func (l *ldBuilder) profilePage() obj {
	e := l.e
	page := l.site.PageURL(e.Slug)
	p := obj{
		{"@type", "ProfilePage"},
		{"@id", page},
		{"url", page},
		{"name", e.DisplayName},
	}
	if l.embedded {
		p.add("inLanguage", l.lang)
	} else {
		p.add("inLanguage", e.Languages)
	}
	p.add("dateCreated", e.Record.CreatedAt)
	p.add("dateModified", e.Record.UpdatedAt)
	p.add("mainEntity", obj{{"@id", l.site.EntryIRI(e.ID)}})
	p.add("isPartOf", obj{{"@type", "WebSite"}, {"@id", l.site.BaseURL + "/#website"}, {"name", "Daawid"}, {"url", l.site.BaseURL + "/"}})
	p.add("daawid:schemaVersion", schemas.SchemaVersion)
	p.add("daawid:revision", e.Record.Revision)
	p.add("daawid:status", string(e.Status))
	p.add("daawid:lastConfirmed", e.Record.LastConfirmedAt)
	if e.Status == schemas.StatusSuspended {
		return p
	}
	v := obj{{"daawid:level", string(e.Verification.Level)}}
	var doms []any
	for _, d := range e.Verification.Domains {
		o := obj{{"daawid:host", d.Host}, {"daawid:domainStatus", string(d.Status)}}
		o.add("daawid:method", string(d.Method))
		o.add("daawid:verifiedAt", d.VerifiedAt)
		o.add("daawid:lastCheckedAt", d.LastCheckedAt)
		o.add("daawid:graceUntil", d.GraceUntil)
		doms = append(doms, o)
	}
	v.add("daawid:domain", doms)
	v.add("daawid:contactConfirmedAt", e.Verification.ContactConfirmedAt)
	v.add("daawid:lapsedAt", e.Verification.LapsedAt)
	p.add("daawid:verification", v)
	var prov []any
	for _, pr := range e.Provenance {
		o := obj{{"daawid:path", pr.Path}, {"daawid:source", string(pr.Source)}, {"daawid:observedAt", pr.ObservedAt}}
		o.add("daawid:reference", pr.Reference)
		o.add("daawid:referenceKind", string(pr.ReferenceKind))
		prov = append(prov, o)
	}
	p.add("daawid:provenance", prov)
	return p
}

// subjectType is the entry's @type (LD-07..LD-09).
func (l *ldBuilder) subjectType() string {
	switch {
	case l.e.Kind == schemas.KindPerson:
		return "Person"
	case len(l.e.Locations) == 0:
		return "Organization"
	case l.site.Categories != nil:
		return l.site.Categories.SchemaTypeFor(l.e.Categories)
	}
	return "LocalBusiness"
}

// subject is graph node 2 in the property order of the example (LD-62).
func (l *ldBuilder) subject() obj {
	e := l.e
	typ := l.subjectType()
	person := typ == "Person"
	local := !person && typ != "Organization"
	s := obj{{"@type", typ}, {"@id", l.site.EntryIRI(e.ID)}, {"name", e.DisplayName}}
	if e.Status == schemas.StatusSuspended {
		return s
	}
	s.add("alternateName", e.AlternateNames)
	op := e.Operator
	if op != nil && !person {
		s.add("legalName", op.LegalName)
	}
	if op != nil {
		s.add("vatID", op.VATID)
	}
	ids := []any{obj{{"@type", "PropertyValue"}, {"propertyID", "daawid"}, {"value", e.ID}}}
	if op != nil && op.Register != nil {
		ids = append(ids, obj{{"@type", "PropertyValue"}, {"propertyID", op.Register.Type}, {"value", registerReference(op.Register)}})
	}
	if op != nil && op.EconomicID != "" && op.Address.Country == "DE" {
		ids = append(ids, obj{{"@type", "PropertyValue"}, {"propertyID", "DE:W-IdNr"}, {"value", op.EconomicID}})
	} else if op != nil && op.EconomicID != "" {
		ids = append(ids, obj{{"@type", "PropertyValue"}, {"propertyID", op.Address.Country + ":BusinessId"}, {"value", op.EconomicID}})
	}
	s.add("identifier", ids)
	if len(e.Description) > 0 {
		s.add("description", ltext(l, e.Description))
		s.add("disambiguatingDescription", ltext(l, e.Summary))
	} else {
		s.add("description", ltext(l, e.Summary))
	}
	if e.Voice != nil && !person {
		s.add("slogan", ltext(l, e.Voice.Tagline))
	}
	for _, d := range e.Domains {
		if d.Primary {
			s.add("url", "https://"+d.Host)
		}
	}
	s.add("sameAs", e.Profiles)
	l.addMedia(&s, person)
	if tel, mail := l.businessContact(); tel != "" || mail != "" {
		s.add("telephone", tel)
		s.add("email", mail)
	}
	if !person {
		if e.FoundingYear != 0 {
			s.add("foundingDate", strconv.Itoa(e.FoundingYear))
		}
		s.add("numberOfEmployees", employeesValue(e.Employees))
	}
	s.add("knowsLanguage", oneOrMany(e.LanguagesSpoken))
	if p := e.PrimaryLocation(); p != nil && !person {
		s.add("address", postalAddress(p))
		if p.AddressDisplay != schemas.DisplayLocalityOnly {
			s.add("geo", geoValue(p.Geo))
		}
		if local {
			s.add("openingHoursSpecification", hoursSpecs(p.Hours))
			s.add("specialOpeningHoursSpecification", exceptionSpecs(p.HoursExceptions))
			s.add("daawid:timeZone", p.TimeZone)
			s.add("daawid:visits", string(p.Visits))
		}
	}
	if !person {
		s.add("areaServed", l.areaServed(e.ServiceArea))
		if e.ServiceArea != nil && e.ServiceArea.Anywhere {
			s.add("daawid:servesAnywhere", true)
		}
		var others []any
		for _, loc := range e.Locations {
			if p := e.PrimaryLocation(); p != nil && loc.ID == p.ID {
				continue
			}
			others = append(others, l.place(loc))
		}
		s.add("location", others)
	} else {
		var places []any
		for _, loc := range e.Locations {
			places = append(places, l.place(loc))
		}
		s.add("workLocation", places)
	}
	var paymentPolicy *schemas.Policy
	for i := range e.Policies {
		if e.Policies[i].Type == schemas.PolicyPayment {
			paymentPolicy = &e.Policies[i]
		}
	}
	if paymentPolicy != nil && local {
		s.add("paymentAccepted", paymentWordsIn(paymentPolicy.Methods, l.paymentLang()))
		s.add("currenciesAccepted", strings.Join(paymentPolicy.Currencies, ", "))
	}
	s.add("contactPoint", l.contactPoints())
	l.addCredentials(&s)
	s.add("makesOffer", l.offers())
	s.add("potentialAction", l.actions())
	s.add("subjectOf", l.faqPages())
	s.add("daawid:category", e.Categories)
	s.add("daawid:naceCode", e.NACECodes)
	s.add("daawid:capacity", l.capacity())
	s.add("daawid:policy", l.policies(paymentPolicy != nil && !local))
	s.add("daawid:routing", l.routing())
	if p := e.AgentPolicy; p != nil {
		s.add("daawid:agentPolicy", obj{
			{"daawid:agentRequests", string(p.AgentRequests)},
			{"daawid:unsolicitedOutreach", string(p.UnsolicitedOutreach)},
			{"daawid:agentsMustDisclose", p.AgentsMustDisclose},
		})
	}
	s.add("daawid:voice", l.voice())
	if e.Brand != nil {
		s.add("daawid:brandKit", BrandKitURL(l.site, e.ID))
	}
	return s
}

func (l *ldBuilder) paymentLang() string {
	if l.embedded {
		return l.lang
	}
	return l.e.DefaultLanguage
}

func oneOrMany(items []string) any {
	switch len(items) {
	case 0:
		return nil
	case 1:
		return items[0]
	}
	return items
}

// employeesValue maps a bucket to a QuantitativeValue (LD-21).
func employeesValue(r schemas.EmployeesRange) any {
	if r == "" || !schemas.Known(r) {
		return nil
	}
	s := string(r)
	q := obj{{"@type", "QuantitativeValue"}}
	switch {
	case strings.HasSuffix(s, "+"):
		n, _ := strconv.Atoi(strings.TrimSuffix(s, "+"))
		q.add("minValue", n)
	case strings.Contains(s, "-"):
		a, b, _ := strings.Cut(s, "-")
		lo, _ := strconv.Atoi(a)
		hi, _ := strconv.Atoi(b)
		q.add("minValue", lo)
		q.add("maxValue", hi)
	default:
		n, _ := strconv.Atoi(s)
		q.add("minValue", n)
		q.add("maxValue", n)
	}
	return q
}

func (l *ldBuilder) addMedia(s *obj, person bool) {
	e := l.e
	logoID := ""
	if e.Brand != nil {
		logoID = e.Brand.Logo
	}
	if m := e.MediaItem(logoID); m != nil && !person {
		s.add("logo", l.imageObject(*m))
	}
	var imgs []any
	for _, m := range e.Media {
		if m.ID != logoID {
			imgs = append(imgs, l.imageObject(m))
		}
	}
	s.add("image", imgs)
}

func (l *ldBuilder) imageObject(m schemas.Media) obj {
	o := obj{{"@type", "ImageObject"}, {"@id", l.iri(m.ID)}, {"url", m.URL}, {"encodingFormat", m.EncodingFormat}}
	if m.Width > 0 {
		o.add("width", m.Width)
	}
	if m.Height > 0 {
		o.add("height", m.Height)
	}
	o.add("caption", ltext(l, m.Caption))
	return o
}

// businessContact is the first public phone and e-mail (LD-33; decision
// D11: contact points in their order).
func (l *ldBuilder) businessContact() (tel, mail string) {
	for _, c := range l.e.PublicContactPoints() {
		if tel == "" {
			tel = c.Phone
		}
		if mail == "" {
			mail = c.Email
		}
	}
	return tel, mail
}

func postalAddress(loc *schemas.Location) obj {
	a := loc.Address
	o := obj{{"@type", "PostalAddress"}}
	if loc.AddressDisplay != schemas.DisplayLocalityOnly {
		street := a.Street
		if a.Extra != "" {
			street = strings.TrimSpace(street + ", " + a.Extra)
		}
		o.add("streetAddress", street)
	}
	o.add("postalCode", a.PostalCode)
	o.add("addressLocality", a.Locality)
	o.add("addressRegion", a.Region)
	o.add("addressCountry", a.Country)
	return o
}

func geoValue(g *schemas.Geo) any {
	if g == nil {
		return nil
	}
	return obj{{"@type", "GeoCoordinates"}, {"latitude", g.Lat}, {"longitude", g.Lng}}
}

var dayNames = map[schemas.DayOfWeek]string{
	"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday", "sat": "Saturday", "sun": "Sunday",
}

// hoursSpecs maps opening hours to OpeningHoursSpecification; closed days
// are left out, as schema.org expects (LD-28).
func hoursSpecs(rules []schemas.HoursRule) any {
	var out []any
	for _, r := range rules {
		if r.Closed {
			continue
		}
		var days []string
		for _, d := range r.Days {
			if n, ok := dayNames[d]; ok {
				days = append(days, n)
			}
		}
		out = append(out, obj{{"@type", "OpeningHoursSpecification"}, {"dayOfWeek", oneOrMany(days)}, {"opens", r.Opens}, {"closes", r.Closes}})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// exceptionSpecs maps dated exceptions; closed is 00:00–00:00 (LD-29).
func exceptionSpecs(xs []schemas.HoursException) any {
	var out []any
	for _, x := range xs {
		opens, closes := x.Opens, x.Closes
		if x.Closed {
			opens, closes = "00:00", "00:00"
		}
		out = append(out, obj{{"@type", "OpeningHoursSpecification"}, {"validFrom", x.From}, {"validThrough", x.To}, {"opens", opens}, {"closes", closes}})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (l *ldBuilder) place(loc schemas.Location) obj {
	p := obj{{"@type", "Place"}, {"@id", l.iri(loc.ID)}}
	p.add("name", loc.Name)
	p.add("address", postalAddress(&loc))
	if loc.AddressDisplay != schemas.DisplayLocalityOnly {
		p.add("geo", geoValue(loc.Geo))
	}
	p.add("openingHoursSpecification", hoursSpecs(loc.Hours))
	p.add("specialOpeningHoursSpecification", exceptionSpecs(loc.HoursExceptions))
	p.add("daawid:timeZone", loc.TimeZone)
	p.add("daawid:visits", string(loc.Visits))
	return p
}

var placeTypes = map[schemas.ServicePlaceType]string{"city": "City", "administrative_area": "AdministrativeArea", "country": "Country"}

// areaServed maps a service area (LD-31).
func (l *ldBuilder) areaServed(sa *schemas.ServiceArea) any {
	if sa == nil {
		return nil
	}
	var out []any
	if r := sa.Radius; r != nil {
		g := r.Center.Geo
		if loc := l.e.Location(r.Center.LocationID); loc != nil {
			g = loc.Geo
			if loc.AddressDisplay == schemas.DisplayLocalityOnly {
				g = nil // the centre would give away the street (I15)
			}
		}
		if g != nil {
			out = append(out, obj{{"@type", "GeoCircle"}, {"geoMidpoint", geoValue(g)}, {"geoRadius", int(math.Round(r.Km * 1000))}})
		}
	}
	for _, p := range sa.Places {
		t, ok := placeTypes[p.Type]
		if !ok {
			t = "Place"
		}
		out = append(out, obj{{"@type", t}, {"name", p.Name}})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (l *ldBuilder) contactPoints() any {
	var out []any
	for _, c := range l.e.PublicContactPoints() {
		o := obj{{"@type", "ContactPoint"}, {"@id", l.iri(c.ID)}, {"name", c.Name}}
		if len(c.Purposes) > 0 {
			ps := make([]string, len(c.Purposes))
			for i, p := range c.Purposes {
				ps[i] = string(p)
			}
			o.add("contactType", strings.Join(ps, ", "))
		}
		o.add("telephone", c.Phone)
		o.add("email", c.Email)
		o.add("availableLanguage", oneOrMany(c.Languages))
		o.add("hoursAvailable", hoursSpecs(c.Hours))
		out = append(out, o)
	}
	return out
}

func (l *ldBuilder) addCredentials(s *obj) {
	var has, member, award []any
	for _, c := range l.e.Credentials {
		switch c.Type {
		case schemas.CredentialMembership:
			o := obj{{"@type", "Organization"}}
			if c.Issuer != nil {
				o.add("name", c.Issuer.Name)
				o.add("url", c.Issuer.URL)
			} else {
				o.add("name", c.Name)
			}
			member = append(member, o)
		case schemas.CredentialAward:
			award = append(award, c.Name)
		default:
			if !schemas.Known(c.Type) {
				continue
			}
			o := obj{{"@type", "EducationalOccupationalCredential"}, {"@id", l.iri(c.ID)}, {"name", c.Name}, {"credentialCategory", string(c.Type)}}
			if c.Issuer != nil {
				r := obj{{"@type", "Organization"}, {"name", c.Issuer.Name}}
				r.add("url", c.Issuer.URL)
				o.add("recognizedBy", r)
			}
			o.add("expires", c.ValidUntil)
			has = append(has, o)
		}
	}
	s.add("hasCredential", has)
	s.add("memberOf", member)
	if len(award) == 1 {
		s.add("award", award[0])
	} else {
		s.add("award", award)
	}
}

// priceSpec maps a price (LD-37..LD-40); on_request has none (LD-41).
func priceSpec(p *schemas.Price) any {
	if p == nil || p.Kind == schemas.PriceOnRequest || !schemas.Known(p.Kind) {
		return nil
	}
	typ := "PriceSpecification"
	if p.Unit != "" {
		typ = "UnitPriceSpecification"
	}
	o := obj{{"@type", typ}}
	switch p.Kind {
	case schemas.PriceFixed:
		o.add("price", p.Amount)
	case schemas.PriceFrom:
		o.add("minPrice", p.Min)
	case schemas.PriceRange:
		o.add("minPrice", p.Min)
		o.add("maxPrice", p.Max)
	}
	o.add("priceCurrency", p.Currency)
	o.add("unitCode", UnitCodes[p.Unit])
	if p.VATIncluded != nil {
		o.add("valueAddedTaxIncluded", *p.VATIncluded)
	}
	return o
}

func leadTime(r *schemas.DurationRange) any {
	if r == nil {
		return nil
	}
	o := obj{{"daawid:min", r.Min}}
	o.add("daawid:max", r.Max)
	return o
}

func (l *ldBuilder) offers() any {
	e := l.e
	var out []any
	for _, off := range e.Offerings {
		kind := "Service"
		if off.Kind == "product" {
			kind = "Product"
		}
		item := obj{{"@type", kind}, {"name", ltext(l, off.Name)}}
		item.add("description", ltext(l, off.Description))
		o := obj{{"@type", "Offer"}, {"@id", l.iri(off.ID)}, {"itemOffered", item}}
		o.add("priceSpecification", priceSpec(off.Price))
		if off.Availability == "in_stock" {
			o.add("availability", "https://schema.org/InStock")
		}
		o.add("areaServed", l.areaServed(off.ServiceArea))
		if off.Price != nil {
			o.add("daawid:priceKind", string(off.Price.Kind))
		}
		o.add("daawid:audience", string(off.Audience))
		o.add("daawid:typicalLeadTime", leadTime(off.LeadTime))
		var acts []any
		for _, a := range e.EnabledActions() {
			for _, id := range a.OfferingIDs {
				if id == off.ID {
					acts = append(acts, l.ref(a.ID))
				}
			}
		}
		if len(acts) == 1 {
			o.add("potentialAction", acts[0])
		} else {
			o.add("potentialAction", acts)
		}
		out = append(out, o)
	}
	return out
}

var actionLDTypes = map[schemas.ActionType]string{
	schemas.ActionRequestQuote: "Action", schemas.ActionRequestCallback: "CommunicateAction",
	schemas.ActionSendMessage: "CommunicateAction", schemas.ActionRequestAppointment: "ReserveAction",
}

// actions maps enabled actions to potentialAction (LD-54..LD-56).
func (l *ldBuilder) actions() any {
	var out []any
	for _, a := range l.e.EnabledActions() {
		t, ok := actionLDTypes[a.Type]
		if !ok {
			continue
		}
		o := obj{{"@type", t}, {"@id", l.iri(a.ID)}, {"name", ltext(l, a.Name)}, {"daawid:actionType", string(a.Type)}, {"daawid:requiresUserConfirmation", !a.Handoff()}}
		o.add("daawid:expectedResponse", a.ExpectedResponse)
		targets := []any{obj{{"@type", "EntryPoint"}, {"urlTemplate", l.site.ActionRunsURL(a.ID)}, {"httpMethod", "POST"}, {"contentType", "application/json"}}}
		if a.WebForm {
			targets = append(targets, obj{{"@type", "EntryPoint"}, {"urlTemplate", l.site.ActionFormURL(l.e.Slug, a.ID)}, {"actionPlatform", "https://schema.org/DesktopWebPlatform"}})
		}
		o.add("target", targets)
		out = append(out, o)
	}
	return out
}

// faqPages maps FAQs to one FAQPage per language (LD-50, LD-14; decision
// D2): the standalone file has a page for each language any FAQ is written
// in, with plain strings and inLanguage; the embedded one has the page's
// language only.
func (l *ldBuilder) faqPages() any {
	e := l.e
	if len(e.FAQs) == 0 {
		return nil
	}
	page := func(lang string, fallback bool) any {
		var qs []any
		for _, f := range e.FAQs {
			q, a := f.Question[lang], f.Answer[lang]
			if fallback {
				q, a = f.Question.Resolve(lang, e.DefaultLanguage), f.Answer.Resolve(lang, e.DefaultLanguage)
			}
			if q == "" || a == "" {
				continue
			}
			qs = append(qs, obj{{"@type", "Question"}, {"name", q}, {"acceptedAnswer", obj{{"@type", "Answer"}, {"text", a}}}})
		}
		if len(qs) == 0 {
			return nil
		}
		return obj{{"@type", "FAQPage"}, {"inLanguage", lang}, {"mainEntity", qs}}
	}
	if l.embedded {
		return page(l.lang, true)
	}
	var pages []any
	for _, lang := range e.Languages {
		if p := page(lang, false); p != nil {
			pages = append(pages, p)
		}
	}
	if len(pages) == 1 {
		return pages[0]
	}
	return pages
}

func (l *ldBuilder) capacity() any {
	e := l.e
	if !e.CapacityActive() {
		return nil // LD-45, LD-61
	}
	c := e.Capacity
	o := obj{{"daawid:capacityStatus", string(c.Status)}}
	o.add("daawid:nextAvailableFrom", c.NextAvailableFrom)
	o.add("daawid:leadTime", leadTime(c.LeadTime))
	o.add("daawid:note", ltext(l, c.Note))
	o.add("daawid:asOf", c.AsOf)
	o.add("daawid:expiresAt", c.ExpiresAt)
	return o
}

func (l *ldBuilder) policies(withPayment bool) any {
	var out []any
	for _, p := range l.e.Policies {
		if !schemas.Known(p.Type) || (p.Type == schemas.PolicyPayment && !withPayment) {
			continue
		}
		o := obj{{"daawid:policyType", string(p.Type)}}
		if p.Type == schemas.PolicyPayment {
			ms := make([]string, len(p.Methods))
			for i, m := range p.Methods {
				ms[i] = string(m)
			}
			o.add("daawid:methods", ms)
			o.add("daawid:currencies", p.Currencies)
		}
		if p.Percent != nil {
			o.add("daawid:percent", *p.Percent)
		}
		if p.Free != nil {
			o.add("daawid:free", *p.Free)
		}
		if p.FreeWithinKm != nil {
			o.add("daawid:freeWithinKm", *p.FreeWithinKm)
		}
		if p.Days > 0 {
			o.add("daawid:days", p.Days)
		}
		o.add("daawid:price", priceSpec(p.Price))
		o.add("daawid:summary", ltext(l, p.Summary))
		out = append(out, o)
	}
	return out
}

// routing maps routing rules; notes and decline reasons stay in the
// markdown (LD-52), and targets that are not public are left out.
func (l *ldBuilder) routing() any {
	e := l.e
	public := map[string]bool{}
	for _, c := range e.PublicContactPoints() {
		public[c.ID] = true
	}
	for _, a := range e.EnabledActions() {
		public[a.ID] = true
	}
	var out []any
	for _, r := range e.Routing {
		o := obj{{"daawid:audience", string(r.Audience)}, {"daawid:intent", string(r.Intent)}}
		if r.Decline {
			o.add("daawid:decline", true)
		} else if public[r.RouteTo] {
			o.add("daawid:routeTo", l.ref(r.RouteTo))
		} else {
			continue
		}
		out = append(out, o)
	}
	return out
}

func (l *ldBuilder) voice() any {
	v := l.e.Voice
	if v == nil {
		return nil
	}
	o := obj{}
	o.add("daawid:preferredName", v.PreferredName)
	o.add("daawid:avoidName", v.AvoidNames)
	o.add("daawid:formality", string(v.Formality))
	o.add("daawid:tone", v.Tone)
	var em []any
	for _, t := range v.Emphasis {
		switch x := ltext(l, t).(type) {
		case []any:
			em = append(em, x...)
		case nil:
		default:
			em = append(em, x)
		}
	}
	o.add("daawid:emphasis", em)
	if l.e.Kind == schemas.KindPerson {
		o.add("daawid:tagline", ltext(l, v.Tagline))
	}
	return o
}
