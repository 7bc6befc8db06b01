package rest_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// routesOutsideOpenAPI are the routes Gin serves that the OpenAPI
// document leaves out on purpose, in Gin's syntax, each with the reason.
// Method "*" is every method (Gin's Any). Besides these, every GET route
// answers HEAD (REST-39), which the document does not list apart.
var routesOutsideOpenAPI = []struct{ method, path, why string }{
	{"OPTIONS", "/v1/actions/:actionId/runs", "the CORS preflight of starting a request: a browser's question before its POST, not an operation"},
	{"GET", "/v1/actions/:actionId/runs", "every view links an action's runs address; a GET of it answers 405 with Allow and says how a request is started"},
	{"GET", "/schemas/0.1/:file", "the published JSON Schemas and this OpenAPI document: files on the pages host, not operations"},
	{"GET", "/docs/api", "the API's page for people (REST-13), on the pages host"},
	{"GET", "/search", "the search box's results page for people (issue 15): the same search as GET /v1/search, as HTML"},
	{"GET", "/search/categories", "browsing by category, a page for people (issue 15)"},
	{"GET", "/search/towns", "browsing by town, a page for people (issue 15)"},
	{"GET", "/docs/ranking", "the ranking policy, a page for people"},
	{"GET", "/docs/ranking.md", "the ranking policy as markdown, for people and agents reading pages"},
	{"GET", "/ns", "the daawid: vocabulary's page"},
	{"GET", "/ns.jsonld", "the daawid: vocabulary as JSON-LD"},
	{"GET", "/healthz", "operations: a health check on any host, not part of the API"},
	{"GET", "/readyz", "operations: readiness on any host, not part of the API"},
	{"*", "/mcp", "the MCP endpoint (HTTP-06): its own protocol (§7), on the MCP host"},
	{"*", "/mcp/*rest", "below the MCP endpoint: the server card (a registry-level file) and the MCP server's own answers"},
	{"GET", "/.well-known/oauth-authorization-server", "the authorization server's metadata (RFC 8414): OAuth for the owner tools (§7.2), not the REST API"},
	{"GET", "/.well-known/oauth-protected-resource", "the MCP endpoint's protected-resource metadata (RFC 9728, MCP-17), on the MCP host"},
	{"GET", "/.well-known/oauth-protected-resource/mcp", "the MCP endpoint's protected-resource metadata at its path-specific address (RFC 9728, MCP-17)"},
	{"GET", "/jwks", "the keys that verify the owner tools' access tokens (MCP-18)"},
	{"GET", "/authorize", "OAuth's authorization endpoint for the owner tools (PKCE S256, public clients, iss in every answer)"},
	{"POST", "/token", "OAuth's token endpoint for the owner tools (MCP-18, MCP-19)"},
	{"GET", "/connect/:token", "the owner's sign-in and consent page for an app (MCP-16), a page for people"},
	{"POST", "/connect/:token/:step", "the connect page's forms: the email, the code, allow or deny (MCP-16)"},
	{"GET", "/connect/:token/entries/:entry", "the signed-in owner's download of an entry in the open format (PRIV-29), from the connect page"},
	{"GET", "/owner/confirm/:token", "the page an owner's email links to, showing a change that waits for the owner (MCP-26), a page for people"},
	{"POST", "/owner/confirm/:token", "the confirmation of a waiting change (MCP-26): a POST, so mail scanners confirm nothing"},
}

// normPath is a path with every parameter as {}: OpenAPI's {x} and
// Gin's :x and *x alike.
func normPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			segs[i] = "{}"
		}
	}
	return strings.Join(segs, "/")
}

