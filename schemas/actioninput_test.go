package schemas_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compile(t *testing.T, name string, raw []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "https://daawid.example/test/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile as JSON Schema 2020-12: %v", name, err)
	}
	return s
}

func valid(t *testing.T, s *jsonschema.Schema, in string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// TestRequestTools_MCP53_Order lists the request tools in §7.5's order
// after which get_request_status comes (MCP-53), with §7.4's titles, UI
// resource and hints: MCP-42 request_quote, MCP-43 request_callback,
// MCP-44 request_appointment, MCP-45 send_message, MCP-46
// get_request_status; ACT-61 for the request tools' hints.
func TestRequestTools_MCP53_Order(t *testing.T) {
	type want struct {
		name, title, ui string
		hints           schemas.ToolHints
	}
	request := schemas.ToolHints{ReadOnly: false, Destructive: false, Idempotent: false, OpenWorld: true} // ACT-61
	wants := []want{
		{"request_quote", "Request a quote", "ui://daawid/action-confirm", request},                                                   // MCP-42
		{"request_callback", "Request a callback", "ui://daawid/action-confirm", request},                                             // MCP-43
		{"request_appointment", "Request an appointment", "ui://daawid/action-confirm", request},                                      // MCP-44
		{"send_message", "Send a message", "ui://daawid/action-confirm", request},                                                     // MCP-45
		{"get_request_status", "Check a request's status", "", schemas.ToolHints{ReadOnly: true, Idempotent: true, OpenWorld: false}}, // MCP-46
	}
	tools := schemas.RequestTools()
	if len(tools) != len(wants) {
		t.Fatalf("%d tools, want %d", len(tools), len(wants))
	}
	for i, w := range wants {
		tl := tools[i]
		if tl.Name != w.name || tl.Title != w.title || tl.UIResource != w.ui || tl.Annotations() != w.hints || tl.Hints == nil {
			t.Errorf("tool %d: %s %q %q %+v, want %+v", i, tl.Name, tl.Title, tl.UIResource, tl.Annotations(), w)
		}
		if len(tl.Name) > 64 || tl.Description == "" || len(tl.Description) > 200 {
			t.Errorf("%s: name or description out of bounds", tl.Name)
		}
	}
	// The read tools keep their constants (§7.4).
	for _, tl := range schemas.ReadTools() {
		if tl.Hints != nil || tl.Annotations() != (schemas.ToolHints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true}) {
			t.Errorf("%s: hints %+v", tl.Name, tl.Annotations())
		}
	}
}

// TestRequestTools_MCP47_ConfirmRequestNotOffered: confirm_request is
// reserved, in no tool list (ACT-15, ACT-43).
func TestRequestTools_MCP47_ConfirmRequestNotOffered(t *testing.T) {
	for _, tl := range append(schemas.ReadTools(), schemas.RequestTools()...) {
		if tl.Name == schemas.ConfirmRequestReserved {
			t.Errorf("%s is listed", tl.Name)
		}
	}
}

// closedObjects fails for an object schema that takes members beyond its
// properties; only the answers record takes any question key (the server
// checks the keys), by a value schema.
func closedObjects(t *testing.T, name, path string, node map[string]any) {
	t.Helper()
	if node["type"] == "object" {
		switch ap := node["additionalProperties"].(type) {
		case bool:
			if ap {
				t.Errorf("%s %s: additionalProperties true", name, path)
			}
		case map[string]any:
			if path != "/answers" {
				t.Errorf("%s %s: open object", name, path)
			}
		default:
			t.Errorf("%s %s: no additionalProperties", name, path)
		}
	}
	props, _ := node["properties"].(map[string]any)
	for k, v := range props {
		if m, ok := v.(map[string]any); ok {
			closedObjects(t, name, path+"/"+k, m)
		}
	}
	if m, ok := node["items"].(map[string]any); ok {
		closedObjects(t, name, path+"[]", m)
	}
}

