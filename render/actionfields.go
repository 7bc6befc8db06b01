package render

import "github.com/daawid/registry/schemas"

// actionField is one input field of an action kind as the markdown names
// it (MD-63): its path, its words, and its rules in the one table of the
// request kinds (schemas.RequestKinds), which the input schemas and the
// server's check read too.
type actionField struct {
	name  string
	words string
	field *schemas.InputField
}

// actionFields lists each kind's fields in the order the markdown names
// them (MD-63), made from the kinds' Asks.
var actionFields = func() map[schemas.ActionType][]actionField {
	out := map[schemas.ActionType][]actionField{}
	for _, k := range schemas.RequestKinds() {
		for _, p := range k.Asks {
			f := k.Field(p)
			if f == nil {
				panic("render: " + string(k.Type) + " asks for " + p + ", which it has no field for")
			}
			out[k.Type] = append(out[k.Type], actionField{name: p, words: f.Words, field: f})
		}
	}
	return out
}()

// fieldRequired applies an action's requireFields and service-area rule to
// a field of its kind (§7.5: "An action within the service area only needs
// the postal code where the kind has one").
func fieldRequired(a schemas.Action, f actionField) bool { return f.field.RequiredFor(&a) }

// ServiceAreaText is a service area in the markdown's words: "30 km around
// Wuppertal; also Solingen, Remscheid" (MD-46), or "anywhere"; "" for
// none. The server's outside_service_area answer says where the entry
// works in these words (ACT-31).
func ServiceAreaText(e *schemas.Entry, sa *schemas.ServiceArea) string {
	return newBuilder(e, e.DefaultLanguage, Site{}, nil).serviceAreaText(sa)
}
