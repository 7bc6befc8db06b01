package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
)

// Decode decodes a request tool call's JSON arguments for a kind (§7.5).
// Fields the kind does not have are refused, each by its path
// ("requester.nickname", "preferredSlots[1].foo"); a wrong type, length
// or pattern and a missing required field are one issue each, and every
// issue comes back at once, in a *query.Error with code invalid_input.
//
// What AI apps tend to write is kept in one form: a time without seconds
// gains them and an offset "+0100" becomes "+01:00" (ACT-17), a time
// without an offset is refused (ACT-19), a budget's max may be a number
// or a string with up to two decimals and is kept with two, its currency
// in capitals (ACT-18), and a phone number as pages show it becomes
// E.164 (D28). Strings lose the white space around them; a null or empty
// optional field counts as left out.
func Decode(kind schemas.ActionType, raw []byte) (*Request, error) {
	k := schemas.RequestKindOf(kind)
	if k == nil {
		return nil, query.InvalidInput([]query.Issue{{Field: "tool", Message: fmt.Sprintf("%q is not a request kind", kind)}})
	}
	var v any
	if len(bytes.TrimSpace(raw)) > 0 {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			return nil, query.InvalidInput([]query.Issue{{Field: "input", Message: "is not valid JSON: " + jsonProblem(err)}})
		}
		if _, err := d.Token(); !errors.Is(err, io.EOF) {
			return nil, query.InvalidInput([]query.Issue{{Field: "input", Message: "is not valid JSON: more follows the object"}})
		}
	}
	if v == nil {
		v = map[string]any{} // no arguments at all: every required field is missing
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, query.InvalidInput([]query.Issue{{Field: "input", Message: "must be a JSON object of the tool's fields"}})
	}
	d := &decoder{kind: k}
	out := d.object("", k.Fields, obj)
	if len(d.issues) > 0 {
		return nil, query.InvalidInput(d.issues)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("check: decode %s: %w", kind, err)
	}
	req := &Request{}
	if err := json.Unmarshal(b, req); err != nil {
		return nil, fmt.Errorf("check: decode %s: %w", kind, err)
	}
	req.Kind = kind
	return req, nil
}

// jsonProblem says what is wrong with the JSON without Go's type names.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too soon"
	}
	return "it does not parse"
}

// decoder walks a call by the table, collecting issues and building the
// normalised call.
type decoder struct {
	kind   *schemas.RequestKind
	issues []query.Issue
}

func (d *decoder) add(path, format string, args ...any) {
	d.issues = append(d.issues, query.Issue{Field: path, Message: fmt.Sprintf(format, args...)})
}