// TestRoutes_REST13_GinMatchesOpenAPI: every operation of the OpenAPI
// document (REST-13) is a route Gin serves, with the same method and path
// ({x} as :x or *x), on the API host's /v1 (REST-01); every route Gin
// serves is one of the document's, or listed in routesOutsideOpenAPI with
// a reason; every GET answers HEAD too (REST-39).
func TestRoutes_REST13_GinMatchesOpenAPI(t *testing.T) {
	srv, err := rest.New(rest.Config{}, query.NewService(query.NewSnapshots(t.TempDir()), reg.Site))
	if err != nil {
		t.Fatal(err)
	}
	engine, ok := srv.Handler().(*gin.Engine)
	if !ok {
		t.Fatalf("the handler is a %T, not Gin's engine", srv.Handler())
	}
	type route struct{ method, path string } // path normalized
	ginRoutes := map[route]string{}          // → Gin's path
	for _, r := range engine.Routes() {
		ginRoutes[route{r.Method, normPath(r.Path)}] = r.Path
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(schemas.OpenAPI(reg.Site.APIURL, reg.Site.BaseURL), &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[route]bool{}
	for path, ops := range doc.Paths {
		if !strings.HasPrefix(path, "/v1/") {
			t.Errorf("%s is not under /v1, the API host's part of the paths (REST-01)", path)
		}
		for m := range ops {
			r := route{strings.ToUpper(m), normPath(path)}
			documented[r] = true
			if _, ok := ginRoutes[r]; !ok {
				t.Errorf("the OpenAPI document has %s %s, which Gin does not serve", r.method, path)
			}
			if r.method == http.MethodGet {
				if _, ok := ginRoutes[route{http.MethodHead, r.path}]; !ok {
					t.Errorf("GET %s answers no HEAD (REST-39)", path)
				}
			}
		}
	}
	if len(documented) < 10 {
		t.Fatalf("only %d operations in the OpenAPI document", len(documented))
	}
	outside := func(method, ginPath string) bool {
		return slices.ContainsFunc(routesOutsideOpenAPI, func(o struct{ method, path, why string }) bool {
			return o.path == ginPath && (o.method == method || o.method == "*")
		})
	}
	for r, ginPath := range ginRoutes {
		switch {
		case documented[r]:
			if outside(r.method, ginPath) {
				t.Errorf("%s %s is in the OpenAPI document and in routesOutsideOpenAPI", r.method, ginPath)
			}
		case outside(r.method, ginPath):
		case r.method == http.MethodHead && ginRoutes[route{http.MethodGet, r.path}] != "":
			// The HEAD of a GET route (REST-39).
		default:
			t.Errorf("Gin serves %s %s, which the OpenAPI document does not have: describe it in schemas.APIRoutes, or list it in routesOutsideOpenAPI with the reason", r.method, ginPath)
		}
	}
	served := map[string]bool{}
	for _, r := range engine.Routes() {
		served[r.Method+" "+r.Path] = true
	}
	for _, o := range routesOutsideOpenAPI {
		if o.why == "" {
			t.Errorf("%s %s: no reason", o.method, o.path)
		}
		if o.method == "*" {
			o.method = http.MethodGet
		}
		if !served[o.method+" "+o.path] {
			t.Errorf("routesOutsideOpenAPI lists %s %s, which Gin does not serve", o.method, o.path)
		}
	}
}

// TestRoutes_GinPath: an OpenAPI path in Gin's syntax. A parameter takes
// the name an earlier route gave the same segment, since Gin names a
// wildcard segment once, and the renames say so; a tail parameter takes
// the rest of the path.
func TestRoutes_GinPath(t *testing.T) {
	names := map[string]string{}
	for _, c := range []struct {
		path    string
		tail    bool
		want    string
		renames map[string]string
	}{
		{"/v1/entries/{id}", false, "/v1/entries/:id", nil},
		{"/v1/entries/by-slug/{slug}", false, "/v1/entries/by-slug/:slug", nil},
		{"/v1/entries/{entry}/offerings", false, "/v1/entries/:id/offerings", map[string]string{"id": "entry"}},
		{"/v1/actions/{actionId}/runs", false, "/v1/actions/:actionId/runs", nil},
		{"/v1/exports/{file}", true, "/v1/exports/*file", nil},
		{"/v1/search", false, "/v1/search", nil},
	} {
		got, renames := rest.GinPath(c.path, c.tail, names)
		if got != c.want || !maps.Equal(renames, c.renames) {
			t.Errorf("%s: %s %v, want %s %v", c.path, got, renames, c.want, c.renames)
		}
	}
}

// TestRoutes_REST01_MirroredTools: each API route that mirrors MCP tools
// (the OpenAPI document's x-mcp-tool, REST-01) names tools the MCP server
// has, and every tool has its route, so the route table and the tool
// list cannot drift apart by name.
func TestRoutes_REST01_MirroredTools(t *testing.T) {
	tools := map[string]bool{}
	for _, spec := range append(schemas.ReadTools(), schemas.RequestTools()...) {
		tools[spec.Name] = true
	}
	mirrored := map[string]bool{}
	for _, rt := range schemas.APIRoutes() {
		if rt.Tool == "" {
			continue
		}
		for _, name := range strings.Split(rt.Tool, " / ") {
			name, _, _ = strings.Cut(name, "(") // get_entry({domain})
			if !tools[name] {
				t.Errorf("%s %s mirrors %q, which is no MCP tool", rt.Method, rt.Path, name)
			}
			mirrored[name] = true
		}
	}
	for name := range tools {
		if !mirrored[name] {
			t.Errorf("no route mirrors the MCP tool %s", name)
		}
	}
}
