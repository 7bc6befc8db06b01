package check_test

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// exampleNow is the instant of the contract's example result (§7.6): its
// expiresAt is an hour later.
var exampleNow = time.Date(2026, 10, 30, 14, 42, 0, 0, time.UTC)

// exampleCall is the §7.6 example call's arguments (ACT-64).
const exampleCall = `{
    "entry": "holzwerk-krause",
    "actionId": "act_01k8r2m7aa1b2c3d4e5f6g7h8j",
    "offeringId": "off_01k8r2m6bb1b2c3d4e5f6g7h8j",
    "description": "Einbauschrank für eine Dachschräge im Schlafzimmer, ca. 3,2 m breit, Eiche hell.",
    "postalCode": "42105",
    "desiredTiming": "Februar oder März 2027",
    "answers": { "has_sloped_ceiling": true },
    "requester": { "name": "Mara Example", "email": "mara@example.org", "preferredChannel": "email", "language": "de" },
    "idempotencyKey": "3c1f7a9e-quote-1"
}`

// exampleSummary is the summary the example must read (ACT-65), with the
// desired timing as the call wrote it.
const exampleSummary = "Quote request to Holzwerk Krause GmbH for 'Einbauschränke und Dachschrägenmöbel' (42105 Wuppertal, Februar oder März 2027). " +
	"Your name and email go to Holzwerk Krause GmbH; privacy notice: https://daawid.example/holzwerk-krause/datenschutz. Nothing is sent until you confirm."

var gazetteer = sync.OnceValues(places.Default)

// env is the contract's deployment at the example's instant, with the
// bundled gazetteer.
func env(t testing.TB) check.Env {
	t.Helper()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	site, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		t.Fatal(err)
	}
	return check.Env{Now: exampleNow, Places: g, Site: site}
}

// entry loads a fixture entry the way the registry reads one.
func entry(t testing.TB, slug string) *schemas.Entry {
	t.Helper()
	e, issues := schemas.Validate(fixtures.EntryJSON(slug + ".json"))
	if len(issues) > 0 {
		t.Fatalf("fixture %s: %v", slug, issues)
	}
	return e
}

// asQueryError fails unless err is a *query.Error with the code.
func asQueryError(t *testing.T, err error, code string) *query.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	var qe *query.Error
	if !errors.As(err, &qe) {
		t.Fatalf("error %T %v is not a *query.Error", err, err)
	}
	if qe.Code != code {
		t.Fatalf("code %s (%s), want %s", qe.Code, qe.Message, code)
	}
	return qe
}

// fields are the fields an invalid_input error names.
func fields(qe *query.Error) []string {
	var out []string
	for _, is := range qe.Issues {
		out = append(out, is.Field)
	}
	return out
}

// edit changes a call: set a dotted path ("requester.name",
// "preferredSlots[1].from") to a value, or delete it when del is true.
func edit(t testing.TB, call string, path string, v any, del bool) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(call), &m); err != nil {
		t.Fatal(err)
	}
	var cur any = m
	parts := splitPath(path)
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if del {
					delete(c, p)
				} else {
					c[p] = v
				}
				break
			}
			if _, ok := c[p]; !ok {
				c[p] = map[string]any{}
			}
			cur = c[p]
		case []any:
			n, err := strconv.Atoi(p)
			if err != nil || n >= len(c) {
				t.Fatalf("edit %s: no item %s", path, p)
			}
			if last {
				c[n] = v
				break
			}
			cur = c[n]
		default:
			t.Fatalf("edit %s: %s is not inside an object or array", path, p)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var pathPart = regexp.MustCompile(`[^.\[\]]+`)

func splitPath(path string) []string { return pathPart.FindAllString(path, -1) }

func set(t testing.TB, call, path string, v any) string { return edit(t, call, path, v, false) }
func del(t testing.TB, call, path string) string        { return edit(t, call, path, nil, true) }

func repeat(n int) string { return strings.Repeat("a", n) }
