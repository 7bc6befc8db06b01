package render

import "github.com/daawid/registry/schemas"

// actionField is one input field of an action kind (§7.5): its JSON name,
// the English words the markdown uses for it, whether the kind always
// requires it, and the requireFields value that makes it required.
type actionField struct {
	name     string
	words    string
	required bool
	by       schemas.RequireField
}

// actionFields lists each kind's fields in the order the markdown names
// them (MD-63) and the input schema lists them (VIEW-12).
var actionFields = map[schemas.ActionType][]actionField{
	schemas.ActionRequestQuote: {
		{name: "description", words: "description", required: true},
		{name: "requester.name", words: "name", required: true},
		{name: "requester.email", words: "email", required: true},
		{name: "requester.phone", words: "phone", by: schemas.RequirePhone},
		{name: "postalCode", words: "postal code", by: schemas.RequirePostalCode},
		{name: "desiredTiming", words: "desired timing", by: schemas.RequireDesiredTiming},
		{name: "budget", words: "budget", by: schemas.RequireBudget},
	},
	schemas.ActionRequestCallback: {
		{name: "requester.name", words: "name", required: true},
		{name: "requester.email", words: "email", required: true},
		{name: "requester.phone", words: "phone", required: true},
		{name: "topic", words: "topic", required: true},
		{name: "preferredTimes", words: "up to 3 preferred time windows"},
	},
	schemas.ActionRequestAppointment: {
		{name: "purpose", words: "purpose", required: true},
		{name: "requester.name", words: "name", required: true},
		{name: "requester.email", words: "email", required: true},
		{name: "requester.phone", words: "phone", by: schemas.RequirePhone},
		{name: "postalCode", words: "postal code", by: schemas.RequirePostalCode},
		{name: "preferredSlots", words: "1 to 5 preferred time slots", required: true},
	},
	schemas.ActionSendMessage: {
		{name: "subject", words: "subject", required: true},
		{name: "message", words: "message", required: true},
		{name: "requester.name", words: "name", required: true},
		{name: "requester.email", words: "email", required: true},
		{name: "requester.phone", words: "phone", by: schemas.RequirePhone},
	},
}

// fieldRequired applies an action's requireFields and service-area rule to
// a field of its kind (§7.5: "An action within the service area only needs
// the postal code where the kind has one").
func fieldRequired(a schemas.Action, f actionField) bool {
	if f.required {
		return true
	}
	if f.by == "" {
		return false
	}
	if f.by == schemas.RequirePostalCode && a.ServiceAreaOnly {
		return true
	}
	for _, r := range a.RequireFields {
		if r == f.by {
			return true
		}
	}
	return false
}
