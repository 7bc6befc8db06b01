package register

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// decodeSeeds are the sample and bad OffeneRegister files' lines, and
// lines where JSON decoders are known to differ: keys in another case,
// a key twice, nulls, a wrong type in an optional and a required field,
// escapes, trailing bytes, an unclosed value.
func decodeSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, name := range []string{"offeneregister-sample.jsonl", "offeneregister-bad.jsonl"} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				out = append(out, l)
			}
		}
	}
	for _, s := range []string{
		`{"NAME":"Acme GmbH","All_Attributes":{"_REGISTERART":"HRB","_registerNummer":"1","registrar":"Berlin"}}`,
		`{"name":"A GmbH","name":"B GmbH","all_attributes":{"_registerArt":"HRB","_registerNummer":"1","registrar":"Köln"}}`,
		`{"name":null,"officers":null,"all_attributes":null}`,
		`{"name":"A GmbH","officers":"none","all_attributes":{"_registerArt":"HRB","_registerNummer":"2","registrar":"Bonn"}}`,
		`{"name":7,"all_attributes":{"_registerArt":"HRB","_registerNummer":"3","registrar":"Bonn"}}`,
		`{"name":"Caf\u00e9 \ud83d\ude00 \"GmbH\"","all_attributes":{"_registerArt":"HRA","_registerNummer":"4","registrar":"Bonn"}}`,
		`{"name":"A GmbH"} x`,
		`{"name":"A GmbH"`,
		`{"officers":[{"name":"Erika","position":"Geschäftsführer","start_date":"2020-01-01"},{"name":1}]}`,
		`{"name":"A GmbH","registered_address":"Hauptstr. 1, 10115 Berlin","retrieved_at":"2026-01-01T00:00:00Z","extra":{"deep":[1,2,{"x":null}]}}`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// sameAsEncodingJSON checks decodeLine against encoding/json on one line,
// into what Parse and Brief decode: the same value when encoding/json
// decodes it, the same error when it does not.
func sameAsEncodingJSON(t *testing.T, line []byte) {
	t.Helper()
	check := func(what string, want, got any, wantErr, gotErr error) {
		t.Helper()
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Fatalf("%s of %q: error %v, encoding/json's %v", what, line, gotErr, wantErr)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%s of %q:\n got %+v\nwant %+v", what, line, got, want)
		}
	}
	var wl, gl orLine
	wErr, gErr := json.Unmarshal(line, &wl), decodeLine(line, &gl)
	check("the line", wl, gl, wErr, gErr)
	var wb, gb orBrief
	wErr, gErr = json.Unmarshal(line, &wb), decodeLine(line, &gb)
	check("the brief", wb, gb, wErr, gErr)
}

// TestDecodeLine_SameAsEncodingJSON checks D135 on the seeds.
func TestDecodeLine_SameAsEncodingJSON(t *testing.T) {
	seeds := decodeSeeds(t)
	if len(seeds) < 20 {
		t.Fatalf("only %d lines to check", len(seeds))
	}
	for _, l := range seeds {
		sameAsEncodingJSON(t, l)
	}
}

// FuzzDecodeLine checks D135 on any line.
func FuzzDecodeLine(f *testing.F) {
	for _, l := range decodeSeeds(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) { sameAsEncodingJSON(t, line) })
}
