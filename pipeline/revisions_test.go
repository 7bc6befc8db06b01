package pipeline

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/schemas"
)

// TestDecodeRevision_SameAsEncodingJSON holds the faster decoder of stored
// revisions (D119) to encoding/json's: every fixture entry, as the
// pipeline stores it, decodes into the same value, and marshals back to
// the same bytes.
func TestDecodeRevision_SameAsEncodingJSON(t *testing.T) {
	entries := fixtures.Entries()
	if len(entries) < 5 {
		t.Fatalf("only %d fixture entries", len(entries))
	}
	for _, e := range entries {
		stored, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var want, got schemas.Entry
		if err := json.Unmarshal(stored, &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeRevision(stored, &got); err != nil {
			t.Fatalf("%s: %v", e.Slug, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: decoded differently from encoding/json", e.Slug)
		}
		if back, _ := json.Marshal(&got); string(back) != string(stored) {
			t.Errorf("%s: does not marshal back to the stored bytes", e.Slug)
		}
	}
	// A revision that is not JSON is refused, not half read.
	var e schemas.Entry
	if err := decodeRevision([]byte(`{"id":"ent_1","slug":`), &e); err == nil {
		t.Error("a cut revision decoded")
	}
}
