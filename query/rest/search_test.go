package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/schemas"
	_ "github.com/duckdb/duckdb-go/v2"
)

// REST-08, REST-35, SEARCH-13, SEARCH-19: GET /v1/search answers
// Service.Search as JSON, public for a minute, not for search indexes,
// from any origin; HEAD is GET without a body.
func TestSearch_REST08_REST35(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/v1/search?q="+url.QueryEscape("Tischler für Einbauschrank")+"&place=Wuppertal&lang=de&unknown=1")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	for k, v := range map[string]string{"Cache-Control": "public, max-age=60", "X-Robots-Tag": "noindex",
		"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if resp.Header.Get("Set-Cookie") != "" {
		t.Error("a cookie on the read path")
	}
	var out schemas.SearchOutput
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	if out.Place == nil || out.Place.Name != "Wuppertal" || out.Place.Country != "DE" {
		t.Fatalf("place %+v", out.Place)
	}
	if len(out.Hits) == 0 || out.Hits[0].Slug != "holzwerk-krause" {
		t.Fatalf("hits %+v", out.Hits)
	}
	if out.RankingPolicy != reg.Site.BaseURL+"/docs/ranking" {
		t.Errorf("rankingPolicy %q", out.RankingPolicy)
	}
	h := out.Hits[0]
	if h.URL != reg.Site.BaseURL+"/holzwerk-krause" || h.Sponsored || h.DistanceKm == nil || h.ServesQueryLocation == nil || !*h.ServesQueryLocation {
		t.Errorf("hit %+v", h)
	}
	head, hb := ts.do(t, "HEAD", "/v1/search?q=Tischler&place=Wuppertal")
	if head.StatusCode != 200 || len(hb) != 0 || head.Header.Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes", head.StatusCode, len(hb))
	}
}

// REST-29, SEARCH-02, SEARCH-03, SEARCH-11: bad parameters are
// invalid_input naming the REST parameter.
func TestSearch_BadParameters_REST29(t *testing.T) {
	ts := newServer(t)
	for q, param := range map[string]string{
		"": "q",
		"q=x&place=Wuppertal&postalCode=42103&country=DE": "place",
		"q=x&country=DE":                   "country",
		"q=x&postalCode=42103":             "country",
		"q=x&place=Wuppertal&radiusKm=0":   "radiusKm",
		"q=x&place=Wuppertal&radiusKm=far": "radiusKm",
		"q=x&limit=21":                     "limit",
		"q=x&limit=0":                      "limit",
		"q=x&cursor=from-nowhere":          "cursor",
		"q=x&acceptingWork=maybe":          "acceptingWork",
		"q=x&verifiedOnly=2":               "verifiedOnly",
		"q=x&openAt=tomorrow":              "openAt",
		"q=x&lang=%20%21":                  "lang",
		"q=x&kind=robot":                   "kind",
		"q=x&category=nothing.here":        "category",
	} {
		resp, body := ts.get(t, "/v1/search?"+q)
		p := problemOf(t, resp, body)
		if resp.StatusCode != 422 || p.Code != "invalid_input" {
			t.Errorf("%s: %d %s", q, resp.StatusCode, body)
			continue
		}
		found := false
		for _, is := range p.Issues {
			found = found || is.Field == param
		}
		if !found || !strings.Contains(p.Detail, param) {
			t.Errorf("%s: want an issue for %s: %s", q, param, body)
		}
	}
}

// SEARCH-21 neutrality, SEARCH-36: the same search in the same hour
// gives the same bytes to 20 different readers (user agents and
// addresses), and each search is logged under its reader's category,
// without address, user agent or outcome.
func TestSearch_Neutral_SEARCH21_SEARCH36(t *testing.T) {
	counter := testserver.NewCounts(t)
	ts := newServer(t, func(c *rest.Config) {
		c.TrustedProxies = []string{"127.0.0.1/32", "::1/128"}
		c.Counter = counter.Counter
	})
	agents := []string{testserver.UAChatGPT, testserver.UABrowser, "ClaudeBot/1.0", "Googlebot/2.1", "PerplexityBot/1.0", "curl/8.5.0", "python-requests/2.32"}
	var first string
	for i := range 20 {
		ua := agents[i%len(agents)]
		ip := fmt.Sprintf("2001:db8:%x::1", i)
		if i%2 == 1 {
			ip = fmt.Sprintf("198.51.100.%d", i)
		}
		resp, body := ts.get(t, "/v1/search?q=Tischlerei&place=Wuppertal&outcome=fitted+wardrobe", "User-Agent: "+ua, "X-Forwarded-For: "+ip)
		if resp.StatusCode != 200 {
			t.Fatalf("%s from %s: %d", ua, ip, resp.StatusCode)
		}
		if i == 0 {
			first = string(body)
		} else if string(body) != first {
			t.Fatalf("%s from %s got another answer:\n%s\n%s", ua, ip, body, first)
		}
	}
	db := counter.Flushed(t)
	var n, cats int
	var q string
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT category), min(query) FROM `+counter.Glob("searches")).Scan(&n, &cats, &q); err != nil {
		t.Fatal(err)
	}
	if n != 20 || cats < 3 || q != "Tischlerei" {
		t.Fatalf("search log: %d searches, %d categories, query %q", n, cats, q)
	}
	rows, err := db.Query(`SELECT column_name FROM (DESCRIBE SELECT * FROM ` + counter.Glob("searches") + `)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var col string
		rows.Scan(&col)
		for _, personal := range []string{"ip", "addr", "agent", "outcome"} {
			if strings.Contains(col, personal) {
				t.Errorf("the search log has column %s", col)
			}
		}
	}
}

