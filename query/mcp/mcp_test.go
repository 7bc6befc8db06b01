package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/internal/testserver"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpServer is the test registry served with the MCP endpoint mounted at
// /mcp (HTTP-06), as daawid serve mounts it.
func mcpServer(t testing.TB, opts ...testserver.Option) *testserver.Server {
	t.Helper()
	ts := testserver.New(t, reg, opts...)
	ts.MountMCP(ts.MCPOptions())
	return ts
}

// MCP-37, MCP-38, MCP-39, MCP-40, MCP-41 (the read tools), MCP-61, §7.4: the SDK's own client over
// Streamable HTTP, under both protocol versions, lists the read tools
// with their titles and hints, and calls each with good arguments.
func TestMCP_ReadTools(t *testing.T) {
	ts := mcpServer(t)
	for _, v := range testserver.Protocols {
		t.Run(v, func(t *testing.T) {
			cs := testserver.MCPClient(t, ts, v)
			list, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			reads := map[string]bool{}
			for _, spec := range schemas.ReadTools() {
				reads[spec.Name] = true
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if !reads[tool.Name] {
					continue // the request tools' hints: TestRuns_MCP53_ToolList
				}
				a := tool.Annotations
				if a == nil || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint || !a.IdempotentHint || a.OpenWorldHint == nil || !*a.OpenWorldHint || tool.Title == "" {
					t.Errorf("%s: annotations %+v, title %q", tool.Name, a, tool.Title)
				}
			}
			if list.TTLMs != 3_600_000 || list.CacheScope != "public" {
				t.Errorf("tools/list: ttlMs %d, cacheScope %q (MCP-52)", list.TTLMs, list.CacheScope)
			}
			for _, tool := range list.Tools {
				ss, _ := json.Marshal(tool.Meta["securitySchemes"])
				if string(ss) != `[{"type":"noauth"}]` {
					t.Errorf("%s: securitySchemes %s (MCP-25)", tool.Name, ss)
				}
				if tool.OutputSchema == nil {
					t.Errorf("%s: no outputSchema (MCP-58)", tool.Name)
				}
				if len(tool.Name) > 64 {
					t.Errorf("%s: name over 64 characters (MCP-30)", tool.Name)
				}
			}
			schemaOf := map[string]*jsonschema.Resolved{}
			for _, tool := range list.Tools {
				b, _ := json.Marshal(tool.OutputSchema)
				var sch jsonschema.Schema
				if err := json.Unmarshal(b, &sch); err != nil {
					t.Fatal(err)
				}
				r, err := sch.Resolve(nil)
				if err != nil {
					t.Fatalf("%s: %v", tool.Name, err)
				}
				schemaOf[tool.Name] = r
			}
			conforms := func(name string, res *sdk.CallToolResult) {
				t.Helper()
				b, _ := json.Marshal(res.StructuredContent)
				var v any
				json.Unmarshal(b, &v)
				if err := schemaOf[name].Validate(v); err != nil {
					t.Errorf("%s: structuredContent does not conform to its outputSchema: %v", name, err)
				}
			}
			defer func() {
				for _, c := range []struct {
					name string
					args map[string]any
				}{{"get_entry", map[string]any{"slug": "holzwerk-krause"}}, {"search", map[string]any{"query": "Tischler"}},
					{"get_entry_sections", map[string]any{"slug": "holzwerk-krause", "sections": []string{"hours"}}},
					{"get_offerings", map[string]any{"entry": "panaderia-la-espiga"}}, {"get_brand_kit", map[string]any{"entry": "holzwerk-krause"}}} {
					conforms(c.name, testserver.CallTool(t, cs, c.name, c.args))
				}
			}()
			// A deterministic order: §7.4's (MCP-52, MCP-53).
			if got := strings.Join(names, ","); got != "search,get_entry,get_entry_sections,get_offerings,get_brand_kit,request_quote,request_callback,request_appointment,send_message,get_request_status" {
				t.Errorf("tools %s", got)
			}
			res := testserver.CallTool(t, cs, "search", map[string]any{"query": "Tischler für Einbauschrank", "near": map[string]any{"place": "Wuppertal"}})
			if res.IsError || !strings.HasPrefix(testserver.TextOf(res), "Place: Wuppertal") || !strings.Contains(testserver.TextOf(res), "1. **Holzwerk Krause**") {
				t.Errorf("search: %s", testserver.TextOf(res))
			}
			var out schemas.SearchOutput
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &out); err != nil || len(out.Hits) == 0 || out.Hits[0].Slug != "holzwerk-krause" {
				t.Fatalf("search structuredContent: %s", b)
			}
			// SEARCH-13, issue 15: the text names the links an agent
			// follows next, the town and the categories by name.
			for _, want := range []string{out.Hits[0].MarkdownURL, out.Hits[0].JSONLDURL, out.Hits[0].APIURL, out.Hits[0].Locality, out.Hits[0].CategoryNames[0]} {
				if want == "" || !strings.Contains(testserver.TextOf(res), want) {
					t.Errorf("search text lacks %q: %s", want, testserver.TextOf(res))
				}
			}
			sec := testserver.CallTool(t, cs, "get_entry_sections", map[string]any{"slug": "holzwerk-krause", "sections": []string{"contact", "hours"}})
			if sec.IsError || !strings.Contains(testserver.TextOf(sec), "## Hours") || strings.Contains(testserver.TextOf(sec), "## Offerings") {
				t.Errorf("get_entry_sections: %s", testserver.TextOf(sec))
			}
			off := testserver.CallTool(t, cs, "get_offerings", map[string]any{"entry": "holzwerk-krause", "query": "Schrank"})
			if off.IsError || !strings.Contains(testserver.TextOf(off), "Einbauschr") {
				t.Errorf("get_offerings: %s", testserver.TextOf(off))
			}
			bk := testserver.CallTool(t, cs, "get_brand_kit", map[string]any{"entry": "thornbury-hale-joinery"})
			if bk.IsError || !strings.Contains(testserver.TextOf(bk), `"colors"`) {
				t.Errorf("get_brand_kit: %s", testserver.TextOf(bk))
			}
		})
	}
}

