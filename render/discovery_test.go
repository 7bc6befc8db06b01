package render_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
)

func defaultSite(t *testing.T) render.Site {
	t.Helper()
	s, err := render.NewSite(render.DefaultBaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// DISC-01, DISC-04, DISC-07, DISC-13: llms.txt, robots.txt and the server
// card equal §5's text byte for byte with the default base URLs; llms.txt
// adds one line after it, the price list (PRIV-25, DISC-09), and nothing
// else.
func TestDiscovery_DISC04_DISC07_DISC13_ByteExact(t *testing.T) {
	s := defaultSite(t)
	for _, c := range []struct {
		name      string
		got, want []byte
	}{{"llms.txt", render.LLMSTxt(s), fixtures.LLMSTxt()}, {"robots.txt", render.RobotsTxt(s), fixtures.Spec("robots.txt")}, {"server-card.json", render.ServerCard(s), fixtures.Spec("server-card.json")}} {
		if want := c.want; !bytes.Equal(c.got, want) {
			t.Errorf("%s differs from §5:\n got: %q\nwant: %q", c.name, c.got, want)
		}
	}
}

// DISC-05, DISC-14: on another origin every URL follows the configuration;
// on localhost everything is one origin.
func TestDiscovery_DISC05_ConfiguredURLs(t *testing.T) {
	s, err := render.NewSite("https://registry.example.org", nil)
	if err != nil {
		t.Fatal(err)
	}
	llms := string(render.LLMSTxt(s))
	for _, want := range []string{"https://registry.example.org/{slug}.md", "https://api.registry.example.org/v1/entries/by-domain/{host}",
		"https://mcp.registry.example.org/mcp", "https://registry.example.org/sitemap.xml"} {
		if !strings.Contains(llms, want) {
			t.Errorf("llms.txt lacks %s", want)
		}
	}
	if strings.Contains(llms, "daawid.example") {
		t.Error("llms.txt still names daawid.example")
	}
	var card struct {
		Remotes []struct{ URL string } `json:"remotes"`
	}
	if err := json.Unmarshal(render.ServerCard(s), &card); err != nil || card.Remotes[0].URL != "https://mcp.registry.example.org/mcp" {
		t.Errorf("server card: %+v %v", card, err)
	}
}

// DISC-15, AWP-01..41: the AI catalog lists the server card; the AWP files
// parse, carry their required fields and say reads need no key.
func TestDiscovery_DISC15_AWP_Files(t *testing.T) {
	s := defaultSite(t)
	at := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	var cat struct {
		Entries []struct{ Type, URL string } `json:"entries"`
	}
	if err := json.Unmarshal(render.AICatalog(s), &cat); err != nil || len(cat.Entries) != 1 ||
		cat.Entries[0].URL != "https://mcp.daawid.example/mcp/server-card" || cat.Entries[0].Type != render.ServerCardMediaType {
		t.Fatalf("ai catalog: %+v %v", cat, err)
	}
	var disc map[string]any
	if err := json.Unmarshal(render.AWPDiscovery(s, at), &disc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "name", "description", "capabilities", "endpoints"} {
		if disc[k] == nil {
			t.Errorf("discovery manifest lacks %s (AWP-08..12)", k)
		}
	}
	if disc["endpoints"].(map[string]any)["manifest"] != "/awp/manifest.json" {
		t.Error("AWP-12: endpoints.manifest")
	}
	if auth := disc["authentication"].(map[string]any); auth["required"] != false {
		t.Error("reads need no key: authentication.required must be false (PRIV-23)")
	}
	if d := disc["description"].(string); len(d) < 10 || len(d) > 500 {
		t.Errorf("AWP-10: description of %d characters", len(d))
	}
	var man map[string]any
	if err := json.Unmarshal(render.AWPManifest(s, at, 3), &man); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"awp_version", "site", "content", "capabilities"} {
		if man[k] == nil {
			t.Errorf("full manifest lacks %s (AWP-18..21)", k)
		}
	}
	var mcp map[string]any
	if err := json.Unmarshal(render.AWPMCP(s), &mcp); err != nil || mcp["url"] != "https://mcp.daawid.example/mcp" || mcp["transport"] != "http" {
		t.Fatalf("mcp.json: %v %v", mcp, err)
	}
	entries := []render.Published{
		{ID: "ent_a", Slug: "a-shop", Name: "A Shop", Languages: []string{"de", "en"}, Modified: at, Tokens: 500, Categories: []string{"crafts.carpenter"}, Listed: true},
		{ID: "ent_b", Slug: "b-hidden", Name: "B", Languages: []string{"de"}, Modified: at, Tokens: 100, Listed: false},
	}
	var st struct {
		TotalPages  int `json:"total_pages"`
		TotalTokens int `json:"total_tokens"`
		Sections    []struct {
			ID    string `json:"id"`
			Pages []struct {
				Path       string `json:"path"`
				TokenCount int    `json:"token_count"`
			} `json:"pages"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(render.AWPStructure(s, at, entries, func(string) (string, string) { return "crafts", "Crafts" }), &st); err != nil {
		t.Fatal(err)
	}
	if st.TotalPages != 1 || st.TotalTokens != 500 || st.Sections[0].Pages[0].Path != "/a-shop.md" {
		t.Fatalf("structure (unlisted entries are left out): %+v", st)
	}
}

// Sitemaps list listed entries only, each language's page with lastmod,
// and turn into an index of parts past the limit.
func TestDiscovery_Sitemaps(t *testing.T) {
	s := defaultSite(t)
	at := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	var entries []render.Published
	for _, slug := range []string{"a", "b", "c", "d", "e"} {
		entries = append(entries, render.Published{Slug: "shop-" + slug, Languages: []string{"de", "en"}, Modified: at, Listed: slug != "c"})
	}
	one, parts := render.Sitemaps(s, entries, 0)
	var set struct {
		URLs []struct {
			Loc     string `xml:"loc"`
			Lastmod string `xml:"lastmod"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(one, &set); err != nil || len(parts) != 0 {
		t.Fatal(err, len(parts))
	}
	if len(set.URLs) != 8 || set.URLs[0].Loc != "https://daawid.example/shop-a" || set.URLs[1].Loc != "https://daawid.example/shop-a/en" ||
		set.URLs[0].Lastmod != "2026-10-02T04:00:00Z" || strings.Contains(string(one), "shop-c") {
		t.Fatalf("sitemap: %s", one)
	}
	index, parts := render.Sitemaps(s, entries, 3)
	var idx struct {
		Maps []struct {
			Loc string `xml:"loc"`
		} `xml:"sitemap"`
	}
	if err := xml.Unmarshal(index, &idx); err != nil || len(idx.Maps) != 3 || len(parts) != 3 || idx.Maps[2].Loc != "https://daawid.example/sitemaps/sitemap-3.xml" {
		t.Fatalf("index: %s (%d parts) %v", index, len(parts), err)
	}
}
