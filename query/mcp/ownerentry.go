package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ownerTarget is the entry an owner tool acts on: the signed-in owner's
// ownership of it, the revision the publication stores (what the
// pipeline's state holds, so what an edit is based on, D95) and the
// revision get_entry shows (the same, or the time guard's re-issue, D66).
type ownerTarget struct {
	owner     auth.Owner
	published *schemas.Entry
	served    *schemas.Entry
}

// ownerEntry finds the entry a call names among the signed-in owner's
// (§7.5): by ID or slug, or, left out, the owner's one entry; with
// several, the error lists them (TOOL-33). An entry the owner does not
// own is not_allowed, whether or not it exists.
func (t *tools) ownerEntry(ctx context.Context, rd *query.Read, p *auth.Principal, ref string) (*ownerTarget, error) {
	owned, err := t.opt.Auth.Owners().OfSubject(ctx, p.Subject, rd.Now())
	if err != nil {
		return nil, err
	}
	if len(owned) == 0 {
		return nil, &query.Error{Code: query.CodeNotAllowed, Message: "you own no entries on Daawid; claim yours first"}
	}
	var id string
	switch {
	case ref == "" && len(owned) == 1:
		id = owned[0].EntryID
	case ref == "":
		var names []string
		for _, o := range owned {
			name := o.EntryID
			if e, err := rd.Revision(o.EntryID); err == nil {
				name = fmt.Sprintf("%s (%s, %s)", e.DisplayName, e.ID, e.Slug)
			}
			names = append(names, name)
		}
		msg := "you own several entries; name one by its ID or slug: " + strings.Join(names, "; ")
		return nil, &query.Error{Code: query.CodeInvalidInput, Message: "entry: " + msg, Issues: []query.Issue{{Field: "entry", Message: msg}}}
	default:
		in := query.EntryInput{Slug: ref}
		if strings.HasPrefix(ref, string(schemas.PrefixEntry)+"_") {
			in = query.EntryInput{ID: ref}
		}
		res, err := rd.Resolve(in)
		if err != nil {
			if e, ok := query.AsError(err); ok && (e.Code == query.CodeNotFound || e.Code == query.CodeGone) {
				return nil, &query.Error{Code: query.CodeNotAllowed, Message: "entry: " + ref + " is not one of your entries"}
			}
			return nil, err
		}
		id = res.ID
	}
	tg := &ownerTarget{}
	for _, o := range owned {
		if o.EntryID == id {
			tg.owner = o
		}
	}
	if tg.owner.EntryID == "" {
		return nil, &query.Error{Code: query.CodeNotAllowed, Message: "entry: " + ref + " is not one of your entries; list_my_entries lists them"}
	}
	if tg.published, err = rd.PublishedRevision(id); err != nil {
		return nil, err
	}
	if tg.served, err = rd.Revision(id); err != nil {
		return nil, err
	}
	return tg, nil
}

// viewFields are fields of an entry as get_entry shows them in its
// default language (TOOL-25), by name; a field the view leaves out is
// null.
func viewFields(e *schemas.Entry, site render.Site, fields []string) map[string]json.RawMessage {
	var view map[string]json.RawMessage
	json.Unmarshal(render.ViewJSON(e, e.DefaultLanguage, site, nil), &view)
	out := map[string]json.RawMessage{}
	for _, f := range fields {
		if v, ok := view[f]; ok {
			out[f] = v
		} else {
			out[f] = json.RawMessage("null")
		}
	}
	return out
}

// OwnerEntryRef names the entry an owner tool changed (TOOL-34).
type OwnerEntryRef struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Slug            string `json:"slug"`
	Page            string `json:"page"`
	DefaultLanguage string `json:"defaultLanguage"`
}

// FieldOutcome says what happens to one field of a change (TOOL-34).
type FieldOutcome struct {
	Field string `json:"field"`
	// Outcome is "live_with_next_publication" or "waits_for_owner_email".
	Outcome string `json:"outcome"`
}

// The outcomes of a field.
const (
	OutcomeLive    = "live_with_next_publication"
	OutcomeWaiting = "waits_for_owner_email"
)

// WaitingInfo is the part of a change that waits for the owner's email
// (MCP-26, TOOL-34): its sections, when the link runs out, and where it
// went, partly hidden.
type WaitingInfo struct {
	Sections  []string `json:"sections"`
	ExpiresAt string   `json:"expiresAt"`
	Email     string   `json:"email"`
}

// OwnerChange is the answer of set_capacity, update_entry and
// confirm_entry (TOOL-34).
type OwnerChange struct {
	Entry OwnerEntryRef `json:"entry"`
	// BasedOn is the revision the change is based on; the next delta
	// publication makes the revision after it.
	BasedOn int            `json:"basedOn"`
	Fields  []FieldOutcome `json:"fields"`
	Waiting *WaitingInfo   `json:"waiting,omitempty"`
	// After holds the changed fields as they read after the change, in
	// the view's shape, for the next change.
	After map[string]json.RawMessage `json:"after"`
}

