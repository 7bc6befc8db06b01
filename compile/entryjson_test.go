package compile_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/schemas"
)

// sameEntryJSON checks that EntryJSON writes encoding/json's bytes for e.
func sameEntryJSON(t *testing.T, e *schemas.Entry) {
	t.Helper()
	want, wantErr := json.Marshal(e)
	got, err := compile.EntryJSON(e)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("EntryJSON error %v, encoding/json's %v", err, wantErr)
	}
	if got != string(want) {
		t.Fatalf("EntryJSON differs from encoding/json:\n got %s\nwant %s", got, want)
	}
}

// TestEntryJSON_SameAsEncodingJSON checks D135 on every fixture entry.
func TestEntryJSON_SameAsEncodingJSON(t *testing.T) {
	entries := fixtures.Entries()
	if len(entries) < 10 {
		t.Fatalf("only %d fixture entries", len(entries))
	}
	for _, e := range entries {
		sameEntryJSON(t, e)
	}
}

// FuzzEntryJSON checks D135 with any text in the strings an entry takes
// from registers and owners (HTML, line separators, invalid UTF-8,
// control characters) and any coordinates.
func FuzzEntryJSON(f *testing.F) {
	for _, s := range []string{"Müller & Söhne <b>", "a\u2028b\u2029c", "\xff\xfe bad", "tab\tnl\n\"q\" \\ \x00\x1f", "😀 <script>&amp;"} {
		f.Add(s, 52.52, -1e-7)
	}
	f.Add("", 1e21, 123456789.123456789)
	base := fixtures.Entries()
	f.Fuzz(func(t *testing.T, s string, lat, lng float64) {
		for _, src := range base {
			var e schemas.Entry
			b, _ := json.Marshal(src)
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatal(err)
			}
			e.DisplayName = s
			e.AlternateNames = append(e.AlternateNames, s)
			if e.Description == nil {
				e.Description = map[string]string{}
			}
			for k := range e.Description {
				e.Description[k] = s + e.Description[k]
			}
			e.Description[s] = s // a key of any text: sorted and escaped as encoding/json does
			if !math.IsNaN(lat) && !math.IsInf(lat, 0) && !math.IsNaN(lng) && !math.IsInf(lng, 0) {
				for i := range e.Locations {
					if e.Locations[i].Geo != nil {
						e.Locations[i].Geo.Lat, e.Locations[i].Geo.Lng = lat, lng
					}
				}
			}
			sameEntryJSON(t, &e)
		}
	})
}