// TestRequestTools_InputsCompile: each tool's input compiles as JSON
// Schema 2020-12, takes nothing beyond its fields at any object level,
// takes the contract's example call (ACT-64) and refuses an unknown
// field at each level.
func TestRequestTools_InputsCompile(t *testing.T) {
	good := map[string][]string{
		"request_quote": {`{"entry":"holzwerk-krause","actionId":"act_01k8r2m7aa1b2c3d4e5f6g7h8j","offeringId":"off_01k8r2m6bb1b2c3d4e5f6g7h8j",
			"description":"Einbauschrank für eine Dachschräge im Schlafzimmer, ca. 3,2 m breit, Eiche hell.","postalCode":"42105",
			"desiredTiming":"Februar oder März 2027","answers":{"has_sloped_ceiling":true},
			"requester":{"name":"Mara Example","email":"mara@example.org","preferredChannel":"email","language":"de"},"idempotencyKey":"3c1f7a9e-quote-1"}`,
			`{"entry":"ent_01k8r2m5n7p9q3s4t6v8w0x2yz","requester":{"name":"Mara","email":"mara@example.org"},"description":"Einbauschrank bitte","budget":{"max":5000,"currency":"eur"}}`},
		"request_callback":    {`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org","phone":"+49 202 1234567"},"topic":"Tür","preferredTimes":[{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T11:00:00+01:00"}]}`},
		"request_appointment": {`{"entry":"physio-kanalblick","requester":{"name":"Mara","email":"mara@example.org"},"purpose":"Hausbesuch","preferredSlots":[{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T10:00:00+01:00"}]}`},
		"send_message":        {`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"subject":"Frage","message":"Haben Sie Eiche vorrätig?"}`},
		"get_request_status":  {`{"runId":"run_01k8x9p2aa1b2c3d4e5f6g7h8j"}`},
	}
	bad := map[string][]string{
		"request_quote": {`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"description":"Einbauschrank bitte","photos":[]}`,
			`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org","nickname":"M"},"description":"Einbauschrank bitte"}`,
			`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"description":"Einbauschrank bitte","budget":{"max":"5000","currency":"EUR","vat":true}}`,
			`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"description":"Einbauschrank bitte","answers":{"note":"x` + strings.Repeat("x", 1000) + `"}}`,
			`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"description":"kurz"}`},
		"request_callback":    {`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"topic":"Tür"}`},
		"request_appointment": {`{"entry":"physio-kanalblick","requester":{"name":"Mara","email":"mara@example.org"},"purpose":"Hausbesuch","preferredSlots":[{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T10:00:00+01:00","tz":"x"}]}`},
		"send_message":        {`{"entry":"holzwerk-krause","requester":{"name":"Mara","email":"mara@example.org"},"subject":"Frage","message":"Haben Sie Eiche vorrätig?","offeringId":"off_01k8r2m6bb1b2c3d4e5f6g7h8j"}`},
		"get_request_status":  {`{"runId":"run_1"}`, `{"runId":"run_01k8x9p2aa1b2c3d4e5f6g7h8j","confirmation":"x"}`},
	}
	for _, tl := range schemas.RequestTools() {
		s := compile(t, tl.Name, tl.Input)
		var node map[string]any
		if err := json.Unmarshal(tl.Input, &node); err != nil {
			t.Fatal(err)
		}
		closedObjects(t, tl.Name, "", node)
		for _, in := range good[tl.Name] {
			if err := valid(t, s, in); err != nil {
				t.Errorf("%s refuses %s: %v", tl.Name, in, err)
			}
		}
		for _, in := range bad[tl.Name] {
			if valid(t, s, in) == nil {
				t.Errorf("%s takes %s", tl.Name, in)
			}
		}
	}
}

