package render

import (
	"github.com/daawid/registry/schemas"
)

// InputSchema is the JSON Schema 2020-12 of an action's tool input as the
// MCP server lists it, without the tool's descriptions (VIEW-08 to
// VIEW-16): entry is this entry (its ID or slug), actionId this action
// (required when the entry has several enabled actions of the kind), what
// the action asks for is required, answers holds exactly its questions
// with their labels in lang as titles, and offeringId is one of its
// offerings (or of the entry's when it names none). Fields that can't be
// given are left out. It is made by the same writer and from the same
// table as the tool list's input (schemas.RequestInputSchema), and the
// server checks a call by the same schemas.ActionInput, so the three
// cannot drift apart (VIEW-09, ACT-24). Nil for an action type this
// version does not know.
func InputSchema(e *schemas.Entry, a schemas.Action, lang string) []byte {
	in := schemas.NewActionInput(e, &a, lang)
	if in == nil {
		return nil
	}
	return in.Schema()
}
