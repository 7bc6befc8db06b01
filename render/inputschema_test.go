package render_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T, name string, raw []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "https://daawid.example/test/" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile as JSON Schema 2020-12: %v", name, err)
	}
	return s
}

func instance(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestInputSchema_VIEW08_AllCompile compiles every action's inputSchema of
// every fixture as JSON Schema 2020-12 (VIEW-08), and checks the rules that
// shape it: $schema, entry as ID or slug, actionId required only with
// several actions of the kind, answers only with questions, offeringId only
// with offerings (VIEW-10, VIEW-11, VIEW-15).
func TestInputSchema_VIEW08_AllCompile(t *testing.T) {
	n := 0
	for _, e := range allEntries(t) {
		for _, a := range e.EnabledActions() {
			raw := render.InputSchema(e, a, e.DefaultLanguage)
			compileSchema(t, a.ID, raw)
			n++
			var s struct {
				Schema     string                     `json:"$schema"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("%s: $schema = %q", a.ID, s.Schema)
			}
			if !strings.Contains(string(s.Properties["entry"]), e.ID) || !strings.Contains(string(s.Properties["entry"]), e.Slug) {
				t.Errorf("%s: entry must be the entry's ID or slug: %s", a.ID, s.Properties["entry"])
			}
			several := len(e.ActionsOfType(a.Type)) > 1
			if got := contains(s.Required, "actionId"); got != several {
				t.Errorf("%s: actionId required = %v, want %v (VIEW-11)", a.ID, got, several)
			}
			if _, ok := s.Properties["answers"]; ok != (len(a.Questions) > 0) {
				t.Errorf("%s: answers present = %v with %d questions (VIEW-15)", a.ID, ok, len(a.Questions))
			}
			if _, ok := s.Properties["offeringId"]; ok && len(e.Offerings) == 0 {
				t.Errorf("%s: offeringId offered by an entry without offerings (VIEW-15)", a.ID)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d actions across the fixtures; the fixtures should exercise every kind", n)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The §7.6 example call, without the tool's own fields (its name).
const exampleQuoteCall = `{
    "entry": "holzwerk-krause",
    "actionId": "act_01k8r2m7aa1b2c3d4e5f6g7h8j",
    "offeringId": "off_01k8r2m6bb1b2c3d4e5f6g7h8j",
    "description": "Einbauschrank für eine Dachschräge im Schlafzimmer, ca. 3,2 m breit, Eiche hell.",
    "postalCode": "42105",
    "desiredTiming": "Februar oder März 2027",
    "answers": { "has_sloped_ceiling": true },
    "requester": { "name": "Mara Example", "email": "mara@example.org", "preferredChannel": "email", "language": "de" },
    "idempotencyKey": "3c1f7a9e-quote-1"
}`

// TestInputSchema_VIEW12_ContractExampleValidates validates the §7.6
// example call (ACT-64, with its idempotencyKey and answers) against
// Holzwerk Krause's request_quote schema, and checks that the schema
// refuses what the action requires but the call lacks (VIEW-12, VIEW-13,
// VIEW-14).
func TestInputSchema_VIEW12_ContractExampleValidates(t *testing.T) {
	e := fixtures.Entry("holzwerk-krause")
	a := e.Action("act_01k8r2m7aa1b2c3d4e5f6g7h8j")
	s := compileSchema(t, "request_quote", render.InputSchema(e, *a, "de"))
	if err := s.Validate(instance(t, exampleQuoteCall)); err != nil {
		t.Fatalf("the contract's example call does not validate: %v", err)
	}
	bad := map[string]string{
		"no postal code (requireFields + serviceAreaOnly)": strings.Replace(exampleQuoteCall, `"postalCode": "42105",`, "", 1),
		"no desired timing (requireFields)":                strings.Replace(exampleQuoteCall, `"desiredTiming": "Februar oder März 2027",`, "", 1),
		"an offering outside the action":                   strings.Replace(exampleQuoteCall, "off_01k8r2m6bb1b2c3d4e5f6g7h8j", "off_01k8r2m6dd1b2c3d4e5f6g7h8j", 1),
		"an answer to no question":                         strings.Replace(exampleQuoteCall, `"has_sloped_ceiling": true`, `"has_basement": true`, 1),
		"an answer of the wrong type":                      strings.Replace(exampleQuoteCall, `"has_sloped_ceiling": true`, `"has_sloped_ceiling": "ja"`, 1),
		"another entry":                                    strings.Replace(exampleQuoteCall, `"holzwerk-krause"`, `"schreinerei-beispiel"`, 1),
		"no email":                                         strings.Replace(exampleQuoteCall, `"email": "mara@example.org", `, "", 1),
		"a description too short":                          strings.Replace(exampleQuoteCall, "Einbauschrank für eine Dachschräge im Schlafzimmer, ca. 3,2 m breit, Eiche hell.", "Schrank", 1),
	}
	for name, call := range bad {
		if call == exampleQuoteCall {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if err := s.Validate(instance(t, call)); err == nil {
			t.Errorf("%s: validated, want refused", name)
		}
	}
	// VIEW-13: the question's label is its title.
	if !bytes.Contains(render.InputSchema(e, *a, "de"), []byte(`"title":"Gibt es Dachschrägen?"`)) {
		t.Error("the question's label is not its title")
	}
	// The view carries the same schema (VIEW-08, VIEW-09).
	v := render.View(e, "de", testSite(t), nil)
	if !bytes.Equal(v.Actions[0].InputSchema, render.InputSchema(e, *a, "de")) {
		t.Error("the view's inputSchema is not the action's input schema")
	}
	if v.Actions[0].Tool != string(schemas.ActionRequestQuote) || v.Actions[0].Rest != "https://api.daawid.example/v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs" {
		t.Errorf("tool/rest = %q/%q", v.Actions[0].Tool, v.Actions[0].Rest)
	}
}

// TestInputSchema_VIEW09_ListedNarrowed holds VIEW-09 for every enabled
// action of every fixture in every language: the view's inputSchema is the
// tool's input as the tool list shows it (schemas.RequestTools), without
// its descriptions, narrowed as §6 says and in no other way. The narrowing
// is written out here apart from the code that makes the schemas, so a
// field, bound, type or pattern that drifts between the two fails:
// entry is the entry's ID or slug (VIEW-10); actionId this action,
// required with several of the kind (VIEW-11); what the action asks for
// required where the kind has the field (VIEW-12, ACT-22, ACT-23);
// answers exactly its questions with their labels as titles and the
// types of D16 (VIEW-13); offeringId one of its offerings, or the
// entry's (VIEW-14); answers without questions and offeringId without
// offerings left out (VIEW-15). Nothing says the times' order (VIEW-16).
func TestInputSchema_VIEW09_ListedNarrowed(t *testing.T) {
	listed := map[string][]byte{}
	for _, tl := range schemas.RequestTools() {
		listed[tl.Name] = tl.Input
	}
	n := 0
	for _, e := range allEntries(t) {
		for _, a := range e.EnabledActions() {
			for _, lang := range e.Languages {
				var want, got map[string]any
				if err := json.Unmarshal(listed[string(a.Type)], &want); err != nil {
					t.Fatalf("%s: %v", a.Type, err)
				}
				narrow(e, a, lang, want)
				raw := render.InputSchema(e, a, lang)
				if err := json.Unmarshal(raw, &got); err != nil {
					t.Fatalf("%s: %v", a.ID, err)
				}
				sortRequired(want)
				sortRequired(got)
				if !reflect.DeepEqual(got, want) {
					w, _ := json.Marshal(want)
					t.Errorf("%s %s (%s):\n got %s\nwant %s", e.Slug, a.ID, lang, raw, w)
				}
				if bytes.Contains(raw, []byte(`"description"`)) && !bytes.Contains(raw, []byte(`"description":{"type"`)) {
					t.Errorf("%s: a description is left in %s", a.ID, raw)
				}
				n++
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d schemas compared", n)
	}
}

// narrow applies §6's narrowings to a listed tool input.
func narrow(e *schemas.Entry, a schemas.Action, lang string, s map[string]any) {
	stripDescriptions(s)
	props := s["properties"].(map[string]any)
	required := func(node map[string]any, name string) {
		r, _ := node["required"].([]any)
		if !slices.Contains(r, any(name)) {
			node["required"] = append(r, name)
		}
	}
	props["entry"] = map[string]any{"type": "string", "enum": []any{e.ID, e.Slug}}
	props["actionId"] = map[string]any{"type": "string", "const": a.ID}
	if len(e.ActionsOfType(a.Type)) > 1 {
		required(s, "actionId")
	}
	if _, ok := props["offeringId"]; ok {
		var offs []any
		for _, id := range a.OfferingIDs {
			offs = append(offs, id)
		}
		if len(offs) == 0 {
			for _, o := range e.Offerings {
				offs = append(offs, o.ID)
			}
		}
		if len(offs) == 0 {
			delete(props, "offeringId")
		} else {
			props["offeringId"] = map[string]any{"type": "string", "enum": offs}
		}
	}
	if len(a.Questions) == 0 {
		delete(props, "answers")
	} else {
		textMax := props["answers"].(map[string]any)["additionalProperties"].(map[string]any)["maxLength"]
		qs := map[string]any{}
		answers := map[string]any{"type": "object", "properties": qs, "additionalProperties": false}
		for _, q := range a.Questions {
			var v map[string]any
			switch q.Type {
			case schemas.QuestionBoolean:
				v = map[string]any{"type": "boolean"}
			case schemas.QuestionNumber:
				v = map[string]any{"type": "number"}
			case schemas.QuestionChoice:
				var opts []any
				for _, o := range q.Options {
					opts = append(opts, o.Value)
				}
				v = map[string]any{"type": "string", "enum": opts}
			default:
				v = map[string]any{"type": "string", "maxLength": textMax}
			}
			v["title"] = q.Label.Resolve(lang, e.DefaultLanguage)
			qs[q.Key] = v
			if q.Required {
				required(answers, q.Key)
				required(s, "answers")
			}
		}
		props["answers"] = answers
	}
	// ACT-22: requireFields where the kind has the field; ACT-23: the postal
	// code of an action within its service area only.
	for _, r := range a.RequireFields {
		switch r {
		case schemas.RequirePhone:
			required(props["requester"].(map[string]any), "phone")
		case schemas.RequirePostalCode, schemas.RequireDesiredTiming, schemas.RequireBudget:
			name := map[schemas.RequireField]string{schemas.RequirePostalCode: "postalCode", schemas.RequireDesiredTiming: "desiredTiming", schemas.RequireBudget: "budget"}[r]
			if _, ok := props[name]; ok {
				required(s, name)
			}
		}
	}
	if _, ok := props["postalCode"]; ok && a.ServiceAreaOnly {
		required(s, "postalCode")
	}
}

// stripDescriptions removes the description keyword from every schema in
// a schema, and nothing else: a property named description stays.
func stripDescriptions(node map[string]any) {
	delete(node, "description")
	if props, ok := node["properties"].(map[string]any); ok {
		for _, v := range props {
			if m, ok := v.(map[string]any); ok {
				stripDescriptions(m)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties", "propertyNames"} {
		if m, ok := node[k].(map[string]any); ok {
			stripDescriptions(m)
		}
	}
	if list, ok := node["anyOf"].([]any); ok {
		for _, v := range list {
			if m, ok := v.(map[string]any); ok {
				stripDescriptions(m)
			}
		}
	}
}

// sortRequired puts every required list in one order: JSON Schema reads
// it as a set.
func sortRequired(node map[string]any) {
	if r, ok := node["required"].([]any); ok {
		slices.SortFunc(r, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	}
	for _, k := range []string{"properties"} {
		if props, ok := node[k].(map[string]any); ok {
			for _, v := range props {
				if m, ok := v.(map[string]any); ok {
					sortRequired(m)
				}
			}
		}
	}
	if m, ok := node["items"].(map[string]any); ok {
		sortRequired(m)
	}
}