// object checks an object's members by the fields; it returns what was
// given, normalised, without the members left out.
func (d *decoder) object(prefix string, fields []schemas.InputField, obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for i := range fields {
		f := &fields[i]
		path := prefix + f.Name
		v, given := obj[f.Name]
		if given && v != nil {
			nv, ok := d.value(path, f, v)
			if !ok {
				continue // the issue is filed
			}
			if nv != nil {
				out[f.Name] = nv
				continue
			}
		}
		if f.Required {
			d.add(path, "is required")
		}
	}
	var unknown []string
	for key := range obj {
		if !slices.ContainsFunc(fields, func(f schemas.InputField) bool { return f.Name == key }) {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) == 0 {
		return out
	}
	slices.Sort(unknown) // a map's order is random; issues come in one order
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	where := string(d.kind.Type)
	if prefix != "" {
		where = strings.TrimSuffix(prefix, ".")
	}
	for _, key := range unknown {
		d.add(member(prefix, key), "is not a field of %s, which takes %s", where, strings.Join(names, ", "))
	}
	return out
}

// member is the path of an object's member; a key that is not a plain
// name is quoted, so that no path is empty or ambiguous.
func member(prefix, key string) string {
	plain := key != "" && len(key) <= 64
	for _, r := range key {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return prefix + key
	}
	if utf8.RuneCountInString(key) > 64 {
		key = string([]rune(key)[:64]) + "…"
	}
	return strings.TrimSuffix(prefix, ".") + "[" + strconv.Quote(key) + "]"
}

// value checks one given, non-null value; ok is false when an issue was
// filed, and a nil value with ok counts as left out.
func (d *decoder) value(path string, f *schemas.InputField, v any) (any, bool) {
	switch f.Type {
	case schemas.InputObject:
		obj, isObj := v.(map[string]any)
		if !isObj {
			d.add(path, "must be an object")
			return nil, false
		}
		n := len(d.issues)
		out := d.object(path+".", f.Fields, obj)
		if len(d.issues) > n {
			return nil, false
		}
		if len(out) == 0 && !f.Required {
			return nil, true
		}
		return out, true
	case schemas.InputArray:
		list, isList := v.([]any)
		if !isList {
			d.add(path, "must be an array")
			return nil, false
		}
		if len(list) == 0 && !f.Required {
			return nil, true
		}
		if f.Min > 0 && len(list) < f.Min {
			d.add(path, "must have at least %d %s", f.Min, plural(f.Min, "item", "items"))
			return nil, false
		}
		if f.Max > 0 && len(list) > f.Max {
			d.add(path, "must have at most %d %s", f.Max, plural(f.Max, "item", "items"))
			return nil, false
		}
		n := len(d.issues)
		out := make([]any, len(list))
		for i, item := range list {
			ip := path + "[" + strconv.Itoa(i) + "]"
			obj, isObj := item.(map[string]any)
			if !isObj {
				d.add(ip, "must be an object")
				continue
			}
			out[i] = d.object(ip+".", f.Fields, obj)
		}
		return out, len(d.issues) == n
	case schemas.InputAnswers:
		return d.answers(path, v)
	case schemas.InputMoney:
		return d.money(path, v)
	}
	s, isString := v.(string)
	if !isString {
		d.add(path, "must be a string")
		return nil, false
	}
	s = strings.TrimSpace(s)
	if s == "" {
		if f.Required {
			d.add(path, "is required")
			return nil, false
		}
		return nil, true
	}
	if msg := lineProblem(s, f.Multiline); msg != "" {
		d.add(path, "%s", msg)
		return nil, false
	}
	var out string
	var problem string
	switch f.Type {
	case schemas.InputText, schemas.InputLanguage:
		out, problem = text(s, f)
	case schemas.InputEntryRef:
		out, problem = entryRef(s)
	case schemas.InputID:
		out, problem = identifier(s, f.Pattern)
	case schemas.InputEnum:
		out = strings.ToLower(s)
		if !slices.Contains(f.Enum, out) {
			problem = "must be one of " + strings.Join(f.Enum, ", ")
		}
	case schemas.InputEmail:
		out, problem = email(s, f.Max)
	case schemas.InputPhone:
		out, problem = phone(s, f.Max)
	case schemas.InputTime:
		out, problem = timestamp(s)
	case schemas.InputCurrency:
		out, problem = currencyCode(s)
	default:
		problem = "is of a kind this server cannot read"
	}
	if problem != "" {
		d.add(path, "%s", problem)
		return nil, false
	}
	return out, true
}

// answers checks the answers record (ACT-04): keys of the question key
// pattern, values a string of at most 1000 characters, a number or a
// boolean. Which keys an action takes, Resolve checks.
func (d *decoder) answers(path string, v any) (any, bool) {
	obj, isObj := v.(map[string]any)
	if !isObj {
		d.add(path, "must be an object of answers by question key")
		return nil, false
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	n := len(d.issues)
	out := make(map[string]any, len(obj))
	for _, k := range keys {
		p := member(path+".", k)
		if !questionKey.MatchString(k) {
			d.add(p, "is not a question key: %s", schemas.PatternMessage(schemas.QuestionKeyPattern))
			continue
		}
		switch a := obj[k].(type) {
		case nil:
		case bool:
			out[k] = a
		case json.Number:
			f, err := strconv.ParseFloat(string(a), 64)
			if err != nil {
				d.add(p, "must be a number a computer can hold")
				continue
			}
			out[k] = f
		case string:
			a = strings.TrimSpace(a)
			if msg := lineProblem(a, true); msg != "" {
				d.add(p, "%s", msg)
				continue
			}
			if utf8.RuneCountInString(a) > schemas.AnswerMaxLength {
				d.add(p, "must be at most %d characters", schemas.AnswerMaxLength)
				continue
			}
			if a != "" {
				out[k] = a
			}
		default:
			d.add(p, "must be a string, a number or a boolean")
		}
	}
	if len(d.issues) > n {
		return nil, false
	}
	if len(out) == 0 {
		return nil, true
	}
	return out, true
}

// money reads an amount given as a number or a string (ACT-18).
func (d *decoder) money(path string, v any) (any, bool) {
	var s string
	switch m := v.(type) {
	case json.Number:
		s = string(m)
	case string:
		s = strings.TrimSpace(m)
	default:
		d.add(path, "must be an amount, as a number or a string like \"5000.00\"")
		return nil, false
	}
	out, ok := amount(s)
	if !ok {
		d.add(path, "must be an amount of at most 12 digits with up to two decimals, like 5000 or 5000.00")
		return nil, false
	}
	return out, true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

var (
	questionKey = regexp.MustCompile(schemas.QuestionKeyPattern)
	// patterns are the table's patterns, compiled once.
	patterns = map[string]*regexp.Regexp{}
)

func init() {
	for _, k := range schemas.RequestKinds() {
		var walk func([]schemas.InputField)
		walk = func(fs []schemas.InputField) {
			for _, f := range fs {
				if f.Pattern != "" && patterns[f.Pattern] == nil {
					patterns[f.Pattern] = regexp.MustCompile(f.Pattern)
				}
				walk(f.Fields)
			}
		}
		walk(k.Fields)
	}
}

// patternWords say what the request tools' own patterns ask for; the
// shared ones have their words in schemas.
var patternWords = map[string]string{
	schemas.PostalCodeInputPattern: "must be letters, digits, spaces and hyphens",
}

func patternProblem(p string) string {
	if w := patternWords[p]; w != "" {
		return w
	}
	if w := schemas.PatternMessage(p); w != "" {
		return w
	}
	return "is not in the expected form"
}
