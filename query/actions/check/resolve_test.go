package check_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
)

// decode decodes a call the test means to be valid.
func decode(t *testing.T, kind schemas.ActionType, call string) *check.Request {
	t.Helper()
	req, err := check.Decode(kind, []byte(call))
	if err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	return req
}

// TestResolve_ACT64_ACT65_ContractExample: the §7.6 example call
// decodes, goes to Holzwerk Krause's quote action, and its summary reads
// as the contract's, with the desired timing as written.
func TestResolve_ACT64_ACT65_ContractExample(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	req := decode(t, schemas.ActionRequestQuote, exampleCall)
	env := env(t)
	a, err := check.Resolve(e, req, env)
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != "act_01k8r2m7aa1b2c3d4e5f6g7h8j" {
		t.Errorf("action %s", a.ID)
	}
	if got := check.Summary(e, a, req, env); got != exampleSummary {
		t.Errorf("summary\n got %q\nwant %q", got, exampleSummary)
	}
	// Without the gazetteer the summary names the code alone; with a
	// phone, the phone number goes too (D17).
	req.Requester.Phone = "+492021234567"
	env.Places = nil
	want := strings.Replace(strings.Replace(exampleSummary, "42105 Wuppertal", "42105", 1), "name and email", "name, email and phone number", 1)
	if got := check.Summary(e, a, req, env); got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	// In English, the offering's English name.
	req.Requester.Language = "en-GB"
	if got := check.Summary(e, a, req, env); !strings.Contains(got, "'Built-in wardrobes and furniture for sloped ceilings'") {
		t.Errorf("summary for an English requester: %q", got)
	}
}

// TestResolve_ACT20_Times: a window must end after it starts and not be
// over at the request's instant; the error says what time it is now. A
// window already begun is taken.
func TestResolve_ACT20_Times(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	base := `{"entry":"holzwerk-krause","requester":{"name":"Mara Example","email":"mara@example.org","phone":"+49 202 1234567"},"topic":"Tür schleift",
		"preferredTimes":[{"from":"FROM","to":"TO"}]}`
	cases := []struct {
		from, to string
		field    string // "" goes through
	}{
		{"2026-11-02T09:00:00+01:00", "2026-11-02T11:00:00+01:00", ""},
		{"2026-10-30T15:00:00+01:00", "2026-10-30T16:00:00+01:00", ""},                     // begun 14:00Z, not over: taken
		{"2026-11-02T11:00:00+01:00", "2026-11-02T09:00:00+01:00", "preferredTimes[0].to"}, // ends before it starts
		{"2026-11-02T10:00:00+01:00", "2026-11-02T10:00:00+01:00", "preferredTimes[0].to"}, // empty
		{"2026-10-29T09:00:00+01:00", "2026-10-29T11:00:00+01:00", "preferredTimes[0]"},    // over
		{"2026-10-30T14:00:00+01:00", "2026-10-30T15:42:00+01:00", "preferredTimes[0]"},    // ends exactly now
		{"2026-11-02T11:00:00+01:00", "2026-11-02T10:30:00Z", ""},                          // 10:00Z to 10:30Z
	}
	for _, c := range cases {
		call := strings.NewReplacer("FROM", c.from, "TO", c.to).Replace(base)
		_, err := check.Resolve(e, decode(t, schemas.ActionRequestCallback, call), env(t))
		if c.field == "" {
			if err != nil {
				t.Errorf("%s–%s: %v", c.from, c.to, err)
			}
			continue
		}
		qe := asQueryError(t, err, query.CodeInvalidInput)
		if !slices.Equal(fields(qe), []string{c.field}) {
			t.Errorf("%s–%s: issues %v, want %s", c.from, c.to, qe.Issues, c.field)
		}
		if c.field == "preferredTimes[0]" && !strings.Contains(qe.Message, "it is now 2026-10-30T14:42:00Z (UTC)") {
			t.Errorf("the error does not say what time it is now: %q", qe.Message)
		}
	}
}

