package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/daawid/registry/schemas"
)

// The registry-level discovery files of §5 and the AWP files (document
// 001). Like the projections they are pure: the site and what is published
// in, bytes out.

// LLMSTxt is the single registry-level llms.txt (DISC-01, DISC-04), with
// the site's base URLs.
func LLMSTxt(s Site) []byte {
	var b strings.Builder
	b.WriteString("# Daawid\n\n")
	b.WriteString("> Open registry of owner-declared information about people and organizations (facts, offerings, prices, capacity, policies, contact routing, actions) for AI systems. Every entry is available as markdown and JSON-LD.\n\n")
	fmt.Fprintf(&b, "Entry markdown: %s/{slug}.md · Entry JSON-LD: %s/{slug}.json · Look up the entry for a website: %s/v1/entries/by-domain/{host} · Search: %s/v1/search?q={query}&place={city} · MCP server: %s\n\n",
		s.BaseURL, s.BaseURL, s.APIURL, s.APIURL, s.MCPURL)
	b.WriteString("## Docs\n")
	fmt.Fprintf(&b, "- [Data contract](%s/docs/data-contract.md): shapes, provenance and freshness rules\n", s.BaseURL)
	fmt.Fprintf(&b, "- [Entry schema](%s/docs/entry-schema.md): what an entry holds\n", s.BaseURL)
	fmt.Fprintf(&b, "- [Identifiers](%s/docs/identifiers.md): IDs, addresses and the pointer on an owner's domain\n", s.BaseURL)
	fmt.Fprintf(&b, "- [Verification](%s/docs/verification.md): what \"verified\" means and what it does not\n\n", s.BaseURL)
	b.WriteString("## Optional\n")
	fmt.Fprintf(&b, "- [Sitemap](%s/sitemap.xml)\n", s.BaseURL)
	// PRIV-25, DISC-09: the one public price list of the feeds that need
	// a key, after §5's lines so those stay as the contract prints them.
	fmt.Fprintf(&b, "- [Price list](%s/docs/prices.md): bulk exports and the change feed; individual entries are free\n", s.BaseURL)
	return []byte(b.String())
}

// RobotsTxt is robots.txt (DISC-07): one group for every consumer, the same
// content signals for all (DISC-08).
func RobotsTxt(s Site) []byte {
	return []byte("User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nSitemap: " + s.BaseURL + "/sitemap.xml\n")
}

// ServerCardMediaType is the server card's media type (DISC-11).
const ServerCardMediaType = "application/mcp-server-card+json"

// ServerCard is the MCP server card (DISC-13, DISC-14), laid out as §5
// prints it.
func ServerCard(s Site) []byte {
	var b strings.Builder
	b.WriteString("{\n")
	b.WriteString(`  "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",` + "\n")
	b.WriteString(`  "name": "com.daawid/registry",` + "\n")
	b.WriteString(`  "title": "Daawid",` + "\n")
	b.WriteString(`  "version": "0.1.0",` + "\n")
	b.WriteString(`  "description": "Search an open registry of people and organizations, and read what they declare about themselves.",` + "\n")
	b.WriteString(`  "websiteUrl": ` + jsonString(s.BaseURL) + ",\n")
	b.WriteString(`  "remotes": [` + "\n")
	b.WriteString(`    { "type": "streamable-http", "url": ` + jsonString(s.MCPURL) + `, "supportedProtocolVersions": ["2026-07-28", "2025-11-25"] }` + "\n")
	b.WriteString("  ]\n}\n")
	return []byte(b.String())
}

// ServerCardURL is where the server card is served (DISC-10).
func ServerCardURL(s Site) string { return s.MCPURL + "/server-card" }

// AICatalogMediaType is the AI Catalog's media type (draft).
const AICatalogMediaType = "application/ai-catalog+json"

// AICatalog is /.well-known/ai-catalog.json (DISC-15), in the AI Catalog
// draft's shape: the host, and one entry pointing to the server card
// (decision D58).
func AICatalog(s Site) []byte {
	cat := map[string]any{
		"specVersion": "1.0",
		"host":        map[string]any{"displayName": "Daawid", "identifier": s.BaseURL},
		"entries": []any{map[string]any{
			"identifier":  "com.daawid/registry",
			"displayName": "Daawid",
			"description": "Search an open registry of people and organizations, and read what they declare about themselves.",
			"type":        ServerCardMediaType,
			"url":         ServerCardURL(s),
		}},
	}
	return indentJSON(cat)
}

