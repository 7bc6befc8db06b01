package render

import (
	"strings"

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
	w := &lw{}
	w.first = true
	w.buf = make([]byte, 0, 1536)
	str := func(k string, min, max int) {
		w.obj(k, func() {
			w.s("type", "string")
			if min > 0 {
				w.i("minLength", min)
			}
			if max > 0 {
				w.i("maxLength", max)
			}
		})
	}
	timeRange := func() {
		w.obj("items", func() {
			w.s("type", "object")
			w.obj("properties", func() {
				w.obj("from", func() { w.s("type", "string"); w.s("format", "date-time") })
				w.obj("to", func() { w.s("type", "string"); w.s("format", "date-time") })
			})
			w.strs("required", []string{"from", "to"})
		})
	}
	required := make([]string, 0, 8)
	required = append(required, "entry")
	if len(e.ActionsOfType(a.Type)) > 1 {
		required = append(required, "actionId")
	}
	required = append(required, "requester")
	var questionsRequired bool
	for _, q := range a.Questions {
		questionsRequired = questionsRequired || q.Required
	}
	if questionsRequired {
		required = append(required, "answers")
	}
	for _, f := range actionFields[a.Type] {
		if strings.HasPrefix(f.name, "requester.") {
			continue
		}
		if fieldRequired(a, f) {
			required = append(required, f.name)
		}
	}
	offerings := a.OfferingIDs
	if len(offerings) == 0 {
		for _, o := range e.Offerings {
			offerings = append(offerings, o.ID)
		}
	}
	w.obj("", func() {
		w.s("$schema", "https://json-schema.org/draft/2020-12/schema")
		w.s("type", "object")
		w.obj("properties", func() {
			w.obj("entry", func() { w.s("type", "string"); w.strs("enum", []string{e.ID, e.Slug}) })
			w.obj("actionId", func() { w.s("type", "string"); w.s("const", a.ID) })
			w.obj("requester", func() {
				w.s("type", "object")
				w.obj("properties", func() {
					str("name", 2, 120)
					w.obj("email", func() { w.s("type", "string"); w.s("format", "email") })
					w.obj("phone", func() { w.s("type", "string") })
					w.obj("preferredChannel", func() { w.strs("enum", []string{"email", "phone"}) })
					w.obj("language", func() { w.s("type", "string") })
				})
				if fieldRequiredByName(a, "requester.phone") {
					w.strs("required", []string{"name", "email", "phone"})
				} else {
					w.strs("required", []string{"name", "email"})
				}
			})
			if len(a.Questions) > 0 {
				w.obj("answers", func() {
					w.s("type", "object")
					w.obj("properties", func() {
						for _, q := range a.Questions {
							w.obj(q.Key, func() {
								switch q.Type {
								case schemas.QuestionBoolean:
									w.s("type", "boolean")
								case schemas.QuestionNumber:
									w.s("type", "number")
								case schemas.QuestionChoice:
									w.s("type", "string")
									w.arr("enum", func() {
										for _, o := range q.Options {
											w.s("", o.Value)
										}
									})
								default:
									w.s("type", "string")
									w.i("maxLength", 1000)
								}
								w.s("title", tr(b, q.Label))
							})
						}
					})
					w.b("additionalProperties", false)
					w.arr("required", func() {
						for _, q := range a.Questions {
							if q.Required {
								w.s("", q.Key)
							}
						}
					})
				})
			}
			str("idempotencyKey", 8, 64)
			if a.Type != schemas.ActionSendMessage && len(offerings) > 0 {
				w.obj("offeringId", func() { w.strs("enum", offerings) })
			}
			switch a.Type {
			case schemas.ActionRequestQuote:
				str("description", 10, 4000)
				str("postalCode", 3, 10)
				str("desiredTiming", 0, 200)
				w.obj("budget", func() {
					w.s("type", "object")
					w.obj("properties", func() {
						w.obj("max", func() { w.strs("type", []string{"string", "number"}) })
						w.obj("currency", func() { w.s("type", "string") })
					})
					w.strs("required", []string{"max", "currency"})
				})
			case schemas.ActionRequestCallback:
				str("topic", 3, 500)
				w.obj("preferredTimes", func() { w.s("type", "array"); w.i("maxItems", 3); timeRange() })
			case schemas.ActionRequestAppointment:
				str("purpose", 3, 1000)
				w.obj("preferredSlots", func() { w.s("type", "array"); w.i("minItems", 1); w.i("maxItems", 5); timeRange() })
				str("postalCode", 3, 10)
			case schemas.ActionSendMessage:
				str("subject", 3, 200)
				str("message", 10, 4000)
			}
		})
		w.strs("required", required)
	})
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
