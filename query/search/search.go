package search

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/daawid/registry/schemas/terms"
	"golang.org/x/text/language"
)

// InputError is a search input with mistakes, each by its field
// (invalid_input, §7.8).
type InputError struct {
	Issues []schemas.FieldIssue
}

func (e *InputError) Error() string {
	var b strings.Builder
	for i, is := range e.Issues {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(is.Field + ": " + is.Message)
	}
	return b.String()
}

func (e *InputError) add(field, format string, args ...any) {
	e.Issues = append(e.Issues, schemas.FieldIssue{Field: field, Message: fmt.Sprintf(format, args...)})
}

// DefaultLimit is the hits of a page when the input names no limit.
const DefaultLimit = 10

// Options are what a search answer needs besides its input.
type Options struct {
	BaseURL       string // entry pages: BaseURL + "/" + slug
	APIURL        string // the REST mirror: APIURL + "/v1/entries/" + id
	RankingPolicy string // SearchOutput.rankingPolicy
}

// Search checks an input, finds its place and runs it (§7.5 "Search").
// now is the request's instant: it dates capacity, openNow and the hour
// whose turns order ties.
func (s *Searcher) Search(in schemas.SearchInput, now time.Time, opt Options) (schemas.SearchOutput, error) {
	q, err := s.Prepare(in, now)
	if err != nil {
		return schemas.SearchOutput{}, err
	}
	found, more := s.Run(q)
	out := schemas.SearchOutput{Hits: make([]schemas.SearchHit, 0, len(found)), RankingPolicy: opt.RankingPolicy}
	for i := range found {
		out.Hits = append(out.Hits, found[i].Hit(q, opt))
	}
	if q.Place != nil {
		m := q.Place
		out.Place = &schemas.SearchPlace{Name: m.Place.Name, Region: m.Place.Region, Country: m.Place.Country,
			PostalCode: m.PostalCode, CorrectedFrom: m.CorrectedFrom}
	}
	if more {
		out.NextCursor = encodeCursor(hashInput(&in), q.Hour, found[len(found)-1].Key)
	}
	return out, nil
}

// Prepare checks an input and makes it a query: every mistake is
// reported by its field.
func (s *Searcher) Prepare(in schemas.SearchInput, now time.Time) (*Query, error) {
	var bad InputError
	q := &Query{Now: now, Hour: now.Unix() / 3600, Limit: DefaultLimit}
	text := strings.TrimSpace(in.Query)
	switch n := utf8.RuneCountInString(text); {
	case !utf8.ValidString(in.Query):
		bad.add("query", "must be UTF-8 text")
	case n == 0:
		bad.add("query", "is required: the user's need in their words, 1 to 200 characters")
	case n > 200:
		bad.add("query", "is %d characters long; at most 200", n)
	}
	if !utf8.ValidString(in.Outcome) || utf8.RuneCountInString(in.Outcome) > 500 {
		bad.add("outcome", "must be UTF-8 text of at most 500 characters")
	}
	if in.Language != "" {
		if _, err := language.Parse(in.Language); err != nil || len(in.Language) > 35 {
			bad.add("language", "must be a BCP 47 language tag like de or pt-BR")
		} else {
			q.Lang = in.Language
		}
	}
	if in.Near != nil {
		n := in.Near
		switch {
		case n.Place != "" && n.PostalCode != "":
			bad.add("near", "give either place, or postalCode with country, not both")
		case n.Place != "" && n.Country != "":
			bad.add("near.country", "goes with postalCode only: narrow a place by what follows a comma (Paris, Texas)")
		case n.Place != "":
			if l := utf8.RuneCountInString(strings.TrimSpace(n.Place)); l < 2 || l > 100 || !utf8.ValidString(n.Place) {
				bad.add("near.place", "must be 2 to 100 characters")
			}
		case n.PostalCode != "":
			if l := utf8.RuneCountInString(strings.TrimSpace(n.PostalCode)); l < 3 || l > 10 || !utf8.ValidString(n.PostalCode) {
				bad.add("near.postalCode", "must be 3 to 10 characters")
			}
			if n.Country == "" {
				bad.add("near.country", "is required with postalCode: there is no default country")
			} else if !isCountry(n.Country) {
				bad.add("near.country", "must be an ISO 3166-1 alpha-2 code like DE")
			}
		case n.Country != "":
			bad.add("near.country", "needs postalCode: a country alone is not a place")
		default:
			bad.add("near", "give place, or postalCode with country")
		}
	}
	if in.RadiusKm != nil {
		r := *in.RadiusKm
		switch {
		case math.IsNaN(r) || r < 1 || r > 200:
			bad.add("radiusKm", "must be from 1 to 200")
		case in.Near == nil:
			bad.add("radiusKm", "needs near: a radius around no place limits nothing")
		default:
			q.RadiusKm = r
		}
	}
	if in.Category != "" {
		if _, ok := taxonomy.Default().Lookup(in.Category); !ok {
			bad.add("category", "%q is neither a category nor a sector code (trades.carpentry, trades)", in.Category)
		}
		q.Category = in.Category
	}
	switch in.Kind {
	case "", schemas.KindOrganization, schemas.KindPerson:
		q.Kind = in.Kind
	default:
		bad.add("kind", "must be organization or person")
	}
	if in.OpenAt != "" {
		t, err := time.Parse(time.RFC3339, in.OpenAt)
		if err != nil {
			bad.add("openAt", "must be a date and time with its offset, like 2026-12-05T10:00:00+01:00")
		}
		q.OpenAt, q.HasOpenAt = t, err == nil
	}
	q.AcceptingWork = in.AcceptingWork != nil && *in.AcceptingWork
	q.VerifiedOnly = in.VerifiedOnly
	switch {
	case in.Limit == 0:
	case in.Limit < 1 || in.Limit > 20:
		bad.add("limit", "must be from 1 to 20")
	default:
		q.Limit = in.Limit
	}
	if in.Cursor != "" {
		hour, k, err := decodeCursor(in.Cursor, hashInput(&in))
		if err != nil {
			bad.add("cursor", "%v", err)
		} else {
			q.Hour, q.After = hour, &k
		}
	}
	if len(bad.Issues) > 0 {
		return nil, &bad
	}
	q.Words = queryWords(text, q.Lang)
	q.Outcome = queryWords(in.Outcome, q.Lang)
	if in.Near != nil {
		s.near(q, in.Near)
	}
	return q, nil
}

