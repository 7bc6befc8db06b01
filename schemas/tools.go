package schemas

import (
	"encoding/json"
)

// ToolSpec is one of the registry's tools (§7.4, §7.5): the MCP server
// lists these, the REST mirror takes the same inputs, and the AWP
// functions file is generated from the read tools, so they cannot
// disagree.
type ToolSpec struct {
	Name        string
	Title       string
	Description string
	// Input is the tool's input as JSON Schema 2020-12.
	Input json.RawMessage
	// UIResource is the MCP Apps resource the tool names ("" for none).
	UIResource string
	Tags       []string
	// Hints are the tool's annotations (§7.4); nil for the read tools,
	// whose hints are the constants ReadOnlyHint to OpenWorldHint (see
	// Annotations).
	Hints *ToolHints
}

// ToolHints are a tool's annotations in §7.4's table.
type ToolHints struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Annotations of every read tool (§7.4): read-only, not destructive,
// idempotent, open world.
const (
	ReadOnlyHint    = true
	DestructiveHint = false
	IdempotentHint  = true
	OpenWorldHint   = true
)

// Annotations are the tool's hints: Hints, or the read tools' constants
// above for a read tool.
func (t ToolSpec) Annotations() ToolHints {
	if t.Hints != nil {
		return *t.Hints
	}
	return ToolHints{ReadOnly: ReadOnlyHint, Destructive: DestructiveHint, Idempotent: IdempotentHint, OpenWorld: OpenWorldHint}
}

func mustSchema(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("schemas: tool input: " + err.Error())
	}
	return b
}

type obj = map[string]any

func str(pattern string) obj { return obj{"type": "string", "pattern": pattern} }

func entryRef() obj {
	return obj{"type": "string", "anyOf": []obj{str(IDPattern(PrefixEntry)), str(SlugPattern)}, "description": "entry ID or slug"}
}

func sectionKeys() []string {
	out := make([]string, len(SectionKeys))
	for i, k := range SectionKeys {
		out[i] = string(k)
	}
	return out
}

