package render

import (
	"bytes"
	"html/template"
	"strings"
)

// The ranking policy (SEARCH-20): exactly what decides who search finds
// and in which order, published at /docs/ranking as a page and as
// markdown. It is written once here, as sections of points, and made
// into both, so the two never say different things.
var rankingPolicy = []struct {
	Title  string
	Points []string
}{
	{"Who can be found", []string{
		"Listed entries that are unclaimed, published, verified or lapsed. Unlisted, removed and suspended entries are never found.",
		"With a place (`near`), only entries that say where they are: a location or a service area, working anywhere included. People appear in place searches only when they state a location or a service area.",
	}},
	{"What leaves entries out", []string{
		"`kind`: the entry's kind. `category`: a category code the entry has, or a sector whose categories it has. `verifiedOnly`: status verified. `acceptingWork`: an unexpired capacity that is accepting or limited.",
		"`openAt`: only entries with a location open at that moment, by its hours in its own time zone (the location's, else its town's), dated exceptions and closures first. Entries that don't state their hours for that date are left out.",
		"`radiusKm`: entries farther than the radius, unless they serve the place. The limit is how far you will go; an entry that comes to you is not farther. There is no default radius.",
		"Words: an entry must match half of the query's words (rounded up), never more than two. A very common word (found in more than a fiftieth of the entries, such as `shop`) adds to the fit but does not find entries alone when the query has rarer words.",
	}},
	{"How words match", []string{
		"Words are compared folded: case, accents and compatibility forms do not matter (`MÜNCHEN` is `munchen`), a German `ue` is also read as `ü`, and common words such as `für`, `the` or `pour` are left out. Each word is also compared by its stem, in the language you write in (`language`), or in every language with a stemmer when none is given.",
		"A word of four letters or more also matches the words it begins or ends (`schrank` finds `Einbauschrank`).",
		"An entry's words are its names, summary, description, offerings and the towns of its locations, in every language it has; and the everyday words of each of its categories (their names and the OpenStreetMap search terms, in more than 47 languages), which count the same for every entry of the category.",
		"A word found in a name, a category's words or an offering's name counts 2; found only in a summary, description or town, 1. The sum is the entry's fit. The words of `outcome` count the same way, only for the order of what the query found, and never leave anyone out.",
	}},
	{"Places", []string{
		"Places are GeoNames' (GeoNames, geonames.org, CC BY 4.0). A town is found by any of its names, narrowed by what follows a comma (`Paris, Texas`); a postal code by the whole code or its first part, with its country; a code GeoNames does not have but entries give is placed where the first of them is, in its town. A name nobody knows, and no entry gives, may be read as a misspelling of a large town's; the answer's `place.correctedFrom` then has the name as you wrote it.",
		"Each entry is placed by the point it states, else its postal code, else its town.",
		"Tier 1: entries in the place (for a postal code: with a code that begins with it) or serving it by name, region, country or radius. Tier 2: entries that work anywhere. Tier 3: every other entry that says where it is. An entry that serves your place comes before a nearer one that doesn't.",
		"A place Daawid doesn't know is matched by the names of the towns entries give. `distanceKm` is to the nearest location, else to the nearest place served.",
	}},
	{"The order", []string{
		"1. Tier, with a place. 2. Fit, higher first. 3. Outcome fit, higher first. 4. For tier 3, distance in whole 10 km steps, nearer first. 5. Turns.",
		"Turns: entries equal in all of the above take turns near the top, because apps mostly read the first page. They are ordered by a hash of the hour (UTC) and the entry's ID: the order is the same for everyone within the hour and changes every hour.",
		"Nothing else counts: never who asks, never money, never the verification level. No hit is sponsored (`sponsored` is always `false`).",
		"A `nextCursor` pages on through the same order, in the hour the first page was made.",
	}},
}

// RankingPolicyMarkdown is the ranking policy as markdown.
func RankingPolicyMarkdown(s Site) []byte {
	var b strings.Builder
	b.WriteString("# How Daawid search ranks\n\nSearch (`GET " + s.APIURL + "/v1/search`, the MCP tool `search`) finds entries and orders them by what is written here, and by nothing else.\n")
	for _, sec := range rankingPolicy {
		b.WriteString("\n## " + sec.Title + "\n\n")
		for _, p := range sec.Points {
			b.WriteString("- " + p + "\n")
		}
	}
	return []byte(b.String())
}

// RankingPolicyPage is the ranking policy as a page for people.
func RankingPolicyPage(s Site) []byte {
	type section struct {
		Title  string
		Points []template.HTML
	}
	var secs []section
	for _, sec := range rankingPolicy {
		out := section{Title: sec.Title}
		for _, p := range sec.Points {
			out.Points = append(out.Points, codeSpans(p))
		}
		secs = append(secs, out)
	}
	var b bytes.Buffer
	if err := rankingPage.Execute(&b, map[string]any{"Base": s.BaseURL, "API": s.APIURL, "Sections": secs}); err != nil {
		panic("render: ranking policy: " + err.Error())
	}
	return b.Bytes()
}

// codeSpans escapes a point and makes its `code` spans <code>.
func codeSpans(p string) template.HTML {
	parts := strings.Split(p, "`")
	var b strings.Builder
	for i, part := range parts {
		esc := template.HTMLEscapeString(part)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + esc + "</code>")
		} else {
			b.WriteString(esc)
		}
	}
	return template.HTML(b.String())
}

var rankingPage = template.Must(template.New("ranking").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>How Daawid search ranks</title>
<link rel="alternate" type="text/markdown" href="{{.Base}}/docs/ranking.md">
<style>
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1b1b1b}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
</style>
</head>
<body>
<header><a href="{{.Base}}/">Daawid</a></header>
<main>
<h1>How Daawid search ranks</h1>
<p>Search (<code>GET {{.API}}/v1/search</code>, the MCP tool <code>search</code>) finds entries and orders them by what is written here, and by nothing else.</p>
{{range .Sections}}<section>
<h2>{{.Title}}</h2>
<ul>
{{range .Points}}<li>{{.}}</li>
{{end}}</ul>
</section>
{{end}}</main>
</body>
</html>
`))
