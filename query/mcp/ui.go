package mcp

import (
	"context"
	_ "embed"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP Apps (§7.7): the entry card and the action confirmation are one
// page under two names; the data it shows comes in the tool result's
// _meta (cardKey).
const (
	uiExtension = "io.modelcontextprotocol/ui"
	uiMIME      = "text/html;profile=mcp-app"
	cardKey     = "com.daawid/card"
	// EntryCardURI and ActionConfirmURI are the UI resources.
	EntryCardURI     = "ui://daawid/entry-card"
	ActionConfirmURI = "ui://daawid/action-confirm"
)

//go:embed ui/card.html
var cardPage string

// uiMeta is the resources' _meta (MCP-66): pictures only from Daawid's
// media host, no connections, no frames, drawn with a border.
func uiMeta() sdk.Meta {
	return sdk.Meta{"ui": map[string]any{
		"csp": map[string]any{
			"resourceDomains": []string{"https://media.daawid.example"},
			"connectDomains":  []string{},
			"frameDomains":    []string{},
		},
		"prefersBorder": true,
	}}
}

func addUI(s *sdk.Server) {
	for _, r := range []struct{ uri, name, title string }{
		{EntryCardURI, "entry-card", "Entry card"},
		{ActionConfirmURI, "action-confirm", "Request confirmation"},
	} {
		uri := r.uri
		s.AddResource(&sdk.Resource{URI: uri, Name: r.name, Title: r.title, MIMEType: uiMIME, Meta: uiMeta()},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: uiMIME, Text: cardPage, Meta: uiMeta()}}}, nil
			})
	}
}