// MCP-59 / §7.4: get_entry's text is exactly the bytes of /{slug}.md, for
// every fixture that is published and every language it has.
func TestMCP_GetEntryTextIsTheMarkdown(t *testing.T) {
	ts := mcpServer(t)
	cs := testserver.MCPClient(t, ts, testserver.Protocols[0])
	for _, e := range fixtures.Entries() {
		if e.Status == schemas.StatusUnclaimed {
			continue // not in the test registry under its fixture slug
		}
		for _, lang := range render.Languages(e) {
			res := testserver.CallTool(t, cs, "get_entry", map[string]any{"slug": e.Slug, "language": lang})
			path := "/" + e.Slug + ".md"
			if lang != e.DefaultLanguage {
				path = "/" + e.Slug + "/" + lang + ".md"
			}
			resp, md := ts.Get(t, path)
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d", path, resp.StatusCode)
			}
			if res.IsError || testserver.TextOf(res) != string(md) {
				t.Errorf("%s %s: get_entry's text is not %s (%d vs %d bytes)", e.Slug, lang, path, len(testserver.TextOf(res)), len(md))
			}
		}
	}
}

// MCP-74, MCP-75 / §7.8: bad arguments are tool errors with the contract's
// code and a message naming the field, never protocol errors.
func TestMCP_Errors(t *testing.T) {
	ts := mcpServer(t)
	for _, v := range testserver.Protocols {
		t.Run(v, func(t *testing.T) {
			cs := testserver.MCPClient(t, ts, v)
			for _, c := range []struct {
				tool  string
				args  map[string]any
				code  string
				field string
			}{
				{"search", map[string]any{"query": ""}, "invalid_input", "query"},
				{"search", map[string]any{"query": "x", "near": map[string]any{"place": "Wuppertal"}, "radiusKm": 0}, "invalid_input", "radiusKm"},
				{"search", map[string]any{"query": "x", "cursor": "from-nowhere"}, "invalid_input", "cursor"},
				{"get_entry", map[string]any{}, "invalid_input", "id"},
				{"get_entry", map[string]any{"slug": "no-such-entry-anywhere"}, "not_found", ""},
				{"get_entry", map[string]any{"id": reg.RemovedID}, "gone", ""},
				{"get_entry_sections", map[string]any{"slug": "holzwerk-krause", "sections": []string{"nonsense"}}, "invalid_input", "sections"},
				{"get_entry_sections", map[string]any{"slug": "holzwerk-krause"}, "invalid_input", "sections"},
				{"get_entry_sections", map[string]any{"slug": "holzwerk-krause", "domain": "holzwerk-krause.example", "sections": []string{"hours"}}, "invalid_input", "id"},
				{"get_offerings", map[string]any{"entry": "holzwerk-krause", "limit": 500}, "invalid_input", "limit"},
				{"get_offerings", map[string]any{}, "invalid_input", "entry"},
				{"get_brand_kit", map[string]any{"entry": "holzwerk-krause", "language": "not a tag"}, "invalid_input", "language"},
				{"get_brand_kit", map[string]any{"entry": "no-such-entry-anywhere"}, "not_found", ""},
			} {
				e := testserver.ErrorOf(t, testserver.CallTool(t, cs, c.tool, c.args))
				if e.Code != c.code || (c.field != "" && !strings.Contains(e.Message, c.field)) {
					t.Errorf("%s %v: %+v", c.tool, c.args, e)
				}
			}
		})
	}
}

