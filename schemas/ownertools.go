package schemas

// OwnerScope is the scope the owner tools need (MCP-10, MCP-27).
const OwnerScope = "entries:write"

// OwnerTools are the owner tools (§7.4, §7.5) that exist so far, in the
// order tools/list returns them after the request tools: they act only
// on the signed-in owner's own entries and need a token with
// OwnerScope (§7.2). list_my_entries is read-only, idempotent and
// confined to one owner's entries (MCP-48); set_capacity, update_entry
// and confirm_entry come later (issue 19).
func OwnerTools() []ToolSpec {
	return []ToolSpec{{Name: "list_my_entries", Title: "List my entries", Tags: []string{"owner"},
		Description: "The signed-in owner's entries: ID, kind, slug, page, name, whether it is live, the owner's role, default language, newest revision and any change waiting for the owner's email. Needs the owner's sign-in.",
		Input:       mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false, "properties": obj{}}),
		Hints:       &ToolHints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false}}}
}

// ownerToolNames are §7.4's four owner tools, those built and those to
// come, so that a call to any of them meets the sign-in first (MCP-21).
var ownerToolNames = map[string]bool{"list_my_entries": true, "set_capacity": true, "update_entry": true, "confirm_entry": true}

// IsOwnerTool reports whether a tool is an owner tool, which needs the
// owner's sign-in (MCP-21).
func IsOwnerTool(name string) bool { return ownerToolNames[name] }
