package check_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/schemas"
)

// FuzzDecode feeds Decode (STYLE 18) any bytes for any kind: it never
// panics, every refusal is an invalid_input *query.Error whose issues
// each name a field and say what is wrong, and what it takes it keeps in
// a form it reads back the same. Whatever decodes then goes through
// Resolve, Summary and Fields against Holzwerk Krause without a panic,
// and Resolve's refusals are *query.Errors too. The seed corpus is in
// testdata/fuzz/FuzzDecode, with the contract's example call.
func FuzzDecode(f *testing.F) {
	f.Add(uint8(0), []byte(exampleCall))
	for i, k := range schemas.ActionTypes {
		f.Add(uint8(i), []byte(fullCalls[k]))
	}
	e := entry(f, "holzwerk-krause")
	env := env(f)
	f.Fuzz(func(t *testing.T, k uint8, raw []byte) {
		kind := schemas.ActionTypes[int(k)%len(schemas.ActionTypes)]
		req, err := check.Decode(kind, raw)
		if err != nil {
			qe, ok := query.AsError(err)
			if !ok || qe.Code != query.CodeInvalidInput || len(qe.Issues) == 0 {
				t.Fatalf("%q: %v is not an invalid_input with issues", raw, err)
			}
			for _, is := range qe.Issues {
				if is.Field == "" || is.Message == "" {
					t.Fatalf("%q: an issue without a field or a message: %+v", raw, qe.Issues)
				}
			}
			return
		}
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		again, err := check.Decode(kind, b)
		if err != nil {
			t.Fatalf("%q decoded to %s, which does not decode: %v", raw, b, err)
		}
		if !reflect.DeepEqual(req, again) {
			t.Fatalf("%q decoded to %+v, read back as %+v", raw, req, again)
		}
		a, err := check.Resolve(e, req, env)
		if err != nil {
			if _, ok := query.AsError(err); !ok {
				t.Fatalf("%q: Resolve: %v is not a *query.Error", raw, err)
			}
			return
		}
		_ = check.Summary(e, a, req, env)
		_ = check.Fields(e, a, req, "de")
	})
}

// FuzzDecodeValue puts any string into any one field of a valid call of
// any kind, so the readers of times, amounts, currencies, phone numbers,
// emails and the rest see what bytes alone would rarely reach: the same
// properties hold as in FuzzDecode.
func FuzzDecodeValue(f *testing.F) {
	for _, s := range []string{"2026-11-02T09:00+0100", "+49 (0)202 / 999-90 01", "5000.5", "eur", "mara@example.org", "Mara <m@x.de>",
		"2026-02-30T09:00:00Z", "0049 202 9999001", "de-AT", "42105", "\u2028", "\x00", "ä"} {
		f.Add(uint8(0), uint8(0), s)
	}
	type target struct {
		kind schemas.ActionType
		path string
	}
	var targets []target
	for _, k := range schemas.RequestKinds() {
		for _, p := range k.Paths() {
			switch k.Field(p).Type {
			case schemas.InputObject:
			case schemas.InputArray:
				targets = append(targets, target{k.Type, p + "[0].from"}, target{k.Type, p + "[1].to"})
			case schemas.InputAnswers:
				targets = append(targets, target{k.Type, p + ".x_key"})
			default:
				targets = append(targets, target{k.Type, p})
			}
		}
	}
	calls := map[target]map[string]any{}
	for _, tg := range targets {
		var m map[string]any
		if err := json.Unmarshal([]byte(fullCalls[tg.kind]), &m); err != nil {
			f.Fatal(err)
		}
		calls[tg] = m
	}
	f.Fuzz(func(t *testing.T, _ uint8, which uint8, value string) {
		tg := targets[int(which)%len(targets)]
		raw, err := json.Marshal(setIn(calls[tg], splitPath(tg.path), value))
		if err != nil {
			return // not UTF-8 JSON can hold
		}
		req, err := check.Decode(tg.kind, raw)
		if err != nil {
			qe, ok := query.AsError(err)
			if !ok || qe.Code != query.CodeInvalidInput || len(qe.Issues) == 0 {
				t.Fatalf("%s=%q: %v is not an invalid_input with issues", tg.path, value, err)
			}
			for _, is := range qe.Issues {
				if is.Field == "" || is.Message == "" {
					t.Fatalf("%s=%q: an issue without a field or a message: %+v", tg.path, value, qe.Issues)
				}
			}
			return
		}
		b, _ := json.Marshal(req)
		again, err := check.Decode(tg.kind, b)
		if err != nil || !reflect.DeepEqual(req, again) {
			t.Fatalf("%s=%q decoded to %s, read back as %+v, %v", tg.path, value, b, again, err)
		}
	})
}

// setIn is a copy of m with the value at the path, leaving m as it is.
func setIn(m map[string]any, path []string, v any) map[string]any {
	var copyOf func(x any) any
	copyOf = func(x any) any {
		switch c := x.(type) {
		case map[string]any:
			out := make(map[string]any, len(c))
			for k, v := range c {
				out[k] = copyOf(v)
			}
			return out
		case []any:
			out := make([]any, len(c))
			for i, v := range c {
				out[i] = copyOf(v)
			}
			return out
		}
		return x
	}
	root := copyOf(m).(map[string]any)
	var cur any = root
	for i, p := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[p] = v
				return root
			}
			if _, ok := c[p]; !ok {
				c[p] = map[string]any{}
			}
			cur = c[p]
		case []any:
			n := 0
			for _, r := range p {
				n = n*10 + int(r-'0')
			}
			if n >= len(c) {
				return root
			}
			if last {
				c[n] = v
				return root
			}
			cur = c[n]
		}
	}
	return root
}
