package blevepeer

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/daawid/registry/query/search"
)

// PlaceRadius is how far around a place's point the peer looks: a town
// and its edge. Ours never leaves an entry out for its distance without
// radiusKm (SEARCH-29: farther entries are tier 3), so the peer answers
// fewer hits for a place; the benchmark counts queries with a hit.
const PlaceRadius = "25km"

// Peer is an opened Bleve index of search records.
type Peer struct {
	ix bleve.Index
}

// Open opens the index a Builder wrote in dir.
func Open(dir string) (*Peer, error) {
	ix, err := bleve.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("bleve open %s: %w", dir, err)
	}
	return &Peer{ix: ix}, nil
}

// Close closes the index.
func (p *Peer) Close() error { return p.ix.Close() }

// Search runs q, a query our Searcher prepared (its words folded, its
// place found by our gazetteer), as a Bleve query and returns the IDs
// of the first q.Limit hits, best first.
func (p *Peer) Search(q *search.Query) ([]string, error) {
	req := bleve.NewSearchRequestOptions(Translate(q), q.Limit, 0, false)
	res, err := p.ix.Search(req)
	if err != nil {
		return nil, fmt.Errorf("bleve search: %w", err)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// Translate is q as a Bleve query: a conjunction of the words, the place
// and the filters.
func Translate(q *search.Query) bq.Query {
	var must []bq.Query
	if w := words(q.Words); w != nil {
		must = append(must, w)
	}
	switch {
	case q.Postal != "":
		// A postal code: the entries whose code starts with it, in its
		// country (ours: tier 1 for a code found, or the only way for a
		// code the gazetteer does not know).
		must = append(must, field(bleve.NewPrefixQuery(q.Postal), fieldPostal))
		country := q.Country
		if q.Place != nil {
			country = q.Place.Place.Country
		}
		if country != "" {
			must = append(must, term(fieldCountry, country))
		}
	case q.Place != nil:
		g := bleve.NewGeoDistanceQuery(q.Place.Place.Lng, q.Place.Place.Lat, PlaceRadius)
		g.SetField(fieldPoint)
		must = append(must, g)
	case q.PlaceName != "":
		must = append(must, field(bleve.NewMatchQuery(q.PlaceName), fieldLocality))
	}
	if q.Category != "" {
		must = append(must, term(fieldCategory, q.Category))
	}
	if q.Kind != "" {
		must = append(must, term(fieldKind, string(q.Kind)))
	}
	if q.VerifiedOnly {
		must = append(must, term(fieldVerified, "true"))
	}
	if q.AcceptingWork {
		must = append(must, term(fieldAccepting, "true"))
	}
	if q.HasOpenAt {
		must = append(must, term(fieldOpen, slot(q.OpenAt)))
	}
	if len(must) == 0 {
		return bleve.NewMatchNoneQuery()
	}
	return bleve.NewConjunctionQuery(must...)
}

// words is the query's words: each in any text field, a name's or a
// category word's counting double (docs/search.md "Fit"), and half the
// words needed, rounded up, never more than two ("Needed words").
func words(ws []string) bq.Query {
	if len(ws) == 0 {
		return nil
	}
	var each []bq.Query
	for _, w := range ws {
		var fields []bq.Query
		for _, f := range []struct {
			name  string
			boost float64
		}{{fieldName, 2}, {fieldCategories, 2}, {fieldSummary, 1}, {fieldLocality, 1}} {
			m := bleve.NewMatchQuery(w)
			m.SetField(f.name)
			m.SetBoost(f.boost)
			fields = append(fields, m)
		}
		each = append(each, bleve.NewDisjunctionQuery(fields...))
	}
	if len(each) == 1 {
		return each[0]
	}
	d := bleve.NewDisjunctionQuery(each...)
	d.SetMin(float64(min(2, (len(each)+1)/2)))
	return d
}

func term(f, v string) bq.Query {
	t := bleve.NewTermQuery(v)
	t.SetField(f)
	return t
}

// field sets the field of a query that has one.
func field[Q interface{ SetField(string) }](q Q, f string) Q {
	q.SetField(f)
	return q
}
