package mcpclient

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Main is "daawid mcp": it connects to the MCP endpoint, then lists the
// tools or calls one and prints its text and structured content. It
// returns the exit code: 1 when the connection or the call failed, or the
// tool answered with an error; 2 on a usage error.
//
//	daawid mcp tools [--url URL]
//	daawid mcp call [--url URL] TOOL '{"json":"arguments"}'
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "tools" && args[0] != "call") {
		fmt.Fprintln(stderr, "usage: daawid mcp tools|call [--url URL] [TOOL JSON]")
		return 2
	}
	sub := args[0]
	fs := flag.NewFlagSet("mcp "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("url", "http://localhost:8080/mcp", "the MCP endpoint")
	version := fs.String("protocol", "2026-07-28", "the protocol version to speak (2026-07-28 or 2025-11-25)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "daawid-cli", Version: "0.1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: *endpoint}, &sdk.ClientSessionOptions{ProtocolVersion: *version})
	if err != nil {
		fmt.Fprintf(stderr, "daawid mcp: connect %s: %v\n", *endpoint, err)
		return 1
	}
	defer cs.Close()
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if sub == "tools" {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			fmt.Fprintf(stderr, "daawid mcp: tools/list: %v\n", err)
			return 1
		}
		for _, t := range res.Tools {
			fmt.Fprintf(stdout, "%-22s %s\n", t.Name, t.Title)
		}
		return 0
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprintln(stderr, "usage: daawid mcp call [--url URL] TOOL ['{\"json\":\"arguments\"}']")
		return 2
	}
	var arguments map[string]any
	if fs.NArg() == 2 {
		if err := json.NewDecoder(strings.NewReader(fs.Arg(1))).Decode(&arguments); err != nil {
			fmt.Fprintf(stderr, "daawid mcp: the arguments are not a JSON object: %v\n", err)
			return 2
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: fs.Arg(0), Arguments: arguments})
	if err != nil {
		fmt.Fprintf(stderr, "daawid mcp: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	for _, ct := range res.Content {
		if t, ok := ct.(*sdk.TextContent); ok {
			fmt.Fprintln(stdout, strings.TrimRight(t.Text, "\n"))
		}
	}
	fmt.Fprintln(stdout)
	enc.Encode(res.StructuredContent)
	if res.IsError {
		return 1
	}
	return 0
}