// SEARCH-20: the ranking policy is published as a page and as markdown.
func TestRankingPolicy_SEARCH20(t *testing.T) {
	ts := newServer(t)
	resp, page := ts.get(t, "/docs/ranking")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(page), "take turns") {
		t.Fatalf("page: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, md := ts.get(t, "/docs/ranking", "Accept: text/markdown")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") || !strings.HasPrefix(string(md), "# How Daawid search ranks") {
		t.Fatalf("markdown: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, must := range []string{"never money", "sponsored", "Tier 1", "half of the query's words", "GeoNames"} {
		if !strings.Contains(string(md), must) {
			t.Errorf("the policy does not say %q", must)
		}
	}
}

// REST-20, SEARCH-33: openAt's offset with its plus unescaped (so the
// query string turns it into a space) is read as the plus it was, and an
// instant anywhere in years 0001 to 9999 is answered, never a 500: 1900-01-01
// was a Monday, when Holzwerk Krause is open at 09:00 in Wuppertal;
// 0001-01-01T00:00:00Z (the zero time.Time) still filters, and at that
// hour the joinery is closed.
func TestSearch_OpenAtPlus_REST20(t *testing.T) {
	ts := newServer(t)
	for _, c := range []struct {
		openAt string // as written into the URL
		open   bool
	}{
		{"1900-01-01T09:00:00+01:00", true},
		{"1900-01-01T09:00:00%2B01:00", true},
		{"2026-11-30T09:00:00+01:00", true},
		{"1900-01-01T09:00:00-09:00", false}, // 19:00 in Wuppertal: closed
		{"0001-01-01T00:00:00Z", false},
		{"1969-12-27T12:00:00Z", false},
		{"9999-12-31T23:59:59+23:59", false},
	} {
		resp, body := ts.get(t, "/v1/search?q=Tischler&place=Wuppertal&openAt="+c.openAt)
		if resp.StatusCode != 200 {
			t.Errorf("openAt=%s: %d %s", c.openAt, resp.StatusCode, body)
			continue
		}
		var out schemas.SearchOutput
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range out.Hits {
			found = found || h.Slug == "holzwerk-krause"
		}
		if found != c.open {
			t.Errorf("openAt=%s: holzwerk-krause among the hits %v, want %v", c.openAt, found, c.open)
		}
	}
	// A space anywhere else is not a plus, and stays refused.
	resp, body := ts.get(t, "/v1/search?q=Tischler&openAt=2026-11-30+09:00:00%2B01:00")
	if p := problemOf(t, resp, body); resp.StatusCode != 422 || len(p.Issues) == 0 || p.Issues[0].Field != "openAt" {
		t.Errorf("a space between date and time: %d %s", resp.StatusCode, body)
	}
}

// SEARCH-13 and issue 15: every hit of GET /v1/search carries the links
// an agent follows next, and each answers: the page, its markdown, its
// JSON-LD and the entry's view on the REST mirror; the town and the
// categories by name come with it.
func TestSearch_HitLinksAnswer_SEARCH13(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/v1/search?q="+url.QueryEscape("Tischler")+"&place=Wuppertal&lang=de")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var out schemas.SearchOutput
	if err := json.Unmarshal(body, &out); err != nil || len(out.Hits) == 0 {
		t.Fatalf("hits: %v %s", err, body)
	}
	for _, h := range out.Hits {
		if h.Locality == "" && h.Slug == hkSlug {
			t.Errorf("%s: no town", h.Slug)
		}
		if len(h.CategoryNames) != len(h.Categories) || len(h.Categories) == 0 {
			t.Errorf("%s: categories %v named %v", h.Slug, h.Categories, h.CategoryNames)
		}
		for _, link := range []struct{ u, base, media string }{
			{h.URL, reg.Site.BaseURL, "text/html"}, {h.MarkdownURL, reg.Site.BaseURL, "text/markdown"},
			{h.JSONLDURL, reg.Site.BaseURL, "application/ld+json"}, {h.APIURL, reg.Site.APIURL, "application/json"},
		} {
			path, ok := strings.CutPrefix(link.u, link.base)
			if !ok || path == "" {
				t.Errorf("%s: link %q is not under %s", h.Slug, link.u, link.base)
				continue
			}
			r, b := ts.get(t, path)
			if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), link.media) {
				t.Errorf("%s: GET %s: %d %s: %.200s", h.Slug, path, r.StatusCode, r.Header.Get("Content-Type"), b)
			}
		}
	}
}
