package render

import (
	"encoding/json"

	"github.com/daawid/registry/schemas"
)

// View derives the EntryView of §6 in lang. sections, when not nil, keeps
// only those sections (get_entry_sections, REST sections=); the identity
// fields, record, verification level, provenance and links are always there
// (VIEW-06). A suspended entry shows only what says which entry it is
// (VIEW-24, decision D35).
func View(e *schemas.Entry, lang string, site Site, sections []schemas.SectionKey) schemas.EntryView {
	return view(e, lang, site, sections, nil)
}

func view(e *schemas.Entry, lang string, site Site, sections []schemas.SectionKey, f *facts) schemas.EntryView {
	b := newBuilder(e, lang, site, f)
	// The whole view is built, then cut to the sections asked for, by the
	// same function the server cuts a published view with (SelectView).
	want := func(string) bool { return true }
	v := schemas.EntryView{
		ID:                 e.ID,
		Slug:               e.Slug,
		Kind:               e.Kind,
		Status:             e.Status,
		Language:           lang,
		AvailableLanguages: e.Languages,
		Record:             schemas.RecordView{Revision: e.Record.Revision},
		Verification:       schemas.VerificationView{Level: e.Verification.Level},
		DisplayName:        e.DisplayName,
		Links:              schemas.Links{HTML: HTMLPageURL(site, e, lang)},
	}
	if e.Status == schemas.StatusSuspended {
		return v
	}
	v.Record = schemas.RecordView{Revision: e.Record.Revision, CreatedAt: e.Record.CreatedAt, UpdatedAt: e.Record.UpdatedAt, LastConfirmedAt: e.Record.LastConfirmedAt}
	v.Verification = schemas.VerificationView{Level: e.Verification.Level, Domains: e.Verification.Domains,
		ContactConfirmedAt: e.Verification.ContactConfirmedAt, LapsedAt: e.Verification.LapsedAt}
	v.Summary = tr(b, e.Summary)
	v.Links.Markdown = MarkdownURL(site, e, lang)
	v.Links.JSONLD = site.PageURL(e.Slug) + ".json"
	v.Links.Legal = LegalURL(site, e)
	v.Links.Privacy = PrivacyURL(site, e)
	v.Provenance = e.Provenance
	if want("facts") {
		v.AlternateNames = e.AlternateNames
		v.Description = tr(b, e.Description)
		v.Categories = e.Categories
		v.NACECodes = e.NACECodes
		v.FoundingYear = e.FoundingYear
		v.Employees = e.Employees
		v.LanguagesSpoken = e.LanguagesSpoken
		verified := map[string]bool{}
		for _, h := range b.f.verifiedHosts {
			verified[h] = true
		}
		for _, d := range e.Domains {
			v.Domains = append(v.Domains, schemas.DomainView{Host: d.Host, Primary: d.Primary, Verified: verified[d.Host]})
		}
		v.Profiles = e.Profiles
		v.ServiceArea = b.serviceAreaView(e.ServiceArea)
	}
	if want("facts") || want("hours") {
		v.PrimaryLocationID = e.PrimaryLocationID
		for _, l := range e.Locations {
			v.Locations = append(v.Locations, b.locationView(l))
		}
	}
	if want("offerings") {
		seen := map[string]bool{}
		for _, o := range e.Offerings {
			v.Offerings = append(v.Offerings, b.offeringView(o))
			for _, id := range o.MediaIDs {
				if m := b.f.mediaItem(id); m != nil && !seen[id] {
					seen[id] = true
					v.Media = append(v.Media, b.mediaView(*m))
				}
			}
		}
	}
	if want("capacity") && b.f.capacityActive {
		c := e.Capacity
		v.Capacity = &schemas.CapacityView{Status: c.Status, NextAvailableFrom: c.NextAvailableFrom, LeadTime: c.LeadTime,
			Note: tr(b, c.Note), AsOf: c.AsOf, ExpiresAt: c.ExpiresAt}
	}
	if want("contact") {
		for _, c := range b.publicContactPoints() {
			v.ContactPoints = append(v.ContactPoints, schemas.ContactPointView{ID: c.ID, Name: c.Name, Purposes: c.Purposes,
				Phone: c.Phone, Email: c.Email, Languages: c.Languages, Hours: c.Hours, ResponseTime: c.ResponseTime})
		}
		for _, r := range e.Routing {
			if !r.Decline {
				if _, ok := b.routeTarget(r.RouteTo); !ok {
					continue
				}
			}
			v.Routing = append(v.Routing, schemas.RoutingView{Audience: r.Audience, Intent: r.Intent, RouteTo: r.RouteTo, Decline: r.Decline, Note: tr(b, r.Note)})
		}
		v.AgentPolicy = e.AgentPolicy
	}
	if want("actions") {
		for _, a := range b.enabledActions() {
			v.Actions = append(v.Actions, b.actionView(a))
		}
	}
	if want("policies") {
		for _, p := range e.Policies {
			v.Policies = append(v.Policies, schemas.PolicyView{Type: p.Type, Methods: p.Methods, Currencies: p.Currencies, Percent: p.Percent,
				Free: p.Free, FreeWithinKm: p.FreeWithinKm, Days: p.Days, Price: b.priceView(p.Price), Summary: tr(b, p.Summary)})
		}
	}
	if want("credentials") {
		for _, c := range b.f.credentials {
			v.Credentials = append(v.Credentials, schemas.CredentialView{ID: c.ID, Type: c.Type, Name: c.Name, Issuer: c.Issuer,
				Status: c.Status, ValidFrom: c.ValidFrom, ValidUntil: c.ValidUntil})
		}
	}
	if want("faqs") {
		for _, f := range e.FAQs {
			v.FAQs = append(v.FAQs, schemas.FAQView{Question: tr(b, f.Question), Answer: tr(b, f.Answer)})
		}
	}
	if want("voice") && e.Voice != nil {
		vo := e.Voice
		vv := &schemas.VoiceView{PreferredName: vo.PreferredName, AvoidNames: vo.AvoidNames, Formality: vo.Formality, Tone: vo.Tone, Tagline: tr(b, vo.Tagline)}
		for _, em := range vo.Emphasis {
			vv.Emphasis = append(vv.Emphasis, tr(b, em))
		}
		v.Voice = vv
	}
	if want("brand") {
		v.Brand = BrandKit(e, lang, site)
	}
	if want("legal") && e.Operator != nil {
		op := *e.Operator
		if e.Status == schemas.StatusUnclaimed {
			// Unclaimed entries show register data only (MD-40).
			op = schemas.Operator{LegalName: op.LegalName, LegalForm: op.LegalForm, Address: op.Address, Register: op.Register}
		}
		v.Operator = &op
	}
	if sections != nil {
		SelectView(&v, sections)
	}
	return v
}