// TestRequestKinds_ContractShapes pins the table to §7.5's Zod, field by
// field: a changed bound, type or requirement fails here (ACT-01,
// ACT-04, ACT-05, ACT-06, ACT-07, ACT-08, ACT-09).
func TestRequestKinds_ContractShapes(t *testing.T) {
	type shape struct {
		typ      schemas.InputType
		min, max int
		required bool
	}
	common := map[string]shape{
		"entry":                      {schemas.InputEntryRef, 0, 0, true},
		"actionId":                   {schemas.InputID, 0, 0, false},
		"requester":                  {schemas.InputObject, 0, 0, true},
		"requester.name":             {schemas.InputText, 2, 120, true},
		"requester.email":            {schemas.InputEmail, 0, 254, true},
		"requester.phone":            {schemas.InputPhone, 0, 32, false},
		"requester.preferredChannel": {schemas.InputEnum, 0, 0, false},
		"requester.language":         {schemas.InputLanguage, 0, 35, false},
		"answers":                    {schemas.InputAnswers, 0, 0, false},
		"idempotencyKey":             {schemas.InputText, 8, 64, false},
	}
	own := map[schemas.ActionType]map[string]shape{
		schemas.ActionRequestQuote: {
			"offeringId": {schemas.InputID, 0, 0, false}, "description": {schemas.InputText, 10, 4000, true},
			"postalCode": {schemas.InputText, 3, 10, false}, "desiredTiming": {schemas.InputText, 0, 200, false},
			"budget": {schemas.InputObject, 0, 0, false}, "budget.max": {schemas.InputMoney, 0, 0, true}, "budget.currency": {schemas.InputCurrency, 0, 0, true},
		},
		schemas.ActionRequestCallback: {
			"requester.phone": {schemas.InputPhone, 0, 32, true}, "offeringId": {schemas.InputID, 0, 0, false},
			"topic": {schemas.InputText, 3, 500, true}, "preferredTimes": {schemas.InputArray, 0, 3, false},
		},
		schemas.ActionRequestAppointment: {
			"offeringId": {schemas.InputID, 0, 0, false}, "purpose": {schemas.InputText, 3, 1000, true},
			"preferredSlots": {schemas.InputArray, 1, 5, true}, "postalCode": {schemas.InputText, 3, 10, false},
		},
		schemas.ActionSendMessage: {
			"subject": {schemas.InputText, 3, 200, true}, "message": {schemas.InputText, 10, 4000, true},
		},
	}
	for _, k := range schemas.RequestKinds() {
		want := map[string]shape{}
		for p, s := range common {
			want[p] = s
		}
		for p, s := range own[k.Type] {
			want[p] = s
		}
		paths := k.Paths()
		for p, s := range want {
			f := k.Field(p)
			if f == nil {
				t.Errorf("%s has no %s", k.Type, p)
				continue
			}
			if got := (shape{f.Type, f.Min, f.Max, f.Required}); got != s {
				t.Errorf("%s.%s = %+v, want %+v", k.Type, p, got, s)
			}
		}
		for _, p := range paths {
			if _, ok := want[p]; !ok {
				t.Errorf("%s has %s, which §7.5 doesn't", k.Type, p)
			}
		}
		for _, f := range k.Fields {
			if f.Type == schemas.InputArray {
				var items []string
				for _, it := range f.Fields {
					items = append(items, it.Name+":"+string(it.Type))
				}
				if !slices.Equal(items, []string{"from:time", "to:time"}) || !f.Fields[0].Required || !f.Fields[1].Required {
					t.Errorf("%s.%s items %v", k.Type, f.Name, items)
				}
			}
		}
	}
	if schemas.RequestKindOf("request_photos") != nil {
		t.Error("an unknown type has a kind")
	}
}

