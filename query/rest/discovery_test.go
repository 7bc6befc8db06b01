package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDiscovery_Section5: the registry-level files, served as published;
// llms.txt and robots.txt byte for byte as §5 shows them.
func TestDiscovery_Section5(t *testing.T) {
	ts := newServer(t)
	cases := []struct{ path, media string }{
		{"/llms.txt", "text/plain; charset=utf-8"},
		{"/robots.txt", "text/plain; charset=utf-8"},
		{"/sitemap.xml", "application/xml"},
		{"/.well-known/ai-catalog.json", "application/ai-catalog+json"},
		{"/mcp/server-card", "application/mcp-server-card+json"},
		{"/.well-known/agentic-web-protocol.json", "application/json"},
		{"/awp/manifest.json", "application/json"},
		{"/awp/mcp/mcp.json", "application/json"},
		{"/awp/api/tools/functions.json", "application/json"},
		{"/awp/content/feeds/updates.json", "application/json"},
		{"/awp/content/structure.json", "application/json"},
	}
	for _, c := range cases {
		resp, body := ts.get(t, c.path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.media) || len(body) == 0 ||
			resp.Header.Get("ETag") == "" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d %q etag %q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("ETag"))
		}
	}
	for path, want := range map[string][]byte{"/llms.txt": fixtures.LLMSTxt(), "/robots.txt": fixtures.Spec("robots.txt")} {
		if _, body := ts.get(t, path); !bytes.Equal(body, want) {
			t.Errorf("%s differs from §5", path)
		}
	}
}

// TestSchemas_REST13_PRIV02: the published schemas and the OpenAPI
// document, and every answer of the REST mirror conforms to its OpenAPI
// schema (the document is generated from the answers' Go types).
func TestSchemas_REST13_PRIV02(t *testing.T) {
	ts := newServer(t)
	for _, name := range []string{"entry.json", "entry-view.json", "offering-view.json", "brand-kit-view.json", "openapi.json"} {
		resp, body := ts.get(t, "/schemas/0.1/"+name)
		if resp.StatusCode != 200 || !json.Valid(body) || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d", name, resp.StatusCode)
		}
	}
	_, doc := ts.get(t, "/schemas/0.1/openapi.json")
	var oa map[string]any
	if err := json.Unmarshal(doc, &oa); err != nil {
		t.Fatal(err)
	}
	if oa["openapi"] != "3.1.1" || oa["servers"].([]any)[0].(map[string]any)["url"] != reg.Site.APIURL {
		t.Errorf("openapi %v, servers %v", oa["openapi"], oa["servers"])
	}
	// Validate real answers against the components they claim.
	c := jsonschema.NewCompiler()
	var raw any
	json.Unmarshal(doc, &raw)
	if err := c.AddResource("https://api.daawid.example/openapi.json", raw); err != nil {
		t.Fatal(err)
	}
	check := func(component, path string, wantStatus int) {
		s, err := c.Compile("https://api.daawid.example/openapi.json#/components/schemas/" + component)
		if err != nil {
			t.Fatalf("%s: %v", component, err)
		}
		resp, body := ts.get(t, path, "Authorization: Bearer "+reg.BuyerKey)
		if resp.StatusCode != wantStatus {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("%s does not conform to %s: %v", path, component, err)
		}
	}
	for _, e := range fixtures.Entries() {
		if e.Status == schemas.StatusUnclaimed {
			continue
		}
		for _, lang := range e.Languages {
			check("EntryView", "/v1/entries/"+e.ID+"?lang="+lang, 200)
		}
		check("EntryView", "/v1/entries/"+e.ID+"?sections=contact,offerings", 200)
		check("OfferingsAnswer", "/v1/entries/"+e.ID+"/offerings?limit=2", 200)
		check("BrandKitAnswer", "/v1/entries/"+e.ID+"/brand-kit", 200)
	}
	check("ChangesAnswer", "/v1/changes?limit=5", 200)
	check("Problem", "/v1/entries/"+reg.RemovedID, 410)
	check("Problem", "/v1/entries/by-slug/BAD", 422)
	// The checked-in copy is the same generator's, for the contract's hosts.
	want, _ := os.ReadFile(filepath.Join("..", "..", "schemas", "0.1", "openapi.json"))
	if !bytes.Equal(want, schemas.OpenAPI("https://api.daawid.example", "https://daawid.example")) {
		t.Error("schemas/0.1/openapi.json is stale: go test ./schemas -run SchemaFiles -update")
	}
}

// TestDocsAPI_REST13_REST28: /docs/api documents every route and has an
// anchor for every error code a problem's type points to; /ns has every
// daawid: term (HTTP-38), as HTML and as JSON-LD.
func TestDocsAPI_REST13_REST28(t *testing.T) {
	ts := newServer(t)
	_, page := ts.get(t, "/docs/api")
	for _, rt := range schemas.APIRoutes() {
		if !bytes.Contains(page, []byte(`id="`+rt.OperationID+`"`)) {
			t.Errorf("/docs/api lacks %s", rt.OperationID)
		}
	}
	for _, e := range schemas.ErrorCodes {
		if !bytes.Contains(page, []byte(`id="`+e.Code+`"`)) {
			t.Errorf("/docs/api lacks the anchor #%s", e.Code)
		}
	}
	resp, ns := ts.get(t, "/ns")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("/ns: %d", resp.StatusCode)
	}
	for _, term := range render.NamespaceTerms() {
		if !bytes.Contains(ns, []byte(`id="`+term.Term+`"`)) {
			t.Errorf("/ns lacks %s", term.Term)
		}
	}
	resp, ld := ts.get(t, "/ns", "Accept: application/ld+json")
	if resp.Header.Get("Content-Type") != "application/ld+json" || !json.Valid(ld) {
		t.Errorf("/ns as JSON-LD: %q", resp.Header.Get("Content-Type"))
	}
	if resp, _ := ts.get(t, "/ns.jsonld"); resp.StatusCode != 200 {
		t.Errorf("/ns.jsonld: %d", resp.StatusCode)
	}
}