func (t *tools) entryRef(e *schemas.Entry) OwnerEntryRef {
	return OwnerEntryRef{ID: e.ID, Name: e.DisplayName, Slug: e.Slug, Page: t.svc.Site().PageURL(e.Slug), DefaultLanguage: e.DefaultLanguage}
}

// changeResult is an owner change as a tool result: the structure, and
// the same as text for apps that show their model only the text.
func changeResult(tool string, c OwnerChange) *sdk.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s, %s, default language %s), %s\n", tool, c.Entry.Name, c.Entry.ID, c.Entry.Slug, c.Entry.DefaultLanguage, c.Entry.Page)
	fmt.Fprintf(&b, "Based on revision %d.\n", c.BasedOn)
	for _, f := range c.Fields {
		switch f.Outcome {
		case OutcomeLive:
			fmt.Fprintf(&b, "- %s: goes live with the next publication\n", f.Field)
		default:
			fmt.Fprintf(&b, "- %s: waits for the owner's confirmation by email\n", f.Field)
		}
	}
	if c.Waiting != nil {
		fmt.Fprintf(&b, "A link to confirm %s went to %s; it works once, until %s.\n", strings.Join(c.Waiting.Sections, ", "), c.Waiting.Email, c.Waiting.ExpiresAt)
	}
	if len(c.After) > 0 {
		after, _ := json.MarshalIndent(c.After, "", "  ")
		fmt.Fprintf(&b, "The changed fields now read:\n%s\n", after)
	}
	return &sdk.CallToolResult{StructuredContent: c, Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}
}

// ownerError is a changing owner tool's error with the entry's current
// revision and what the sent fields say now (TOOL-28, TOOL-29), in the
// structure and in the text, so an app that shows its model only the text
// learns the shape from the answer.
func ownerError(err error, revision int, current map[string]json.RawMessage) *sdk.CallToolResult {
	res := toolError(err)
	ec := res.StructuredContent.(ErrorContent)
	ec.Error.CurrentRevision = revision
	ec.Error.Current = current
	res.StructuredContent = ec
	text := res.Content[0].(*sdk.TextContent).Text
	text += fmt.Sprintf("\nThe entry is at revision %d.", revision)
	if len(current) > 0 {
		cur, _ := json.MarshalIndent(current, "", "  ")
		text += " The fields you sent read now:\n" + string(cur)
	}
	res.Content = []sdk.Content{&sdk.TextContent{Text: text + "\n"}}
	return res
}

// registryOf is what the owner pages of the authorization server need of
// the registry (auth.Registry): the public revision the publication holds
// and the owner inbox.
type registryOf struct {
	svc   *query.Service
	inbox *inbox.Inbox
}

func (r registryOf) PublicRevision(entryID string, now time.Time) (*schemas.Entry, error) {
	rd, err := r.svc.Begin(now)
	if err != nil {
		return nil, err
	}
	defer rd.End()
	return rd.PublishedRevision(entryID)
}

func (r registryOf) WriteEdit(ed *schemas.OwnerEdit, now time.Time) (string, error) {
	return r.inbox.WriteEdit(ed, now)
}

// validAfter applies an edit over the published revision and checks the
// result as the pipeline checks an owner revision (pipeline/edits.go
// validEntry: marshal, then schemas.Validate), so the tool refuses what
// the compile would refuse. Mistakes the published revision already has
// (none, normally) are not the caller's and are left out.
func validAfter(e *schemas.Entry, ed *schemas.OwnerEdit) (*schemas.Entry, []query.Issue) {
	next, issues := schemas.ApplyEdit(e, ed)
	if len(issues) > 0 {
		return nil, editIssues(issues)
	}
	before := map[schemas.Issue]bool{}
	for _, is := range validate(e) {
		before[is] = true
	}
	var out schemas.Issues
	for _, is := range validate(next) {
		if !before[is] {
			out = append(out, is)
		}
	}
	if len(out) > 0 {
		return nil, editIssues(out)
	}
	return next, nil
}

func validate(e *schemas.Entry) schemas.Issues {
	data, err := json.Marshal(e)
	if err != nil {
		return schemas.Issues{{Path: "/", Message: err.Error()}}
	}
	_, issues := schemas.Validate(data)
	return issues
}

// editIssues names an entry's or an edit's mistakes by field.
func editIssues(is schemas.Issues) []query.Issue {
	out := make([]query.Issue, len(is))
	for i, x := range is {
		out[i] = query.Issue{Field: schemas.PointerField(strings.TrimPrefix(x.Path, "/set")), Message: x.Message}
	}
	return out
}

// isNull says whether a field was sent as null.
func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }
