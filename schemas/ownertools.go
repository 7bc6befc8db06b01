package schemas

// OwnerScope is the scope the owner tools need (MCP-10, MCP-27).
const OwnerScope = "entries:write"

// OwnerTools are the owner tools (§7.4, §7.5), in the order tools/list
// returns them after the request tools: they act only on the signed-in
// owner's own entries and need a token with OwnerScope (§7.2).
// list_my_entries is read-only, idempotent and confined to one owner's
// entries (MCP-48); the three that change an entry are destructive, since
// they overwrite what the entry said (§7.4's table).
func OwnerTools() []ToolSpec {
	change := func(idempotent bool) *ToolHints {
		return &ToolHints{ReadOnly: false, Destructive: true, Idempotent: idempotent, OpenWorld: false}
	}
	entry := entryRef()
	entry["description"] = "entry ID or slug; may be left out when you own one entry"
	return []ToolSpec{{Name: "list_my_entries", Title: "List my entries", Tags: []string{"owner"},
		Description: "The signed-in owner's entries: ID, kind, slug, page, name, whether it is live, the owner's role, default language, newest revision and any change waiting for the owner's email. Needs the owner's sign-in.",
		Input:       mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false, "properties": obj{}}),
		Hints:       &ToolHints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false}},
		{Name: "set_capacity", Title: "Set capacity", Tags: []string{"owner"},
			Description: "Say whether the entry takes new work now, from when, and how long it takes; dated now and valid for days (1 to 30, default 30). Goes live with the next publication. Needs the owner's sign-in.",
			Input:       mustSchema(setCapacityInput(entry)), Hints: change(true)},
		{Name: "update_entry", Title: "Update my entry", Tags: []string{"owner"},
			Description: "Change fields of the entry, each as get_entry shows it (texts in the entry's default language). A field left out stays, null removes it, a list replaces the whole list, an item without id is new. Send the revision you read. Changes to the name, contact details, addresses or legal details wait for the owner's confirmation by email. Needs the owner's sign-in.",
			Input:       mustSchema(updateEntryListed(entry)), Hints: change(false)},
		{Name: "confirm_entry", Title: "Confirm my entry", Tags: []string{"owner"},
			Description: "Confirm that the entry is still true as it reads; renews its last-confirmed date and changes nothing else. Needs the owner's sign-in.",
			Input: mustSchema(obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
				"properties": obj{"entry": entry}}), Hints: change(true)},
	}
}

// TOOL-22: set_capacity's input.
func setCapacityInput(entry obj) obj {
	return obj{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
		"required": []string{"status"},
		"properties": obj{
			"entry":             entry,
			"status":            obj{"type": "string", "enum": []string{"accepting", "limited", "waitlist", "not_accepting"}},
			"nextAvailableFrom": obj{"type": "string", "pattern": DatePattern, "description": "first free date, like 2027-02-01"},
			"leadTime": obj{"type": "object", "additionalProperties": false, "required": []string{"min"}, "properties": obj{
				"min": str(DurationPattern), "max": str(DurationPattern)}, "description": "ISO 8601 durations, like P2W"},
			"note": obj{"type": "string", "maxLength": 280, "description": "in the entry's default language"},
			"days": obj{"type": "integer", "minimum": 1, "maximum": 30, "default": 30, "description": "how long the statement holds"},
		}}
}

// CapacityInput is set_capacity's input (TOOL-22).
type CapacityInput struct {
	Entry             string         `json:"entry,omitempty"`
	Status            CapacityStatus `json:"status"`
	NextAvailableFrom string         `json:"nextAvailableFrom,omitempty"`
	LeadTime          *DurationRange `json:"leadTime,omitempty"`
	Note              string         `json:"note,omitempty"`
	Days              *int           `json:"days,omitempty"`
}

// EntryRefInput is confirm_entry's input (TOOL-30).
type EntryRefInput struct {
	Entry string `json:"entry,omitempty"`
}

// ownerToolNames are §7.4's four owner tools, so that a call to any of
// them meets the sign-in first (MCP-21).
var ownerToolNames = map[string]bool{"list_my_entries": true, "set_capacity": true, "update_entry": true, "confirm_entry": true}

// IsOwnerTool reports whether a tool is an owner tool, which needs the
// owner's sign-in (MCP-21).
func IsOwnerTool(name string) bool { return ownerToolNames[name] }
