package rest_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// pricesPath is the price list's page (PRIV-25); the landing page links it.
const pricesPath = "/docs/prices"

// htmlDoc parses a page for people.
func htmlDoc(t *testing.T, body []byte) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// localPath is a link's path and query on the test server, or false when
// the link leaves the registry's pages host.
func localPath(href string) (string, bool) {
	rest, ok := strings.CutPrefix(href, reg.Site.BaseURL)
	if !ok || (rest != "" && rest[0] != '/') {
		return "", false
	}
	if rest == "" {
		rest = "/"
	}
	return rest, true
}

// TestHome_LandingPage: the landing page for people has a search box (a
// plain GET form to /search with q and place), browses by category and
// by town, and links llms.txt, the API, MCP's server card, the ranking
// policy and the price list; every link it gives on the pages host
// answers 200, and it runs no script and sets no cookie (HTTP-17, issue
// 15).
func TestHome_LandingPage(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("Set-Cookie") != "" {
		t.Fatalf("GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	d := htmlDoc(t, body)
	form := d.Find(`form[role="search"]`)
	if form.Length() != 1 || form.AttrOr("method", "") != "get" || form.AttrOr("action", "") != reg.Site.BaseURL+"/search" {
		t.Fatalf("no GET form to /search: %d %q %q", form.Length(), form.AttrOr("method", ""), form.AttrOr("action", ""))
	}
	for _, name := range []string{"q", "place"} {
		if form.Find(`input[name="`+name+`"]`).Length() != 1 {
			t.Errorf("the search form has no %s", name)
		}
	}
	if d.Find("script").Length() != 0 {
		t.Error("the landing page has a script (HTTP-17)")
	}
	hrefs := map[string]bool{}
	d.Find("a[href]").Each(func(_ int, a *goquery.Selection) { hrefs[a.AttrOr("href", "")] = true })
	for _, want := range []string{"/llms.txt", "/docs/api", "/docs/ranking", pricesPath, "/search/categories", "/search/towns"} {
		if !hrefs[reg.Site.BaseURL+want] {
			t.Errorf("the landing page does not link %s", want)
		}
	}
	if !hrefs[render.ServerCardURL(reg.Site)] {
		t.Errorf("the landing page does not link the MCP server card %s", render.ServerCardURL(reg.Site))
	}
	cats := d.Find(`a[href^="` + reg.Site.BaseURL + `/search?"]`)
	towns := d.Find(`a[href^="` + reg.Site.BaseURL + `/search/categories?"]`)
	if cats.Length() == 0 || towns.Length() == 0 {
		t.Errorf("browse by category: %d links, by town: %d", cats.Length(), towns.Length())
	}
	for href := range hrefs {
		path, ok := localPath(href)
		if !ok {
			continue
		}
		r, b := ts.get(t, path)
		if r.StatusCode != 200 {
			t.Errorf("the landing page links %s, which answers %d: %.200s", path, r.StatusCode, b)
		}
	}
}

// TestSearchPage_SameAsAPI_SEARCH21: the search box's results page shows
// the hits of GET /v1/search for the same parameters, in the same order
// (one search, SEARCH-21), each with its page, markdown, JSON-LD and API
// links, town and categories; a next page is linked by its cursor, and
// mistakes are shown by the parameter's name with 422.
func TestSearchPage_SameAsAPI_SEARCH21(t *testing.T) {
	ts := newServer(t)
	for _, q := range []string{"q=Tischler&place=Wuppertal", "q=" + url.QueryEscape("Bäckerei") + "&limit=1", "q=Tischler&category=trades"} {
		_, apiBody := ts.get(t, "/v1/search?"+q)
		var out schemas.SearchOutput
		if err := json.Unmarshal(apiBody, &out); err != nil {
			t.Fatal(err)
		}
		resp, body := ts.get(t, "/search?"+q)
		if resp.StatusCode != 200 {
			t.Fatalf("GET /search?%s: %d", q, resp.StatusCode)
		}
		d := htmlDoc(t, body)
		var got []string
		d.Find("ol.hits a.name").Each(func(_ int, a *goquery.Selection) { got = append(got, a.AttrOr("href", "")) })
		var want []string
		for _, h := range out.Hits {
			want = append(want, h.URL)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") || len(want) == 0 {
			t.Errorf("%s: the page shows %v, the API %v", q, got, want)
		}
		text := d.Find("ol.hits").Text()
		for i, h := range out.Hits {
			li := d.Find("ol.hits > li").Eq(i)
			for _, link := range []string{h.MarkdownURL, h.JSONLDURL, h.APIURL} {
				if li.Find(`a[href="`+link+`"]`).Length() != 1 {
					t.Errorf("%s: hit %s does not link %s", q, h.Slug, link)
				}
			}
			if !strings.Contains(text, h.Locality) || (len(h.CategoryNames) > 0 && !strings.Contains(text, h.CategoryNames[0])) {
				t.Errorf("%s: hit %s lacks its town or category", q, h.Slug)
			}
		}
		if next, ok := d.Find(`a[rel="next"]`).Attr("href"); ok != (out.NextCursor != "") {
			t.Errorf("%s: a next page link %v, a cursor %q", q, ok, out.NextCursor)
		} else if ok {
			path, _ := localPath(next)
			if r, nb := ts.get(t, path); r.StatusCode != 200 || !bytes.Contains(nb, []byte(`class="hits"`)) {
				t.Errorf("%s: the next page %s: %d", q, path, r.StatusCode)
			}
		}
	}
	for _, c := range []struct{ q, field string }{{"q=&place=Wuppertal", "q: "}, {"q=Tischler&limit=abc", "limit: "}, {"q=x&radiusKm=0&place=Wuppertal", "radiusKm: "}} {
		resp, body := ts.get(t, "/search?"+c.q)
		if msg := htmlDoc(t, body).Find("p.error").Text(); resp.StatusCode != 422 || !strings.Contains(msg, c.field) {
			t.Errorf("/search?%s: %d %q, want 422 naming %q", c.q, resp.StatusCode, msg, c.field)
		}
	}
	if resp, body := ts.get(t, "/search"); resp.StatusCode != 200 || htmlDoc(t, body).Find(`form[role="search"]`).Length() != 1 {
		t.Errorf("the empty search page: %d", resp.StatusCode)
	}
}

// TestBrowse_TownToCategoryToEntry: from the towns page a person reaches
// a town's categories, from each of them a search that finds entries,
// and from there an entry's page: no dead end (issue 15).
func TestBrowse_TownToCategoryToEntry(t *testing.T) {
	ts := newServer(t)
	links := func(path, sel string) []string {
		t.Helper()
		resp, body := ts.get(t, path)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		var out []string
		htmlDoc(t, body).Find(sel).Each(func(_ int, a *goquery.Selection) {
			if p, ok := localPath(a.AttrOr("href", "")); ok {
				out = append(out, p)
			}
		})
		return out
	}
	towns := links("/search/towns", "main ul a")
	if len(towns) == 0 {
		t.Fatal("no towns listed")
	}
	all := links("/search/categories", "main ul a")
	if len(all) == 0 {
		t.Fatal("no categories listed")
	}
	for _, town := range towns {
		cats := links(town, "main ul a[href*='/search?']")
		// A town's entries without a category are listed by name.
		others := links(town, "main ul a:not([href*='/search'])")
		if len(cats)+len(others) == 0 || len(cats) > len(all) {
			t.Errorf("%s: %d categories of %d, %d entries without", town, len(cats), len(all), len(others))
		}
		for _, e := range others {
			if r, _ := ts.get(t, e); r.StatusCode != 200 {
				t.Errorf("%s: entry page %s: %d", town, e, r.StatusCode)
			}
		}
		for _, c := range cats {
			hits := links(c, "ol.hits a.name")
			if len(hits) == 0 {
				t.Errorf("%s: the search %s finds nothing", town, c)
				continue
			}
			if r, _ := ts.get(t, hits[0]); r.StatusCode != 200 {
				t.Errorf("%s: entry page %s: %d", c, hits[0], r.StatusCode)
			}
		}
	}
}

// TestPeoplePages_HTTP17_ValidHTML runs the W3C Nu HTML checker over the
// landing page, the search page (empty, with hits, with none, with
// mistakes) and the browse pages.
func TestPeoplePages_HTTP17_ValidHTML(t *testing.T) {
	tools := citools.Find(t, "java", "node_modules/vnu-jar/build/dist/vnu.jar")
	ts := newServer(t)
	dir := t.TempDir()
	for name, path := range map[string]string{
		"home": "/", "search-empty": "/search", "search-hits": "/search?q=Tischler&place=Wuppertal&limit=1",
		"search-none": "/search?q=Zzyzxqv", "search-mistakes": "/search?q=&limit=abc", "categories": "/search/categories",
		"categories-town": "/search/categories?place=Wuppertal&country=DE", "towns": "/search/towns",
	} {
		resp, body := ts.get(t, path)
		if resp.StatusCode != 200 && resp.StatusCode != 422 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".html"), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), dir).CombinedOutput(); err != nil {
		t.Fatalf("Nu HTML checker reports errors in the pages for people:\n%s", out)
	}
}
