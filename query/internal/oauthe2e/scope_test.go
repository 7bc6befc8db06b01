package oauthe2e

import (
	"net/http"
	"strings"
	"testing"
)

const (
	listMyEntries = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_my_entries","arguments":{}}}`
	searchCall    = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"Tischler"}}}`
)

// TestOAuth_MCP24_InsufficientScopeOnTheWire: a token of the server's own
// key, for the MCP endpoint and of a live grant, but without
// entries:write, gets HTTP 403 on an owner tool with the challenge
// `Bearer resource_metadata="…", error="insufficient_scope",
// scope="entries:write"` (MCP-24), before the SDK runs; the same token
// still reads (it is valid, MCP-20), and the grant's real token with the
// scope calls the tool (MCP-10).
func TestOAuth_MCP24_InsufficientScopeOnTheWire(t *testing.T) {
	rg := newRig(t)
	rg.goApp(t)
	real := rg.tokens(t).AccessToken
	noScope := rg.mint(t, real, func(c map[string]any) { delete(c, "scope") })
	otherScope := rg.mint(t, real, func(c map[string]any) { c["scope"] = "requests:read" })
	want := `Bearer resource_metadata="` + rg.URL + `/.well-known/oauth-protected-resource/mcp", error="insufficient_scope", scope="entries:write"`
	for name, tok := range map[string]string{"no scope": noScope, "another scope": otherScope} {
		resp, body := rg.mcpPost(t, listMyEntries, tok)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("MCP-24: %s on list_my_entries: %d %q, want 403 %q\n%s", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want, body)
		}
		if strings.Contains(body, `"result"`) {
			t.Errorf("MCP-24: %s: the tool ran: %s", name, body)
		}
		if resp, body := rg.mcpPost(t, searchCall, tok); resp.StatusCode != http.StatusOK || strings.Contains(body, `"isError":true`) {
			t.Errorf("MCP-20: %s on a read: %d %s", name, resp.StatusCode, body)
		}
	}
	if resp, body := rg.mcpPost(t, listMyEntries, real); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"holzwerk-krause"`) {
		t.Errorf("MCP-10: the token with entries:write: %d %s", resp.StatusCode, body)
	}
	// The metadata URL the challenge names answers, so an app can follow it.
	if resp, _ := rg.get(t, rg.URL+"/.well-known/oauth-protected-resource/mcp"); resp.StatusCode != http.StatusOK {
		t.Errorf("MCP-17: the challenge's resource_metadata answers %d", resp.StatusCode)
	}
}
