// Package mcp is the MCP face of the registry (§7): the read tools
// search, get_entry, get_entry_sections, get_offerings and get_brand_kit
// over Streamable HTTP, stateless, with the official Go SDK. Each tool
// calls query.Service as the REST mirror does (ARCHITECTURE decision 5):
// the same inputs, the same structures, the same error codes.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the MCP server.
type Options struct {
	// Now is the request's instant (time.Now when nil).
	Now func() time.Time
	// Allow keeps the fair-use limit for a read (nil: none); Count counts
	// an entry returned as a read of its view (nil: not counted). Both
	// find the reader in the call's context (the REST server's).
	Allow func(ctx context.Context) error
	Count func(ctx context.Context, entryID string)
	// Actions runs the request tools (nil: they answer unavailable);
	// Platform names the AI platform of a call's context (ACT-59).
	Actions  *actions.Service
	Platform func(ctx context.Context) string
	// Auth is the authorization server the owner tools' tokens come from
	// (§7.2); nil: no owner tools are listed, and a token is not looked at.
	Auth *auth.Server
	// Inbox is where the owner tools' edits go into the pipeline (D95);
	// nil: the changing owner tools answer unavailable.
	Inbox *inbox.Inbox
	// SDKOnly turns the fast path of get_entry off (fast.go), to compare
	// it with the SDK's answers.
	SDKOnly bool
}

// Handler is the /mcp endpoint: Streamable HTTP without sessions (§7.1),
// behind the DNS-rebinding guard (guard.go).
func Handler(svc *query.Service, opt Options) http.Handler {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	srv, t := newServer(svc, opt)
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		// The SDK's own localhost guard refuses a loopback connection with
		// another Host, which is every reverse proxy on the same machine:
		// guard checks the Host and Origin against the site instead.
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	if !opt.SDKOnly {
		sdkHandler := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !t.fastGetEntry(w, r) {
				sdkHandler.ServeHTTP(w, r)
			}
		})
	}
	if opt.Auth != nil {
		// The owner pages (the confirmation of a waiting change, the
		// download) read and write through the same registry (MCP-26,
		// PRIV-29).
		opt.Auth.UseRegistry(registryOf{svc: svc, inbox: opt.Inbox})
		// The gate runs before the fast path and the SDK (MCP-21, MCP-23).
		h = authGate(opt.Auth, svc.Site().MCPURL, opt.Now, h)
	}
	return guard(svc.Site(), h)
}

func newServer(svc *query.Service, opt Options) (*sdk.Server, *tools) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	caps := &sdk.ServerCapabilities{}
	caps.AddExtension(uiExtension, map[string]any{"mimeTypes": []string{uiMIME}})
	s := sdk.NewServer(serverInfo,
		&sdk.ServerOptions{SetCacheable: cacheable, Capabilities: caps, Instructions: instructions(svc.Site())})
	addUI(s)
	t := &tools{svc: svc, opt: opt}
	handlers := map[string]sdk.ToolHandler{
		"search":              t.search,
		"get_entry":           t.getEntry(false),
		"get_entry_sections":  t.getEntry(true),
		"get_offerings":       t.offerings,
		"get_brand_kit":       t.brandKit,
		"request_quote":       t.requestTool(schemas.ActionRequestQuote),
		"request_callback":    t.requestTool(schemas.ActionRequestCallback),
		"request_appointment": t.requestTool(schemas.ActionRequestAppointment),
		"send_message":        t.requestTool(schemas.ActionSendMessage),
		"get_request_status":  t.requestStatus,
	}
	specs := append(schemas.ReadTools(), schemas.RequestTools()...)
	if opt.Auth != nil {
		handlers["list_my_entries"] = t.listMyEntries
		handlers["set_capacity"] = t.setCapacity
		handlers["update_entry"] = t.updateEntry
		handlers["confirm_entry"] = t.confirmEntry
		specs = append(specs, schemas.OwnerTools()...)
	}
	var order []string
	for _, spec := range specs {
		h, ok := handlers[spec.Name]
		if !ok {
			continue
		}
		order = append(order, spec.Name)
		ro, destructive, idempotent, openWorld := schemas.ReadOnlyHint, schemas.DestructiveHint, schemas.IdempotentHint, schemas.OpenWorldHint
		if spec.Hints != nil {
			ro, destructive, idempotent, openWorld = spec.Hints.ReadOnly, spec.Hints.Destructive, spec.Hints.Idempotent, spec.Hints.OpenWorld
		}
		s.AddTool(&sdk.Tool{
			Name: spec.Name, Title: spec.Title, Description: spec.Description, InputSchema: spec.Input,
			OutputSchema: outputSchemas[spec.Name],
			Meta:         toolMeta(spec),
			Annotations: &sdk.ToolAnnotations{Title: spec.Title, ReadOnlyHint: ro, DestructiveHint: &destructive,
				IdempotentHint: idempotent, OpenWorldHint: &openWorld},
		}, h)
	}
	s.AddReceivingMiddleware(toolOrder(order))
	return s, t
}

