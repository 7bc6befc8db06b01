package search_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
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
	// Each hit names the documents an agent reads next, its town and its
	// categories by name (issue 15).
	for _, h := range out.Hits {
		for _, want := range []string{"markdown " + h.MarkdownURL, "JSON-LD " + h.JSONLDURL, "API " + h.APIURL, h.Locality} {
			if want == "" || !strings.Contains(text, want) {
				t.Errorf("hit %s: the text lacks %q:\n%s", h.Slug, want, text)
			}
		}
		for _, name := range h.CategoryNames {
			if !strings.Contains(text, name) {
				t.Errorf("hit %s: the text lacks its category %q:\n%s", h.Slug, name, text)
			}
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

// TestHit_Links: every hit carries the links an agent follows next (its
// markdown and JSON-LD documents beside its page, and its view on the
// REST mirror) and its categories by name in the query's language, in
// the order of their codes (issue 15, SEARCH-13).
func TestHit_Links(t *testing.T) {
	s := searcher(t, fixtureEntries())
	for _, lang := range []string{"", "de"} {
		out, err := s.Search(schemas.SearchInput{Query: "Tischlerei", Near: &schemas.Near{Place: "Wuppertal"}, Language: lang, Limit: 5}, monday, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Hits) == 0 {
			t.Fatal("no hits")
		}
		for _, h := range out.Hits {
			if h.URL != opts.BaseURL+"/"+h.Slug || h.MarkdownURL != h.URL+".md" || h.JSONLDURL != h.URL+".json" ||
				h.APIURL != opts.APIURL+"/v1/entries/"+h.ID {
				t.Errorf("%s: links %q %q %q %q", h.Slug, h.URL, h.MarkdownURL, h.JSONLDURL, h.APIURL)
			}
			if len(h.CategoryNames) != len(h.Categories) {
				t.Fatalf("%s: %d category names for %d categories", h.Slug, len(h.CategoryNames), len(h.Categories))
			}
			want := lang
			if want == "" {
				want = "en"
			}
			for i, code := range h.Categories {
				if name := taxonomy.Default().Label(code, want); h.CategoryNames[i] != name || name == code {
					t.Errorf("%s (lang %q): category %s named %q, want %q", h.Slug, lang, code, h.CategoryNames[i], name)
				}
			}
		}
	}
}

// TestBrowse_Facets: the categories and towns listed for browsing are
// those of the entries search finds, counted once per entry, the most
// entries first; a town's list has only its entries' categories, and a
// category listed there is one a search by its name in that town finds
// (issue 15).
func TestBrowse_Facets(t *testing.T) {
	s := searcher(t, fixtureEntries())
	all := s.Browse("", "", "en")
	if len(all.Categories) == 0 || len(all.Towns) == 0 {
		t.Fatalf("nothing to browse: %+v", all)
	}
	for _, list := range [][]search.Facet{all.Categories, all.Towns} {
		for i := 1; i < len(list); i++ {
			if list[i-1].Entries < list[i].Entries {
				t.Errorf("not the most entries first: %+v before %+v", list[i-1], list[i])
			}
		}
	}
	var wuppertal *search.Facet
	for i, f := range all.Towns {
		if f.Name == "Wuppertal" && f.Country == "DE" {
			wuppertal = &all.Towns[i]
		}
	}
	if wuppertal == nil {
		t.Fatalf("Wuppertal is not listed: %+v", all.Towns)
	}
	in := s.Browse("Wuppertal", "DE", "de")
	if len(in.Categories) == 0 || len(in.Categories) >= len(all.Categories) {
		t.Fatalf("Wuppertal's categories %d of %d", len(in.Categories), len(all.Categories))
	}
	for _, c := range in.Categories {
		if c.Name == c.Code || c.Name != taxonomy.Default().Label(c.Code, "de") {
			t.Errorf("category %s named %q", c.Code, c.Name)
		}
		out, err := s.Search(schemas.SearchInput{Query: c.Name, Category: c.Code, Near: &schemas.Near{Place: "Wuppertal"}, Language: "de", Limit: 20}, monday, opts)
		if err != nil || len(out.Hits) == 0 {
			t.Errorf("a search for %q (%s) in Wuppertal finds nothing (%v)", c.Name, c.Code, err)
		}
	}
	// Counted entries without a category of the taxonomy are listed by
	// name, since no category search finds them.
	for _, f := range all.Uncategorized {
		out, err := s.Search(schemas.SearchInput{Query: f.Name, Limit: 20}, monday, opts)
		if err != nil || f.Code == "" || f.Name == "" {
			t.Fatalf("uncategorized %+v: %v", f, err)
		}
		for _, h := range out.Hits {
			if h.Slug == f.Code && len(h.Categories) != 0 {
				t.Errorf("%s is listed without a category but has %v", f.Code, h.Categories)
			}
		}
	}
	if none := s.Browse("Nowhere-on-Earth", "", "en"); len(none.Categories) != 0 {
		t.Errorf("a town without entries lists categories: %+v", none.Categories)
	}
	// Without a country the town is found by name; every Wuppertal of the
	// fixtures is in Germany, so the answer is the same.
	if byName := s.Browse("Wuppertal", "", "de"); !reflect.DeepEqual(byName.Categories, in.Categories) {
		t.Errorf("Wuppertal by name lists %+v, with its country %+v", byName.Categories, in.Categories)
	}
	// The counts are made once: a second call answers the same.
	if again := s.Browse("", "", "en"); !reflect.DeepEqual(again, all) {
		t.Error("a second Browse answers differently")
	}
}
