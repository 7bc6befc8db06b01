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
	return jsonLD(e, site, nil)
}

func jsonLD(e *schemas.Entry, site Site, f *facts) []byte {
	l := newLDBuilder(e, site, e.DefaultLanguage, false, f)
	l.w.indent = "  "
	l.w.buf = make([]byte, 0, 2*sizeHint(e))
	l.document()
	l.w.buf = append(l.w.buf, '\n')
	return l.w.buf
}

// EmbeddedJSONLD renders the JSON-LD embedded in the HTML page in lang:
// plain strings in the page's language (LD-15), escaped for a <script>
// element.
func EmbeddedJSONLD(e *schemas.Entry, lang string, site Site) []byte {
	return embeddedJSONLD(e, lang, site, nil, nil)
}

func embeddedJSONLD(e *schemas.Entry, lang string, site Site, f *facts, buf []byte) []byte {
	l := newLDBuilder(e, site, lang, true, f)
	l.w.html = true
	l.w.buf = buf
	l.document()
	return l.w.buf
}

// ldBuilder writes one JSON-LD document for one revision.
type ldBuilder struct {
	e        *schemas.Entry
	site     Site
	lang     string
	embedded bool
	f        *facts
	subject  string // the entry's IRI
	prefix   string // the entry's IRI + "#", for item IRIs (LD-10)
	w        lw
}

func newLDBuilder(e *schemas.Entry, site Site, lang string, embedded bool, f *facts) *ldBuilder {
	if f == nil {
		f = factsOf(e)
	}
	subject := site.EntryIRI(e.ID)
	l := &ldBuilder{e: e, site: site, lang: lang, embedded: embedded, f: f, subject: subject, prefix: subject + "#"}
	l.w.first = true
	return l
}

// text writes localized text: tagged values in the standalone file (one
// object for one language, an array for several, LD-12), a plain string in
// the page's language when embedded (LD-15).
func ltext[M schemas.MaxLen](l *ldBuilder, k string, t schemas.Text[M]) {
	if len(t) == 0 {
		return
	}
	w := &l.w
	if l.embedded {
		w.s(k, t.Resolve(l.lang, l.e.DefaultLanguage))
		return
	}
	tagged := func() {
		for _, lang := range l.e.Languages {
			if s, ok := t[lang]; ok {
				w.obj("", func() { w.s("@value", s); w.s("@language", lang) })
			}
		}
		// Keys outside languages would be refused by validation; keep them,
		// sorted, rather than lose text from an older revision.
		for _, lang := range t.Languages() {
			if !containsString(l.e.Languages, lang) {
				w.obj("", func() { w.s("@value", t[lang]); w.s("@language", lang) })
			}
		}
	}
	if len(t) == 1 {
		for lang, s := range t {
			w.obj(k, func() { w.s("@value", s); w.s("@language", lang) })
		}
		return
	}
	w.arr(k, tagged)
}