// toolOrder lists the tools in the contract's order (§7.4, MCP-53: the
// reads, then request_quote, request_callback, request_appointment,
// send_message and get_request_status), which the SDK, listing by name,
// would not keep.
func toolOrder(order []string) sdk.Middleware {
	rank := map[string]int{}
	for i, n := range order {
		rank[n] = i
	}
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := res.(*sdk.ListToolsResult); ok && err == nil {
				slices.SortStableFunc(lr.Tools, func(a, b *sdk.Tool) int { return rank[a.Name] - rank[b.Name] })
			}
			return res, err
		}
	}
}

// cacheable: the tool list may be kept an hour by anyone (MCP-52), the
// UI resources a day (MCP-84).
func cacheable(_ context.Context, req sdk.Request, c *sdk.Cacheable) {
	switch req.(type) {
	case *sdk.ListToolsRequest:
		c.TTLMs, c.CacheScope = 3_600_000, "public"
	case *sdk.ListResourcesRequest, *sdk.ReadResourceRequest:
		c.TTLMs, c.CacheScope = 86_400_000, "public"
	}
}

// toolMeta is a tool's _meta: no sign-in for reads and requests, OAuth 2
// with entries:write for the owner tools (MCP-25), and its UI resource,
// under the MCP Apps key and the legacy one (MCP-65).
func toolMeta(spec schemas.ToolSpec) sdk.Meta {
	if schemas.IsOwnerTool(spec.Name) {
		return ownerToolMeta()
	}
	m := sdk.Meta{"securitySchemes": []any{map[string]any{"type": "noauth"}}}
	if spec.UIResource != "" {
		m["ui"] = map[string]any{"resourceUri": spec.UIResource}
		m["ui/resourceUri"] = spec.UIResource
	}
	return m
}

type tools struct {
	svc *query.Service
	opt Options
}

// read runs one tool call's reads on one publication, under the
// fair-use limit.
func (t *tools) read(ctx context.Context, fn func(rd *query.Read) (*sdk.CallToolResult, error)) (*sdk.CallToolResult, error) {
	if t.opt.Allow != nil {
		if err := t.opt.Allow(ctx); err != nil {
			return toolError(err), nil
		}
	}
	rd, err := t.svc.Begin(t.opt.Now())
	if err != nil {
		return toolError(err), nil
	}
	defer rd.End()
	res, err := fn(rd)
	if err != nil {
		return toolError(err), nil
	}
	return res, nil
}

// args decodes a call's arguments; a wrong shape, or an argument the
// tool does not define (MCP-32, unknown.go), is invalid_input naming the
// field.
func args(req *sdk.CallToolRequest, v any) error {
	raw := req.Params.Arguments
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if issues := unknownArguments(req.Params.Name, raw); len(issues) > 0 {
		return query.InvalidInput(issues)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return query.InvalidInput([]query.Issue{{Field: "arguments", Message: err.Error()}})
	}
	return nil
}

// ErrorContent is a tool error's structured content (§7.8): the
// contract's code, a message naming the field, and when to try again.
type ErrorContent struct {
	Error ToolError `json:"error"`
}

