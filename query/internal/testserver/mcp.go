package testserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	qmcp "github.com/daawid/registry/query/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocols are the MCP versions a client may speak (§7.1): the
// stateless 2026-07-28 (server/discover, no initialize) and 2025-11-25
// through the legacy handshake.
var Protocols = []string{"2026-07-28", "2025-11-25"}

// MCPClient connects the SDK's own client to a server's /mcp over
// Streamable HTTP, speaking version.
func MCPClient(t testing.TB, ts *Server, version string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "daawid-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// CallTool calls a tool; a protocol error fails the test.
func CallTool(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// TextOf is a result's text content.
func TextOf(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// StructuredOf decodes a result's structured content into v; a tool error
// fails the test.
func StructuredOf(t testing.TB, res *sdk.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", TextOf(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// Bearer is an HTTP transport that sends every request with an access
// token.
type Bearer struct{ Token string }

// RoundTrip sends a copy of r with the token.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	return http.DefaultTransport.RoundTrip(r)
}

// ErrorOf is a tool error's structured content; a result that is no
// tool error fails the test.
func ErrorOf(t testing.TB, res *sdk.CallToolResult) qmcp.ToolError {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want isError, got %s", TextOf(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var e qmcp.ErrorContent
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("no structuredContent.error: %s", b)
	}
	return e.Error
}

// CallMCP calls a tool as a 2026-07-28 client sends it (the version,
// capabilities and client in _meta, the method and tool in headers) and
// gives the answer's bytes; a tool error is an error.
func CallMCP(client *http.Client, base string, id int, tool, args string) ([]byte, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`, id, tool, args)
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || bytes.Contains(out, []byte(`"isError":true`)) {
		return nil, fmt.Errorf("MCP %s: %d %.300s", tool, resp.StatusCode, out)
	}
	return out, nil
}