// §7.8, REST-38: MCP reads share the REST mirror's fair-use limit (300 a
// minute per kind of reader and address, counted together): the 301st
// read is a tool error rate_limited with retryAfterSeconds.
func TestMCP_FairUseWithREST(t *testing.T) {
	ts := mcpServer(t)
	for i := range 200 {
		if resp, _ := ts.Get(t, "/v1/entries/"+hkID); resp.StatusCode != 200 {
			t.Fatalf("REST read %d: %d", i+1, resp.StatusCode)
		}
	}
	cs := testserver.MCPClient(t, ts, testserver.Protocols[0])
	for i := range 100 {
		if res := testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID}); res.IsError {
			t.Fatalf("MCP read %d: %s", 201+i, testserver.TextOf(res))
		}
	}
	e := testserver.ErrorOf(t, testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID}))
	if e.Code != "rate_limited" || e.RetryAfterSeconds < 1 || e.RetryAfterSeconds > 60 {
		t.Fatalf("301st read: %+v", e)
	}
	if resp, _ := ts.Get(t, "/v1/entries/"+hkID); resp.StatusCode != 429 {
		t.Fatalf("REST after 301 reads: %d", resp.StatusCode)
	}
}

// §7.1: DNS rebinding — a foreign Host or Origin is refused; a client
// without Origin, or from the site's own origin, is served.
func TestMCP_DNSRebindingGuard(t *testing.T) {
	ts := mcpServer(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	post := func(headers ...string) int {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		for _, h := range headers {
			k, v, _ := strings.Cut(h, ": ")
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(); code != 200 {
		t.Errorf("no Origin: %d", code)
	}
	if code := post("Origin: https://daawid.example"); code != 200 {
		t.Errorf("the site's origin: %d", code)
	}
	if code := post("Origin: https://evil.example"); code != 403 {
		t.Errorf("a foreign origin: %d", code)
	}
	if code := post("Host: evil.example"); code != 403 {
		t.Errorf("a foreign host: %d", code)
	}
	if code := post("Host: mcp.daawid.example"); code == 403 {
		t.Errorf("the MCP host behind a proxy was refused")
	}
}

// MCP-31: the tool list is loaded into every chat, so it is kept small:
// its JSON, as a client receives it, is measured in tokens (a quarter of
// its bytes, the usual estimate) and held under a budget: 500 tokens a
// tool on average (D75; the five reads alone were about 2 300).
func TestMCP_ToolListIsFrugal(t *testing.T) {
	ts := mcpServer(t)
	cs := testserver.MCPClient(t, ts, testserver.Protocols[0])
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(list.Tools)
	tokens := len(b) / 4
	t.Logf("tools/list: %d tools, %d bytes, about %d tokens", len(list.Tools), len(b), tokens)
	if budget := 500 * len(list.Tools); tokens > budget || len(list.Tools) != 10 {
		t.Errorf("the tool list is about %d tokens for %d tools; keep it under %d", tokens, len(list.Tools), budget)
	}
	for _, tool := range list.Tools {
		if len(tool.Description) > 200 {
			t.Errorf("%s: a description of %d characters", tool.Name, len(tool.Description))
		}
	}
}

// MCP-63, MCP-64, MCP-65, MCP-66, MCP-67, MCP-68, MCP-69, MCP-84 (§7.7): the entry card resource is served as an MCP
// App with its csp and border, cached a day; get_entry names it (and the
// legacy key) and carries the card made at publish in its result's
// _meta; the tools that only read on the way name no UI.
func TestMCP_EntryCard(t *testing.T) {
	ts := mcpServer(t)
	for _, v := range testserver.Protocols {
		t.Run(v, func(t *testing.T) {
			cs := testserver.MCPClient(t, ts, v)
			ext, _ := json.Marshal(cs.InitializeResult().Capabilities.Extensions)
			if !strings.Contains(string(ext), "io.modelcontextprotocol/ui") {
				t.Errorf("no MCP Apps extension in the capabilities: %s", ext)
			}
			rl, err := cs.ListResources(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if rl.TTLMs != 86_400_000 || rl.CacheScope != "public" {
				t.Errorf("resources/list: ttlMs %d, cacheScope %q", rl.TTLMs, rl.CacheScope)
			}
			uris := map[string]bool{}
			for _, r := range rl.Resources {
				uris[r.URI] = r.MIMEType == "text/html;profile=mcp-app"
			}
			if !uris[qmcp.EntryCardURI] || !uris[qmcp.ActionConfirmURI] {
				t.Errorf("resources %v", uris)
			}
			rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: qmcp.EntryCardURI})
			if err != nil || len(rr.Contents) != 1 {
				t.Fatalf("read: %v", err)
			}
			c := rr.Contents[0]
			meta, _ := json.Marshal(c.Meta)
			if c.MIMEType != "text/html;profile=mcp-app" || !strings.Contains(c.Text, "com.daawid/card") ||
				string(meta) != `{"ui":{"csp":{"connectDomains":[],"frameDomains":[],"resourceDomains":["https://media.daawid.example"]},"prefersBorder":true}}` {
				t.Errorf("resource: %s %s", c.MIMEType, meta)
			}
			list, _ := cs.ListTools(context.Background(), nil)
			for _, tool := range list.Tools {
				ui, legacy := tool.Meta["ui"], tool.Meta["ui/resourceUri"]
				if tool.Name == "get_entry" {
					b, _ := json.Marshal(ui)
					if string(b) != `{"resourceUri":"ui://daawid/entry-card"}` || legacy != qmcp.EntryCardURI {
						t.Errorf("get_entry names %s / %v", b, legacy)
					}
				} else if strings.HasPrefix(tool.Name, "request_") || tool.Name == "send_message" {
					// The request tools' card: the waiting request (MCP-42, MCP-43, MCP-44, MCP-45).
					b, _ := json.Marshal(ui)
					if string(b) != `{"resourceUri":"ui://daawid/action-confirm"}` || legacy != qmcp.ActionConfirmURI {
						t.Errorf("%s names %s / %v", tool.Name, b, legacy)
					}
				} else if ui != nil || legacy != nil {
					t.Errorf("%s names a UI resource", tool.Name)
				}
			}
			res := testserver.CallTool(t, cs, "get_entry", map[string]any{"slug": "thornbury-hale-joinery"})
			b, _ := json.Marshal(res.Meta["com.daawid/card"])
			var card schemas.EntryCard
			if err := json.Unmarshal(b, &card); err != nil || card.DisplayName != "Thornbury & Hale" || card.Links.HTML == "" ||
				card.Logo == nil || !strings.HasPrefix(card.Logo.URL, "https://media.daawid.example/") {
				t.Errorf("card %s", b)
			}
			if strings.Contains(testserver.TextOf(res), "com.daawid/card") {
				t.Error("the card leaked into the text the model reads")
			}
			sec := testserver.CallTool(t, cs, "get_entry_sections", map[string]any{"slug": "thornbury-hale-joinery", "sections": []string{"facts"}})
			if sec.Meta["com.daawid/card"] != nil {
				t.Error("get_entry_sections carries a card")
			}
		})
	}
}

// The fast path of get_entry (query/mcp/fast.go) answers exactly what the
// SDK answers, for every fixture and language, both protocol versions,
// and errors too.
func TestMCP_FastPath(t *testing.T) {
	fast := mcpServer(t)
	slow := mcpServerSDKOnly(t)
	post := func(url, version, args, meta string) any {
		body := `{"jsonrpc":"2.0","id":"x1","method":"tools/call","params":{"name":"get_entry","arguments":` + args + meta + `}}`
		req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", version)
		if version == "2026-07-28" && !strings.Contains(meta, `"name":1`) { // the odd one also lacks the headers
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "get_entry")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return v
	}
	var cases []string
	for _, e := range fixtures.Entries() {
		for _, lang := range render.Languages(e) {
			cases = append(cases, fmt.Sprintf(`{"slug":%q,"language":%q}`, e.Slug, lang))
		}
	}
	cases = append(cases, `{}`, `{"slug":"no-such-entry-anywhere"}`, `{"id":"`+reg.RemovedID+`"}`, `"not an object"`)
	good := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`
	metas := map[string][]string{
		"2025-11-25": {"", good},
		"2026-07-28": {good, "", `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`,
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":1}}`},
	}
	for _, v := range testserver.Protocols {
		for mi, m := range metas[v] {
			for ci, c := range cases {
				if mi > 0 && ci > 2 {
					break // a few calls for each odd _meta
				}
				a, b := post(fast.URL, v, c, m), post(slow.URL, v, c, m)
				if !reflect.DeepEqual(a, b) {
					ja, _ := json.Marshal(a)
					jb, _ := json.Marshal(b)
					t.Errorf("%s %s %s: the fast path answers\n%.400s\nthe SDK\n%.400s", v, m, c, ja, jb)
				}
			}
		}
	}
}

