package search_test

import (
	"strings"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// TestText_MCP61: search's text answer is a numbered list of the hits, each
// with its page and markdown, then the cursor and the ranking policy; a
// name or summary cannot break a line of it.
func TestText_MCP61(t *testing.T) {
	s := searcher(t, fixtureEntries())
	out, err := s.Search(schemas.SearchInput{Query: "Tischlerei", Near: &schemas.Near{Place: "Wuppertal"}, Limit: 2}, monday, opts)
	if err != nil {
		t.Fatal(err)
	}
	text := string(search.Text(&out))
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if lines[0] != "Place: Wuppertal, North Rhine-Westphalia, DE" {
		t.Errorf("first line %q", lines[0])
	}
	for i, h := range out.Hits {
		want := []string{string(rune('1'+i)) + ". **" + h.DisplayName + "**", h.URL + ".md", h.ID}
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, want[0]) || strings.Contains(l, want[1]) && strings.Contains(l, want[2]) {
				found = true
			}
		}
		if !found {
			t.Errorf("hit %d (%s) is not in the list:\n%s", i+1, h.Slug, text)
		}
	}
	if !strings.Contains(text, "cursor "+out.NextCursor) || !strings.Contains(text, out.RankingPolicy) {
		t.Errorf("no cursor or policy:\n%s", text)
	}
	// The injection fixture's name holds a line break and markup.
	all, _ := s.Search(schemas.SearchInput{Query: "Werkstatt Probe", Limit: 5}, monday, opts)
	for _, l := range strings.Split(string(search.Text(&all)), "\n") {
		if strings.HasPrefix(l, "</script>") || strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "---") {
			t.Errorf("a hit's text broke the list: %q", l)
		}
	}
}