// ReadTools are the read tools, in the order tools/list returns them.
func ReadTools() []ToolSpec {
	lang := str(LanguageTagPattern)
	category := obj{"type": "string", "pattern": CategoryPattern, "description": "category code, or a sector's code such as trades"}
	getEntry := obj{
		"id":       str(IDPattern(PrefixEntry)),
		"slug":     str(SlugPattern),
		"domain":   obj{"type": "string", "minLength": 1, "maxLength": 253, "description": "a website's host; an address or capitals are fine"},
		"language": lang,
	}
	oneOf := []obj{{"required": []string{"id"}}, {"required": []string{"slug"}}, {"required": []string{"domain"}}}
	sections := obj{}
	for k, v := range getEntry {
		sections[k] = v
	}
	sections["sections"] = obj{"type": "array", "minItems": 1, "maxItems": 12, "uniqueItems": true, "items": obj{"type": "string", "enum": sectionKeys()}}
	return []ToolSpec{
		{Name: "search", Title: "Search entries", Tags: []string{"search"},
			Description: "Find businesses and people by need, place, opening time and category. One neutral order for every caller; never sponsored.",
			Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
				"required": []string{"query"},
				"properties": obj{
					"query":   obj{"type": "string", "minLength": 1, "maxLength": 200, "description": "the need in the user's words"},
					"outcome": obj{"type": "string", "maxLength": 500, "description": "what the user wants to achieve; orders the fits, filters nobody, isn't kept"},
					"near": obj{"oneOf": []obj{
						{"type": "object", "additionalProperties": false, "required": []string{"place"}, "properties": obj{"place": obj{"type": "string", "minLength": 2, "maxLength": 100}}},
						{"type": "object", "additionalProperties": false, "required": []string{"postalCode", "country"}, "properties": obj{
							"postalCode": obj{"type": "string", "minLength": 3, "maxLength": 10}, "country": str(CountryPattern)}},
					}},
					"radiusKm":      obj{"type": "number", "minimum": 1, "maximum": 200, "description": "only when the user names a limit"},
					"category":      category,
					"kind":          obj{"type": "string", "enum": []string{string(KindOrganization), string(KindPerson)}},
					"openAt":        obj{"type": "string", "pattern": DateTimePattern, "description": "open then, by each location's own time zone"},
					"acceptingWork": obj{"type": "boolean"},
					"verifiedOnly":  obj{"type": "boolean", "default": false},
					"language":      lang,
					"limit":         obj{"type": "integer", "minimum": 1, "maximum": 20, "default": 10},
					"cursor":        obj{"type": "string", "maxLength": 500},
				}})},
		{Name: "get_entry", Title: "Get entry details", UIResource: "ui://daawid/entry-card", Tags: []string{"entries"},
			Description: "Read one entry by ID, slug or website: what it declares, with sources and dates.",
			Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
				"properties": getEntry, "oneOf": oneOf})},
		{Name: "get_entry_sections", Title: "Get parts of an entry", Tags: []string{"entries"},
			Description: "Read only some sections of one entry (facts, offerings, hours, contact, actions, ...).",
			Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
				"required": []string{"sections"}, "properties": sections, "oneOf": oneOf})},
		{Name: "get_offerings", Title: "Get offerings and prices", Tags: []string{"entries", "offerings"},
			Description: "List an entry's offerings and prices, optionally matching words, a category or an audience.",
			Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
				"required": []string{"entry"},
				"properties": obj{
					"entry":    entryRef(),
					"query":    obj{"type": "string", "maxLength": 200},
					"category": category,
					"audience": obj{"type": "string", "enum": []string{"consumer", "business"}},
					"language": lang,
					"limit":    obj{"type": "integer", "minimum": 1, "maximum": 50, "default": 25},
					"cursor":   obj{"type": "string", "maxLength": 500},
				}})},
		{Name: "get_brand_kit", Title: "Get brand kit", Tags: []string{"entries", "brand"},
			Description: "Read an entry's logo, colors, fonts and pictures as it declares them.",
			Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
				"required": []string{"entry"}, "properties": obj{"entry": entryRef(), "language": lang}})},
	}
}

// ActionConfirmUI is the card of the request tools: it shows the waiting
// request and opens Daawid's confirmation page (§7.7, ACT-43).
const ActionConfirmUI = "ui://daawid/action-confirm"

// ConfirmRequestReserved names the tool §7.4 reserves and Daawid does not
// offer (MCP-47, ACT-15, ACT-43): an app-only button is hidden from the
// model only in apps that support MCP Apps, so the person confirms on
// Daawid's page instead. No tool list holds it; it is named here so that
// nothing else takes the name.
const ConfirmRequestReserved = "confirm_request"

// RequestTools are the request tools and get_request_status, in the order
// tools/list returns them after the read tools (MCP-53): made from the one
// table of the request kinds (RequestKinds), with their titles and hints
// (MCP-42 to MCP-46). A request tool is not read-only, not destructive
// (it only adds a waiting request; the person sends it on Daawid's page),
// not idempotent and open world (ACT-61); get_request_status reads one
// request's state and nothing else.
func RequestTools() []ToolSpec {
	request := &ToolHints{ReadOnly: false, Destructive: false, Idempotent: false, OpenWorld: true}
	var out []ToolSpec
	for _, k := range requestKinds {
		out = append(out, ToolSpec{Name: string(k.Type), Title: k.Title, Description: k.Description,
			Input: RequestInputSchema(k.Type), UIResource: ActionConfirmUI, Tags: []string{"actions"}, Hints: request})
	}
	out = append(out, ToolSpec{Name: "get_request_status", Title: "Check a request's status", Tags: []string{"actions"},
		Description: "The state of a request by its runId; never what it says or who sent it.",
		Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
			"required":   []string{"runId"},
			"properties": obj{"runId": obj{"type": "string", "pattern": IDPattern(PrefixRun), "description": "the runId a request tool answered"}}}),
		Hints: &ToolHints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false}})
	return out
}
