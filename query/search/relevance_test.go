package search_test

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// relevanceCase is one query of testdata/relevance.json: written from
// docs/search.md before the ranking was tuned, each with what must come
// first.
type relevanceCase struct {
	ID       string              `json:"id"`
	Covers   []string            `json:"covers"`
	Note     string              `json:"note"`
	Now      string              `json:"now"`
	Input    schemas.SearchInput `json:"input"`
	First    []string            `json:"first"`
	Order    []string            `json:"order"`
	Includes []string            `json:"includes"`
	Excludes []string            `json:"excludes"`
	Count    *int                `json:"count"`
	Place    map[string]string   `json:"place"`
	NoPlace  bool                `json:"noPlace"`
	Error    string              `json:"error"`
}

var registry = sync.OnceValue(func() []*schemas.Entry {
	return append(fixtureEntries(), generatedEntries()...)
})

// allHits pages through a search (up to 200 hits), following nextCursor.
func allHits(t *testing.T, s *search.Searcher, in schemas.SearchInput, now time.Time) (schemas.SearchOutput, []schemas.SearchHit, error) {
	t.Helper()
	first, err := s.Search(in, now, opts)
	if err != nil {
		return first, nil, err
	}
	hits := slices.Clone(first.Hits)
	out := first
	for out.NextCursor != "" && len(hits) < 200 {
		in.Cursor = out.NextCursor
		if out, err = s.Search(in, now, opts); err != nil {
			t.Fatalf("page after %d hits: %v", len(hits), err)
		}
		hits = append(hits, out.Hits...)
	}
	return first, hits, nil
}

// TestRelevance runs the relevance test set (SEARCH-01..35): every case
// must pass, whichever way tier 1 is weighed.
func TestRelevance(t *testing.T) {
	for _, path := range []struct {
		name string
		p    int
	}{{"chosen", 0}, {"lookup", 1}, {"postings", 2}, {"walk", 3}} {
		t.Run(path.name, func(t *testing.T) {
			search.SetWeighPath(path.p)
			defer search.SetWeighPath(0)
			relevance(t)
		})
	}
}

// relevanceSet is testdata/relevance.json: the queries, each with the
// instant it runs at (its own, else the set's).
type relevanceSet struct {
	Now   string          `json:"now"`
	Cases []relevanceCase `json:"cases"`
}

func readRelevanceSet(t testing.TB) relevanceSet {
	t.Helper()
	raw, err := os.ReadFile("testdata/relevance.json")
	if err != nil {
		t.Fatal(err)
	}
	var set relevanceSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	return set
}

// nowOf is the instant a case runs at.
func (set relevanceSet) nowOf(t testing.TB, c relevanceCase) time.Time {
	t.Helper()
	now, err := time.Parse(time.RFC3339, set.Now)
	if c.Now != "" {
		now, err = time.Parse(time.RFC3339, c.Now)
	}
	if err != nil {
		t.Fatal(err)
	}
	return now
}

func relevance(t *testing.T) {
	set := readRelevanceSet(t)
	if len(set.Cases) < 60 {
		t.Fatalf("the relevance set has %d queries; the issue asks for at least 60", len(set.Cases))
	}
	s := searcher(t, registry())
	slugs := map[string]bool{}
	for _, e := range registry() {
		slugs[e.Slug] = true
	}
	for _, c := range set.Cases {
		t.Run(c.ID, func(t *testing.T) {
			now := set.nowOf(t, c)
			for _, list := range [][]string{c.First, c.Order, c.Includes, c.Excludes} {
				for _, slug := range list {
					if !slugs[slug] {
						t.Fatalf("the case names %q, which is no entry of the registry", slug)
					}
				}
			}
			first, hits, err := allHits(t, s, c.Input, now)
			if c.Error != "" {
				var bad *search.InputError
				if !errors.As(err, &bad) {
					t.Fatalf("want invalid input naming %s, got %v", c.Error, err)
				}
				if !slices.ContainsFunc(bad.Issues, func(is schemas.FieldIssue) bool { return is.Field == c.Error }) {
					t.Fatalf("want an issue for %s, got %v", c.Error, bad.Issues)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(hits))
			for i, h := range hits {
				got[i] = h.Slug
			}
			if len(c.First) > 0 {
				if len(got) < len(c.First) {
					t.Fatalf("want first %v, got %v", c.First, got)
				}
				head := slices.Clone(got[:len(c.First)])
				want := slices.Clone(c.First)
				slices.Sort(head)
				slices.Sort(want)
				if !slices.Equal(head, want) {
					t.Errorf("want first (any order) %v, got %v", c.First, got)
				}
			}
			last := -1
			for _, slug := range c.Order {
				i := slices.Index(got, slug)
				if i < 0 || i < last {
					t.Errorf("want in order %v, got %v", c.Order, got)
					break
				}
				last = i
			}
			for _, slug := range c.Includes {
				if !slices.Contains(got, slug) {
					t.Errorf("want %s among the hits, got %v", slug, got)
				}
			}
			for _, slug := range c.Excludes {
				if slices.Contains(got, slug) {
					t.Errorf("%s must not be found, got %v", slug, got)
				}
			}
			if c.Count != nil && len(got) != *c.Count {
				t.Errorf("want %d hits, got %d: %v", *c.Count, len(got), got)
			}
			if c.NoPlace && first.Place != nil {
				t.Errorf("want no place, got %+v", *first.Place)
			}
			if len(c.Place) > 0 {
				if first.Place == nil {
					t.Fatalf("want place %v, got none", c.Place)
				}
				p := first.Place
				have := map[string]string{"name": p.Name, "region": p.Region, "country": p.Country, "postalCode": p.PostalCode, "correctedFrom": p.CorrectedFrom}
				for k, v := range c.Place {
					if have[k] != v {
						t.Errorf("place.%s = %q, want %q", k, have[k], v)
					}
				}
			}
			for _, h := range hits {
				if h.Sponsored {
					t.Errorf("%s is sponsored", h.Slug)
				}
			}
		})
	}
}
