package query

import (
	"errors"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// RankingPolicyPath is where the ranking policy is published (SEARCH-20).
const RankingPolicyPath = "/docs/ranking"

// Search finds entries (§7.5 "Search", SEARCH-01..35): the same answer
// for GET /v1/search and the MCP search tool. A mistake in the input is
// invalid_input naming each field.
func (r *Read) Search(in schemas.SearchInput) (schemas.SearchOutput, error) {
	site := r.svc.site
	out, err := r.sn.search.Search(in, r.now, search.Options{BaseURL: site.BaseURL, APIURL: site.APIURL, RankingPolicy: site.BaseURL + RankingPolicyPath})
	var bad *search.InputError
	if errors.As(err, &bad) {
		return out, InvalidInput(bad.Issues)
	}
	return out, err
}

// SearchText is a search answer as text: a numbered list (§7.4).
func SearchText(out *schemas.SearchOutput) []byte { return search.Text(out) }

// Browse lists the categories and towns of the entries search finds,
// from the publication's search index (issue 15: the landing page for
// people browses by category and town). With town, only the categories
// of the entries located there; lang names the categories.
func (r *Read) Browse(town, country, lang string) search.Facets {
	return r.sn.search.Browse(town, country, lang)
}