// TestResolve_ACT21_Offering: an offeringId must be one of the entry's
// offerings, and one of the action's when it names some.
func TestResolve_ACT21_Offering(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	for off, want := range map[string]string{
		"off_01k8r2m6aa1b2c3d4e5f6g7h8j": "",                             // the action's
		"off_01k8r2m6dd1b2c3d4e5f6g7h8j": "is not one this action takes", // the entry's, not the action's
		"off_01k8r2m6zz1b2c3d4e5f6g7h8j": "is not one of Holzwerk Krause's offerings",
	} {
		_, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "offeringId", off)), env(t))
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", off, err)
			}
			continue
		}
		qe := asQueryError(t, err, query.CodeInvalidInput)
		if !slices.Equal(fields(qe), []string{"offeringId"}) || !strings.Contains(qe.Message, want) {
			t.Errorf("%s: %v, want offeringId %q", off, qe.Issues, want)
		}
	}
}

// TestResolve_ACT22_RequireFields: requireFields apply where the kind has
// the field: phone to every kind, postal_code to quotes and appointments,
// desired_timing and budget to quotes.
func TestResolve_ACT22_RequireFields(t *testing.T) {
	cases := []struct {
		entry, call string
		kind        schemas.ActionType
		drop        string
	}{
		{"holzwerk-krause", exampleCall, schemas.ActionRequestQuote, "desiredTiming"},
		{"nordlicht-software", set(t, set(t, set(t, exampleCall, "entry", "nordlicht-software"), "actionId", "act_01m39aw0yp0fx3qxmmbdjbetcs"), "offeringId", "off_01m39avsf75xkxez4v8s6r8jjh"),
			schemas.ActionRequestQuote, "budget"},
		{"physio-kanalblick", fullCalls[schemas.ActionRequestAppointment], schemas.ActionRequestAppointment, "requester.phone"},
		{"physio-kanalblick", fullCalls[schemas.ActionRequestAppointment], schemas.ActionRequestAppointment, "postalCode"},
	}
	for _, c := range cases {
		e := entry(t, c.entry)
		call := c.call
		if c.drop == "budget" {
			call = set(t, set(t, call, "budget", map[string]any{"max": 8000, "currency": "EUR"}), "answers", map[string]any{})
		}
		if _, err := check.Resolve(e, decode(t, c.kind, call), env(t)); err != nil {
			t.Fatalf("%s with %s: %v", c.entry, c.drop, err)
		}
		_, err := check.Resolve(e, decode(t, c.kind, del(t, call, c.drop)), env(t))
		qe := asQueryError(t, err, query.CodeInvalidInput)
		if !slices.Equal(fields(qe), []string{c.drop}) || !strings.Contains(qe.Message, "required by this action") {
			t.Errorf("%s without %s: %v", c.entry, c.drop, qe.Issues)
		}
	}
	// An action that doesn't require the phone takes a call without one.
	if _, err := check.Resolve(entry(t, "holzwerk-krause"), decode(t, schemas.ActionRequestQuote, exampleCall), env(t)); err != nil {
		t.Error(err)
	}
}

// TestResolve_ACT23_ServiceAreaOnlyNeedsPostalCode: Holzwerk Krause's
// quote action takes requests within its service area only, so it needs
// the postal code; its callback action has no postal code field, so the
// rule can't apply there.
func TestResolve_ACT23_ServiceAreaOnlyNeedsPostalCode(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	e.Actions[0].RequireFields = nil // only serviceAreaOnly asks for the code now
	_, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, del(t, exampleCall, "postalCode")), env(t))
	if qe := asQueryError(t, err, query.CodeInvalidInput); !slices.Equal(fields(qe), []string{"postalCode"}) {
		t.Errorf("issues %v, want postalCode", qe.Issues)
	}
	e.Actions[0].ServiceAreaOnly = false
	if _, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, del(t, exampleCall, "postalCode")), env(t)); err != nil {
		t.Errorf("without serviceAreaOnly or postal_code: %v", err)
	}
}

// TestResolve_ACT25_ActionOfTheToolsType: actionId must name an action of
// the tool's type.
func TestResolve_ACT25_ActionOfTheToolsType(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	call := set(t, fullCalls[schemas.ActionRequestQuote], "actionId", "act_01k8r2m7bb1b2c3d4e5f6g7h8j") // the callback action
	_, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, call), env(t))
	qe := asQueryError(t, err, query.CodeInvalidInput)
	if !slices.Equal(fields(qe), []string{"actionId"}) || !strings.Contains(qe.Message, "request_callback") ||
		!strings.Contains(qe.Message, "act_01k8r2m7aa1b2c3d4e5f6g7h8j") {
		t.Errorf("%v", qe.Message)
	}
	// An ID the entry doesn't have.
	_, err = check.Resolve(e, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "actionId", "act_01k8r2m7zz1b2c3d4e5f6g7h8j")), env(t))
	asQueryError(t, err, query.CodeNotFound)
}