// TestHosts_Section21_SplitDeployment: with the contract's three hosts,
// each route area answers on its host and moves there permanently from
// another; an unknown host (a proxy, a health check) is served as is.
func TestHosts_Section21_SplitDeployment(t *testing.T) {
	ts := newServer(t)
	cases := []struct{ host, path, want string }{
		{"daawid.example", "/v1/entries/" + hkID, "https://api.daawid.example/v1/entries/" + hkID},
		{"api.daawid.example", "/" + hkSlug + ".md", "https://daawid.example/" + hkSlug + ".md"},
		{"daawid.example", "/mcp", "https://mcp.daawid.example/mcp"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", ts.URL+c.path, nil)
		req.Host = c.host
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != c.want {
			t.Errorf("%s%s: %d → %q", c.host, c.path, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	for _, c := range []struct{ host, path string }{{"api.daawid.example", "/v1/entries/" + hkID}, {"daawid.example", "/" + hkSlug + ".md"}, {"127.0.0.1", "/" + hkSlug + ".md"}} {
		req, _ := http.NewRequest("GET", ts.URL+c.path, nil)
		req.Host = c.host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s%s: %d", c.host, c.path, resp.StatusCode)
		}
	}
}

// TestOperations_HealthAndReady: /healthz always, /readyz only with a
// publication loaded; CORS preflight for the reads.
func TestOperations_HealthAndReady(t *testing.T) {
	ts := newServer(t)
	if resp, _ := ts.get(t, "/healthz"); resp.StatusCode != 200 {
		t.Errorf("/healthz: %d", resp.StatusCode)
	}
	if resp, body := ts.get(t, "/readyz"); resp.StatusCode != 200 || !bytes.Contains(body, []byte("pub_")) {
		t.Errorf("/readyz: %d %s", resp.StatusCode, body)
	}
	resp, _ := ts.do(t, http.MethodOptions, "/v1/entries/"+hkID, "Origin: https://example.org", "Access-Control-Request-Method: GET")
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	// Before any publication: not ready, and reads say unavailable.
	empty := newEmptyServer(t)
	if resp, _ := empty.get(t, "/readyz"); resp.StatusCode != 503 {
		t.Errorf("/readyz without a publication: %d", resp.StatusCode)
	}
	if resp, body := empty.get(t, "/v1/entries/"+hkID); resp.StatusCode != 503 || problemOf(t, resp, body).Code != "unavailable" {
		t.Errorf("a read without a publication: %d", resp.StatusCode)
	}
	_ = rest.Config{}
}

// TestDiscovery_AWPPaths_AWP08: every address the AWP discovery file and
// the full manifest name answers 200, the endpoints /awp/content/ and
// /awp/api/ included (their indexes), and so does every child those
// indexes list: an agent that follows AWP finds no dead end. Templates
// ({slug}) are left out; the updates file's pages are walked by the
// pipeline's TestPublish_AWPUpdates_AWP32_AWP33.
func TestDiscovery_AWPPaths_AWP08(t *testing.T) {
	ts := newServer(t)
	hosts := []string{reg.Site.BaseURL, reg.Site.APIURL, reg.Site.MCPURL}
	var walk func(v any, out map[string]bool)
	walk = func(v any, out map[string]bool) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x, out)
			}
		case []any:
			for _, x := range v {
				walk(x, out)
			}
		case string:
			if strings.Contains(v, "{") {
				return
			}
			if strings.HasPrefix(v, "/") {
				out[v] = true
				return
			}
			for _, h := range hosts {
				if rest, ok := strings.CutPrefix(v, h); ok && (rest == "" || strings.HasPrefix(rest, "/")) && h != reg.Site.MCPURL {
					out[rest] = true
					return
				}
			}
		}
	}
	named := map[string]bool{}
	for _, file := range []string{"/.well-known/agentic-web-protocol.json", "/awp/manifest.json", "/awp/content/", "/awp/api/"} {
		resp, body := ts.get(t, file)
		var v any
		if err := json.Unmarshal(body, &v); resp.StatusCode != 200 || err != nil {
			t.Fatalf("%s: %d %v", file, resp.StatusCode, err)
		}
		walk(v, named)
	}
	for _, want := range []string{"/awp/content/", "/awp/api/", "/awp/content/structure.json", "/awp/content/feeds/updates.json", "/awp/api/tools/functions.json"} {
		if !named[want] {
			t.Errorf("%s is not named by the AWP files", want)
		}
	}
	for path := range named {
		if path == "" || path == "/v1" {
			continue // an API base, not a document (REST-01)
		}
		resp, body := ts.get(t, path)
		// An API operation named without its parameters (the search
		// capability's url) answers, with a problem naming what it
		// needs; a document answers 200.
		if api := strings.HasPrefix(path, "/v1/"); (api && (resp.StatusCode == 404 || resp.StatusCode >= 500)) || (!api && resp.StatusCode != 200) {
			t.Errorf("%s: %d %.200s", path, resp.StatusCode, body)
		}
	}
}
