package schemas_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/daawid/registry/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MCP, TOOL: the read tools' inputs compile as JSON Schema 2020-12, take
// the contract's example calls and refuse what §7.5 forbids; names are at
// most 64 characters and in a fixed order.
func TestReadTools_InputSchemas(t *testing.T) {
	good := map[string][]string{
		"search": {`{"query":"Tischler für Einbauschrank","near":{"place":"Wuppertal"},"openAt":"2026-11-28T10:00:00Z"}`,
			`{"query":"joiner","near":{"postalCode":"SW1A","country":"GB"},"radiusKm":25,"category":"trades","limit":20}`},
		"get_entry":          {`{"slug":"holzwerk-krause","language":"de"}`, `{"domain":"Holzwerk-Krause.example"}`, `{"id":"ent_01k8r2m5n7p9q3s4t6v8w0x2yz"}`},
		"get_entry_sections": {`{"slug":"holzwerk-krause","sections":["hours","contact"]}`},
		"get_offerings":      {`{"entry":"holzwerk-krause","query":"Küche","audience":"consumer"}`, `{"entry":"ent_01k8r2m5n7p9q3s4t6v8w0x2yz"}`},
		"get_brand_kit":      {`{"entry":"holzwerk-krause"}`},
	}
	bad := map[string][]string{
		"search":             {`{}`, `{"query":"x","near":{"lat":51.2,"lng":7.1}}`, `{"query":"x","limit":21}`, `{"query":"x","near":{"postalCode":"42275"}}`},
		"get_entry":          {`{}`, `{"id":"ent_01k8r2m5n7p9q3s4t6v8w0x2yz","slug":"holzwerk-krause"}`, `{"slug":"Holzwerk Krause"}`},
		"get_entry_sections": {`{"slug":"holzwerk-krause"}`, `{"slug":"holzwerk-krause","sections":["secrets"]}`},
		"get_offerings":      {`{"query":"Küche"}`, `{"entry":"holzwerk-krause","limit":51}`},
		"get_brand_kit":      {`{"entry":"holzwerk-krause","colors":true}`},
	}
	var names []string
	for _, tool := range schemas.ReadTools() {
		names = append(names, tool.Name)
		if len(tool.Name) > 64 || tool.Title == "" || len(tool.Description) > 200 {
			t.Errorf("%s: name, title or description out of bounds", tool.Name)
		}
		c := jsonschema.NewCompiler()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.Input))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(tool.Name+".json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(tool.Name + ".json")
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		for _, in := range good[tool.Name] {
			v, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(in)))
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s refuses %s: %v", tool.Name, in, err)
			}
		}
		for _, in := range bad[tool.Name] {
			v, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(in)))
			if err := sch.Validate(v); err == nil {
				t.Errorf("%s takes %s", tool.Name, in)
			}
		}
		var m map[string]any
		if err := json.Unmarshal(tool.Input, &m); err != nil || m["type"] != "object" {
			t.Errorf("%s: input is not an object schema", tool.Name)
		}
	}
	want := []string{"search", "get_entry", "get_entry_sections", "get_offerings", "get_brand_kit"}
	if len(names) != len(want) {
		t.Fatalf("tools %v", names)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("tools %v, want %v", names, want)
		}
	}
}
