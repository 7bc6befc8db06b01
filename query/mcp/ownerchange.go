package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The owner tools that change an entry (§7.5): set_capacity,
// update_entry and confirm_entry. None of them changes the publication:
// each writes an owner edit into the owner inbox, which the next delta
// publication carries (D95); a change to a sensitive section waits for
// the owner's email first (MCP-26, query/auth's waiting changes).

// ownerCall is one changing owner tool's call: the signed-in owner, the
// entry, and the instant.
type ownerCall struct {
	p   *auth.Principal
	rd  *query.Read
	tg  *ownerTarget
	now time.Time
}

// changing runs a changing owner tool: the sign-in, the arguments, the
// publication read and the entry named in them.
func (t *tools) changing(ctx context.Context, req *sdk.CallToolRequest, in any, entryOf func() string,
	fn func(c *ownerCall) *sdk.CallToolResult) (*sdk.CallToolResult, error) {
	p, denied := t.owner(ctx)
	if denied != nil {
		return denied, nil
	}
	if err := args(req, in); err != nil {
		return toolError(err), nil
	}
	if t.opt.Inbox == nil || t.opt.Inbox.Dir == "" {
		return toolError(&query.Error{Code: query.CodeUnavailable, Message: "this registry takes no owner changes now; try again later"}), nil
	}
	now := t.opt.Now()
	rd, err := t.svc.Begin(now)
	if err != nil {
		return toolError(err), nil
	}
	defer rd.End()
	tg, err := t.ownerEntry(ctx, rd, p, entryOf())
	if err != nil {
		return toolError(err), nil
	}
	return fn(&ownerCall{p: p, rd: rd, tg: tg, now: now}), nil
}

// edit is an owner edit of the call's entry, based on its published
// revision.
func (c *ownerCall) edit(tool string, set map[string]json.RawMessage) *schemas.OwnerEdit {
	return &schemas.OwnerEdit{Entry: c.tg.published.ID, BasedOn: c.tg.published.Record.Revision,
		DeclaredAt: c.now.UTC().Format(time.RFC3339), Tool: tool, Set: set}
}

// write writes an edit into the owner inbox, or the tool error.
func (t *tools) write(ed *schemas.OwnerEdit, now time.Time) error {
	if _, err := t.opt.Inbox.WriteEdit(ed, now); err != nil {
		if errors.Is(err, inbox.ErrClosed) {
			return &query.Error{Code: query.CodeUnavailable, Message: "this registry takes no owner changes now; try again later"}
		}
		return fmt.Errorf("write the owner edit: %w", err)
	}
	return nil
}

// setCapacity is set_capacity (TOOL-22, TOOL-23): the statement is dated
// now (asOf) and runs out days later (expiresAt, I7).
func (t *tools) setCapacity(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in schemas.CapacityInput
	return t.changing(ctx, req, &in, func() string { return in.Entry }, func(c *ownerCall) *sdk.CallToolResult {
		days := 30
		if in.Days != nil {
			days = *in.Days
		}
		if days < 1 || days > 30 {
			return toolError(query.InvalidInput([]query.Issue{{Field: "days", Message: fmt.Sprintf("must be 1 to 30, not %d", days)}}))
		}
		asOf := c.now.UTC().Truncate(time.Second)
		v := schemas.CapacityView{Status: in.Status, NextAvailableFrom: in.NextAvailableFrom, LeadTime: in.LeadTime, Note: in.Note,
			AsOf: asOf.Format(time.RFC3339), ExpiresAt: asOf.AddDate(0, 0, days).Format(time.RFC3339)}
		raw, _ := json.Marshal(v)
		ed := c.edit(schemas.EditSetCapacity, map[string]json.RawMessage{"capacity": raw})
		after, issues := validAfter(c.tg.published, ed)
		if len(issues) > 0 {
			for i := range issues {
				issues[i].Field = capacityField(issues[i].Field)
			}
			return ownerError(query.InvalidInput(issues), c.tg.served.Record.Revision, viewFields(c.tg.served, t.svc.Site(), []string{"capacity"}))
		}
		if err := t.write(ed, c.now); err != nil {
			return toolError(err)
		}
		return changeResult("set_capacity", OwnerChange{Entry: t.entryRef(c.tg.served), BasedOn: ed.BasedOn,
			Fields: []FieldOutcome{{Field: "capacity", Outcome: OutcomeLive}}, After: viewFields(after, t.svc.Site(), []string{"capacity"})})
	})
}

// capacityField names a mistake in the capacity statement by
// set_capacity's own argument ("capacity.note" is "note").
func capacityField(f string) string {
	const p = "capacity."
	if len(f) > len(p) && f[:len(p)] == p {
		return f[len(p):]
	}
	return f
}

// confirmEntry is confirm_entry (TOOL-30): an edit with no fields, which
// the compile applies by confirming the entry as of the edit's time (D5,
// D95); nothing else changes.
func (t *tools) confirmEntry(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in schemas.EntryRefInput
	return t.changing(ctx, req, &in, func() string { return in.Entry }, func(c *ownerCall) *sdk.CallToolResult {
		ed := c.edit(schemas.EditConfirmEntry, nil)
		if err := t.write(ed, c.now); err != nil {
			return toolError(err)
		}
		confirmed, _ := json.Marshal(ed.DeclaredAt)
		return changeResult("confirm_entry", OwnerChange{Entry: t.entryRef(c.tg.served), BasedOn: ed.BasedOn,
			Fields: []FieldOutcome{{Field: "record.lastConfirmedAt", Outcome: OutcomeLive}},
			After:  map[string]json.RawMessage{"record.lastConfirmedAt": confirmed}})
	})
}