// ToolError is the error of a failed tool call.
type ToolError struct {
	Code              string               `json:"code"`
	Message           string               `json:"message"`
	RetryAfterSeconds int                  `json:"retryAfterSeconds,omitempty"`
	Issues            []schemas.FieldIssue `json:"issues,omitempty"`
	// CurrentRevision and Current are what an owner tool's changed_since
	// and invalid_input carry: the entry's revision and what the sent
	// fields say now, in the view's shape (TOOL-28, TOOL-29).
	CurrentRevision int                        `json:"currentRevision,omitempty"`
	Current         map[string]json.RawMessage `json:"current,omitempty"`
}

// toolError makes an error a tool result with isError (§7.8), never a
// protocol error: the model reads it and can correct its call.
func toolError(err error) *sdk.CallToolResult {
	e, ok := query.AsError(err)
	if !ok {
		e = &query.Error{Code: query.CodeUnavailable, Message: "the registry could not answer; try again"}
		if errors.Is(err, context.Canceled) {
			e.Message = "the call was cancelled"
		}
	}
	content := ErrorContent{Error: ToolError{Code: e.Code, Message: e.Message, RetryAfterSeconds: e.RetryAfterSeconds, Issues: e.Issues}}
	return &sdk.CallToolResult{IsError: true, StructuredContent: content,
		Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("Error %s: %s", e.Code, e.Message)}}}
}

// counted counts an entry returned as a read of its view (§8).
func (t *tools) counted(ctx context.Context, entryID string) {
	if t.opt.Count != nil {
		t.opt.Count(ctx, entryID)
	}
}

func (t *tools) search(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	return t.read(ctx, func(rd *query.Read) (*sdk.CallToolResult, error) {
		var in schemas.SearchInput
		if err := args(req, &in); err != nil {
			return nil, err
		}
		out, err := rd.Search(in)
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{StructuredContent: out, Content: []sdk.Content{&sdk.TextContent{Text: string(query.SearchText(&out))}}}, nil
	})
}

// getEntry is get_entry (its text the bytes of /{slug}.md, §7.4) or
// get_entry_sections (that document with only the sections asked for).
func (t *tools) getEntry(sections bool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return t.read(ctx, func(rd *query.Read) (*sdk.CallToolResult, error) {
			var in query.EntryInput
			if err := args(req, &in); err != nil {
				return nil, err
			}
			if _, err := query.CheckEntryInput(in, sections); err != nil {
				return nil, err
			}
			a, err := rd.Entry(in)
			if err != nil {
				return nil, err
			}
			md, err := a.Markdown()
			if err != nil {
				return nil, err
			}
			t.counted(ctx, a.Entry.ID)
			res := &sdk.CallToolResult{StructuredContent: json.RawMessage(a.View), Content: []sdk.Content{&sdk.TextContent{Text: string(md)}}}
			if !sections {
				// The card, for the host's UI; the model does not read _meta (MCP-67).
				if card, err := a.Card(); err == nil && card != nil {
					res.Meta = sdk.Meta{cardKey: card}
				}
			}
			return res, nil
		})
	}
}

func (t *tools) offerings(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	return t.read(ctx, func(rd *query.Read) (*sdk.CallToolResult, error) {
		var in query.OfferingsInput
		if err := args(req, &in); err != nil {
			return nil, err
		}
		p, err := rd.Offerings(in)
		if err != nil {
			return nil, err
		}
		t.counted(ctx, p.EntryID)
		var text []byte
		for _, b := range p.Blocks {
			text = append(text, b...)
		}
		if len(text) == 0 {
			text = []byte("No offerings fit.\n")
		}
		return &sdk.CallToolResult{StructuredContent: p.OfferingsAnswer, Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}, nil
	})
}

func (t *tools) brandKit(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	return t.read(ctx, func(rd *query.Read) (*sdk.CallToolResult, error) {
		var in query.BrandKitInput
		if err := args(req, &in); err != nil {
			return nil, err
		}
		p, err := rd.BrandKit(in)
		if err != nil {
			return nil, err
		}
		t.counted(ctx, p.EntryID)
		js, err := json.MarshalIndent(p.BrandKitAnswer, "", "  ")
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{StructuredContent: p.BrandKitAnswer, Content: []sdk.Content{&sdk.TextContent{Text: string(js)}}}, nil
	})
}