// TestResolve_ACT26_SeveralOfAKind: without actionId the entry's one
// enabled action of the type; with several, the error lists them.
func TestResolve_ACT26_SeveralOfAKind(t *testing.T) {
	e := entry(t, "holzwerk-krause").Clone()
	second := e.Actions[0]
	second.ID, second.Name = "act_01k8r2m7cc1b2c3d4e5f6g7h8j", schemas.Text[schemas.Max80]{"de": "Küchenplanung anfragen"}
	e.Actions = append(e.Actions, second)
	call := del(t, exampleCall, "actionId")
	_, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, call), env(t))
	qe := asQueryError(t, err, query.CodeInvalidInput)
	if !slices.Equal(fields(qe), []string{"actionId"}) || !strings.Contains(qe.Message, "act_01k8r2m7aa1b2c3d4e5f6g7h8j (Angebot anfragen)") ||
		!strings.Contains(qe.Message, "act_01k8r2m7cc1b2c3d4e5f6g7h8j (Küchenplanung anfragen)") {
		t.Errorf("%s", qe.Message)
	}
	a, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, set(t, call, "actionId", second.ID)), env(t))
	if err != nil || a.ID != second.ID {
		t.Errorf("with actionId: %v %v", a, err)
	}
	// One enabled of the kind: found without actionId.
	e.Actions[len(e.Actions)-1].Enabled = false
	if a, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, call), env(t)); err != nil || a.ID != "act_01k8r2m7aa1b2c3d4e5f6g7h8j" {
		t.Errorf("without actionId: %v %v", a, err)
	}
}

// TestResolve_ACT27_KindNotTaken: a kind the entry doesn't take, or a
// disabled action, is refused politely with the entry's public ways to
// reach it.
func TestResolve_ACT27_KindNotTaken(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	msg := `{"entry":"holzwerk-krause","requester":{"name":"Mara Example","email":"mara@example.org"},"subject":"Frage","message":"Haben Sie Eichenholz vorrätig?"}`
	_, err := check.Resolve(e, decode(t, schemas.ActionSendMessage, msg), env(t))
	qe := asQueryError(t, err, query.CodeActionUnavailable)
	for _, want := range []string{"Holzwerk Krause takes no messages through Daawid", "+49 202 9999001", "info@holzwerk-krause.example", "https://daawid.example/holzwerk-krause"} {
		if !strings.Contains(qe.Message, want) {
			t.Errorf("%q lacks %q", qe.Message, want)
		}
	}
	if strings.Contains(qe.Message, "jobs@") {
		t.Errorf("%q offers the jobs address as a way to reach the business", qe.Message)
	}
	// Physio Kanalblick's second send_message action is disabled.
	p := entry(t, "physio-kanalblick")
	call := set(t, set(t, msg, "entry", "physio-kanalblick"), "actionId", "act_01m2q3cp5p3ze5g0hx1ds62x4v")
	_, err = check.Resolve(p, decode(t, schemas.ActionSendMessage, call), env(t))
	asQueryError(t, err, query.CodeActionUnavailable)
}

// TestResolve_D15_HandoffIsAnAction: a handoff action is found like any
// other; the caller hands over.
func TestResolve_D15_HandoffIsAnAction(t *testing.T) {
	e := entry(t, "physio-kanalblick")
	call := set(t, del(t, del(t, fullCalls[schemas.ActionRequestAppointment], "answers"), "offeringId"), "actionId", "act_01m2q3cg6180kke12rv39mvn9g")
	a, err := check.Resolve(e, decode(t, schemas.ActionRequestAppointment, call), env(t))
	if err != nil || !a.Handoff() {
		t.Fatalf("%v %v", a, err)
	}
}

