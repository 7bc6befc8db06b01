package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The request tools (§7.4, §7.5): request_quote, request_callback,
// request_appointment and send_message start a run that waits for the
// person's confirmation on Daawid's page (§7.6); get_request_status
// reads its status. They call actions.Service as the REST routes do.
// The request tools keep no fair-use limit (MCP-79, ACT-55: AI apps call
// from their own servers); get_request_status keeps the reads' limit.

// requestTool is a request tool's handler.
func (t *tools) requestTool(kind schemas.ActionType) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		// MCP-32: a call with an argument the tool does not define is
		// refused first, naming it, whatever else is wrong.
		if issues := unknownArguments(req.Params.Name, req.Params.Arguments); len(issues) > 0 {
			return toolError(query.InvalidInput(issues)), nil
		}
		if t.opt.Actions == nil {
			return toolError(&query.Error{Code: query.CodeUnavailable, Message: "this server takes no requests"}), nil
		}
		rd, err := t.svc.Begin(t.opt.Now())
		if err != nil {
			return toolError(err), nil
		}
		defer rd.End()
		raw := []byte(req.Params.Arguments)
		if len(raw) == 0 {
			raw = []byte("{}")
		}
		platform := ""
		if t.opt.Platform != nil {
			platform = t.opt.Platform(ctx)
		}
		res, err := t.opt.Actions.Start(ctx, rd, kind, raw, actions.Call{Platform: platform})
		if err != nil {
			return toolError(err), nil
		}
		out := &sdk.CallToolResult{StructuredContent: res, Content: []sdk.Content{&sdk.TextContent{Text: resultText(res)}}}
		if res.Card != nil {
			// The confirmation card, for the host's UI (MCP-68); the model
			// does not read _meta.
			out.Meta = sdk.Meta{cardKey: res.Card}
		}
		return out, nil
	}
}

// resultText is the answer as text for hosts that show the model only
// the text (§7.4): it asks the model to give the person the link and
// says that nothing is sent until they confirm there (ACT-34).
func resultText(r *actions.Result) string {
	var b strings.Builder
	switch r.Status {
	case "confirmation_required":
		fmt.Fprintf(&b, "Confirmation required. Give the user this link to confirm the request: %s\n\n", r.ConfirmURL)
		fmt.Fprintf(&b, "%s\n\nNothing is sent until the user confirms on that page with a code Daawid emails them. The link works until %s. Request ID: %s.\n",
			r.Summary, r.ExpiresAt, r.RunID)
	case "submitted":
		fmt.Fprintf(&b, "This request was already confirmed and sent on %s. Request ID: %s.\n", r.SubmittedAt, r.RunID)
	case "handoff":
		fmt.Fprintf(&b, "This business takes this request on its own site. Give the user this link: %s\n", r.URL)
	}
	return b.String()
}

// requestStatus is get_request_status (ACT-14, ACT-48).
func (t *tools) requestStatus(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	if t.opt.Allow != nil {
		if err := t.opt.Allow(ctx); err != nil {
			return toolError(err), nil
		}
	}
	if issues := unknownArguments(req.Params.Name, req.Params.Arguments); len(issues) > 0 {
		return toolError(query.InvalidInput(issues)), nil // MCP-32
	}
	if t.opt.Actions == nil {
		return toolError(&query.Error{Code: query.CodeUnavailable, Message: "this server takes no requests"}), nil
	}
	var in struct {
		RunID string `json:"runId"`
	}
	raw := []byte(req.Params.Arguments)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return toolError(query.InvalidInput([]query.Issue{{Field: "runId", Message: "give only runId, a run ID string: " + err.Error()}})), nil
	}
	st, err := t.opt.Actions.Status(ctx, in.RunID, t.opt.Now())
	if err != nil {
		return toolError(err), nil
	}
	return &sdk.CallToolResult{StructuredContent: st,
		Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("Request %s: %s (since %s).\n", st.RunID, strings.ReplaceAll(st.Status, "_", " "), st.UpdatedAt)}}}, nil
}