// ViewJSON is the EntryView as JSON bytes.
func ViewJSON(e *schemas.Entry, lang string, site Site, sections []schemas.SectionKey) []byte {
	v := View(e, lang, site, sections)
	out, err := json.Marshal(v)
	if err != nil {
		panic("render: EntryView does not marshal: " + err.Error()) // only our own types are in it
	}
	return append(out, '\n')
}

func (b *builder) locationView(l schemas.Location) schemas.LocationView {
	lv := schemas.LocationView{ID: l.ID, Name: l.Name, Address: l.Address, AddressDisplay: l.AddressDisplay, Geo: l.Geo,
		TimeZone: l.TimeZone, Visits: l.Visits, Hours: l.Hours}
	if l.AddressDisplay == schemas.DisplayLocalityOnly {
		lv.Address.Street, lv.Address.Extra, lv.Geo = "", "", nil // I15
	}
	for _, x := range l.HoursExceptions {
		lv.HoursExceptions = append(lv.HoursExceptions, schemas.HoursExceptionView{From: x.From, To: x.To, Closed: x.Closed,
			Opens: x.Opens, Closes: x.Closes, Note: tr(b, x.Note)})
	}
	return lv
}

func (b *builder) serviceAreaView(sa *schemas.ServiceArea) *schemas.ServiceAreaView {
	if sa == nil {
		return nil
	}
	return &schemas.ServiceAreaView{Radius: sa.Radius, Places: sa.Places, Anywhere: sa.Anywhere}
}

