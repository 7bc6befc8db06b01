package schemas

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// RequestInputSchema is a request tool's input as the tool list shows it:
// JSON Schema 2020-12 with the fields' descriptions, nothing taken beyond
// the fields at any object level; nil for a type this version does not
// know.
func RequestInputSchema(t ActionType) json.RawMessage {
	k := RequestKindOf(t)
	if k == nil {
		return nil
	}
	return inputSchema(k, nil)
}

// Schema is the action's inputSchema in the view (VIEW-08 to VIEW-16):
// the tool's input as RequestInputSchema lists it, without the
// descriptions (VIEW-09), with entry this entry (its ID or slug, VIEW-10),
// actionId this action, required when the entry has several of the kind
// (VIEW-11), what the action asks for required (VIEW-12), answers exactly
// its questions, each with its label as title (VIEW-13), and offeringId one
// of its offerings (VIEW-14); answers without questions and offeringId
// without offerings are left out (VIEW-15). That times are in order and
// still to come only the server checks (VIEW-16).
func (in *ActionInput) Schema() []byte { return inputSchema(in.Kind, in) }

// inputSchema writes a kind's input; in == nil is the listed, generic
// input, else the one action's. Both come from this one function, so the
// view's schema is the listed one narrowed and nothing else (VIEW-09).
func inputSchema(k *RequestKind, in *ActionInput) []byte {
	w := &schemaWriter{first: true, b: make([]byte, 0, 2048)}
	w.begin("", '{')
	w.str("$schema", "https://json-schema.org/draft/2020-12/schema")
	w.object(k.Fields, in, true)
	w.end('}')
	return w.b
}

// object writes an object's type, properties and required list; root is
// the call itself, where actionId and answers may be required.
func (w *schemaWriter) object(fields []InputField, in *ActionInput, root bool) {
	w.str("type", "object")
	var buf [16]string
	required := buf[:0]
	w.begin("properties", '{')
	for i := range fields {
		f := &fields[i]
		if in != nil && ((f.Type == InputAnswers && len(in.Questions) == 0) || (f.Name == "offeringId" && len(in.Offerings) == 0)) {
			continue // VIEW-15: fields that can't be given are left out
		}
		w.begin(f.Name, '{')
		w.field(f, in)
		w.end('}')
		switch {
		case in == nil:
			if f.Required {
				required = append(required, f.Name)
			}
		case root && f.Name == "actionId":
			if in.ActionIDRequired {
				required = append(required, f.Name)
			}
		case f.Type == InputAnswers:
			if in.AnswersRequired() {
				required = append(required, f.Name)
			}
		case f.RequiredFor(in.Action):
			required = append(required, f.Name)
		}
	}
	w.end('}')
	w.boolean("additionalProperties", false)
	if len(required) > 0 {
		w.strs("required", required)
	}
}

// field writes one field's schema: its type, format, lengths, enum and
// items, narrowed for the action; patterns and the server's own limits
// stay with the server (MCP-31).
func (w *schemaWriter) field(f *InputField, in *ActionInput) {
	switch f.Type {
	case InputText:
		w.str("type", "string")
		w.bounds("minLength", "maxLength", f)
	case InputEntryRef:
		w.str("type", "string")
		if in != nil {
			w.strs("enum", in.Entry)
		}
	case InputID:
		w.str("type", "string")
		switch {
		case in != nil && f.Name == "actionId":
			w.str("const", in.Action.ID)
		case in != nil && f.Name == "offeringId":
			w.strs("enum", in.Offerings)
		}
	case InputEnum:
		w.str("type", "string")
		w.strs("enum", f.Enum)
	case InputEmail:
		w.str("type", "string")
		w.str("format", "email")
	case InputPhone, InputLanguage, InputCurrency:
		w.str("type", "string")
	case InputTime:
		w.str("type", "string")
		w.str("format", "date-time")
	case InputMoney:
		w.strs("type", moneyTypes)
	case InputObject:
		w.object(f.Fields, in, false)
	case InputArray:
		w.str("type", "array")
		w.bounds("minItems", "maxItems", f)
		w.begin("items", '{')
		w.object(f.Fields, in, false)
		w.end('}')
	case InputAnswers:
		w.str("type", "object")
		if in == nil {
			w.begin("additionalProperties", '{')
			w.strs("type", answerTypes)
			w.num("maxLength", AnswerMaxLength)
			w.end('}')
			break
		}
		w.begin("properties", '{')
		for _, q := range in.Questions {
			w.begin(q.Key, '{')
			w.answer(q)
			w.end('}')
		}
		w.end('}')
		w.boolean("additionalProperties", false)
		if in.AnswersRequired() {
			w.begin("required", '[')
			for _, q := range in.Questions {
				if q.Required {
					w.elem(q.Key)
				}
			}
			w.end(']')
		}
	}
	if in == nil {
		w.str("description", f.Description)
	}
}

var (
	moneyTypes  = []string{"string", "number"}
	answerTypes = []string{"string", "number", "boolean"}
)

// answer is one question's answer (D16): boolean, text of at most 1000,
// number, or one of a choice's option values; its label is its title.
func (w *schemaWriter) answer(q AnswerRule) {
	switch q.Type {
	case QuestionBoolean:
		w.str("type", "boolean")
	case QuestionNumber:
		w.str("type", "number")
	case QuestionChoice:
		w.str("type", "string")
		w.strs("enum", q.Options)
	default:
		w.str("type", "string")
		w.num("maxLength", AnswerMaxLength)
	}
	w.str("title", q.Title)
}

func (w *schemaWriter) bounds(minKey, maxKey string, f *InputField) {
	if f.Min > 0 {
		w.num(minKey, f.Min)
	}
	if f.Max > 0 {
		w.num(maxKey, f.Max)
	}
}

// schemaWriter writes compact JSON with members in the order written, so
// the schemas' bytes are the same in every run (PRIV-06) and read in the
// order a person would explain them.
type schemaWriter struct {
	b     []byte
	first bool // the next member is the first of its container
}

func (w *schemaWriter) sep() {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
}

// key starts a member; "" is an array's element or the root.
func (w *schemaWriter) key(k string) {
	w.sep()
	if k != "" {
		w.b = appendJSONString(w.b, k)
		w.b = append(w.b, ':')
	}
}

// begin opens an object or an array as a member (k == "" inside an
// array or at the root); end closes it.
func (w *schemaWriter) begin(k string, open byte) {
	w.key(k)
	w.b = append(w.b, open)
	w.first = true
}

func (w *schemaWriter) end(close byte) {
	w.b = append(w.b, close)
	w.first = false
}

// elem writes a string element of an array.
func (w *schemaWriter) elem(v string) {
	w.sep()
	w.b = appendJSONString(w.b, v)
}

// str writes a string member, or nothing for "".
func (w *schemaWriter) str(k, v string) {
	if v == "" {
		return
	}
	w.key(k)
	w.b = appendJSONString(w.b, v)
}

func (w *schemaWriter) num(k string, n int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(n), 10)
}

func (w *schemaWriter) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *schemaWriter) strs(k string, vs []string) {
	w.begin(k, '[')
	for _, v := range vs {
		w.elem(v)
	}
	w.end(']')
}

// appendJSONString writes s as encoding/json does: <, > and & escaped,
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
