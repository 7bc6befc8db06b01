package render

import (
	"slices"

	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/terms"
)

// Searchable reports whether search may find an entry: listed, and not
// suspended (SEARCH-35, D72). Removed entries have no revision to publish.
func Searchable(e *schemas.Entry) bool {
	return e.Listed && e.Status != schemas.StatusSuspended
}

// SearchRecord is an entry's search record (schemas.SearchRecord), made
// from its views in every language (the default first, as Documents
// returns them), so it holds only what the views show. ok is false for an
// entry search never finds.
func SearchRecord(e *schemas.Entry, views []schemas.EntryView) (schemas.SearchRecord, bool) {
	if !Searchable(e) || len(views) == 0 {
		return schemas.SearchRecord{}, false
	}
	v := &views[0]
	r := schemas.SearchRecord{
		ID: v.ID, Slug: v.Slug, Kind: v.Kind, Status: v.Status,
		VerificationLevel: v.Verification.Level, DefaultLanguage: v.Language,
		Categories: slices.Clone(v.Categories),
	}
	var strong, weak []string
	for i := range views {
		lv := &views[i]
		lang := lv.Language
		if i == 0 || lv.DisplayName != v.DisplayName {
			r.Names = append(r.Names, schemas.LangText{Lang: lang, Text: lv.DisplayName})
		}
		if lv.Summary != "" && (i == 0 || lv.Summary != v.Summary) {
			r.Summaries = append(r.Summaries, schemas.LangText{Lang: lang, Text: lv.Summary})
		}
		strong = terms.Index(strong, lang, lv.DisplayName)
		for _, n := range lv.AlternateNames {
			strong = terms.Index(strong, lang, n)
		}
		weak = terms.Index(weak, lang, lv.Summary)
		weak = terms.Index(weak, lang, lv.Description)
		for _, o := range lv.Offerings {
			strong = terms.Index(strong, lang, o.Name)
			strong = terms.Index(strong, lang, o.ShortName)
			weak = terms.Index(weak, lang, o.Description)
		}
	}
	for i, l := range v.Locations {
		if l.ID == v.PrimaryLocationID {
			r.PrimaryLocation = i
		}
		weak = terms.Index(weak, "", l.Address.Locality)
		sl := schemas.SearchLocation{
			ID: l.ID, Locality: l.Address.Locality, PostalCode: l.Address.PostalCode,
			Region: l.Address.Region, Country: l.Address.Country, TimeZone: l.TimeZone,
			Hours: l.Hours, Exceptions: l.HoursExceptions,
		}
		if l.Geo != nil {
			g := *l.Geo
			sl.Geo = &g
		}
		r.Locations = append(r.Locations, sl)
	}
	if sa := v.ServiceArea; sa != nil {
		r.ServiceArea = &schemas.ServiceArea{Radius: sa.Radius, Places: sa.Places, Anywhere: sa.Anywhere}
	}
	if c := v.Capacity; c != nil {
		r.CapacityStatus, r.CapacityExpiresAt = c.Status, c.ExpiresAt
	}
	r.Strong = strong
	r.Weak = slices.DeleteFunc(weak, func(w string) bool { _, found := slices.BinarySearch(strong, w); return found })
	if len(r.Weak) == 0 {
		r.Weak = nil
	}
	return r, true
}

// Card is an entry's card in one language (schemas.EntryCard), made from
// its view: the entry data the MCP Apps card shows, and nothing a model
// wrote (MCP-70).
func Card(v *schemas.EntryView) schemas.EntryCard {
	c := schemas.EntryCard{ID: v.ID, Slug: v.Slug, Language: v.Language, DisplayName: v.DisplayName, Summary: v.Summary,
		Status: v.Status, VerificationLevel: v.Verification.Level, Links: v.Links}
	for _, l := range v.Locations {
		if c.Locality == "" || l.ID == v.PrimaryLocationID {
			c.Locality = l.Address.Locality
		}
	}
	for _, cp := range v.ContactPoints {
		if c.Phone == "" {
			c.Phone = cp.Phone
		}
		if c.Email == "" {
			c.Email = cp.Email
		}
	}
	if b := v.Brand; b != nil {
		c.Logo, c.Colors = b.Logo, b.Colors
	}
	return c
}