func (b *builder) priceView(p *schemas.Price) *schemas.PriceView {
	if p == nil {
		return nil
	}
	return &schemas.PriceView{Kind: p.Kind, Amount: p.Amount, Min: p.Min, Max: p.Max, Currency: p.Currency, Unit: p.Unit,
		VATIncluded: p.VATIncluded, Note: tr(b, p.Note)}
}

func (b *builder) offeringView(o schemas.Offering) schemas.OfferingView {
	ov := schemas.OfferingView{ID: o.ID, Kind: o.Kind, Name: tr(b, o.Name), ShortName: tr(b, o.ShortName), Description: tr(b, o.Description),
		Category: o.Category, Audience: o.Audience, Price: b.priceView(o.Price), LeadTime: o.LeadTime, Availability: o.Availability,
		ServiceArea: b.serviceAreaView(o.ServiceArea), MediaIDs: o.MediaIDs}
	for _, a := range b.enabledActions() {
		for _, id := range a.OfferingIDs {
			if id == o.ID {
				ov.ActionIDs = append(ov.ActionIDs, a.ID)
			}
		}
	}
	return ov
}

func (b *builder) mediaView(m schemas.Media) schemas.MediaView {
	return schemas.MediaView{ID: m.ID, URL: m.URL, EncodingFormat: m.EncodingFormat, Width: m.Width, Height: m.Height,
		Caption: tr(b, m.Caption), Alt: tr(b, m.Alt)}
}

// BrandKit derives the BrandKitView (VIEW-28..VIEW-31); nil when the entry
// declares no brand.
func BrandKit(e *schemas.Entry, lang string, site Site) *schemas.BrandKitView {
	br := e.Brand
	if br == nil || e.Status == schemas.StatusSuspended {
		return nil
	}
	b := newBuilder(e, lang, site, nil)
	k := &schemas.BrandKitView{Colors: br.Colors, Corners: br.Corners}
	if m := b.f.mediaItem(br.Logo); m != nil {
		mv := b.mediaView(*m)
		k.Logo = &mv
	}
	for _, id := range br.Imagery {
		if m := b.f.mediaItem(id); m != nil {
			k.Imagery = append(k.Imagery, b.mediaView(*m))
		}
	}
	if f := br.Fonts; f != nil {
		fv := &schemas.BrandFontsView{}
		if f.Headings != nil {
			fv.Headings = &schemas.FontView{Family: f.Headings.Family, Stack: `"` + f.Headings.Family + `", Georgia, serif`, CSSURL: FontCSSURL(site, f.Headings.Family)}
		}
		if f.Body != nil {
			fv.Body = &schemas.FontView{Family: f.Body.Family, Stack: `"` + f.Body.Family + `", system-ui, sans-serif`, CSSURL: FontCSSURL(site, f.Body.Family)}
		}
		k.Fonts = fv
	}
	return k
}

func (b *builder) actionView(a schemas.Action) schemas.ActionView {
	av := schemas.ActionView{ID: a.ID, Type: a.Type, Name: tr(b, a.Name), OfferingIDs: a.OfferingIDs, RequireFields: a.RequireFields,
		ServiceAreaOnly: a.ServiceAreaOnly, ExpectedResponse: a.ExpectedResponse, Handoff: a.Handoff(), Tool: string(a.Type),
		InputSchema: InputSchema(b.e, a, b.lang), Rest: b.site.ActionRunsURL(a.ID)}
	for _, q := range a.Questions {
		qv := schemas.QuestionView{Key: q.Key, Label: tr(b, q.Label), Type: q.Type, Required: q.Required}
		for _, o := range q.Options {
			qv.Options = append(qv.Options, schemas.QuestionOptionView{Value: o.Value, Label: tr(b, o.Label)})
		}
		av.Questions = append(av.Questions, qv)
	}
	if a.WebForm {
		av.Form = b.site.ActionFormURL(b.e.Slug, a.ID)
	}
	return av
}