// taggedItems writes several localized texts as one flat array of tagged
// values (daawid:emphasis).
func taggedItems[M schemas.MaxLen](l *ldBuilder, k string, ts []schemas.Text[M]) {
	w := &l.w
	if l.embedded {
		w.arr(k, func() {
			for _, t := range ts {
				w.s("", t.Resolve(l.lang, l.e.DefaultLanguage))
			}
		})
		return
	}
	w.arr(k, func() {
		for _, t := range ts {
			for _, lang := range l.e.Languages {
				if s, ok := t[lang]; ok {
					w.obj("", func() { w.s("@value", s); w.s("@language", lang) })
				}
			}
		}
	})
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// id writes "@id" as the IRI of an item of the entry.
func (l *ldBuilder) id(itemID string) { l.w.s2("@id", l.prefix, itemID) }

// ref writes k: {"@id": item IRI}.
func (l *ldBuilder) ref(k, itemID string) { l.w.obj(k, func() { l.id(itemID) }) }

func (l *ldBuilder) document() {
	w := &l.w
	w.obj("", func() {
		w.arr("@context", func() {
			w.s("", "https://schema.org")
			w.obj("", func() { w.s2("daawid", l.site.BaseURL, "/ns#") })
		})
		w.arr("@graph", func() {
			l.profilePage()
			l.subjectNode()
		})
	})
}

// profilePage is graph node 1 (LD-04, LD-05, LD-58..LD-60).
func (l *ldBuilder) profilePage() {
	e, w := l.e, &l.w
	page := l.site.PageURL(e.Slug)
	w.obj("", func() {
		w.s("@type", "ProfilePage")
		w.s("@id", page)
		w.s("url", page)
		w.s("name", e.DisplayName)
		if l.embedded {
			w.s("inLanguage", l.lang)
		} else {
			w.strs("inLanguage", e.Languages)
		}
		w.s("dateCreated", e.Record.CreatedAt)
		w.s("dateModified", e.Record.UpdatedAt)
		w.obj("mainEntity", func() { w.s("@id", l.subject) })
		w.obj("isPartOf", func() {
			w.s("@type", "WebSite")
			w.s2("@id", l.site.BaseURL, "/#website")
			w.s("name", "Daawid")
			w.s2("url", l.site.BaseURL, "/")
		})
		w.s("daawid:schemaVersion", schemas.SchemaVersion)
		w.i("daawid:revision", e.Record.Revision)
		w.s("daawid:status", string(e.Status))
		w.s("daawid:lastConfirmed", e.Record.LastConfirmedAt)
		if e.Status == schemas.StatusSuspended {
			return
		}
		v := e.Verification
		w.obj("daawid:verification", func() {
			w.s("daawid:level", string(v.Level))
			w.arr("daawid:domain", func() {
				for _, d := range v.Domains {
					w.obj("", func() {
						w.s("daawid:host", d.Host)
						w.s("daawid:domainStatus", string(d.Status))
						w.s("daawid:method", string(d.Method))
						w.s("daawid:verifiedAt", d.VerifiedAt)
						w.s("daawid:lastCheckedAt", d.LastCheckedAt)
						w.s("daawid:graceUntil", d.GraceUntil)
					})
				}
			})
			w.s("daawid:contactConfirmedAt", v.ContactConfirmedAt)
			w.s("daawid:lapsedAt", v.LapsedAt)
		})
		w.arr("daawid:provenance", func() {
			for _, p := range e.Provenance {
				w.obj("", func() {
					w.s("daawid:path", p.Path)
					w.s("daawid:source", string(p.Source))
					w.s("daawid:observedAt", p.ObservedAt)
					w.s("daawid:reference", p.Reference)
					w.s("daawid:referenceKind", string(p.ReferenceKind))
				})
			}
		})
	})
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

// subjectNode is graph node 2 in the property order of the example (LD-62).
func (l *ldBuilder) subjectNode() {
	e, w := l.e, &l.w
	typ := l.subjectType()
	person := typ == "Person"
	local := !person && typ != "Organization"
	w.obj("", func() {
		w.s("@type", typ)
		w.s("@id", l.subject)
		w.s("name", e.DisplayName)
		if e.Status == schemas.StatusSuspended {
			return
		}
		w.strs("alternateName", e.AlternateNames)
		op := e.Operator
		if op != nil && !person {
			w.s("legalName", op.LegalName)
		}
		if op != nil {
			w.s("vatID", op.VATID)
		}
		w.arr("identifier", func() {
			w.obj("", func() { w.s("@type", "PropertyValue"); w.s("propertyID", "daawid"); w.s("value", e.ID) })
			if op == nil {
				return
			}
			if r := op.Register; r != nil {
				w.obj("", func() {
					w.s("@type", "PropertyValue")
					w.s("propertyID", r.Type)
					w.s("value", registerReference(r))
				})
			}
			if op.EconomicID != "" {
				w.obj("", func() {
					w.s("@type", "PropertyValue")
					if op.Address.Country == "DE" {
						w.s("propertyID", "DE:W-IdNr")
					} else {
						w.s2("propertyID", op.Address.Country, ":BusinessId")
					}
					w.s("value", op.EconomicID)
				})
			}
		})
		if len(e.Description) > 0 {
			ltext(l, "description", e.Description)
			ltext(l, "disambiguatingDescription", e.Summary)
		} else {
			ltext(l, "description", e.Summary)
		}
		if e.Voice != nil && !person {
			ltext(l, "slogan", e.Voice.Tagline)
		}
		for _, d := range e.Domains {
			if d.Primary {
				w.s2("url", "https://", d.Host)
			}
		}
		w.strs("sameAs", e.Profiles)
		l.media(person)
		tel, mail := l.businessContact()
		w.s("telephone", tel)
		w.s("email", mail)
		if !person {
			if e.FoundingYear != 0 {
				w.s("foundingDate", strconv.Itoa(e.FoundingYear))
			}
			l.employees(e.Employees)
		}
		w.oneOrMany("knowsLanguage", e.LanguagesSpoken)
		primary := l.f.primary
		if primary != nil && !person {
			l.postalAddress("address", primary)
			if primary.AddressDisplay != schemas.DisplayLocalityOnly {
				l.geo("geo", primary.Geo)
			}
			if local {
				l.hoursSpecs("openingHoursSpecification", primary.Hours)
				l.exceptionSpecs("specialOpeningHoursSpecification", primary.HoursExceptions)
				w.s("daawid:timeZone", primary.TimeZone)
				w.s("daawid:visits", string(primary.Visits))
			}
		}
		if !person {
			l.areaServed("areaServed", e.ServiceArea)
			if e.ServiceArea != nil && e.ServiceArea.Anywhere {
				w.b("daawid:servesAnywhere", true)
			}
			w.arr("location", func() {
				for i := range e.Locations {
					if primary == nil || e.Locations[i].ID != primary.ID {
						l.place(&e.Locations[i])
					}
				}
			})
		} else {
			w.arr("workLocation", func() {
				for i := range e.Locations {
					l.place(&e.Locations[i])
				}
			})
		}
		var payment *schemas.Policy
		for i := range e.Policies {
			if e.Policies[i].Type == schemas.PolicyPayment {
				payment = &e.Policies[i]
			}
		}
		if payment != nil && local {
			lang := e.DefaultLanguage
			if l.embedded {
				lang = l.lang
			}
			w.s("paymentAccepted", paymentWordsIn(payment.Methods, lang))
			w.s("currenciesAccepted", strings.Join(payment.Currencies, ", "))
		}
		l.contactPoints()
		l.credentials()
		l.offers()
		l.actions()
		l.faqPages()
		w.strs("daawid:category", e.Categories)
		w.strs("daawid:naceCode", e.NACECodes)
		l.capacity()
		l.policies(payment != nil && !local)
		l.routing()
		if p := e.AgentPolicy; p != nil {
			w.obj("daawid:agentPolicy", func() {
				w.s("daawid:agentRequests", string(p.AgentRequests))
				w.s("daawid:unsolicitedOutreach", string(p.UnsolicitedOutreach))
				w.b("daawid:agentsMustDisclose", p.AgentsMustDisclose)
			})
		}
		l.voice()
		if e.Brand != nil {
			w.s2("daawid:brandKit", l.site.APIEntryURL(e.ID), "/brand-kit")
		}
	})
}

// employees maps a bucket to a QuantitativeValue (LD-21).
func (l *ldBuilder) employees(r schemas.EmployeesRange) {
	if r == "" || !schemas.Known(r) {
		return
	}
	w := &l.w
	s := string(r)
	w.obj("numberOfEmployees", func() {
		w.s("@type", "QuantitativeValue")
		switch {
		case strings.HasSuffix(s, "+"):
			n, _ := strconv.Atoi(strings.TrimSuffix(s, "+"))
			w.i("minValue", n)
		case strings.Contains(s, "-"):
			a, b, _ := strings.Cut(s, "-")
			lo, _ := strconv.Atoi(a)
			hi, _ := strconv.Atoi(b)
			w.i("minValue", lo)
			w.i("maxValue", hi)
		default:
			n, _ := strconv.Atoi(s)
			w.i("minValue", n)
			w.i("maxValue", n)
		}
	})
}

// media writes logo and image: every media item but the logo is an image
// (decision D21).
func (l *ldBuilder) media(person bool) {
	e, w := l.e, &l.w
	logoID := ""
	if e.Brand != nil {
		logoID = e.Brand.Logo
	}
	if m := l.f.mediaItem(logoID); m != nil && !person {
		l.imageObject("logo", m)
	}
	w.arr("image", func() {
		for i := range e.Media {
			if e.Media[i].ID != logoID {
				l.imageObject("", &e.Media[i])
			}
		}
	})
}

func (l *ldBuilder) imageObject(k string, m *schemas.Media) {
	w := &l.w
	w.obj(k, func() {
		w.s("@type", "ImageObject")
		l.id(m.ID)
		w.s("url", m.URL)
		w.s("encodingFormat", m.EncodingFormat)
		if m.Width > 0 {
			w.i("width", m.Width)
		}
		if m.Height > 0 {
			w.i("height", m.Height)
		}
		ltext(l, "caption", m.Caption)
	})
}

// businessContact is the first public phone and e-mail (LD-33; decision
// D11).
func (l *ldBuilder) businessContact() (tel, mail string) {
	for _, c := range l.f.public {
		if tel == "" {
			tel = c.Phone
		}
		if mail == "" {
			mail = c.Email
		}
	}
	return tel, mail
}

func (l *ldBuilder) postalAddress(k string, loc *schemas.Location) {
	w, a := &l.w, loc.Address
	w.obj(k, func() {
		w.s("@type", "PostalAddress")
		if loc.AddressDisplay != schemas.DisplayLocalityOnly {
			if a.Extra != "" && a.Street != "" {
				w.s("streetAddress", a.Street+", "+a.Extra)
			} else {
				w.s("streetAddress", a.Street+a.Extra)
			}
		}
		w.s("postalCode", a.PostalCode)
		w.s("addressLocality", a.Locality)
		w.s("addressRegion", a.Region)
		w.s("addressCountry", a.Country)
	})
}

func (l *ldBuilder) geo(k string, g *schemas.Geo) {
	if g == nil {
		return
	}
	w := &l.w
	w.obj(k, func() {
		w.s("@type", "GeoCoordinates")
		w.f("latitude", g.Lat)
		w.f("longitude", g.Lng)
	})
}

var dayNames = map[schemas.DayOfWeek]string{
	"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday", "sat": "Saturday", "sun": "Sunday",
}

// hoursSpecs maps opening hours to OpeningHoursSpecification; closed days
// are left out, as schema.org expects (LD-28).
func (l *ldBuilder) hoursSpecs(k string, rules []schemas.HoursRule) {
	w := &l.w
	w.arr(k, func() {
		for _, r := range rules {
			if r.Closed {
				continue
			}
			w.obj("", func() {
				w.s("@type", "OpeningHoursSpecification")
				if len(r.Days) == 1 {
					w.s("dayOfWeek", dayNames[r.Days[0]])
				} else {
					w.arr("dayOfWeek", func() {
						for _, d := range r.Days {
							w.s("", dayNames[d])
						}
					})
				}
				w.s("opens", r.Opens)
				w.s("closes", r.Closes)
			})
		}
	})
}

// exceptionSpecs maps dated exceptions; closed is 00:00–00:00 (LD-29).
func (l *ldBuilder) exceptionSpecs(k string, xs []schemas.HoursException) {
	w := &l.w
	w.arr(k, func() {
		for _, x := range xs {
			opens, closes := x.Opens, x.Closes
			if x.Closed {
				opens, closes = "00:00", "00:00"
			}
			w.obj("", func() {
				w.s("@type", "OpeningHoursSpecification")
				w.s("validFrom", x.From)
				w.s("validThrough", x.To)
				w.s("opens", opens)
				w.s("closes", closes)
			})
		}
	})
}

func (l *ldBuilder) place(loc *schemas.Location) {
	w := &l.w
	w.obj("", func() {
		w.s("@type", "Place")
		l.id(loc.ID)
		w.s("name", loc.Name)
		l.postalAddress("address", loc)
		if loc.AddressDisplay != schemas.DisplayLocalityOnly {
			l.geo("geo", loc.Geo)
		}
		l.hoursSpecs("openingHoursSpecification", loc.Hours)
		l.exceptionSpecs("specialOpeningHoursSpecification", loc.HoursExceptions)
		w.s("daawid:timeZone", loc.TimeZone)
		w.s("daawid:visits", string(loc.Visits))
	})
}

var placeTypes = map[schemas.ServicePlaceType]string{"city": "City", "administrative_area": "AdministrativeArea", "country": "Country"}

// areaServed maps a service area (LD-31).
func (l *ldBuilder) areaServed(k string, sa *schemas.ServiceArea) {
	if sa == nil {
		return
	}
	w := &l.w
	w.arr(k, func() {
		if r := sa.Radius; r != nil {
			g := r.Center.Geo
			if loc := l.e.Location(r.Center.LocationID); loc != nil {
				g = loc.Geo
				if loc.AddressDisplay == schemas.DisplayLocalityOnly {
					g = nil // the centre would give the street away (I15)
				}
			}
			if g != nil {
				w.obj("", func() {
					w.s("@type", "GeoCircle")
					l.geo("geoMidpoint", g)
					w.i("geoRadius", int(math.Round(r.Km*1000)))
				})
			}
		}
		for _, p := range sa.Places {
			t, ok := placeTypes[p.Type]
			if !ok {
				t = "Place"
			}
			w.obj("", func() { w.s("@type", t); w.s("name", p.Name) })
		}
	})
}

func (l *ldBuilder) contactPoints() {
	w := &l.w
	w.arr("contactPoint", func() {
		for _, c := range l.f.public {
			w.obj("", func() {
				w.s("@type", "ContactPoint")
				l.id(c.ID)
				w.s("name", c.Name)
				if len(c.Purposes) > 0 {
					ps := make([]string, len(c.Purposes))
					for i, p := range c.Purposes {
						ps[i] = string(p)
					}
					w.s("contactType", strings.Join(ps, ", "))
				}
				w.s("telephone", c.Phone)
				w.s("email", c.Email)
				w.oneOrMany("availableLanguage", c.Languages)
				l.hoursSpecs("hoursAvailable", c.Hours)
			})
		}
	})
}

// credentials maps credentials: qualifications to hasCredential,
// memberships to memberOf, awards to award (LD-48, LD-49).
func (l *ldBuilder) credentials() {
	w := &l.w
	creds := l.f.credentials
	w.arr("hasCredential", func() {
		for _, c := range creds {
			if c.Type == schemas.CredentialMembership || c.Type == schemas.CredentialAward || !schemas.Known(c.Type) {
				continue
			}
			w.obj("", func() {
				w.s("@type", "EducationalOccupationalCredential")
				l.id(c.ID)
				w.s("name", c.Name)
				w.s("credentialCategory", string(c.Type))
				if c.Issuer != nil {
					w.obj("recognizedBy", func() {
						w.s("@type", "Organization")
						w.s("name", c.Issuer.Name)
						w.s("url", c.Issuer.URL)
					})
				}
				w.s("expires", c.ValidUntil)
			})
		}
	})
	w.arr("memberOf", func() {
		for _, c := range creds {
			if c.Type != schemas.CredentialMembership {
				continue
			}
			w.obj("", func() {
				w.s("@type", "Organization")
				if c.Issuer != nil {
					w.s("name", c.Issuer.Name)
					w.s("url", c.Issuer.URL)
				} else {
					w.s("name", c.Name)
				}
			})
		}
	})
	var awards []string
	for _, c := range creds {
		if c.Type == schemas.CredentialAward {
			awards = append(awards, c.Name)
		}
	}
	w.oneOrMany("award", awards)
}

// priceSpec maps a price (LD-37..LD-40); on_request has none (LD-41).
func (l *ldBuilder) priceSpec(k string, p *schemas.Price) {
	if p == nil || p.Kind == schemas.PriceOnRequest || !schemas.Known(p.Kind) {
		return
	}
	w := &l.w
	w.obj(k, func() {
		if p.Unit != "" {
			w.s("@type", "UnitPriceSpecification")
		} else {
			w.s("@type", "PriceSpecification")
		}
		switch p.Kind {
		case schemas.PriceFixed:
			w.s("price", p.Amount)
		case schemas.PriceFrom:
			w.s("minPrice", p.Min)
		case schemas.PriceRange:
			w.s("minPrice", p.Min)
			w.s("maxPrice", p.Max)
		}
		w.s("priceCurrency", p.Currency)
		w.s("unitCode", UnitCodes[p.Unit])
		if p.VATIncluded != nil {
			w.b("valueAddedTaxIncluded", *p.VATIncluded)
		}
	})
}

func (l *ldBuilder) leadTime(k string, r *schemas.DurationRange) {
	if r == nil {
		return
	}
	w := &l.w
	w.obj(k, func() {
		w.s("daawid:min", r.Min)
		w.s("daawid:max", r.Max)
	})
}

func (l *ldBuilder) offers() {
	e, w := l.e, &l.w
	w.arr("makesOffer", func() {
		for i := range e.Offerings {
			off := &e.Offerings[i]
			w.obj("", func() {
				w.s("@type", "Offer")
				l.id(off.ID)
				w.obj("itemOffered", func() {
					if off.Kind == "product" {
						w.s("@type", "Product")
					} else {
						w.s("@type", "Service")
					}
					ltext(l, "name", off.Name)
					ltext(l, "description", off.Description)
				})
				l.priceSpec("priceSpecification", off.Price)
				if off.Availability == "in_stock" {
					w.s("availability", "https://schema.org/InStock")
				}
				l.areaServed("areaServed", off.ServiceArea)
				if off.Price != nil {
					w.s("daawid:priceKind", string(off.Price.Kind))
				}
				w.s("daawid:audience", string(off.Audience))
				l.leadTime("daawid:typicalLeadTime", off.LeadTime)
				var acts []string
				for _, a := range l.f.enabled {
					for _, id := range a.OfferingIDs {
						if id == off.ID {
							acts = append(acts, a.ID)
						}
					}
				}
				if len(acts) == 1 {
					l.ref("potentialAction", acts[0])
				} else {
					w.arr("potentialAction", func() {
						for _, id := range acts {
							l.ref("", id)
						}
					})
				}
			})
		}
	})
}

var actionLDTypes = map[schemas.ActionType]string{
	schemas.ActionRequestQuote: "Action", schemas.ActionRequestCallback: "CommunicateAction",
	schemas.ActionSendMessage: "CommunicateAction", schemas.ActionRequestAppointment: "ReserveAction",
}

// actions maps enabled actions to potentialAction (LD-54..LD-56).
func (l *ldBuilder) actions() {
	w := &l.w
	w.arr("potentialAction", func() {
		for _, a := range l.f.enabled {
			t, ok := actionLDTypes[a.Type]
			if !ok {
				continue
			}
			w.obj("", func() {
				w.s("@type", t)
				l.id(a.ID)
				ltext(l, "name", a.Name)
				w.s("daawid:actionType", string(a.Type))
				w.b("daawid:requiresUserConfirmation", !a.Handoff())
				w.s("daawid:expectedResponse", a.ExpectedResponse)
				w.arr("target", func() {
					w.obj("", func() {
						w.s("@type", "EntryPoint")
						w.s("urlTemplate", l.site.ActionRunsURL(a.ID))
						w.s("httpMethod", "POST")
						w.s("contentType", "application/json")
					})
					if a.WebForm {
						w.obj("", func() {
							w.s("@type", "EntryPoint")
							w.s("urlTemplate", l.site.ActionFormURL(l.e.Slug, a.ID))
							w.s("actionPlatform", "https://schema.org/DesktopWebPlatform")
						})
					}
				})
			})
		}
	})
}

// faqPages maps FAQs to one FAQPage per language (LD-50, LD-14; decision
// D2): the standalone file has a page for each language an FAQ is written
// in, with plain strings and inLanguage; the embedded one has the page's
// language only.
func (l *ldBuilder) faqPages() {
	e, w := l.e, &l.w
	if len(e.FAQs) == 0 {
		return
	}
	page := func(k, lang string, fallback bool) {
		w.obj(k, func() {
			mark, first := len(w.buf), w.first
			w.s("@type", "FAQPage")
			w.s("inLanguage", lang)
			if !w.arr("mainEntity", func() {
				for _, f := range e.FAQs {
					q, a := f.Question[lang], f.Answer[lang]
					if fallback {
						q, a = f.Question.Resolve(lang, e.DefaultLanguage), f.Answer.Resolve(lang, e.DefaultLanguage)
					}
					if q == "" || a == "" {
						continue
					}
					w.obj("", func() {
						w.s("@type", "Question")
						w.s("name", q)
						w.obj("acceptedAnswer", func() { w.s("@type", "Answer"); w.s("text", a) })
					})
				}
			}) {
				w.rollback(mark, first) // a page without questions is no page
			}
		})
	}
	if l.embedded {
		page("subjectOf", l.lang, true)
		return
	}
	var langs []string
	for _, lang := range e.Languages {
		for _, f := range e.FAQs {
			if f.Question.Has(lang) && f.Answer.Has(lang) {
				langs = append(langs, lang)
				break
			}
		}
	}
	if len(langs) == 1 {
		page("subjectOf", langs[0], false)
		return
	}
	w.arr("subjectOf", func() {
		for _, lang := range langs {
			page("", lang, false)
		}
	})
}

func (l *ldBuilder) capacity() {
	e, w := l.e, &l.w
	if !l.f.capacityActive {
		return // LD-45, LD-61
	}
	c := e.Capacity
	w.obj("daawid:capacity", func() {
		w.s("daawid:capacityStatus", string(c.Status))
		w.s("daawid:nextAvailableFrom", c.NextAvailableFrom)
		l.leadTime("daawid:leadTime", c.LeadTime)
		ltext(l, "daawid:note", c.Note)
		w.s("daawid:asOf", c.AsOf)
		w.s("daawid:expiresAt", c.ExpiresAt)
	})
}

func (l *ldBuilder) policies(withPayment bool) {
	w := &l.w
	w.arr("daawid:policy", func() {
		for i := range l.e.Policies {
			p := &l.e.Policies[i]
			if !schemas.Known(p.Type) || (p.Type == schemas.PolicyPayment && !withPayment) {
				continue
			}
			w.obj("", func() {
				w.s("daawid:policyType", string(p.Type))
				if p.Type == schemas.PolicyPayment {
					w.arr("daawid:methods", func() {
						for _, m := range p.Methods {
							w.s("", string(m))
						}
					})
					w.strs("daawid:currencies", p.Currencies)
				}
				if p.Percent != nil {
					w.f("daawid:percent", *p.Percent)
				}
				if p.Free != nil {
					w.b("daawid:free", *p.Free)
				}
				if p.FreeWithinKm != nil {
					w.f("daawid:freeWithinKm", *p.FreeWithinKm)
				}
				if p.Days > 0 {
					w.i("daawid:days", p.Days)
				}
				l.priceSpec("daawid:price", p.Price)
				ltext(l, "daawid:summary", p.Summary)
			})
		}
	})
}

// routing maps routing rules; notes and decline reasons stay in the
// markdown (LD-52), and targets that are not public are left out.
func (l *ldBuilder) routing() {
	w := &l.w
	public := func(id string) bool {
		for _, c := range l.f.public {
			if c.ID == id {
				return true
			}
		}
		for _, a := range l.f.enabled {
			if a.ID == id {
				return true
			}
		}
		return false
	}
	w.arr("daawid:routing", func() {
		for _, r := range l.e.Routing {
			if !r.Decline && !public(r.RouteTo) {
				continue
			}
			w.obj("", func() {
				w.s("daawid:audience", string(r.Audience))
				w.s("daawid:intent", string(r.Intent))
				if r.Decline {
					w.b("daawid:decline", true)
				} else {
					l.ref("daawid:routeTo", r.RouteTo)
				}
			})
		}
	})
}

func (l *ldBuilder) voice() {
	v, w := l.e.Voice, &l.w
	if v == nil {
		return
	}
	w.obj("daawid:voice", func() {
		w.s("daawid:preferredName", v.PreferredName)
		w.strs("daawid:avoidName", v.AvoidNames)
		w.s("daawid:formality", string(v.Formality))
		w.strs("daawid:tone", v.Tone)
		taggedItems(l, "daawid:emphasis", v.Emphasis)
		if l.e.Kind == schemas.KindPerson {
			ltext(l, "daawid:tagline", v.Tagline)
		}
	})
}
