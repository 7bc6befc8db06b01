package compile_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestClaimed_MD21_HolzwerkKrause compiles the contract's verified example
// from its sources: the register record (first run, at the record's
// retrieval), then the owner's revision and the domain verification events
// (second run, at the example's date). The markdown is §3.6 byte for byte
// and the JSON-LD is §4.3 by value.
func TestClaimed_MD21_HolzwerkKrause(t *testing.T) {
	ids := seededIdentities(t)
	rec := orRecord(t, "99901")
	id, _ := ids.ByKey(rec.Key)
	c := newCompiler()

	first := c.Unclaimed(rec, nil, id, nil, rec.RetrievedAt)
	if first.Record.Revision != 41 || first.Status != schemas.StatusUnclaimed {
		t.Fatalf("first run: revision %d, status %s", first.Record.Revision, first.Status)
	}

	data, err := os.ReadFile("../fixtures/compile/inbox/holzwerk-krause.json")
	if err != nil {
		t.Fatal(err)
	}
	decl, issues := compile.ReadOwnerRevision("holzwerk-krause.json", data)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	if decl.BasedOn != first.Record.Revision {
		t.Fatalf("the declaration is based on %d, the entry is at %d", decl.BasedOn, first.Record.Revision)
	}
	f, _ := os.Open("../fixtures/compile/verification.jsonl")
	defer f.Close()
	evs, bad := compile.ReadEvents(f, "verification.jsonl")
	if len(bad) > 0 {
		t.Fatal(bad)
	}
	now := time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)
	e := c.Claimed(decl, rec, nil, id, first, evs, now)
	b, _ := json.Marshal(e)
	if _, issues := schemas.Validate(b); len(issues) > 0 {
		t.Fatalf("the merged entry does not validate:\n%v", issues)
	}
	s := renderSite(t)
	if got, want := render.Markdown(e, "de", s), fixtures.Spec("holzwerk-krause.de.md"); !bytes.Equal(got, want) {
		t.Errorf("merged markdown differs from §3.6:\n%s", got)
	}
	var gotLD, wantLD any
	_ = json.Unmarshal(render.JSONLD(e, s), &gotLD)
	_ = json.Unmarshal(fixtures.Spec("holzwerk-krause.jsonld"), &wantLD)
	if !reflect.DeepEqual(gotLD, wantLD) {
		t.Error("merged JSON-LD differs from §4.3")
	}
	// The same declaration and events again change nothing.
	if again := c.Claimed(decl, rec, nil, id, e, evs, now.Add(time.Hour)); again != e {
		t.Errorf("recompiling issued revision %d", again.Record.Revision)
	}
}

func TestChangedSince(t *testing.T) {
	err := error(&compile.ChangedSince{EntryID: "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", BasedOn: 40, Current: 41})
	var cs *compile.ChangedSince
	if !errors.As(err, &cs) || cs.Current != 41 {
		t.Fatal(err)
	}
}
