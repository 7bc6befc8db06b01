package search_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

var monday = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// clones are n joineries in Wuppertal that fit "Tischlerei" equally: the
// same text, the same town, another ID and slug each.
func clones(n int) []*schemas.Entry {
	var out []*schemas.Entry
	for i := range n {
		e := fixtures.Entry("schreinerei-beispiel")
		e.ID = fmt.Sprintf("ent_01k8r3a0b1c2d3e4f5g6h7j8%02d", i)
		e.Slug = fmt.Sprintf("tischlerei-klon-%02d", i)
		e.DisplayName = fmt.Sprintf("Tischlerei Klon %d", i)
		out = append(out, e)
	}
	return out
}

func slugsOf(out schemas.SearchOutput) []string {
	s := make([]string, len(out.Hits))
	for i, h := range out.Hits {
		s[i] = h.Slug
	}
	return s
}

// TestTurns_SEARCH21: within an hour the same search gives the same
// order, whenever in the hour it is asked; across hours ties take turns
// and what is not a tie keeps its place.
func TestTurns_SEARCH21(t *testing.T) {
	s := searcher(t, append(fixtureEntries(), clones(12)...))
	in := schemas.SearchInput{Query: "Tischlerei Einbauschrank", Near: &schemas.Near{Place: "Wuppertal"}, Limit: 20}
	var firsts = map[string]bool{}
	var orders = map[string]bool{}
	for h := range 24 {
		at := monday.Add(time.Duration(h) * time.Hour)
		out, err := s.Search(in, at, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := slugsOf(out)
		again, _ := s.Search(in, at.Add(59*time.Minute), opts)
		if !slices.Equal(got, slugsOf(again)) {
			t.Fatalf("hour %d: the order changed within the hour:\n%v\n%v", h, got, slugsOf(again))
		}
		// Not ties: Holzwerk Krause fits both words and comes first; the
		// joinery in Bremen is in tier 3 and comes after every one in
		// Wuppertal.
		if got[0] != "holzwerk-krause" {
			t.Fatalf("hour %d: the best fit is not first: %v", h, got)
		}
		if i := slices.Index(got, "injection-werkstatt-probe"); i >= 0 && i < 14 {
			t.Fatalf("hour %d: a tier-3 entry came before the Wuppertal ones: %v", h, got)
		}
		firsts[got[1]] = true
		orders[strings.Join(got, " ")] = true
	}
	if len(orders) < 20 {
		t.Errorf("ties took turns in only %d different orders over 24 hours", len(orders))
	}
	if len(firsts) < 6 {
		t.Errorf("only %d different entries led the ties over 24 hours: %v", len(firsts), firsts)
	}
}

// TestPaging_SEARCH11: a cursor pages through the same order, even when
// the next page is asked in the next hour, and pages neither repeat nor
// skip an entry.
func TestPaging_SEARCH11(t *testing.T) {
	s := searcher(t, append(fixtureEntries(), clones(25)...))
	in := schemas.SearchInput{Query: "Tischlerei", Limit: 20}
	whole, err := s.Search(in, monday, opts)
	if err != nil {
		t.Fatal(err)
	}
	in.Limit = 7
	var paged []string
	at := monday
	for {
		out, err := s.Search(in, at, opts)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, slugsOf(out)...)
		if out.NextCursor == "" {
			break
		}
		in.Cursor = out.NextCursor
		at = at.Add(50 * time.Minute) // the next hour: the cursor keeps the first page's
	}
	if len(paged) < 25 || !slices.Equal(paged[:20], slugsOf(whole)) {
		t.Fatalf("paging does not follow the order:\n%v\n%v", paged, slugsOf(whole))
	}
	seen := map[string]bool{}
	for _, p := range paged {
		if seen[p] {
			t.Fatalf("%s on two pages", p)
		}
		seen[p] = true
	}
}

