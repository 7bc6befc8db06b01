package mcp

import (
	"reflect"
	"strings"

	"github.com/daawid/registry/schemas"
)

// outputSchemas are the tools' output schemas as the tool list shows
// them: one level deep, the answer's fields and their JSON types, with
// the full shapes at /schemas/0.1/ (MCP-62). The tool list is loaded into
// every chat, so it stays small.
var outputSchemas = map[string]any{
	"search":              oneLevel(schemas.SearchOutput{}, "SearchOutput"),
	"get_entry":           oneLevel(schemas.EntryView{}, "EntryView"),
	"get_entry_sections":  oneLevel(schemas.EntryView{}, "EntryView"),
	"get_offerings":       oneLevel(schemas.OfferingsAnswer{}, "OfferingsAnswer"),
	"get_brand_kit":       oneLevel(schemas.BrandKitAnswer{}, "BrandKitAnswer"),
	"request_quote":       oneLevel(schemas.ActionResult{}, "ActionResult"),
	"request_callback":    oneLevel(schemas.ActionResult{}, "ActionResult"),
	"request_appointment": oneLevel(schemas.ActionResult{}, "ActionResult"),
	"send_message":        oneLevel(schemas.ActionResult{}, "ActionResult"),
	"get_request_status":  oneLevel(schemas.RequestStatus{}, "RequestStatus"),
}

// oneLevel is the object schema of a struct's JSON fields (embedded
// structs' fields included), each only with its type.
func oneLevel(v any, name string) map[string]any {
	props := map[string]any{}
	addFields(reflect.TypeOf(v), props)
	return map[string]any{"type": "object", "properties": props,
		"description": "The full shape: /schemas/0.1/ (" + name + ")."}
}

func addFields(t reflect.Type, props map[string]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			addFields(f.Type, props)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		props[name] = map[string]any{"type": jsonType(f.Type)}
	}
}

func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	default:
		return "object"
	}
}
