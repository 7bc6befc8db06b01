package rest

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/counting"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// cacheSearch is a search answer's Cache-Control (REST-35).
const cacheSearch = "public, max-age=60"

// searchParams are the REST names of SearchInput's fields (REST-08): an
// issue about a field is reported under the parameter the caller sent.
var searchParams = map[string]string{
	"query": "q", "near": "place", "near.place": "place", "near.postalCode": "postalCode",
	"near.country": "country", "language": "lang",
}

// search: GET /v1/search?q=&outcome=&place=&postalCode=&country=&radiusKm=
// &category=&kind=&openAt=&acceptingWork=&verifiedOnly=&lang=&limit=&cursor=
// (REST-08), Service.Search's answer as JSON. Unknown parameters are
// ignored (REST-02).
func (s *Server) search(c *gin.Context, rd *query.Read) error {
	if err := s.readAllowed(c); err != nil {
		return err
	}
	in, page, bad := searchInput(c)
	if len(bad) > 0 {
		return query.InvalidInput(bad)
	}
	out, err := rd.Search(in)
	if err != nil {
		if e, ok := query.AsError(err); ok && e.Code == query.CodeInvalidInput {
			issues := slices.Clone(e.Issues)
			for i := range issues {
				if p, ok := searchParams[issues[i].Field]; ok {
					issues[i].Field = p
				}
			}
			return query.InvalidInput(issues)
		}
		return err
	}
	body, err := json.Marshal(out)
	if err != nil {
		return err
	}
	s.apiHeaders(c)
	h := c.Writer.Header()
	h.Set("Cache-Control", cacheSearch)
	h.Set("Access-Control-Expose-Headers", "Retry-After, X-Trace-Id")
	if s.cfg.Counter != nil && c.Request.Method == "GET" {
		l := counting.SearchLog{At: s.cfg.Now(), Category: s.category(c.Request), Query: in.Query, CategoryCode: in.Category,
			Kind: string(in.Kind), Language: in.Language, OpenAt: in.OpenAt, AcceptingWork: in.AcceptingWork, Limit: in.Limit, Page: page, Hits: len(out.Hits)}
		if in.Near != nil {
			l.Place, l.PostalCode, l.Country = in.Near.Place, in.Near.PostalCode, in.Near.Country
		}
		if in.RadiusKm != nil {
			l.RadiusKm = *in.RadiusKm
		}
		if in.VerifiedOnly {
			l.VerifiedOnly = &in.VerifiedOnly
		}
		s.cfg.Counter.Search(l)
	}
	body = append(body, '\n')
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.Writer.WriteHeader(200)
	if c.Request.Method != "HEAD" {
		c.Writer.Write(body)
	}
	return nil
}

// offsetPlus gives back the plus of an openAt offset that a URL left
// unescaped and form decoding turned into a space (REST-20): a space
// where the offset's sign stands ("…T10:00:00 01:00") can only have been
// a plus, since a minus survives decoding. Any other space is left for
// validation to refuse.
func offsetPlus(s string) string {
	if n := len(s); n >= 6 && s[n-6] == ' ' && s[n-3] == ':' {
		return s[:n-6] + "+" + s[n-5:]
	}
	return s
}

// searchInput reads the query string; bad holds the parameters that are
// not numbers or booleans where they must be. page is 1, or 2 and on
// with a cursor (the search log's page; a cursor does not say which).
func searchInput(c *gin.Context) (in schemas.SearchInput, page int, bad []query.Issue) {
	in = schemas.SearchInput{Query: c.Query("q"), Outcome: c.Query("outcome"), Category: c.Query("category"),
		Kind: schemas.EntryKind(c.Query("kind")), OpenAt: offsetPlus(c.Query("openAt")), Language: c.Query("lang"), Cursor: c.Query("cursor")}
	place, postal, country := c.Query("place"), c.Query("postalCode"), c.Query("country")
	if place != "" || postal != "" || country != "" {
		in.Near = &schemas.Near{Place: place, PostalCode: postal, Country: strings.ToUpper(country)}
	}
	if v, ok := c.GetQuery("radiusKm"); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			bad = append(bad, query.Issue{Field: "radiusKm", Message: "must be a number of kilometres from 1 to 200"})
		} else {
			in.RadiusKm = &f
		}
	}
	if v, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 20 {
			bad = append(bad, query.Issue{Field: "limit", Message: "must be a whole number from 1 to 20"})
		} else {
			in.Limit = n
		}
	}
	for _, p := range []struct {
		name string
		set  func(bool)
	}{
		{"acceptingWork", func(b bool) { in.AcceptingWork = &b }},
		{"verifiedOnly", func(b bool) { in.VerifiedOnly = b }},
	} {
		if v, ok := c.GetQuery(p.name); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				bad = append(bad, query.Issue{Field: p.name, Message: "must be true or false"})
			} else {
				p.set(b)
			}
		}
	}
	page = 1
	if in.Cursor != "" {
		page = 2
	}
	return in, page, bad
}
