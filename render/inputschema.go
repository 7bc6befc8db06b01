package render

import (
	"github.com/daawid/registry/schemas"
)

// InputSchema is the JSON Schema 2020-12 of an action's tool input as the
// MCP server checks it, without the tool's descriptions (VIEW-08..VIEW-16):
// entry is this entry (its ID or slug), actionId this action (required when
// the entry has several enabled actions of the kind), what the action asks
// for is required, answers holds exactly its questions, and offeringId is
// one of its offerings (or of the entry's when it names none). Fields that
// can't be given are left out.
func InputSchema(e *schemas.Entry, a schemas.Action, lang string) []byte {
	b := &builder{e: e, lang: lang}
	str := func(min, max int) obj {
		o := obj{{"type", "string"}}
		if min > 0 {
			o.add("minLength", min)
		}
		if max > 0 {
			o.add("maxLength", max)
		}
		return o
	}
	timeRange := obj{{"type", "object"}, {"properties", obj{
		{"from", obj{{"type", "string"}, {"format", "date-time"}}},
		{"to", obj{{"type", "string"}, {"format", "date-time"}}},
	}}, {"required", []string{"from", "to"}}}

	required := []string{"entry"}
	props := obj{{"entry", obj{{"type", "string"}, {"enum", []string{e.ID, e.Slug}}}}}
	props.add("actionId", obj{{"type", "string"}, {"const", a.ID}})
	if len(e.ActionsOfType(a.Type)) > 1 {
		required = append(required, "actionId")
	}

	reqReq := []string{"name", "email"}
	phone := fieldRequiredByName(a, "requester.phone")
	if phone {
		reqReq = append(reqReq, "phone")
	}
	props.add("requester", obj{
		{"type", "object"},
		{"properties", obj{
			{"name", str(2, 120)},
			{"email", obj{{"type", "string"}, {"format", "email"}}},
			{"phone", obj{{"type", "string"}}},
			{"preferredChannel", obj{{"enum", []string{"email", "phone"}}}},
			{"language", obj{{"type", "string"}}},
		}},
		{"required", reqReq},
	})
	required = append(required, "requester")

	if len(a.Questions) > 0 {
		qprops := obj{}
		var qreq []string
		for _, q := range a.Questions {
			var s obj
			switch q.Type {
			case schemas.QuestionBoolean:
				s = obj{{"type", "boolean"}}
			case schemas.QuestionNumber:
				s = obj{{"type", "number"}}
			case schemas.QuestionChoice:
				vals := make([]string, len(q.Options))
				for i, o := range q.Options {
					vals[i] = o.Value
				}
				s = obj{{"type", "string"}, {"enum", vals}}
			default:
				s = str(0, 1000)
			}
			s.add("title", tr(b, q.Label))
			qprops.add(q.Key, s)
			if q.Required {
				qreq = append(qreq, q.Key)
			}
		}
		ans := obj{{"type", "object"}, {"properties", qprops}, {"additionalProperties", false}}
		if len(qreq) > 0 {
			ans.add("required", qreq)
			required = append(required, "answers")
		}
		props.add("answers", ans)
	}
	props.add("idempotencyKey", str(8, 64))

	offerings := a.OfferingIDs
	if len(offerings) == 0 {
		for _, o := range e.Offerings {
			offerings = append(offerings, o.ID)
		}
	}
	if a.Type != schemas.ActionSendMessage && len(offerings) > 0 {
		props.add("offeringId", obj{{"enum", offerings}})
	}

	kind := obj{}
	switch a.Type {
	case schemas.ActionRequestQuote:
		kind = obj{
			{"description", str(10, 4000)},
			{"postalCode", str(3, 10)},
			{"desiredTiming", str(0, 200)},
			{"budget", obj{{"type", "object"}, {"properties", obj{
				{"max", obj{{"type", []string{"string", "number"}}}},
				{"currency", obj{{"type", "string"}}},
			}}, {"required", []string{"max", "currency"}}}},
		}
	case schemas.ActionRequestCallback:
		kind = obj{
			{"topic", str(3, 500)},
			{"preferredTimes", obj{{"type", "array"}, {"maxItems", 3}, {"items", timeRange}}},
		}
	case schemas.ActionRequestAppointment:
		kind = obj{
			{"purpose", str(3, 1000)},
			{"preferredSlots", obj{{"type", "array"}, {"minItems", 1}, {"maxItems", 5}, {"items", timeRange}}},
			{"postalCode", str(3, 10)},
		}
	case schemas.ActionSendMessage:
		kind = obj{
			{"subject", str(3, 200)},
			{"message", str(10, 4000)},
		}
	}
	props = append(props, kind...)
	for _, f := range actionFields[a.Type] {
		if f.name == "requester.name" || f.name == "requester.email" || f.name == "requester.phone" {
			continue
		}
		if fieldRequired(a, f) {
			required = append(required, f.name)
		}
	}
	s := obj{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"type", "object"},
		{"properties", props},
		{"required", required},
	}
	w := jsonWriter{}
	w.value(s, 0)
	return w.buf
}

func fieldRequiredByName(a schemas.Action, name string) bool {
	for _, f := range actionFields[a.Type] {
		if f.name == name {
			return fieldRequired(a, f)
		}
	}
	return false
}