// mcpServerSDKOnly is mcpServer with every call through the SDK.
func mcpServerSDKOnly(t testing.TB) *testserver.Server {
	t.Helper()
	ts := testserver.New(t, reg, func(c *rest.Config) { c.Limiter = nil })
	ts.MountMCP(qmcp.Options{Now: func() time.Time { return ts.Now }, SDKOnly: true})
	return ts
}

// §8 / REST-38: an entry an MCP tool returns is a read of its view,
// counted by the category of reader like a REST read; errors count
// nothing.
func TestMCP_ReadsCounted(t *testing.T) {
	counter := testserver.NewCounts(t)
	ts := mcpServer(t, func(c *rest.Config) { c.Counter = counter.Counter })
	c := sdk.NewClient(&sdk.Implementation{Name: "daawid-test", Version: "1"}, nil)
	hc := &http.Client{Transport: testserver.UserAgent{UA: testserver.UAChatGPT}}
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 3 {
		testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID})
	}
	testserver.CallTool(t, cs, "get_offerings", map[string]any{"entry": hkID})
	testserver.CallTool(t, cs, "get_entry", map[string]any{"slug": "no-such-entry-anywhere"})
	db := counter.Flushed(t)
	var reads int64
	var cat string
	q := `SELECT category, sum(reads) FROM ` + counter.Glob("reads") + ` WHERE entry_id = ? GROUP BY ALL`
	if err := db.QueryRow(q, hkID).Scan(&cat, &reads); err != nil {
		t.Fatal(err)
	}
	if reads != 4 || cat != "openai" {
		t.Fatalf("%d reads by %s, want 4 by openai", reads, cat)
	}
}

// MCP-76: what is no tool call of ours (an unknown tool) is a protocol
// error as the MCP specification says, not a tool result.
func TestMCP_ProtocolErrors(t *testing.T) {
	ts := mcpServer(t)
	for _, v := range testserver.Protocols {
		cs := testserver.MCPClient(t, ts, v)
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
		if err == nil {
			t.Errorf("%s: an unknown tool answered %+v", v, res)
		}
	}
}