// TestRequestKinds_ACT22_RequireFieldsWhereTheKindHasTheField: phone
// applies to every kind, postal_code to quotes and appointments,
// desired_timing and budget to quotes, photos to none yet; serviceAreaOnly
// requires the postal code where the kind has one (ACT-23).
func TestRequestKinds_ACT22_RequireFieldsWhereTheKindHasTheField(t *testing.T) {
	want := map[schemas.ActionType][]string{
		schemas.ActionRequestQuote:       {"phone:requester.phone", "postal_code:postalCode", "desired_timing:desiredTiming", "budget:budget"},
		schemas.ActionRequestCallback:    {}, // its requester always has a phone (ACT-07)
		schemas.ActionRequestAppointment: {"phone:requester.phone", "postal_code:postalCode"},
		schemas.ActionSendMessage:        {"phone:requester.phone"},
	}
	for _, k := range schemas.RequestKinds() {
		got := []string{}
		for _, p := range k.Paths() {
			if f := k.Field(p); f.RequiredBy != "" {
				got = append(got, string(f.RequiredBy)+":"+p)
			}
		}
		if !slices.Equal(got, want[k.Type]) {
			t.Errorf("%s: %v, want %v", k.Type, got, want[k.Type])
		}
		all := &schemas.Action{Type: k.Type, RequireFields: []schemas.RequireField{schemas.RequirePhone, schemas.RequirePostalCode,
			schemas.RequireDesiredTiming, schemas.RequireBudget, schemas.RequirePhotos}}
		sao := &schemas.Action{Type: k.Type, ServiceAreaOnly: true}
		for _, p := range k.Paths() {
			f := k.Field(p)
			if f.RequiredFor(all) != (f.Required || f.RequiredBy != "") {
				t.Errorf("%s.%s: required with every requireFields = %v", k.Type, p, f.RequiredFor(all))
			}
			if want := f.Required || p == "postalCode"; f.RequiredFor(sao) != want {
				t.Errorf("%s.%s: required with serviceAreaOnly = %v, want %v", k.Type, p, !want, want)
			}
		}
	}
}

// TestRequestKinds_MD63_Asks: every field the markdown names is in its
// kind, with words.
func TestRequestKinds_MD63_Asks(t *testing.T) {
	for _, k := range schemas.RequestKinds() {
		for _, p := range k.Asks {
			if f := k.Field(p); f == nil || f.Words == "" {
				t.Errorf("%s asks for %s, which has no field or words", k.Type, p)
			}
		}
	}
}

// TestRequestTools_Frugal: every AI app loads the tool list for every
// chat (§7.3), so the request tools list fields, types, formats, lengths,
// enums, how many items and short descriptions, and leave the patterns
// to the server (MCP-31).
func TestRequestTools_Frugal(t *testing.T) {
	total := 0
	for _, tl := range schemas.RequestTools() {
		total += len(tl.Input) + len(tl.Description) + len(tl.Title)
		if len(tl.Input) > 2000 {
			t.Errorf("%s: input of %d bytes", tl.Name, len(tl.Input))
		}
	}
	if total > 7500 {
		t.Errorf("the request tools take %d bytes", total)
	}
}

// TestOwnerTools_Listing lists the owner tools with §7.4's titles and hints
// and no UI: MCP-48 list_my_entries, MCP-49 set_capacity, MCP-50
// update_entry, MCP-51 confirm_entry.
func TestOwnerTools_Listing(t *testing.T) {
	wants := []struct {
		name, title string
		hints       schemas.ToolHints
	}{
		{"list_my_entries", "List my entries", schemas.ToolHints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false}}, // MCP-48
		{"set_capacity", "Set capacity", schemas.ToolHints{ReadOnly: false, Destructive: true, Idempotent: true, OpenWorld: false}},       // MCP-49
		{"update_entry", "Update my entry", schemas.ToolHints{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: false}},   // MCP-50
		{"confirm_entry", "Confirm my entry", schemas.ToolHints{ReadOnly: false, Destructive: true, Idempotent: true, OpenWorld: false}},  // MCP-51
	}
	tools := schemas.OwnerTools()
	if len(tools) != len(wants) {
		t.Fatalf("%d owner tools, want %d", len(tools), len(wants))
	}
	for i, w := range wants {
		tl := tools[i]
		if tl.Name != w.name || tl.Title != w.title || tl.Annotations() != w.hints || tl.UIResource != "" {
			t.Errorf("tool %d: %s %q %+v ui %q, want %+v", i, tl.Name, tl.Title, tl.Annotations(), tl.UIResource, w)
		}
	}
}
