package check_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/schemas"
)

// fullCalls are a valid call of every kind with every field given, two
// items in each list, so that each field can be made wrong in turn.
var fullCalls = map[schemas.ActionType]string{
	schemas.ActionRequestQuote: `{"entry":"holzwerk-krause","actionId":"act_01k8r2m7aa1b2c3d4e5f6g7h8j",
		"requester":{"name":"Mara Example","email":"mara@example.org","phone":"+49 202 1234567","preferredChannel":"email","language":"de"},
		"answers":{"has_sloped_ceiling":true},"idempotencyKey":"3c1f7a9e-quote-1","offeringId":"off_01k8r2m6bb1b2c3d4e5f6g7h8j",
		"description":"Einbauschrank für eine Dachschräge","postalCode":"42105","desiredTiming":"Februar 2027",
		"budget":{"max":"5000","currency":"eur"}}`,
	schemas.ActionRequestCallback: `{"entry":"ent_01k8r2m5n7p9q3s4t6v8w0x2yz","actionId":"act_01k8r2m7bb1b2c3d4e5f6g7h8j",
		"requester":{"name":"Mara Example","email":"mara@example.org","phone":"+49 202 1234567","preferredChannel":"phone","language":"de"},
		"answers":{"note":"bitte vormittags"},"idempotencyKey":"3c1f7a9e-call-1","offeringId":"off_01k8r2m6dd1b2c3d4e5f6g7h8j",
		"topic":"Tür schleift",
		"preferredTimes":[{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T11:00:00+01:00"},{"from":"2026-11-03T09:00:00+01:00","to":"2026-11-03T11:00:00+01:00"}]}`,
	schemas.ActionRequestAppointment: `{"entry":"physio-kanalblick","actionId":"act_01m2q3ce88be8ak4skt3vwxw6f",
		"requester":{"name":"Mara Example","email":"mara@example.org","phone":"+49 40 1234567","preferredChannel":"phone","language":"de"},
		"answers":{"mobility":"walking_aid","floor_level":2},"idempotencyKey":"3c1f7a9e-appt-1","offeringId":"off_01m2q3c3y4pdfk42phphghcw2h",
		"purpose":"Hausbesuch","postalCode":"22301",
		"preferredSlots":[{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T10:00:00+01:00"},{"from":"2026-11-04T09:00:00+01:00","to":"2026-11-04T10:00:00+01:00"}]}`,
	schemas.ActionSendMessage: `{"entry":"panaderia-la-espiga","actionId":"act_01m1k14qg1x91x222f3gpwhxpy",
		"requester":{"name":"Mara Example","email":"mara@example.org","phone":"+34 91 123 4567","preferredChannel":"email","language":"es"},
		"answers":{"x1":"y"},"idempotencyKey":"3c1f7a9e-msg-1",
		"subject":"Pan sin gluten","message":"¿Tienen pan sin gluten los sábados?"}`,
}

