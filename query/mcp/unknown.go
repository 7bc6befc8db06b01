package mcp

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
)

// MCP-32: the server checks each call in full and names the field at
// fault. Every tool's input schema closes its objects
// (additionalProperties: false), so an argument the schema does not
// define is a mistake the model can correct, not something to ignore:
// a misspelt "radius_km" would otherwise be dropped silently and the
// search run without the limit the user named. The service checks the
// values; this checks the names, by the schema the tool list publishes.

// inputSchemas are the tools' input schemas, decoded once, by name.
var inputSchemas = func() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, spec := range append(append(schemas.ReadTools(), schemas.RequestTools()...), schemas.OwnerTools()...) {
		var s map[string]any
		if err := json.Unmarshal(spec.Input, &s); err != nil {
			panic("mcp: the input schema of " + spec.Name + ": " + err.Error())
		}
		out[spec.Name] = s
	}
	return out
}()

// unknownArguments are the arguments of a call that its tool's input
// schema does not define, each named by its path ("near.radius"), in
// order. Arguments that are not JSON are left to the decoder's error.
func unknownArguments(tool string, raw json.RawMessage) []query.Issue {
	schema, ok := inputSchemas[tool]
	if !ok || len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var issues []query.Issue
	walkUnknown(schema, v, "", &issues)
	return issues
}

// walkUnknown reports the members of v that schema closes out, and goes
// into the members and items it defines. A oneOf or anyOf is read as the
// union of its branches' members: which branch fits is the service's
// check, with its own message.
func walkUnknown(schema map[string]any, v any, path string, issues *[]query.Issue) {
	switch v := v.(type) {
	case map[string]any:
		props, closed := members(schema)
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub, known := props[k]
			switch {
			case known:
				walkUnknown(sub, v[k], join(path, k), issues)
			case closed:
				*issues = append(*issues, query.Issue{Field: join(path, k),
					Message: "is not an argument of this tool; the tool's inputSchema lists them: " + strings.Join(sortedKeys(props), ", ")})
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, item := range v {
				walkUnknown(items, item, path+"["+strconv.Itoa(i)+"]", issues)
			}
		}
	}
}

// members are the properties an object schema defines (its branches'
// too), and whether it closes out the rest.
func members(schema map[string]any) (map[string]map[string]any, bool) {
	props := map[string]map[string]any{}
	closed := schema["additionalProperties"] == false
	if p, ok := schema["properties"].(map[string]any); ok {
		for k, s := range p {
			if m, ok := s.(map[string]any); ok {
				props[k] = m
			}
		}
	}
	for _, key := range []string{"oneOf", "anyOf", "allOf"} {
		branches, _ := schema[key].([]any)
		for _, b := range branches {
			bm, ok := b.(map[string]any)
			if !ok {
				continue
			}
			sub, subClosed := members(bm)
			for k, s := range sub {
				if _, ok := props[k]; !ok {
					props[k] = s
				}
			}
			// An object closed only in its branches is closed.
			closed = closed || (subClosed && schema["properties"] == nil)
		}
	}
	return props, closed
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func sortedKeys(m map[string]map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
