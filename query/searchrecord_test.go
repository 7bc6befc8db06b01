package query

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestDecodeSearchRecord_SameAsEncodingJSON: every search record a
// publication of the fixtures stores decodes with segmentio/encoding/json
// into the value encoding/json gives, and marshals back to its bytes
// (D133); a cut record is refused.
func TestDecodeSearchRecord_SameAsEncodingJSON(t *testing.T) {
	dir, m := publishServed(t)
	rows, err := publication.ReadDocIndex(filepath.Join(dir, filepath.FromSlash(m.Index[0])))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if r.Kind != render.KindSearch {
			continue
		}
		stored := make([]byte, r.Length)
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(r.Pack)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.ReadAt(stored, r.Offset)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		body, err := publication.DecodeDoc(nil, stored, r.Encoding)
		if err != nil {
			t.Fatal(err)
		}
		var want, got schemas.SearchRecord
		if err := json.Unmarshal(body, &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeSearchRecord(body, &got); err != nil {
			t.Fatalf("%s: %v", r.Path, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: decoded differently from encoding/json", r.Path)
		}
		if back, _ := json.Marshal(&got); string(back) != string(body) {
			t.Errorf("%s: does not marshal back to the stored bytes", r.Path)
		}
		n++
	}
	if n < 5 {
		t.Fatalf("only %d search records in the fixtures' publication", n)
	}
	var rec schemas.SearchRecord
	if err := decodeSearchRecord([]byte(`{"id":"ent_1","name":`), &rec); err == nil {
		t.Error("a cut search record decoded")
	}
}