// Published is what the registry-level files need to know about one
// listed entry of a publication.
type Published struct {
	ID, Slug, Name string
	Languages      []string // the entry's languages, default first
	Modified       time.Time
	Tokens         int // estimated tokens of its default-language markdown
	Categories     []string
	Listed         bool
}

// AWPDiscovery is /.well-known/agentic-web-protocol.json (AWP-01, AWP-08 to
// AWP-17). Reads need no key, so there is no authentication requirement
// (PRIV-23, decision D58); the rate limit is the fair-use limit (MCP-78).
func AWPDiscovery(s Site, updated time.Time) []byte {
	m := ordered{
		{"version", "1.0"},
		{"name", "Daawid"},
		{"description", "Open registry of owner-declared information about people and organizations (facts, offerings, prices, capacity, policies, contact routing, actions) for AI systems."},
		{"capabilities", []string{"content", "api", "search", "mcp"}},
		{"endpoints", ordered{{"manifest", "/awp/manifest.json"}, {"content", "/awp/content/"}, {"api", "/awp/api/"}, {"mcp", "/awp/mcp/mcp.json"}}},
		{"authentication", ordered{{"required", false}}},
		{"rate_limits", ordered{{"requests_per_minute", 300}}},
		{"agent_instructions", "/llms.txt"},
		{"updated_at", schemas.FormatTime(updated)},
	}
	return indentJSON(m)
}

// AWPManifest is /awp/manifest.json (AWP-18 to AWP-26).
func AWPManifest(s Site, updated time.Time, entries int) []byte {
	m := ordered{
		{"awp_version", "1.0"},
		{"site", ordered{{"name", "Daawid"}, {"url", s.BaseURL}, {"language", "mul"}, {"updated_at", schemas.FormatTime(updated)}}},
		{"content", ordered{{"entries", entries}, {"structure", "/awp/content/structure.json"}, {"updates", "/awp/content/feeds/updates.json"},
			{"formats", []string{"text/markdown", "application/ld+json", "text/html"}},
			{"entry_markdown", s.BaseURL + "/{slug}.md"}, {"entry_jsonld", s.BaseURL + "/{slug}.json"}, {"llms_txt", s.BaseURL + "/llms.txt"}}},
		{"capabilities", []any{
			ordered{{"type", "content"}, {"description", "Every entry as markdown, JSON-LD and HTML."}},
			ordered{{"type", "api"}, {"description", "REST mirror of the reads."}, {"base_url", s.APIURL + "/v1"}, {"openapi", s.APIURL + "/schemas/0.1/openapi.json"}},
			ordered{{"type", "search"}, {"description", "Search by words, place, opening hours and category."}, {"url", s.APIURL + "/v1/search"}},
			ordered{{"type", "mcp"}, {"description", "MCP server over Streamable HTTP."}, {"config", "/awp/mcp/mcp.json"}},
		}},
		{"api", ordered{{"base_url", s.APIURL + "/v1"}, {"functions", "/awp/api/tools/functions.json"}, {"authentication", ordered{{"required", false}}}}},
		{"cache_control", ordered{{"entries", "public, max-age=300"}, {"discovery", "public, max-age=3600"}}},
		{"cors", ordered{{"allow_origin", "*"}}},
		{"agent_hints", ordered{{"prefer", "markdown"}, {"sponsored", false}, {"same_data_for_every_reader", true}}},
	}
	return indentJSON(m)
}

// StructurePagesMax is how many pages a section of the content structure
// lists (the first by slug); a section says how many it has in all, and
// the sitemap lists every page (decision D58).
const StructurePagesMax = 1000