// TestBadInput_SEARCH01_12: every invalid parameter is invalid_input
// naming it.
func TestBadInput_SEARCH01_12(t *testing.T) {
	s := searcher(t, fixtureEntries())
	r := func(f float64) *float64 { return &f }
	okOut, _ := s.Search(schemas.SearchInput{Query: "Tischlerei", Limit: 1}, monday, opts)
	cases := []struct {
		in    schemas.SearchInput
		field string
	}{
		{schemas.SearchInput{Query: ""}, "query"},
		{schemas.SearchInput{Query: "   "}, "query"},
		{schemas.SearchInput{Query: strings.Repeat("a", 201)}, "query"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{Place: "Wuppertal", PostalCode: "42103", Country: "DE"}}, "near"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{Country: "DE"}}, "near.country"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{PostalCode: "42103"}}, "near.country"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{PostalCode: "42103", Country: "Germany"}}, "near.country"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{Place: "W"}}, "near.place"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{PostalCode: "12", Country: "DE"}}, "near.postalCode"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{}}, "near"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{Place: "Wuppertal"}, RadiusKm: r(0)}, "radiusKm"},
		{schemas.SearchInput{Query: "x", Near: &schemas.Near{Place: "Wuppertal"}, RadiusKm: r(201)}, "radiusKm"},
		{schemas.SearchInput{Query: "x", RadiusKm: r(10)}, "radiusKm"},
		{schemas.SearchInput{Query: "x", Category: "trades.nothing"}, "category"},
		{schemas.SearchInput{Query: "x", Kind: "robot"}, "kind"},
		{schemas.SearchInput{Query: "x", OpenAt: "tomorrow"}, "openAt"},
		{schemas.SearchInput{Query: "x", OpenAt: "2026-12-05T10:00:00"}, "openAt"},
		{schemas.SearchInput{Query: "x", Language: "not a tag"}, "language"},
		{schemas.SearchInput{Query: "x", Limit: 21}, "limit"},
		{schemas.SearchInput{Query: "x", Limit: -1}, "limit"},
		{schemas.SearchInput{Query: "x", Cursor: "from-nowhere"}, "cursor"},
		{schemas.SearchInput{Query: "x", Cursor: strings.Repeat("A", 501)}, "cursor"},
		// A real cursor of another search.
		{schemas.SearchInput{Query: "Bäckerei", Cursor: okOut.NextCursor}, "cursor"},
	}
	if okOut.NextCursor == "" {
		t.Fatal("no cursor to test with")
	}
	for _, c := range cases {
		_, err := s.Search(c.in, monday, opts)
		var bad *search.InputError
		if !errors.As(err, &bad) {
			t.Errorf("%+v: want invalid input, got %v", c.in, err)
			continue
		}
		if !slices.ContainsFunc(bad.Issues, func(is schemas.FieldIssue) bool { return is.Field == c.field }) {
			t.Errorf("%+v: want an issue for %s, got %v", c.in, c.field, bad.Issues)
		}
		if !strings.Contains(bad.Error(), c.field) {
			t.Errorf("the message does not name %s: %s", c.field, bad.Error())
		}
	}
}

// TestOpenAt_SEARCH33: Holzwerk Krause (Wuppertal) is open on a Monday
// morning and closed on Sunday; the Turkish bakery's overnight range is
// open at 01:00 on Saturday in Istanbul.
func TestOpenAt_SEARCH33(t *testing.T) {
	s := searcher(t, fixtureEntries())
	find := func(q, at string) []string {
		out, err := s.Search(schemas.SearchInput{Query: q, OpenAt: at, Limit: 20}, monday, opts)
		if err != nil {
			t.Fatal(err)
		}
		return slugsOf(out)
	}
	if got := find("Tischlerei", "2026-11-30T09:00:00+01:00"); !slices.Contains(got, "holzwerk-krause") {
		t.Errorf("Monday 09:00 in Wuppertal: %v", got)
	}
	if got := find("Tischlerei", "2026-11-29T11:00:00+01:00"); slices.Contains(got, "holzwerk-krause") {
		t.Errorf("Sunday: %v", got)
	}
	// An entry without hours is never open at a moment.
	if got := find("Tischlerei", "2026-11-30T09:00:00+01:00"); slices.Contains(got, "schreinerei-beispiel") {
		t.Errorf("an entry without hours was kept: %v", got)
	}
}