// TestDecode_ACT16_FullCallsDecode: a call of each kind with every field
// it takes decodes.
func TestDecode_ACT16_FullCallsDecode(t *testing.T) {
	for kind, call := range fullCalls {
		if _, err := check.Decode(kind, []byte(call)); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
}

// wrong is a field made wrong one way, and the field the one issue must
// name.
type wrong struct {
	what  string
	path  string // what to change
	value any    // the value set; nil deletes
	want  string // the field the issue names
}

// wrongs makes every field of the kind wrong in turn from the table:
// wrong type, too short, too long, bad pattern or form, missing when
// required, and an unknown field at each object level.
func wrongs(k *schemas.RequestKind) []wrong {
	var out []wrong
	var walk func(prefix string, fs []schemas.InputField)
	walk = func(prefix string, fs []schemas.InputField) {
		for _, f := range fs {
			p := prefix + f.Name
			if f.Required {
				out = append(out, wrong{"missing", p, nil, p})
			}
			switch f.Type {
			case schemas.InputObject:
				out = append(out, wrong{"not an object", p, "x", p}, wrong{"unknown member", p + ".nickname", "x", p + ".nickname"})
				walk(p+".", f.Fields)
				continue
			case schemas.InputArray:
				out = append(out, wrong{"not an array", p, "x", p})
				if f.Max > 0 {
					items := make([]any, f.Max+1)
					for i := range items {
						items[i] = map[string]any{"from": "2026-11-02T09:00:00+01:00", "to": "2026-11-02T10:00:00+01:00"}
					}
					out = append(out, wrong{"too many items", p, items, p})
				}
				if f.Min > 0 {
					out = append(out, wrong{"too few items", p, []any{}, p})
				}
				out = append(out, wrong{"an item not an object", p + "[0]", 7, p + "[0]"},
					wrong{"unknown member of an item", p + "[1].foo", "x", p + "[1].foo"})
				walk(p+"[0].", f.Fields)
				continue
			case schemas.InputAnswers:
				out = append(out, wrong{"not an object", p, []any{1}, p},
					wrong{"bad key", p + ".Has Ceiling", true, p + `["Has Ceiling"]`},
					wrong{"value an object", p + ".extra", map[string]any{"a": 1}, p + ".extra"},
					wrong{"text too long", p + ".extra", repeat(schemas.AnswerMaxLength + 1), p + ".extra"})
				continue
			case schemas.InputMoney:
				out = append(out, wrong{"wrong type", p, true, p}, wrong{"three decimals", p, "5000.123", p},
					wrong{"a comma", p, "5.000,00", p}, wrong{"negative", p, -5, p}, wrong{"exponent", p, 5e20, p})
				continue
			}
			out = append(out, wrong{"wrong type", p, 42, p})
			if f.Min > 1 {
				out = append(out, wrong{"too short", p, repeat(f.Min - 1), p})
			}
			if f.Max > 0 {
				out = append(out, wrong{"too long", p, repeat(f.Max + 1), p})
			}
			if !f.Multiline {
				out = append(out, wrong{"two lines", p, "ab\ncdefghijkl", p})
			}
			out = append(out, wrong{"a control character", p, "abc\x01defghijkl", p})
			for _, bad := range badValues[f.Type] {
				out = append(out, wrong{"bad form " + bad, p, bad, p})
			}
			if f.Pattern != "" {
				if bad, ok := badPatterns[f.Pattern]; ok {
					out = append(out, wrong{"bad pattern " + bad, p, bad, p})
				}
			}
		}
	}
	walk("", k.Fields)
	return append(out, wrong{"unknown field", "nickname", "x", "nickname"}, wrong{"empty key", "", "x", `[""]`})
}

// badValues are wrong values of each type beyond its length.
var badValues = map[schemas.InputType][]string{
	schemas.InputEntryRef: {"Holzwerk Krause", "ent_123"},
	schemas.InputID:       {"act_123", "x"},
	schemas.InputEnum:     {"fax"},
	schemas.InputEmail:    {"Mara <mara@example.org>", "mara@example", "mara", "<mara@example.org>"},
	schemas.InputPhone:    {"0202 1234567", "+49 abc 123", "+49 1", "+49 202 1234567 ext. 5", "+49000000000"},
	// ACT-19: a time without an offset is refused.
	schemas.InputTime:     {"2026-11-02T09:00:00", "2026-11-02 09:00", "tomorrow", "2026-02-30T09:00:00Z", "2026-11-02T25:00:00Z"},
	schemas.InputCurrency: {"EURO", "E1R", "QQQ"},
}

var badPatterns = map[string]string{
	schemas.PostalCodeInputPattern: "42#05",
	schemas.LanguageTagPattern:     "deutsch!",
}

// TestDecode_ACT01_ACT04_ACT06_ACT07_ACT08_ACT09_EachFieldWrong makes
// every field of every kind wrong in turn, and wants exactly one
// invalid_input issue naming that field: the request tools' shapes of
// §7.5 (ACT-01 requester, ACT-02 entry, ACT-03 actionId, ACT-04 answers,
// ACT-05 idempotencyKey, ACT-06 quote, ACT-07 callback, ACT-08
// appointment, ACT-09 message).
func TestDecode_ACT01_ACT04_ACT06_ACT07_ACT08_ACT09_EachFieldWrong(t *testing.T) {
	n := 0
	for _, k := range schemas.RequestKinds() {
		for _, w := range wrongs(&k) {
			var call string
			switch {
			case w.path == "":
				call = strings.Replace(fullCalls[k.Type], "{", `{"":"x",`, 1)
			case w.value == nil:
				call = del(t, fullCalls[k.Type], w.path)
			default:
				call = set(t, fullCalls[k.Type], w.path, w.value)
			}
			_, err := check.Decode(k.Type, []byte(call))
			if err == nil {
				t.Errorf("%s %s %s: decoded", k.Type, w.path, w.what)
				continue
			}
			qe, ok := query.AsError(err)
			if !ok || qe.Code != query.CodeInvalidInput {
				t.Errorf("%s %s %s: %v, want invalid_input", k.Type, w.path, w.what, err)
				continue
			}
			if got := fields(qe); len(got) != 1 || got[0] != w.want {
				t.Errorf("%s %s %s: issues %v, want one naming %s", k.Type, w.path, w.what, qe.Issues, w.want)
			}
			n++
		}
	}
	if n < 300 {
		t.Errorf("only %d wrong calls; the table should give more", n)
	}
}

// TestDecode_ACT07_CallbackNeedsPhone and the other kinds' optional phone
// (ACT-01, ACT-07, ACT-16).
func TestDecode_ACT07_CallbackNeedsPhone(t *testing.T) {
	_, err := check.Decode(schemas.ActionRequestCallback, []byte(del(t, fullCalls[schemas.ActionRequestCallback], "requester.phone")))
	if qe := asQueryError(t, err, query.CodeInvalidInput); !slices.Equal(fields(qe), []string{"requester.phone"}) {
		t.Errorf("issues %v, want requester.phone", qe.Issues)
	}
	for _, k := range []schemas.ActionType{schemas.ActionRequestQuote, schemas.ActionRequestAppointment, schemas.ActionSendMessage} {
		if _, err := check.Decode(k, []byte(del(t, fullCalls[k], "requester.phone"))); err != nil {
			t.Errorf("%s without a phone: %v (ACT-01: phone is optional)", k, err)
		}
	}
}

// TestDecode_NamesEveryIssue: the paths as the contract names them, and
// every mistake at once.
func TestDecode_NamesEveryIssue(t *testing.T) {
	call := `{"entry":"holzwerk-krause","requester":{"name":"M","email":"mara","nickname":"x"},
		"purpose":"ok!","preferredSlots":[{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T10:00:00+01:00"},{"from":"2026-11-02T09:00:00+01:00","to":"2026-11-02T10:00","foo":1}],
		"budget":{"max":1}}`
	_, err := check.Decode(schemas.ActionRequestAppointment, []byte(call))
	qe := asQueryError(t, err, query.CodeInvalidInput)
	want := []string{"requester.name", "requester.email", "requester.nickname", "preferredSlots[1].to", "preferredSlots[1].foo", "budget"}
	if got := fields(qe); !slices.Equal(got, want) {
		t.Errorf("issues %v\nwant fields %v", qe.Issues, want)
	}
	for _, is := range qe.Issues {
		if is.Message == "" || !strings.Contains(qe.Message, is.Field+": "+is.Message) {
			t.Errorf("the error's message does not name %s: %q", is.Field, qe.Message)
		}
	}
}

// TestDecode_ACT17_ACT18_ACT19_Normalises: times gain seconds and a colon
// in the offset (ACT-17), a budget's max two decimals and its currency
// capitals (ACT-18); a time without an offset is refused (ACT-19). Phone
// numbers as pages show them become E.164 (D28).
func TestDecode_ACT17_ACT18_ACT19_Normalises(t *testing.T) {
	base := fullCalls[schemas.ActionRequestCallback]
	times := map[string]string{
		"2026-11-02T09:00+0100":          "2026-11-02T09:00:00+01:00", // ACT-17
		"2026-11-02T09:00+01:00":         "2026-11-02T09:00:00+01:00",
		"2026-11-02T09:00:30+0100":       "2026-11-02T09:00:30+01:00",
		"2026-11-02 09:00+01":            "2026-11-02T09:00:00+01:00",
		"2026-11-02t09:00:00z":           "2026-11-02T09:00:00Z",
		"2026-11-02T09:00:00.250-0530":   "2026-11-02T09:00:00-05:30",
		"2026-11-02T09:00:00+00:00":      "2026-11-02T09:00:00Z",
		"  2026-11-02T09:00:00+01:00   ": "2026-11-02T09:00:00+01:00",
	}
	for in, want := range times {
		req, err := check.Decode(schemas.ActionRequestCallback, []byte(set(t, base, "preferredTimes[0].from", in)))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := req.PreferredTimes[0].From; got != want {
			t.Errorf("%q became %q, want %q (ACT-17)", in, got, want)
		}
	}
	// ACT-19
	_, err := check.Decode(schemas.ActionRequestCallback, []byte(set(t, base, "preferredTimes[0].to", "2026-11-02T11:00")))
	if qe := asQueryError(t, err, query.CodeInvalidInput); !slices.Equal(fields(qe), []string{"preferredTimes[0].to"}) || !strings.Contains(qe.Message, "offset") {
		t.Errorf("a time without an offset: %v", qe.Issues)
	}
	// ACT-18
	quote := fullCalls[schemas.ActionRequestQuote]
	amounts := map[any]string{"5000": "5000.00", 5000: "5000.00", 5000.5: "5000.50", "0.5": "0.50", "007": "7.00", "12.34": "12.34", 0: "0.00"}
	for in, want := range amounts {
		req, err := check.Decode(schemas.ActionRequestQuote, []byte(set(t, quote, "budget.max", in)))
		if err != nil {
			t.Errorf("budget.max %v: %v", in, err)
			continue
		}
		if req.Budget.Max != want || req.Budget.Currency != "EUR" {
			t.Errorf("budget %v became %+v, want %s EUR (ACT-18)", in, *req.Budget, want)
		}
	}
	phones := map[string]string{
		"+49 (0)202 / 999-90 01": "+492029999001",
		"0049 202 9999001":       "+492029999001",
		"tel:+492029999001":      "+492029999001",
		"+49.202.999.9001":       "+492029999001",
		"+44 20 7946 0417":       "+442079460417",
		"+49 0202 9999001":       "+492029999001", // a trunk 0 after the country code
	}
	for in, want := range phones {
		req, err := check.Decode(schemas.ActionRequestQuote, []byte(set(t, quote, "requester.phone", in)))
		if err != nil {
			t.Errorf("phone %q: %v", in, err)
			continue
		}
		if req.Requester.Phone != want {
			t.Errorf("phone %q became %q, want %q", in, req.Requester.Phone, want)
		}
	}
	req, err := check.Decode(schemas.ActionRequestQuote, []byte(set(t, set(t, quote, "requester.language", "DE-at"), "requester.preferredChannel", "Phone")))
	if err != nil || req.Requester.Language != "de-at" || req.Requester.PreferredChannel != "phone" {
		t.Errorf("language and channel: %+v %v", req, err)
	}
}

// TestDecode_LeftOut: null, an empty string or an empty list for an
// optional field counts as left out; no arguments at all miss every
// required field.
func TestDecode_LeftOut(t *testing.T) {
	call := `{"entry":"holzwerk-krause","requester":{"name":"Mara Example","email":"mara@example.org","phone":"","language":null},
		"actionId":null,"answers":{},"topic":"Tür schleift","preferredTimes":[],"offeringId":""}`
	req, err := check.Decode(schemas.ActionRequestCallback, []byte(call))
	if qe, ok := query.AsError(err); !ok || !slices.Equal(fields(qe), []string{"requester.phone"}) {
		t.Fatalf("%v", err)
	}
	req, err = check.Decode(schemas.ActionRequestQuote, []byte(`{"entry":"holzwerk-krause","requester":{"name":"Mara Example","email":"mara@example.org","phone":""},
		"description":"Einbauschrank bitte","budget":null,"postalCode":"  ","answers":{"a1":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.Budget != nil || req.PostalCode != "" || req.Answers != nil || req.Requester.Phone != "" {
		t.Errorf("left-out fields kept: %+v", req)
	}
	for _, raw := range []string{"", "null", "{}"} {
		_, err := check.Decode(schemas.ActionSendMessage, []byte(raw))
		qe := asQueryError(t, err, query.CodeInvalidInput)
		if want := []string{"entry", "requester", "subject", "message"}; !slices.Equal(fields(qe), want) {
			t.Errorf("%q: %v, want %v", raw, fields(qe), want)
		}
	}
	for _, raw := range []string{"[]", `"x"`, "{", `{"entry":"a"} {}`} {
		_, err := check.Decode(schemas.ActionSendMessage, []byte(raw))
		if qe := asQueryError(t, err, query.CodeInvalidInput); !slices.Equal(fields(qe), []string{"input"}) {
			t.Errorf("%q: %v", raw, qe.Issues)
		}
	}
}

// TestDecode_RoundTrip: a decoded request stored as JSON decodes to the
// same request, so the flow can keep it and read it back.
func TestDecode_RoundTrip(t *testing.T) {
	calls := map[schemas.ActionType]string{schemas.ActionRequestQuote: exampleCall}
	for k, c := range fullCalls {
		if k != schemas.ActionRequestQuote {
			calls[k] = c
		}
	}
	for kind, call := range calls {
		req, err := check.Decode(kind, []byte(call))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		again, err := check.Decode(kind, b)
		if err != nil {
			t.Fatalf("%s: its JSON %s does not decode: %v", kind, b, err)
		}
		if !reflect.DeepEqual(req, again) {
			t.Errorf("%s: %+v\nread back as %+v", kind, req, again)
		}
	}
}

// TestDecode_ACT64_ContractExample decodes the §7.6 example call.
func TestDecode_ACT64_ContractExample(t *testing.T) {
	req, err := check.Decode(schemas.ActionRequestQuote, []byte(exampleCall))
	if err != nil {
		t.Fatal(err)
	}
	want := &check.Request{Kind: schemas.ActionRequestQuote, Entry: "holzwerk-krause", ActionID: "act_01k8r2m7aa1b2c3d4e5f6g7h8j",
		OfferingID:  "off_01k8r2m6bb1b2c3d4e5f6g7h8j",
		Description: "Einbauschrank für eine Dachschräge im Schlafzimmer, ca. 3,2 m breit, Eiche hell.",
		PostalCode:  "42105", DesiredTiming: "Februar oder März 2027",
		Answers:        map[string]any{"has_sloped_ceiling": true},
		Requester:      check.Requester{Name: "Mara Example", Email: "mara@example.org", PreferredChannel: "email", Language: "de"},
		IdempotencyKey: "3c1f7a9e-quote-1"}
	if !reflect.DeepEqual(req, want) {
		t.Errorf("got  %+v\nwant %+v", req, want)
	}
}