// AWPStructure is /awp/content/structure.json (AWP-27 to AWP-30): the
// listed entries as pages, in one section per category sector, each page
// with its markdown's token estimate. entries must be sorted by slug.
func AWPStructure(s Site, generated time.Time, entries []Published, sectorOf func(category string) (id, title string)) []byte {
	bySector := map[string]*schemas.StructureSection{}
	var order []string
	for _, e := range entries {
		if !e.Listed {
			continue
		}
		id, title := "other", "Other"
		if len(e.Categories) > 0 && sectorOf != nil {
			id, title = sectorOf(e.Categories[0])
		}
		sec := bySector[id]
		if sec == nil {
			sec = &schemas.StructureSection{ID: id, Title: title}
			bySector[id] = sec
			order = append(order, id)
		}
		if len(sec.List) < StructurePagesMax {
			sec.List = append(sec.List, schemas.StructurePage{Title: e.Name, Path: "/" + e.Slug + ".md", Tokens: e.Tokens, Tags: e.Categories})
		}
		sec.Tokens += e.Tokens
		sec.Pages++
	}
	sort.Strings(order)
	secs := make([]schemas.StructureSection, 0, len(order))
	for _, id := range order {
		secs = append(secs, *bySector[id])
	}
	return AWPStructureOf(generated, secs)
}

// AWPStructureOf writes the content structure from its sections, sorted
// by ID.
func AWPStructureOf(generated time.Time, sections []schemas.StructureSection) []byte {
	total, pages := 0, 0
	secs := make([]any, 0, len(sections))
	for _, sec := range sections {
		list := make([]any, 0, len(sec.List))
		for _, p := range sec.List {
			tags := p.Tags
			if tags == nil {
				tags = []string{}
			}
			list = append(list, ordered{{"title", p.Title}, {"path", p.Path}, {"token_count", p.Tokens}, {"tags", tags}})
		}
		secs = append(secs, ordered{{"id", sec.ID}, {"title", sec.Title}, {"token_count", sec.Tokens}, {"total_pages", sec.Pages}, {"pages", list}})
		total += sec.Tokens
		pages += sec.Pages
	}
	m := ordered{
		{"version", "1.0"},
		{"site_name", "Daawid"},
		{"generated_at", schemas.FormatTime(generated)},
		{"total_pages", pages},
		{"total_tokens", total},
		{"sections", secs},
	}
	return indentJSON(m)
}

// AWPMCP is /awp/mcp/mcp.json (AWP-37 to AWP-41).
func AWPMCP(s Site) []byte {
	return indentJSON(ordered{
		{"url", s.MCPURL},
		{"transport", "http"},
		{"authentication", ordered{{"required", false}, {"type", "none"}}},
		{"mcp_version", "2026-07-28"},
	})
}