// queryWords are a text's folded words without stop words, or with them
// when it has nothing else; at most maxWords.
func queryWords(text, lang string) []string {
	all := terms.Words(text)
	var out []string
	for _, w := range all {
		if !terms.Stop(lang, w) && !contains(out, w) {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		for _, w := range all {
			if !contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out[:min(len(out), maxWords)]
}

func contains(list []string, w string) bool {
	for _, v := range list {
		if v == w {
			return true
		}
	}
	return false
}

// near finds the place: a postal code in its country, or a town by name
// (never read as a misspelling when an entry names it). A place nobody
// knows is matched by the names entries give.
func (s *Searcher) near(q *Query, n *schemas.Near) {
	if n.PostalCode != "" {
		if s.Gaz != nil {
			if m, ok := s.Gaz.FindPostal(n.Country, n.PostalCode); ok {
				q.Place = &m
				q.Postal = compactCode(m.PostalCode)
				if q.Postal == "" {
					q.Postal = compactCode(n.PostalCode)
				}
				return
			}
		}
		// A code the gazetteer does not know: entries with a code that
		// starts with it, and near the first of them that has a point
		// (its town's, at its point), so that the rest comes nearest
		// first (D126); without one, no place to be near.
		q.Postal, q.Country = compactCode(n.PostalCode), n.Country
		if m, ok := s.postalOfEntries(q.Country, q.Postal, strings.ToUpper(strings.TrimSpace(n.PostalCode))); ok {
			q.Place = &m
		}
		return
	}
	if s.Gaz != nil {
		if m, ok := s.Gaz.Find(n.Place, s.Knows); ok {
			q.Place = &m
			return
		}
	}
	name := n.Place
	if i := strings.IndexByte(name, ','); i >= 0 {
		name = name[:i]
	}
	q.PlaceName = terms.Fold(name)
}

// postalOfEntries is the place of a postal code the gazetteer does not
// know, from the entries that give a code starting with it (the latest
// layer's first): the location's town as the gazetteer finds it by name
// in its country (else a place of the locality's name), at the
// location's point. written is the code as the query wrote it.
func (s *Searcher) postalOfEntries(country, code, written string) (m places.Match, found bool) {
	for li := len(s.Layers) - 1; li >= 0 && !found; li-- {
		ix := s.Layers[li]
		if ix == nil {
			continue
		}
		ix.postalFrom(country, code, func(at int32) bool {
			if at < 0 || int(at) >= len(ix.ents) || heldBy(s.Layers[li+1:], ix.hashes[at], ix.bytes(ix.ents[at].id)) {
				return true // replaced or hidden by a later layer
			}
			e := &ix.ents[at]
			for _, loc := range ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
				if !loc.hasPoint || string(loc.country[:]) != country || !strings.HasPrefix(ix.str(loc.postal), code) {
					continue
				}
				p := places.Place{Name: ix.str(loc.locality), Country: country}
				if s.Gaz != nil {
					if t, ok := s.Gaz.Find(p.Name+", "+country, nil); ok && t.Place.Country == country && t.CorrectedFrom == "" {
						p = t.Place
					}
				}
				p.Lat, p.Lng = float64(loc.lat), float64(loc.lng)
				m, found = places.Match{Place: p, PostalCode: written}, true
				return false
			}
			return true
		})
	}
	return m, found
}

func isCountry(c string) bool {
	return len(c) == 2 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z'
}