// TestResolve_D16_Answers: answers are only to the action's questions,
// the required ones given, each of its question's type.
func TestResolve_D16_Answers(t *testing.T) {
	e := entry(t, "physio-kanalblick")
	base := fullCalls[schemas.ActionRequestAppointment]
	if _, err := check.Resolve(e, decode(t, schemas.ActionRequestAppointment, base), env(t)); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		answers any
		field   string
	}{
		"unknown key":        {map[string]any{"mobility": "walks_alone", "pets": true}, "answers.pets"},
		"required missing":   {map[string]any{"floor_level": 2}, "answers.mobility"},
		"no answers at all":  {nil, "answers.mobility"},
		"choice not offered": {map[string]any{"mobility": "flies"}, "answers.mobility"},
		"number as text":     {map[string]any{"mobility": "walks_alone", "floor_level": "zwei"}, "answers.floor_level"},
	}
	for name, c := range cases {
		call := del(t, base, "answers")
		if c.answers != nil {
			call = set(t, base, "answers", c.answers)
		}
		_, err := check.Resolve(e, decode(t, schemas.ActionRequestAppointment, call), env(t))
		qe := asQueryError(t, err, query.CodeInvalidInput)
		if !slices.Equal(fields(qe), []string{c.field}) {
			t.Errorf("%s: %v, want %s", name, qe.Issues, c.field)
		}
	}
	h := entry(t, "holzwerk-krause")
	_, err := check.Resolve(h, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "answers.has_sloped_ceiling", "ja")), env(t))
	if qe := asQueryError(t, err, query.CodeInvalidInput); !slices.Equal(fields(qe), []string{"answers.has_sloped_ceiling"}) {
		t.Errorf("a boolean as text: %v", qe.Issues)
	}
}

// TestResolve_ACT31_OutsideServiceArea: Holzwerk Krause works within 30
// km of Wuppertal and in four towns nearby. A code the gazetteer places
// far away is outside, with the area in words and how to reach the
// business; one within the radius and 10 km more is inside.
func TestResolve_ACT31_OutsideServiceArea(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	loc := e.Locations[0].Geo
	dortmund, ok := g.FindPostal("DE", "44137")
	if d := places.DistanceKm(loc.Lat, loc.Lng, dortmund.Place.Lat, dortmund.Place.Lng); !ok || d <= 30 || d > 40 {
		t.Fatalf("44137 is %.1f km from the workshop; the test wants one between 30 and 40", d)
	}
	for code, want := range map[string]string{
		"42105": "",               // Wuppertal
		"42651": "",               // Solingen, a named town
		"44137": "",               // Dortmund: beyond 30 km, within 30 + 10
		"80331": "80331 (Munich)", // München
		"50667": "50667 (Köln)",   // 41 km, and not near a named town
	} {
		_, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "postalCode", code)), env(t))
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", code, err)
			}
			continue
		}
		qe := asQueryError(t, err, query.CodeOutsideServiceArea)
		for _, w := range []string{want, "30 km around Wuppertal; also Solingen, Remscheid, Velbert, Schwelm", "+49 202 9999001", "https://daawid.example/holzwerk-krause"} {
			if !strings.Contains(qe.Message, w) {
				t.Errorf("%s: %q lacks %q", code, qe.Message, w)
			}
		}
	}
	// An action that is not serviceAreaOnly takes any code.
	e.Actions[0].ServiceAreaOnly = false
	if _, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "postalCode", "80331")), env(t)); err != nil {
		t.Errorf("without serviceAreaOnly: %v", err)
	}
}

// TestResolve_ACT32_UnknownGoesThrough: a code the gazetteer doesn't
// know, a gazetteer that knows nothing, a place it can't find and an
// area that covers anywhere all let the request through.
func TestResolve_ACT32_UnknownGoesThrough(t *testing.T) {
	e := entry(t, "holzwerk-krause")
	far := set(t, exampleCall, "postalCode", "80331")
	if _, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "postalCode", "99999")), env(t)); err != nil {
		t.Errorf("an unknown code: %v", err)
	}
	noPlaces := env(t)
	noPlaces.Places = nil
	if _, err := check.Resolve(e, decode(t, schemas.ActionRequestQuote, far), noPlaces); err != nil {
		t.Errorf("no gazetteer: %v", err)
	}
	withUnknownTown := e.Clone()
	withUnknownTown.ServiceArea.Places = append(withUnknownTown.ServiceArea.Places, schemas.ServicePlace{Type: "city", Name: "Nirgendwo an der Wupper", Country: "DE"})
	if _, err := check.Resolve(withUnknownTown, decode(t, schemas.ActionRequestQuote, far), env(t)); err != nil {
		t.Errorf("a named place Daawid doesn't know: %v", err)
	}
	anywhere := e.Clone()
	anywhere.ServiceArea = &schemas.ServiceArea{Anywhere: true}
	if _, err := check.Resolve(anywhere, decode(t, schemas.ActionRequestQuote, far), env(t)); err != nil {
		t.Errorf("anywhere: %v", err)
	}
	none := e.Clone()
	none.ServiceArea = nil
	if _, err := check.Resolve(none, decode(t, schemas.ActionRequestQuote, far), env(t)); err != nil {
		t.Errorf("no service area: %v", err)
	}
	// The offering's own area replaces the entry's (D26): all of Germany.
	own := e.Clone()
	own.Offerings[1].ServiceArea = &schemas.ServiceArea{Places: []schemas.ServicePlace{{Type: "country", Name: "Deutschland", Country: "DE"}}}
	if _, err := check.Resolve(own, decode(t, schemas.ActionRequestQuote, far), env(t)); err != nil {
		t.Errorf("the offering's own area: %v", err)
	}
	// A region: North Rhine-Westphalia holds Köln but not München.
	region := e.Clone()
	region.ServiceArea = &schemas.ServiceArea{Places: []schemas.ServicePlace{{Type: "administrative_area", Name: "Nordrhein-Westfalen", Country: "DE"}}}
	if _, err := check.Resolve(region, decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "postalCode", "50667")), env(t)); err != nil {
		t.Errorf("a code in the region: %v", err)
	}
	_, err := check.Resolve(region, decode(t, schemas.ActionRequestQuote, far), env(t))
	asQueryError(t, err, query.CodeOutsideServiceArea)
}

