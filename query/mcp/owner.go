package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MyEntries is list_my_entries' answer (TOOL-21).
type MyEntries struct {
	Entries []MyEntry `json:"entries"`
}

// MyEntry is one of the owner's entries (TOOL-21): what it is, whether it
// is live, the owner's role, and the change waiting for the owner's
// email (MCP-26), or null.
type MyEntry struct {
	ID              string       `json:"id"`
	Kind            string       `json:"kind,omitempty"`
	Slug            string       `json:"slug,omitempty"`
	Page            string       `json:"page,omitempty"`
	Name            string       `json:"name,omitempty"`
	Live            bool         `json:"live"`
	Role            string       `json:"role"`
	DefaultLanguage string       `json:"defaultLanguage,omitempty"`
	Revision        int          `json:"revision,omitempty"`
	WaitingChange   *WaitingInfo `json:"waitingChange"`
}

// ownerToolMeta is an owner tool's _meta: OAuth 2 with entries:write
// (MCP-25).
func ownerToolMeta() sdk.Meta {
	return sdk.Meta{"securitySchemes": []any{map[string]any{"type": "oauth2", "scopes": []string{schemas.OwnerScope}}}}
}

// owner is the signed-in owner of a call, or the tool error that asks
// for the sign-in: the form of MCP-22 for the apps that get past the
// gate without a token (OpenAI's), with the challenge in _meta.
func (t *tools) owner(ctx context.Context) (*auth.Principal, *sdk.CallToolResult) {
	if p := PrincipalOf(ctx); p != nil {
		return p, nil
	}
	res := toolError(&query.Error{Code: query.CodeSignInRequired, Message: "sign in as the entry's owner to use this tool"})
	res.Meta = sdk.Meta{"mcp/www_authenticate": []string{
		Challenge(auth.ResourceMetadataURL(t.svc.Site().MCPURL), `error="invalid_token", scope="`+schemas.OwnerScope+`"`)}}
	return nil, res
}

// listMyEntries is list_my_entries (TOOL-21): the owner's entries as the
// current publication shows them; one not (or no longer) published is
// listed by its ID as not live.
func (t *tools) listMyEntries(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	p, denied := t.owner(ctx)
	if denied != nil {
		return denied, nil
	}
	var in struct{}
	if err := args(req, &in); err != nil {
		return toolError(err), nil
	}
	now := t.opt.Now()
	owned, err := t.opt.Auth.Owners().OfSubject(ctx, p.Subject, now)
	if err != nil {
		return toolError(err), nil
	}
	waiting, err := t.opt.Auth.WaitingOf(ctx, p.Subject, now)
	if err != nil {
		return toolError(err), nil
	}
	rd, err := t.svc.Begin(now)
	if err != nil {
		return toolError(err), nil
	}
	defer rd.End()
	out := MyEntries{Entries: []MyEntry{}}
	for _, o := range owned {
		me := MyEntry{ID: o.EntryID, Role: o.Role}
		if w := waiting[o.EntryID]; w != nil {
			me.WaitingChange = &WaitingInfo{Sections: w.Sections(), ExpiresAt: w.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z"), Email: w.MaskedEmail()}
		}
		if e, err := rd.Revision(o.EntryID); err == nil {
			me.Kind, me.Slug, me.Name, me.DefaultLanguage, me.Revision = string(e.Kind), e.Slug, e.DisplayName, e.DefaultLanguage, e.Record.Revision
			me.Page = t.svc.Site().PageURL(e.Slug)
			me.Live = e.Status != schemas.StatusSuspended
		}
		out.Entries = append(out.Entries, me)
	}
	return &sdk.CallToolResult{StructuredContent: out, Content: []sdk.Content{&sdk.TextContent{Text: myEntriesText(out)}}}, nil
}

// myEntriesText is the answer as text, a numbered list (§7.4).
func myEntriesText(m MyEntries) string {
	if len(m.Entries) == 0 {
		return "You own no entries on Daawid.\n"
	}
	var b strings.Builder
	for i, e := range m.Entries {
		live := "live"
		if !e.Live {
			live = "not live"
		}
		fmt.Fprintf(&b, "%d. %s (%s), %s, %s, revision %d, you are its %s: %s\n", i+1, e.Name, e.ID, e.Kind, live, e.Revision, e.Role, e.Page)
		if w := e.WaitingChange; w != nil {
			fmt.Fprintf(&b, "   A change to %s waits for the owner's email to %s, until %s.\n", strings.Join(w.Sections, ", "), w.Email, w.ExpiresAt)
		}
	}
	return b.String()
}
