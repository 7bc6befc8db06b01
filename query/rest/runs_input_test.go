package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// validCalls are a valid call of every request tool, each to an action
// that asks for all its kind's fields it can.
func validCalls() map[schemas.ActionType]map[string]any {
	slot := []any{map[string]any{"from": "2026-12-10T10:00:00+01:00", "to": "2026-12-10T11:00:00+01:00"}}
	return map[schemas.ActionType]map[string]any{
		schemas.ActionRequestQuote: testserver.ExampleQuote(),
		schemas.ActionRequestCallback: {"entry": "holzwerk-krause", "topic": "Rückruf wegen einer Reparatur",
			"preferredTimes": slot, "offeringId": "off_01k8r2m6dd1b2c3d4e5f6g7h8j", "idempotencyKey": "callback-key-1",
			"requester": map[string]any{"name": "Mara Example", "email": "mara@example.org", "phone": "+49 202 99990-12", "preferredChannel": "phone", "language": "de"}},
		schemas.ActionRequestAppointment: {"entry": "physio-kanalblick", "actionId": "act_01m2q3ce88be8ak4skt3vwxw6f", "purpose": "Hausbesuch Krankengymnastik",
			"preferredSlots": slot, "postalCode": "22301", "answers": map[string]any{"mobility": "walking_aid", "floor_level": 2}, "idempotencyKey": "appointment-key-1",
			"requester": map[string]any{"name": "Mara Example", "email": "mara@example.org", "phone": "+49 40 1234567"}},
		schemas.ActionSendMessage: {"entry": "physio-kanalblick", "subject": "Eine Frage", "message": "Haben Sie im Januar noch Termine frei?",
			"answers": map[string]any{"topic_details": "Rücken"}, "idempotencyKey": "message-key-1",
			"requester": map[string]any{"name": "Mara Example", "email": "mara@example.org"}},
	}
}

// setPath sets a dotted path in a call (an array's first item for a path
// through an array), making the objects on the way.
func setPath(m map[string]any, path string, v any) {
	name, rest, more := strings.Cut(path, ".")
	if !more {
		m[name] = v
		return
	}
	switch child := m[name].(type) {
	case map[string]any:
		setPath(child, rest, v)
	case []any:
		setPath(child[0].(map[string]any), rest, v)
	default:
		c := map[string]any{}
		m[name] = c
		setPath(c, rest, v)
	}
}

func cloneCall(m map[string]any) map[string]any {
	var c map[string]any
	json.Unmarshal(mustJSON(m), &c)
	return c
}

// wrongValue is a value of the wrong JSON type for a field.
func wrongValue(f *schemas.InputField) any {
	switch f.Type {
	case schemas.InputObject, schemas.InputArray, schemas.InputAnswers:
		return "not an object"
	case schemas.InputMoney:
		return true
	default:
		return 12345
	}
}

// TestRuns_ACT30_BadInputNamesTheField: every field of every request
// tool, wrong in turn, and an unknown field at every level of the input,
// answer invalid_input naming it, in MCP and in REST (REST-29).
func TestRuns_ACT30_BadInputNamesTheField(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	cs := testserver.MCPClient(t, rg.testServer.Server, "2026-07-28")
	calls := validCalls()
	type bad struct {
		kind  schemas.ActionType
		field string
		call  map[string]any
	}
	var cases []bad
	for _, k := range schemas.RequestKinds() {
		base := calls[k.Type]
		// The valid call is valid: otherwise every case below proves nothing.
		if res := testserver.CallTool(t, cs, string(k.Type), cloneCall(base)); res.IsError {
			t.Fatalf("the valid %s call: %s", k.Type, testserver.TextOf(res))
		}
		for _, p := range k.Paths() {
			f := k.Field(p)
			c := cloneCall(base)
			setPath(c, p, wrongValue(f))
			cases = append(cases, bad{k.Type, p, c})
		}
		for _, p := range []string{"bogus", "requester.bogus"} {
			c := cloneCall(base)
			setPath(c, p, 1)
			cases = append(cases, bad{k.Type, p, c})
		}
	}
	for _, c := range cases {
		// MCP.
		res := testserver.CallTool(t, cs, string(c.kind), c.call)
		if !res.IsError {
			t.Errorf("%s with %s wrong: no error", c.kind, c.field)
			continue
		}
		e := testserver.ErrorOf(t, res)
		if e.Code != "invalid_input" || !namesField(e.Issues, c.field) {
			t.Errorf("MCP %s with %s wrong: %s %v, want invalid_input naming %s", c.kind, c.field, e.Code, e.Issues, c.field)
		}
		// REST: the same body to the action's address.
		actionID := actionOf(t, c.kind, c.call)
		resp, body := rg.postJSON(t, "/v1/actions/"+actionID+"/runs", c.call)
		p := problemOf(t, resp, body)
		if resp.StatusCode != 422 || p.Code != "invalid_input" || !namesField(p.Issues, c.field) {
			t.Errorf("REST %s with %s wrong: %d %s %v (REST-29)", c.kind, c.field, resp.StatusCode, p.Code, p.Issues)
		}
	}
	if len(cases) < 40 {
		t.Errorf("only %d cases", len(cases))
	}
}

func namesField(issues []schemas.FieldIssue, field string) bool {
	for _, is := range issues {
		f := strings.NewReplacer("[0]", "").Replace(is.Field)
		if f == field || strings.HasPrefix(f, field+".") {
			return true
		}
	}
	return false
}

// actionOf is the action a call is for: its actionId, else the entry's
// one enabled action of the kind.
func actionOf(t *testing.T, kind schemas.ActionType, call map[string]any) string {
	t.Helper()
	if id, ok := call["actionId"].(string); ok && strings.HasPrefix(id, "act_") {
		return id
	}
	slug, _ := call["entry"].(string)
	if slug == "" || strings.HasPrefix(slug, "1") {
		slug = validCalls()[kind]["entry"].(string)
	}
	e := entryOf(t, slug)
	acts := e.ActionsOfType(kind)
	for _, a := range acts {
		if !a.Handoff() {
			return a.ID
		}
	}
	t.Fatalf("%s has no %s action", slug, kind)
	return ""
}
