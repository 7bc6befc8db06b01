package rest

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The landing page and the search pages for people (issue 15): a search
// box, a plain GET form to /search, whose results come from the same
// search as GET /v1/search and the MCP search tool (query.Read.Search,
// the same ranking, SEARCH-21), browsing by category and by town, and the
// links to what agents and developers read. No script and no cookie
// (HTTP-17); readable at 390 px wide (the browser test measures it).

// homeFacets is how many categories and towns the landing page lists;
// the browse pages list them all.
const homeFacets = 12

// peopleCSS is the style of the landing and search pages, after formCSS:
// the search form in one row that wraps on a phone, hits as a list, and
// long words (addresses, names) broken rather than widening the page.
const peopleCSS = `{{define "peoplecss"}}main{overflow-wrap:break-word}
form.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:1rem 0}
form.search label{margin:0;flex:1 1 12rem}
form.search button{margin:0;flex:0 0 auto}
ol.hits,ul.facets{padding-left:0;list-style:none}
ol.hits li{margin:0 0 1.2rem}
ol.hits .name{font-weight:700;font-size:1.1rem}
.facts,.links{font-size:.9rem;color:#444;margin:.2rem 0}
ul.facets{display:flex;flex-wrap:wrap;gap:.4rem .9rem}
nav.more a{margin-right:1rem}
{{end}}`

var peopleTemplates = template.Must(template.New("people").Funcs(peopleFuncs).Parse(formCSS + peopleCSS + `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{if .NoIndex}}<meta name="robots" content="noindex, follow">
{{end}}<title>{{.Title}}</title>
<style>
{{template "formcss"}}{{template "peoplecss"}}header.site a{font-weight:700;text-decoration:none;color:#1b1b1b}
button{font:inherit;margin-top:1rem;padding:.5rem 1rem}
.error{color:#a00000}
</style>
</head>
<body>
<header class="site"><a href="{{.Base}}/">Daawid</a></header>
<main>
{{template "body" .}}
</main>
<footer><a href="{{.Base}}/llms.txt">llms.txt</a> · <a href="{{.Base}}/docs/api">API</a> · <a href="{{.ServerCard}}">MCP</a> · <a href="{{.Base}}/docs/ranking">Ranking policy</a> · <a href="{{.Base}}/docs/prices">Prices</a> · <a href="{{.Base}}/privacy">Privacy</a></footer>
</body>
</html>
{{define "form"}}<form class="search" method="get" action="{{.Base}}/search" role="search">
<label for="q">What do you need?
<input id="q" name="q" type="search" maxlength="200" required value="{{.Q}}" placeholder="Tischler für Einbauschrank"></label>
<label for="place">Where? (a town or postal code)
<input id="place" name="place" maxlength="100" value="{{.Place}}" placeholder="Wuppertal"></label>
{{with .Category}}<input type="hidden" name="category" value="{{.}}">{{end}}<button type="submit">Search</button>
</form>
{{end}}`))

var (
	homePage = template.Must(template.Must(peopleTemplates.Clone()).Parse(`{{define "body"}}<h1>Daawid</h1>
<p>An open registry of what businesses and people declare about themselves, made to be read by AI models, agents, search engines and developers. {{.Entries}} entries; nobody pays for a place in the results.</p>
{{template "form" .}}
{{if .Categories}}<h2>Browse by category</h2>
<ul class="facets">{{range .Categories}}
<li><a href="{{.Href}}">{{.Name}}</a> ({{.Entries}})</li>{{end}}
</ul>
<p><a href="{{.Base}}/search/categories">All categories</a></p>
{{end}}{{if .Towns}}<h2>Browse by town</h2>
<ul class="facets">{{range .Towns}}
<li><a href="{{.Href}}">{{.Name}}</a> ({{.Entries}})</li>{{end}}
</ul>
<p><a href="{{.Base}}/search/towns">All towns</a></p>
{{end}}<h2>For agents and developers</h2>
<ul>
<li><a href="{{.Base}}/llms.txt">llms.txt</a>: how to read the registry</li>
<li><a href="{{.Base}}/docs/api">The REST API</a> and its <a href="{{.Base}}/schemas/0.1/openapi.json">OpenAPI document</a></li>
<li><a href="{{.ServerCard}}">The MCP server</a> at <code>{{.MCP}}</code></li>
<li><a href="{{.Base}}/docs/ranking">How results are ranked</a></li>
<li><a href="{{.Base}}/docs/prices">Prices</a> of the bulk exports and change feeds (reading entries and searching is free)</li>
<li><a href="{{.Base}}/sitemap.xml">Sitemap</a></li>
</ul>{{end}}`))
	searchPage = template.Must(template.Must(peopleTemplates.Clone()).Parse(`{{define "body"}}<h1>{{if .Q}}Results for “{{.Q}}”{{else}}Search{{end}}</h1>
{{template "form" .}}
{{range .Errors}}<p class="error">{{.}}</p>
{{end}}{{with .Out}}{{with .Place}}<p>Near {{with .PostalCode}}{{.}} {{end}}{{.Name}}{{with .Region}}, {{.}}{{end}}, {{.Country}}{{with .CorrectedFrom}} (read from “{{.}}”){{end}}.</p>
{{end}}{{if .Hits}}<ol class="hits">{{range .Hits}}
<li><a class="name" href="{{.URL}}">{{.DisplayName}}</a>
<p class="facts">{{with .Locality}}{{.}} · {{end}}{{with .DistanceKm}}{{km .}} km · {{end}}{{join .CategoryNames}} · {{status .Status .VerificationLevel .Kind}}{{with .CapacityStatus}} · {{capacity .}}{{end}}{{with .OpenNow}}{{if .}} · open now{{else}} · closed now{{end}}{{end}}</p>
{{with .Summary}}<p>{{.}}</p>
{{end}}<p class="links"><a href="{{.URL}}">Page</a> · <a href="{{.MarkdownURL}}">Markdown</a> · <a href="{{.JSONLDURL}}">JSON-LD</a> · <a href="{{.APIURL}}">API</a></p>
</li>{{end}}
</ol>
{{else}}<p>No entries found. Try other words, or <a href="{{$.Base}}/search/categories">browse by category</a>.</p>
{{end}}{{if $.Next}}<p><a href="{{$.Next}}" rel="next">More results</a></p>
{{end}}<p>Ranked by the <a href="{{.RankingPolicy}}">ranking policy</a>: the same for everyone who asks; no result is sponsored.</p>
{{end}}{{end}}`))
	browsePage = template.Must(template.Must(peopleTemplates.Clone()).Parse(`{{define "body"}}<h1>{{.Heading}}</h1>
{{template "form" .}}
{{if .List}}<ul>{{range .List}}
<li><a href="{{.Href}}">{{.Name}}</a> ({{.Entries}})</li>{{end}}
</ul>
{{end}}{{if .Others}}<h2>Without a category</h2>
<ul>{{range .Others}}
<li><a href="{{.Href}}">{{.Name}}</a></li>{{end}}
</ul>
{{end}}{{if not (or .List .Others)}}<p>No entries here yet.</p>
{{end}}<nav class="more"><a href="{{.Base}}/search/categories">All categories</a> <a href="{{.Base}}/search/towns">All towns</a></nav>{{end}}`))
)

// peopleFuncs are the functions of the landing and search pages.
var peopleFuncs = template.FuncMap{
	"join":     func(s []string) string { return strings.Join(s, ", ") },
	"km":       func(d *float64) string { return strconv.FormatFloat(*d, 'f', 1, 64) },
	"capacity": func(c schemas.CapacityStatus) string { return strings.ReplaceAll(string(c), "_", " ") },
	"status":   statusWords,
}

// categorySearch is the address of a search for a category: its name as
// the words (search needs words, SEARCH-01) and its code as the filter,
// in a town when place is given, narrowed to its country after a comma
// (search takes a country only with a postal code).
func (s *Server) categorySearch(name, code, place, country string) string {
	v := url.Values{"q": {name}, "category": {code}}
	if place != "" && country != "" {
		place += ", " + country
	}
	if place != "" {
		v.Set("place", place)
	}
	return s.site.BaseURL + "/search?" + v.Encode()
}

// townCategories is the address of a town's categories.
func (s *Server) townCategories(name, country string) string {
	return s.site.BaseURL + "/search/categories?" + url.Values{"place": {name}, "country": {country}}.Encode()
}

// statusWords says how far Daawid vouches for an entry, in the words of
// §2.3: never "certified", "trusted", "approved" or "recommended"
// (PRIV-35); an unclaimed entry is not confirmed by the business
// (PRIV-38) or person (PRIV-37); a lapsed one may be outdated (PRIV-39);
// at level contact only an email address was confirmed (PRIV-36).
func statusWords(st schemas.EntryStatus, level schemas.VerificationLevel, kind schemas.EntryKind) string {
	who := "the business"
	if kind == schemas.KindPerson {
		who = "this person"
	}
	switch {
	case st == schemas.StatusUnclaimed:
		return "compiled from public sources; not confirmed by " + who
	case st == schemas.StatusLapsed:
		return "verification lapsed; may be outdated"
	case level == schemas.LevelContact:
		return "provided by the owner; an email address confirmed, not who runs it"
	case st == schemas.StatusVerified:
		return "provided by " + who + "; verified (" + string(level) + ")"
	}
	return "provided by the owner"
}

// peoplePage is what the landing and search pages show.
type peoplePage struct {
	Title, Base, MCP, ServerCard string
	NoIndex                      bool
	// The search form's fields, as asked.
	Q, Place, Country, Category string
	Entries                     int64
	// The landing page: the most common categories and towns.
	Categories, Towns []facetLink
	// The search page: the answer, or the mistakes by parameter, and the
	// next page's address.
	Out    *schemas.SearchOutput
	Errors []string
	Next   string
	// The browse pages: their heading and list.
	Heading string
	List    []facetLink
	// Others are a town's entries without a category, by name: no
	// category search finds them.
	Others []facetLink
}