// ordered is a JSON object that keeps its keys in the order given.
type ordered []struct {
	k string
	v any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(kv.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func indentJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic("render: " + err.Error())
	}
	var b bytes.Buffer
	json.Indent(&b, raw, "", "  ")
	b.WriteByte('\n')
	return b.Bytes()
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// SitemapLimit is how many URLs one sitemap file holds at most (the
// sitemaps.org limit).
const SitemapLimit = 50_000

// SitemapURL is one line of a sitemap: a page and its lastmod.
func SitemapURL(loc string, lastmod time.Time) string {
	var b bytes.Buffer
	b.WriteString("<url><loc>")
	xml.EscapeText(&b, []byte(loc))
	b.WriteString("</loc><lastmod>" + lastmod.UTC().Format(time.RFC3339) + "</lastmod></url>\n")
	return b.String()
}

// SitemapURLSet wraps sitemap lines (SitemapURL's) into a sitemap file.
func SitemapURLSet(lines string) []byte {
	b := make([]byte, 0, len(SitemapURLSetHead)+len(lines)+len(SitemapURLSetTail))
	b = append(b, SitemapURLSetHead...)
	b = append(b, lines...)
	return append(b, SitemapURLSetTail...)
}

// The urlset around a sitemap's lines: SitemapURLSet is the head, the
// lines and the tail; a delta builds its parts from them directly.
const (
	SitemapURLSetHead = xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	SitemapURLSetTail = "</urlset>\n"
)

// SitemapIndex is the index of sitemap parts, each with its newest
// lastmod.
func SitemapIndex(s Site, names []string, lastmods []time.Time) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i, name := range names {
		b.WriteString("<sitemap><loc>" + s.BaseURL + "/sitemaps/" + name + "</loc><lastmod>" + lastmods[i].UTC().Format(time.RFC3339) + "</lastmod></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes()
}

// Sitemaps are sitemap.xml and, past SitemapLimit URLs, the parts it
// indexes (sitemap-1.xml, …, under /sitemaps/). Only listed entries
// appear (unlisted entries are absent from sitemaps), each with its page
// in every language and lastmod. entries must be sorted by slug. The parts
// are returned by name; an empty map when one file holds everything.
func Sitemaps(s Site, entries []Published, limit int) (index []byte, parts map[string][]byte) {
	if limit <= 0 {
		limit = SitemapLimit
	}
	type u struct {
		line    string
		lastmod time.Time
	}
	var urls []u
	for _, e := range entries {
		if !e.Listed {
			continue
		}
		for i, l := range e.Languages {
			loc := s.PageURL(e.Slug)
			if i > 0 {
				loc += "/" + l
			}
			urls = append(urls, u{SitemapURL(loc, e.Modified), e.Modified})
		}
	}
	join := func(list []u) string {
		var b strings.Builder
		for _, x := range list {
			b.WriteString(x.line)
		}
		return b.String()
	}
	parts = map[string][]byte{}
	if len(urls) <= limit {
		return SitemapURLSet(join(urls)), parts
	}
	var names []string
	var lastmods []time.Time
	for i := 0; i*limit < len(urls); i++ {
		part := urls[i*limit : min((i+1)*limit, len(urls))]
		name := fmt.Sprintf("sitemap-%d.xml", i+1)
		parts[name] = SitemapURLSet(join(part))
		last := part[0].lastmod
		for _, x := range part {
			if x.lastmod.After(last) {
				last = x.lastmod
			}
		}
		names, lastmods = append(names, name), append(lastmods, last)
	}
	return SitemapIndex(s, names, lastmods), parts
}

// Update is one change the AWP updates file lists (AWP-32): the entry's
// name as its title and its markdown's token estimate, both empty for an
// entry that is gone (its name is no longer published).
type Update struct {
	Type, ID, Path, Title string
	At                    time.Time
	Seq                   int64
	Tokens                int
}

// AWPUpdatesPath is the AWP updates file (AWP-31); AWPUpdatesPagePath is
// its numbered page n, which holds the changes numbered (n-1)·size+1 to
// n·size of the change feed and never changes once published.
const AWPUpdatesPath = "/awp/content/feeds/updates.json"

// AWPUpdatesPagePath is the path of the updates file's page n.
func AWPUpdatesPagePath(n int64) string { return fmt.Sprintf("/awp/content/feeds/updates-%d.json", n) }

// AWPUpdates is /awp/content/feeds/updates.json and each of its numbered
// pages (AWP-31 to AWP-33): changes in feed order, newest last, each with
// its feed sequence number. next is the page of the changes before these
// ("" when none is published): has_more is true exactly when there is one
// to follow. The registry syncs every minute (delta publications).
func AWPUpdates(lastSync time.Time, changes []Update, next string) []byte {
	list := make([]any, 0, len(changes))
	for _, c := range changes {
		list = append(list, ordered{{"type", c.Type}, {"id", c.ID}, {"timestamp", schemas.FormatTime(c.At)}, {"path", c.Path},
			{"title", c.Title}, {"token_count", c.Tokens}, {"seq", c.Seq}})
	}
	m := ordered{
		{"version", "1.0"},
		{"last_sync", schemas.FormatTime(lastSync)},
		{"sync_interval_seconds", 60},
		{"changes", list},
		{"has_more", next != ""},
	}
	if next != "" {
		m = append(m, ordered{{"next", next}}...)
	}
	return indentJSON(m)
}

// AWPContentIndex is /awp/content/, the content endpoint of the discovery
// manifest (AWP-08): the AWP schema reference names the folder but gives
// it no document, so it answers with an index of what the folder holds
// and where an entry's own documents are, rather than a dead end.
func AWPContentIndex(s Site) []byte {
	return indentJSON(ordered{
		{"version", "1.0"},
		{"path", "/awp/content/"},
		{"description", "What the registry publishes for agents: the content structure, the change log and every entry's documents."},
		{"children", []any{
			ordered{{"name", "structure.json"}, {"path", "/awp/content/structure.json"}, {"type", "application/json"},
				{"description", "The content tree: one section per sector, its listed entries as pages with their token counts."}},
			ordered{{"name", "feeds/updates.json"}, {"path", AWPUpdatesPath}, {"type", "application/json"},
				{"description", "The latest changes, newest last; has_more and next lead to the numbered pages of older changes."}},
		}},
		{"entries", ordered{{"markdown", s.BaseURL + "/{slug}.md"}, {"json_ld", s.BaseURL + "/{slug}.json"}, {"html", s.BaseURL + "/{slug}"},
			{"sitemap", s.BaseURL + "/sitemap.xml"}}},
	})
}

// AWPAPIIndex is /awp/api/, the api endpoint of the discovery manifest
// (AWP-08): an index of the callable functions and the REST API they
// mirror, for the same reason as AWPContentIndex.
func AWPAPIIndex(s Site) []byte {
	return indentJSON(ordered{
		{"version", "1.0"},
		{"path", "/awp/api/"},
		{"description", "How agents call the registry: the functions (the MCP tools) and the REST API that mirrors them."},
		{"children", []any{
			ordered{{"name", "tools/functions.json"}, {"path", "/awp/api/tools/functions.json"}, {"type", "application/json"},
				{"description", "Every function with its parameters as JSON Schema and the MCP tool that runs it."}},
		}},
		{"rest", ordered{{"openapi", s.APIURL + "/schemas/0.1/openapi.json"}, {"docs", s.BaseURL + "/docs/api"}}},
		{"mcp", "/awp/mcp/mcp.json"},
		{"authentication", ordered{{"required", false}}},
	})
}

// AWPFunctions is /awp/api/tools/functions.json (AWP-34 to AWP-36),
// generated from the same tool specs as the MCP tool list: each tool (the
// reads and the request tools) with its input schema as parameters, and
// where to call it.
func AWPFunctions(s Site, tools []schemas.ToolSpec) []byte {
	list := make([]any, 0, len(tools))
	for _, t := range tools {
		list = append(list, ordered{{"name", t.Name}, {"description", t.Description}, {"parameters", t.Input}, {"tags", t.Tags},
			{"mcp_tool", t.Name}, {"endpoint", s.MCPURL}})
	}
	return indentJSON(ordered{{"version", "1.0"}, {"functions", list}})
}

// RegistryPages are the registry-level pages that depend only on the
// engine and the site: the API and ranking documentation, the vocabulary
// (/ns) and the published schemas, in path order. The publication holds
// them with its other registry-level files (rendered once, at publish);
// the server serves them from there.
func RegistryPages(s Site) []Document { return renderSpecs(registryPageSpecs(s)) }

// renderSpecs renders pages.
func renderSpecs(specs []pageSpec) []Document {
	out := make([]Document, len(specs))
	for i, p := range specs {
		out[i] = Document{Path: p.path, MediaType: p.media, Body: p.body()}
	}
	return out
}

// RegistryPagePaths are the paths of RegistryPages, in the same order,
// without rendering any: a delta publication that keeps the pages checks
// it has them all by these.
func RegistryPagePaths(s Site) []string {
	specs := registryPageSpecs(s)
	out := make([]string, len(specs))
	for i, p := range specs {
		out[i] = p.path
	}
	return out
}

// pageSpec is a registry page before it is rendered.
type pageSpec struct {
	path, media string
	body        func() []byte
}

func registryPageSpecs(s Site) []pageSpec {
	const html = "text/html; charset=utf-8"
	out := []pageSpec{
		{"/docs/api", html, func() []byte { return APIDocs(s) }},
		{"/docs/ranking", html, func() []byte { return RankingPolicyPage(s) }},
		{"/docs/ranking.md", "text/markdown; charset=utf-8", func() []byte { return RankingPolicyMarkdown(s) }},
		{"/ns", html, func() []byte { return NamespaceHTML(s) }},
		{"/ns.jsonld", "application/ld+json", func() []byte { return NamespaceJSONLD(s) }},
		{"/schemas/0.1/openapi.json", "application/vnd.oai.openapi+json", func() []byte { return schemas.OpenAPI(s.APIURL, s.BaseURL) }},
	}
	out = append(out, docsPageSpecs(s)...) // DISC-06, PRIV-25, PRIV-02: render/docs.go
	for name, b := range schemas.SchemaFiles() {
		if name != "openapi.json" {
			out = append(out, pageSpec{"/schemas/0.1/" + name, "application/schema+json", func() []byte { return b }})
		}
	}
	slices.SortFunc(out, func(a, b pageSpec) int { return strings.Compare(a.path, b.path) })
	return out
}
