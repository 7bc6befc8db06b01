package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// update_entry's input has two forms (TOOL-32). The tool list carries the
// shorter one: the scalar fields with their view types, and the larger
// sections (contact points, locations, offerings, the service area, the
// operator) open, their shapes named by the view schema's definition, so
// the list that every chat loads stays small (§7.3). Every call is checked
// against the full form, made here from the published view schema itself,
// so the two cannot drift from get_entry's shapes (TOOL-25).

// updateSections are the sections the listed form leaves open, with the
// view schema's definition of their shape.
var updateSections = map[string]string{
	"contactPoints": "ContactPointView", "locations": "LocationView", "offerings": "OfferingView",
	"serviceArea": "ServiceAreaView", "operator": "Operator",
}

// UpdateFields are update_entry's fields (TOOL-24): the edit fields but
// capacity, which set_capacity sets.
func UpdateFields() []string { return EditFields[:len(EditFields)-1] }

// updateEntryListed is the listed (shorter) input of update_entry.
func updateEntryListed(entry obj) obj {
	view := entryViewProperties()
	props := obj{"entry": entry, "revision": obj{"type": "integer", "minimum": 1, "description": "the revision you read (get_entry's record.revision)"}}
	for _, f := range UpdateFields() {
		if def, open := updateSections[f]; open {
			shape := SchemaBaseURL + "entry-view.json#/$defs/" + def
			if p, _ := view[f].(map[string]any); p["type"] == "array" {
				props[f] = obj{"type": []string{"array", "null"}, "items": obj{"type": "object"},
					"description": "the whole list as get_entry shows it; an item without id is new; each item: " + shape}
			} else {
				props[f] = obj{"type": []string{"object", "null"}, "description": "as get_entry shows it: " + shape}
			}
			continue
		}
		props[f] = nullable(view[f])
	}
	return obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
		"required": []string{"revision"}, "properties": props}
}

// nullable allows null beside a field's view schema (null removes it,
// TOOL-27).
func nullable(s any) obj {
	return obj{"anyOf": []any{s, obj{"type": "null"}}}
}

// entryViewSchema is the published view schema, decoded.
var entryViewSchema = sync.OnceValue(func() map[string]any {
	raw, ok := PublishedSchema("entry-view.json")
	if !ok {
		panic("schemas: entry-view.json is not embedded")
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		panic("schemas: entry-view.json: " + err.Error())
	}
	return s
})

func entryViewProperties() map[string]any {
	defs := entryViewSchema()["$defs"].(map[string]any)
	return defs["EntryView"].(map[string]any)["properties"].(map[string]any)
}

// UpdateEntryFullSchema is the full input of update_entry (TOOL-32): every
// field with the view schema's shape, its definitions included, where an
// item's id may be left out (an item without an ID is new, TOOL-27).
func UpdateEntryFullSchema() []byte {
	src := entryViewSchema()["$defs"].(map[string]any)
	defs := map[string]any{}
	for name, d := range src {
		var c map[string]any
		b, _ := json.Marshal(d)
		json.Unmarshal(b, &c)
		if name == "ContactPointView" || name == "LocationView" || name == "OfferingView" {
			var req []any
			for _, r := range c["required"].([]any) {
				if r != "id" {
					req = append(req, r)
				}
			}
			c["required"] = req
		}
		defs[name] = c
	}
	view := entryViewProperties()
	props := obj{"entry": obj{"type": "string"}, "revision": obj{"type": "integer", "minimum": 1}}
	for _, f := range UpdateFields() {
		props[f] = nullable(view[f])
	}
	return mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SchemaBaseURL + "update-entry-input.json",
		"type": "object", "additionalProperties": false, "required": []string{"revision"}, "properties": props, "$defs": defs})
}

var updateEntrySchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(UpdateEntryFullSchema()))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaBaseURL+"update-entry-input.json", doc); err != nil {
		return nil, err
	}
	return c.Compile(SchemaBaseURL + "update-entry-input.json")
})

// CheckUpdateEntry checks an update_entry call against the full input
// (TOOL-32) and returns each mistake named by its field
// ("contactPoints[0].name").
func CheckUpdateEntry(raw []byte) []FieldIssue {
	sch, err := updateEntrySchema()
	if err != nil {
		panic("schemas: update_entry's full input does not compile: " + err.Error())
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []FieldIssue{{Field: "arguments", Message: "is not valid JSON: " + err.Error()}}
	}
	err = sch.Validate(doc)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []FieldIssue{{Field: "arguments", Message: err.Error()}}
	}
	var out []FieldIssue
	for _, is := range schemaIssues(ve).sorted() {
		// The null branch that every field has beside its shape says
		// nothing the shape's own mistakes do not.
		if strings.HasPrefix(is.Message, "must be null,") {
			continue
		}
		out = append(out, FieldIssue{Field: PointerField(is.Path), Message: is.Message})
	}
	return out
}

// PointerField names a JSON pointer as a field path: /a/0/b is a[0].b.
func PointerField(p string) string {
	var b strings.Builder
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if seg == "" {
			continue
		}
		if _, err := strconv.Atoi(seg); err == nil {
			fmt.Fprintf(&b, "[%s]", seg)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	if b.Len() == 0 {
		return "arguments"
	}
	return b.String()
}