type facetLink struct {
	Name, Href string
	Entries    int
}

func (s *Server) peoplePage(title string) peoplePage {
	return peoplePage{Title: title, Base: s.site.BaseURL, MCP: s.site.MCPURL, ServerCard: render.ServerCardURL(s.site)}
}

// home is the landing page for people (issue 15): what Daawid is, the
// search box, the most common categories and towns, and the links for
// agents and developers.
func (s *Server) home(c *gin.Context, rd *query.Read) error {
	p := s.peoplePage("Daawid: an open registry of businesses and people")
	p.Entries = rd.Publication().Counts["entries"]
	f := rd.Browse("", "", "en")
	for _, c := range f.Categories[:min(len(f.Categories), homeFacets)] {
		p.Categories = append(p.Categories, facetLink{Name: c.Name, Href: s.categorySearch(c.Name, c.Code, "", ""), Entries: c.Entries})
	}
	for _, t := range f.Towns[:min(len(f.Towns), homeFacets)] {
		p.Towns = append(p.Towns, facetLink{Name: t.Name, Href: s.townCategories(t.Name, t.Country), Entries: t.Entries})
	}
	return s.writePage(c, http.StatusOK, homePage, p)
}

// searchPeople is the results page of the search box: GET /search with
// the parameters of GET /v1/search (q, place, category, cursor, …), run
// by the same query.Read.Search, so a person sees the ranking an agent
// gets (SEARCH-21). Mistakes are shown by the parameter's name (422).
// Results are for the person who asked, not for search engines.
func (s *Server) searchPeople(c *gin.Context, rd *query.Read) error {
	p := s.peoplePage("Search · Daawid")
	p.NoIndex = true
	p.Q, p.Place, p.Country, p.Category = c.Query("q"), c.Query("place"), c.Query("country"), c.Query("category")
	if len(c.Request.URL.RawQuery) == 0 {
		return s.writePage(c, http.StatusOK, searchPage, p)
	}
	if err := s.readAllowed(c); err != nil {
		return err
	}
	in, _, bad := searchInput(c)
	status := http.StatusOK
	var issues []query.Issue
	if len(bad) == 0 {
		out, err := rd.Search(in)
		if e, ok := query.AsError(err); ok && e.Code == query.CodeInvalidInput {
			issues = e.Issues
		} else if err != nil {
			return err
		} else {
			p.Out = &out
			if out.NextCursor != "" {
				next := c.Request.URL.Query()
				next.Set("cursor", out.NextCursor)
				p.Next = s.site.BaseURL + "/search?" + next.Encode()
			}
		}
	}
	for _, is := range append(bad, issues...) {
		field := is.Field
		if name, ok := searchParams[field]; ok {
			field = name
		}
		p.Errors = append(p.Errors, field+": "+is.Message)
		status = http.StatusUnprocessableEntity
	}
	if p.Q != "" {
		p.Title = p.Q + " · Daawid"
	}
	return s.writePage(c, status, searchPage, p)
}

// browseCategories lists the categories of the entries search finds,
// each a search by its name in that category; with place (and country),
// those of the entries in that town, searched there (issue 15).
func (s *Server) browseCategories(c *gin.Context, rd *query.Read) error {
	place, country := c.Query("place"), strings.ToUpper(c.Query("country"))
	p := s.peoplePage("Categories · Daawid")
	p.Heading, p.Place, p.Country = "Categories", place, country
	if place != "" {
		p.Title, p.Heading = "Categories in "+place+" · Daawid", "Categories in "+place
	}
	b := rd.Browse(place, country, "en")
	for _, f := range b.Categories {
		p.List = append(p.List, facetLink{Name: f.Name, Href: s.categorySearch(f.Name, f.Code, place, country), Entries: f.Entries})
	}
	if place != "" {
		for _, f := range b.Uncategorized {
			p.Others = append(p.Others, facetLink{Name: f.Name, Href: s.site.PageURL(f.Code), Entries: 1})
		}
	}
	return s.writePage(c, http.StatusOK, browsePage, p)
}

// browseTowns lists the towns of the entries search finds, each leading
// to its categories (issue 15).
func (s *Server) browseTowns(c *gin.Context, rd *query.Read) error {
	p := s.peoplePage("Towns · Daawid")
	p.Heading = "Towns"
	for _, f := range rd.Browse("", "", "en").Towns {
		p.List = append(p.List, facetLink{Name: f.Name + ", " + f.Country, Href: s.townCategories(f.Name, f.Country), Entries: f.Entries})
	}
	return s.writePage(c, http.StatusOK, browsePage, p)
}
