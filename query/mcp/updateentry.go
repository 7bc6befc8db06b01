package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// updateEntry is update_entry (TOOL-24 to TOOL-29, TOOL-31, TOOL-32, MCP-26).
// The call is checked in this order, and nothing is written unless all
// pass: the revision the caller read (changed_since), phone numbers as
// pages show them, the full input form, then the edit applied over the
// published revision and checked as the pipeline checks it. The part of
// the change to sensitive sections waits for the owner's email; the rest
// goes into the owner inbox at once.
func (t *tools) updateEntry(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in map[string]json.RawMessage
	var ref string
	entryOf := func() string {
		json.Unmarshal(in["entry"], &ref)
		return ref
	}
	return t.changing(ctx, req, &in, entryOf, func(c *ownerCall) *sdk.CallToolResult {
		var fields []string
		set := map[string]json.RawMessage{}
		for _, f := range schemas.UpdateFields() {
			if v, ok := in[f]; ok {
				fields = append(fields, f)
				set[f] = v
			}
		}
		site := t.svc.Site()
		current := func() map[string]json.RawMessage { return viewFields(c.tg.served, site, fields) }
		served := c.tg.served.Record.Revision
		var rev int
		if err := json.Unmarshal(in["revision"], &rev); err != nil || rev < 1 {
			return ownerError(query.InvalidInput([]query.Issue{{Field: "revision", Message: "must be the revision you read (get_entry's record.revision), 1 or more"}}), served, current())
		}
		// TOOL-28: the revision get_entry shows is the published one, or
		// the time guard's re-issue of it (D66); either is what the owner
		// read.
		if rev != served && rev != c.tg.published.Record.Revision {
			return ownerError(&query.Error{Code: query.CodeChangedSince,
				Message: fmt.Sprintf("the entry changed since revision %d: it is at revision %d now; nothing was changed", rev, served)}, served, current())
		}
		if len(fields) == 0 {
			return ownerError(query.InvalidInput([]query.Issue{{Field: "arguments", Message: "send at least one field to change"}}), served, current())
		}
		issues := normalisePhones(set)
		if len(issues) == 0 {
			issues = newItemIDs(set, c)
		}
		if len(issues) == 0 {
			full := map[string]json.RawMessage{"revision": in["revision"]}
			for k, v := range set {
				full[k] = v
			}
			raw, _ := json.Marshal(full)
			issues = schemas.CheckUpdateEntry(raw)
		}
		var after *schemas.Entry
		if len(issues) == 0 {
			after, issues = validAfter(c.tg.published, c.edit(schemas.EditUpdateEntry, set))
		}
		if len(issues) > 0 {
			return ownerError(query.InvalidInput(issues), served, current())
		}
		return t.splitAndWrite(ctx, c, fields, set, after)
	})
}

// splitAndWrite writes the part of a checked change that goes live at
// once into the owner inbox, and keeps the sensitive part waiting for the
// owner's email (MCP-26); the answer says which is which (TOOL-34).
func (t *tools) splitAndWrite(ctx context.Context, c *ownerCall, fields []string, set map[string]json.RawMessage, after *schemas.Entry) *sdk.CallToolResult {
	live, waiting := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	var outcomes []FieldOutcome
	for _, f := range fields {
		if schemas.SensitiveEditFields[f] {
			waiting[f] = set[f]
			outcomes = append(outcomes, FieldOutcome{Field: f, Outcome: OutcomeWaiting})
		} else {
			live[f] = set[f]
			outcomes = append(outcomes, FieldOutcome{Field: f, Outcome: OutcomeLive})
		}
	}
	ans := OwnerChange{Entry: t.entryRef(c.tg.served), BasedOn: c.tg.published.Record.Revision, Fields: outcomes,
		After: viewFields(after, t.svc.Site(), fields)}
	if len(waiting) > 0 {
		w, err := t.opt.Auth.AddWaiting(ctx, auth.WaitingChange{EntryID: c.tg.published.ID, EntryName: c.tg.served.DisplayName,
			Subject: c.p.Subject, Email: c.tg.owner.Email, Set: waiting}, c.now)
		if err != nil {
			return toolError(fmt.Errorf("keep the change for the owner's email: %w", err))
		}
		ans.Waiting = &WaitingInfo{Sections: w.Sections(), ExpiresAt: w.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z"), Email: w.MaskedEmail()}
	}
	if len(live) > 0 {
		if err := t.write(c.edit(schemas.EditUpdateEntry, live), c.now); err != nil {
			return toolError(err)
		}
	}
	return changeResult("update_entry", ans)
}

// normalisePhones reduces the phone numbers of the contact points and
// the operator's contact, as pages show them, to E.164 (TOOL-31), with
// the requests' own rule (check.Phone); a number that is none is a
// mistake named by its field.
func normalisePhones(set map[string]json.RawMessage) []query.Issue {
	var issues []query.Issue
	if raw, ok := set["contactPoints"]; ok && !isNull(raw) {
		var cps []map[string]json.RawMessage
		if json.Unmarshal(raw, &cps) == nil {
			for i, cp := range cps {
				if n, ok := phoneIn(cp, "phone", "contactPoints["+strconv.Itoa(i)+"].phone", &issues); ok {
					cp["phone"] = n
				}
			}
			set["contactPoints"], _ = json.Marshal(cps)
		}
	}
	if raw, ok := set["operator"]; ok && !isNull(raw) {
		var op map[string]json.RawMessage
		if json.Unmarshal(raw, &op) == nil {
			var contact map[string]json.RawMessage
			if json.Unmarshal(op["contact"], &contact) == nil && contact != nil {
				if n, ok := phoneIn(contact, "phone", "operator.contact.phone", &issues); ok {
					contact["phone"] = n
					op["contact"], _ = json.Marshal(contact)
					set["operator"], _ = json.Marshal(op)
				}
			}
		}
	}
	return issues
}

// phoneIn reads the phone number at key of obj, if it is a string.
func phoneIn(obj map[string]json.RawMessage, key, field string, issues *[]query.Issue) (json.RawMessage, bool) {
	var s string
	if json.Unmarshal(obj[key], &s) != nil || s == "" {
		return nil, false
	}
	n, problem := check.Phone(s)
	if problem != "" {
		*issues = append(*issues, query.Issue{Field: field, Message: problem})
		return nil, false
	}
	b, _ := json.Marshal(n)
	return b, true
}

// itemPrefixes are the lists whose items carry IDs, with their IDs'
// prefix: an item sent without one is new and gets one (TOOL-27).
var itemPrefixes = map[string]schemas.IDPrefix{
	"contactPoints": schemas.PrefixContact, "locations": schemas.PrefixLocation, "offerings": schemas.PrefixOffering,
}

// newItemIDs gives each new item (one without an id) a new ID, dated
// now, before the edit is written, so the pipeline and the answer's
// after-values name it the same.
func newItemIDs(set map[string]json.RawMessage, c *ownerCall) []query.Issue {
	for _, f := range []string{"contactPoints", "locations", "offerings"} {
		raw, ok := set[f]
		if !ok || isNull(raw) {
			continue
		}
		var items []map[string]json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			continue // the full form names the mistake
		}
		for _, it := range items {
			if it == nil {
				continue
			}
			var id string
			if json.Unmarshal(it["id"], &id); id != "" {
				continue
			}
			nid, err := schemas.NewID(itemPrefixes[f], c.now, nil)
			if err != nil {
				return []query.Issue{{Field: f, Message: "could not make an ID for a new item: " + err.Error()}}
			}
			it["id"], _ = json.Marshal(nid)
		}
		set[f], _ = json.Marshal(items)
	}
	return nil
}