// TestResolve_Suspended: a suspended entry takes no requests.
func TestResolve_Suspended(t *testing.T) {
	e := entry(t, "kfz-rasant-dortmund")
	call := set(t, set(t, del(t, del(t, fullCalls[schemas.ActionRequestAppointment], "answers"), "offeringId"), "entry", e.Slug), "actionId", e.Actions[0].ID)
	_, err := check.Resolve(e, decode(t, schemas.ActionRequestAppointment, call), env(t))
	asQueryError(t, err, query.CodeActionUnavailable)
}

// TestFields lists what a request sends, in English and German.
func TestFields(t *testing.T) {
	e := entry(t, "physio-kanalblick")
	req := decode(t, schemas.ActionRequestAppointment, fullCalls[schemas.ActionRequestAppointment])
	a := e.Action(req.ActionID)
	got := check.Fields(e, a, req, "de")
	want := []check.Field{
		{"Anliegen", "Hausbesuch"},
		{"Wunschtermine", "02.11.2026, 09:00–10:00 Uhr (UTC+01:00)\n04.11.2026, 09:00–10:00 Uhr (UTC+01:00)"},
		{"Postleitzahl", "22301"},
		{"Wie mobil ist die Patientin oder der Patient?", "Mit Gehhilfe"},
		{"In welchem Stockwerk?", "2"},
		{"Leistung", e.Offering(req.OfferingID).Name.Resolve("de", "de")},
	}
	if !slices.Equal(got, want) {
		t.Errorf("de:\n got %q\nwant %q", got, want)
	}
	en := check.Fields(e, a, req, "en")
	if en[0].Label != "Purpose" || en[1].Value != "2 Nov 2026, 09:00–10:00 (UTC+01:00)\n4 Nov 2026, 09:00–10:00 (UTC+01:00)" || en[2].Label != "Postal code" {
		t.Errorf("en: %q", en)
	}
	h := entry(t, "holzwerk-krause")
	q := decode(t, schemas.ActionRequestQuote, set(t, exampleCall, "budget", map[string]any{"max": 5000, "currency": "eur"}))
	got = check.Fields(h, h.Action(q.ActionID), q, "en")
	want = []check.Field{
		{"Description", q.Description}, {"Postal code", "42105"}, {"Desired timing", "Februar oder März 2027"}, {"Budget", "up to 5000.00 EUR"},
		{"Gibt es Dachschrägen?", "Yes"}, {"Offering", "Built-in wardrobes and furniture for sloped ceilings"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("en:\n got %q\nwant %q", got, want)
	}
}

// TestFields_EveryFieldHasALabel: a field added to the table without a
// label would vanish from the page and the mail.
func TestFields_EveryFieldHasALabel(t *testing.T) {
	common := []string{"entry", "actionId", "requester", "answers", "idempotencyKey"}
	for _, k := range schemas.RequestKinds() {
		for _, f := range k.Fields {
			if slices.Contains(common, f.Name) {
				continue
			}
			for _, lang := range []string{"en", "de"} {
				if check.Label(f.Name, lang) == "" {
					t.Errorf("%s.%s has no %s label", k.Type, f.Name, lang)
				}
			}
		}
	}
}
