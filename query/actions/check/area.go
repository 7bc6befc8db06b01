package check

import (
	"slices"
	"strings"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// spareKm is the room §7.6 gives a service area before a postal code
// counts as outside it: a radius grows by it, and a named town reaches
// this far around its point.
const spareKm = 10

// areaOf is the service area a request is checked against: its
// offering's own, else the entry's (D26).
func areaOf(e *schemas.Entry, req *Request) *schemas.ServiceArea {
	if o := e.Offering(req.OfferingID); o != nil && o.ServiceArea != nil {
		return o.ServiceArea
	}
	return e.ServiceArea
}

// areaWords say where the entry works, as its markdown does.
func areaWords(e *schemas.Entry, sa *schemas.ServiceArea) string {
	return render.ServiceAreaText(e, sa)
}

// countries are the countries a postal code of a request may be meant in:
// those of the entry's locations, its operator and the places its area
// names. The request has no country of its own.
func countries(e *schemas.Entry, sa *schemas.ServiceArea) []string {
	var out []string
	add := func(c string) {
		c = strings.ToUpper(strings.TrimSpace(c))
		if len(c) == 2 && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, l := range e.Locations {
		add(l.Address.Country)
	}
	add(e.OperatorCountry())
	if sa != nil {
		for _, p := range sa.Places {
			add(p.Country)
		}
	}
	return out
}

// placeCode finds a request's postal code in the first of the entry's
// countries that knows it, for the summary's town.
func placeCode(e *schemas.Entry, req *Request, env Env) (places.Match, bool) {
	if env.Places == nil {
		return places.Match{}, false
	}
	for _, c := range countries(e, areaOf(e, req)) {
		if m, ok := env.Places.FindPostal(c, req.PostalCode); ok && m.Place.Name != "" {
			return m, true
		}
	}
	return places.Match{}, false
}

// outside reports whether a postal code lies outside a service area, as
// §7.6 step 1 decides it (ACT-31, ACT-32): only when the gazetteer knows
// the code and its town in every country the code may be meant in, knows
// every part of the area, and the code lies in none of them with spareKm
// to spare. Anything unknown lets the request through: the business
// judges. place is the code's town, for the answer.
func outside(e *schemas.Entry, sa *schemas.ServiceArea, code string, env Env) (bool, string) {
	g := env.Places
	if g == nil || sa == nil || sa.Anywhere {
		return false, ""
	}
	cs := countries(e, sa)
	if len(cs) == 0 {
		return false, ""
	}
	var town string
	for _, c := range cs {
		m, ok := g.FindPostal(c, code)
		if !ok || m.Place.Name == "" || m.Place.Country == "" {
			return false, "" // a code Daawid doesn't know goes through
		}
		if inArea(g, e, sa, m) != areaOutside {
			return false, ""
		}
		if town == "" {
			town = m.Place.Name
		}
	}
	return true, town
}

type areaAnswer int

const (
	areaOutside areaAnswer = iota
	areaInside
	areaUnknown
)

// inArea places a postal code's match against every part of the area:
// inside when one part holds it, unknown when no part does but one can't
// be placed, else outside. The entry's own locations hold what lies
// within spareKm of them, as the service area is where the entry works
// besides its locations; a location Daawid can't place is no part of the
// area, so it adds no doubt.
func inArea(g *places.Gazetteer, e *schemas.Entry, sa *schemas.ServiceArea, m places.Match) areaAnswer {
	p := m.Place
	near := func(lat, lng, km float64) bool { return places.DistanceKm(p.Lat, p.Lng, lat, lng) <= km }
	for i := range e.Locations {
		if t, ok := locationPoint(g, &e.Locations[i]); ok && (near(t.Lat, t.Lng, spareKm) || (t.ID != 0 && t.ID == p.ID)) {
			return areaInside
		}
	}
	answer := areaOutside
	if r := sa.Radius; r != nil {
		if c, ok := radiusCenter(g, e, r); !ok {
			answer = areaUnknown
		} else if near(c.Lat, c.Lng, r.Km+spareKm) {
			return areaInside
		}
	}
	for _, sp := range sa.Places {
		switch sp.Type {
		case "city":
			if sp.GeonamesID != 0 && int64(sp.GeonamesID) == p.ID {
				return areaInside
			}
			t, ok := town(g, sp.Name, sp.Country)
			if !ok {
				answer = areaUnknown
				continue
			}
			if t.ID == p.ID || near(t.Lat, t.Lng, spareKm) {
				return areaInside
			}
		case "administrative_area":
			keys := g.RegionKeys(sp.Name, sp.Country)
			if len(keys) == 0 || p.RegionKey == "" {
				answer = areaUnknown
				continue
			}
			if slices.Contains(keys, p.RegionKey) {
				return areaInside
			}
		case "country":
			c := sp.Country
			if c == "" && len(sp.Name) == 2 {
				c = strings.ToUpper(sp.Name)
			}
			if c == "" {
				answer = areaUnknown
				continue
			}
			if c == p.Country {
				return areaInside
			}
		default:
			answer = areaUnknown // a kind of place this version doesn't know
		}
	}
	return answer
}

// town finds a named town, in its country when the area names one; a
// name read as a misspelling is not taken.
func town(g *places.Gazetteer, name, country string) (places.Place, bool) {
	q := name
	if country != "" {
		q += ", " + country
	}
	m, ok := g.Find(q, nil)
	if !ok || m.CorrectedFrom != "" || (country != "" && m.Place.Country != country) {
		return places.Place{}, false
	}
	return m.Place, true
}

// locationPoint places a location by the point it states, else its postal
// code, else its town, as search does (SEARCH-23).
func locationPoint(g *places.Gazetteer, l *schemas.Location) (places.Place, bool) {
	if l.Geo != nil {
		return places.Place{Lat: l.Geo.Lat, Lng: l.Geo.Lng}, true
	}
	if l.Address.PostalCode != "" {
		if m, ok := g.FindPostal(l.Address.Country, l.Address.PostalCode); ok {
			return m.Place, true
		}
	}
	return town(g, l.Address.Locality, l.Address.Country)
}

// radiusCenter is a radius's centre: one of the entry's locations, or a
// point or a town it names.
func radiusCenter(g *places.Gazetteer, e *schemas.Entry, r *schemas.ServiceRadius) (places.Place, bool) {
	switch {
	case r.Center.LocationID != "":
		if l := e.Location(r.Center.LocationID); l != nil {
			return locationPoint(g, l)
		}
	case r.Center.Geo != nil:
		return places.Place{Lat: r.Center.Geo.Lat, Lng: r.Center.Geo.Lng}, true
	case r.Center.Place != "":
		return town(g, r.Center.Place, "")
	}
	return places.Place{}, false
}
