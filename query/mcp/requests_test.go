package mcp_test

// The request tools (§7.6) over MCP: their list, limits and card. The
// request flows themselves, over REST and MCP alike, are query/rest's
// runs tests.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
)

// requestsServer serves the test registry with action runs on a SQLite
// store, the request tools mounted with the read tools, as daawid serve
// mounts them.
func requestsServer(t testing.TB, opts ...testserver.Option) *testserver.Server {
	t.Helper()
	var ts *testserver.Server
	acts := testserver.NewActions(t, reg, testserver.OpenRunsStore(t, "sqlite"), func() time.Time { return ts.Now }, nil)
	ts = testserver.New(t, reg, append(opts, func(c *rest.Config) { c.Actions = acts })...)
	opt := ts.MCPOptions()
	opt.Actions, opt.Platform = acts, ts.REST.ReaderCategory
	ts.MountMCP(opt)
	return ts
}

func itoa3(i int) string { return fmt.Sprintf("%03d", i) }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func mustString(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestRuns_MCP53_ToolList: the request tools are listed after the reads,
// in the §7.4 order, with their titles, hints and card (MCP-42, MCP-43,
// MCP-44, MCP-45, MCP-46, MCP-53, ACT-61); confirm_request is not offered
// (MCP-47, ACT-43).
func TestRuns_MCP53_ToolList(t *testing.T) {
	ts := requestsServer(t)
	for _, v := range testserver.Protocols {
		cs := testserver.MCPClient(t, ts, v)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		want := []string{"search", "get_entry", "get_entry_sections", "get_offerings", "get_brand_kit",
			"request_quote", "request_callback", "request_appointment", "send_message", "get_request_status"}
		if !slices.Equal(names, want) {
			t.Errorf("%s: tools %v, want %v (MCP-53)", v, names, want)
		}
		titles := map[string]string{"request_quote": "Request a quote", "request_callback": "Request a callback",
			"request_appointment": "Request an appointment", "send_message": "Send a message", "get_request_status": "Check a request's status"}
		for _, tl := range res.Tools {
			title, ok := titles[tl.Name]
			if !ok {
				continue
			}
			a := tl.Annotations
			if tl.Title != title || a == nil || a.Title != title {
				t.Errorf("%s: title %q", tl.Name, tl.Title)
				continue
			}
			ui, _ := tl.Meta["ui"].(map[string]any)
			if tl.Name == "get_request_status" {
				if !a.ReadOnlyHint || *a.DestructiveHint || !a.IdempotentHint || *a.OpenWorldHint || ui != nil {
					t.Errorf("get_request_status hints %+v ui %v (MCP-46)", a, ui)
				}
				continue
			}
			if a.ReadOnlyHint || *a.DestructiveHint || a.IdempotentHint || !*a.OpenWorldHint || ui["resourceUri"] != "ui://daawid/action-confirm" {
				t.Errorf("%s hints %+v ui %v (ACT-61)", tl.Name, a, ui)
			}
			in, _ := json.Marshal(tl.InputSchema)
			if !strings.Contains(string(in), `"additionalProperties":false`) {
				t.Errorf("%s: the listed input takes unknown fields", tl.Name)
			}
		}
	}
}

// TestRuns_MCP79_NoLimitForRequests: the request tools keep no fair-use
// limit (ACT-55, MCP-79); get_request_status keeps the reads' (MCP-79).
func TestRuns_MCP79_NoLimitForRequests(t *testing.T) {
	ts := requestsServer(t, func(c *rest.Config) { c.Limiter = fairuse.NewLimiter(3) })
	cs := testserver.MCPClient(t, ts, "2026-07-28")
	var runID string
	for i := range 6 {
		res := testserver.CallTool(t, cs, "request_quote", testserver.QuoteTo("holzwerk-krause", "nolimit"+itoa3(i)+"@example.org"))
		if res.IsError {
			t.Fatalf("request %d: %s (ACT-55)", i, testserver.TextOf(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		var r struct{ RunID string }
		json.Unmarshal(b, &r)
		runID = r.RunID
	}
	limited := false
	for range 5 {
		res := testserver.CallTool(t, cs, "get_request_status", map[string]any{"runId": runID})
		if res.IsError && testserver.ErrorOf(t, res).Code == "rate_limited" {
			limited = true
		}
	}
	if !limited {
		t.Error("get_request_status kept no limit (MCP-79)")
	}
}

// TestRuns_MCP71_ConfirmationCard: the confirmation card comes with the
// request in _meta (MCP-68): the waiting request, the person's words
// labelled as theirs, Daawid's page as its only link, none of the owner's
// colours or pictures (MCP-71).
func TestRuns_MCP71_ConfirmationCard(t *testing.T) {
	ts := requestsServer(t)
	cs := testserver.MCPClient(t, ts, "2026-07-28")
	res := testserver.CallTool(t, cs, "request_quote", testserver.ExampleQuote())
	if res.IsError {
		t.Fatal(testserver.TextOf(res))
	}
	var card map[string]any
	json.Unmarshal(mustJSON(res.Meta["com.daawid/card"]), &card)
	var out struct{ ConfirmURL string }
	json.Unmarshal(mustJSON(res.StructuredContent), &out)
	if card["type"] != "action-confirm" || card["confirmUrl"] != out.ConfirmURL || card["wordsLabel"] == "" {
		t.Fatalf("card %v", card)
	}
	fields, _ := card["fields"].([]any)
	words := mustString(fields)
	if !strings.Contains(words, "Einbauschrank für eine Dachschräge") || !strings.Contains(words, `"label"`) {
		t.Errorf("the card does not show the request's words: %s", words)
	}
	for _, k := range []string{"colors", "logo", "links", "phone", "email"} {
		if _, ok := card[k]; ok {
			t.Errorf("the confirmation card carries %s (MCP-71)", k)
		}
	}
	if n := strings.Count(mustString(card), "https://"); n != 1 {
		t.Errorf("the card has %d links, want only Daawid's page (MCP-71)", n)
	}
}
