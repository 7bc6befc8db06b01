package pipeline

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// TestPublish_RoutingFile follows the private routing file (issue 15,
// D75) through the publications of the contract's examples: a full
// publication writes where Holzwerk Krause's requests go outside its
// folder, not in it; a delta that renders nothing and a full publication
// that reuses every entry carry the addresses over; a current publication
// without its routing file is not reused (every entry is rendered again,
// so no older pack is carried on); Prune deletes the routing files with
// their publications and any whose publication is gone.
func TestPublish_RoutingFile(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	const hkID = "ent_01k8r2m5n7p9q3s4t6v8w0x2yz"
	hk, err := st.Revision(ctx, hkID, 0)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := hk.DeliveryAddresses()
	if len(want) == 0 {
		t.Fatal("Holzwerk Krause has no delivery address to route")
	}
	now := time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)
	routing := func(name string) *publication.Routing {
		t.Helper()
		cur, err := publication.Current(out)
		if err != nil {
			t.Fatal(err)
		}
		r, err := publication.ReadRouting(publication.RoutingPathOf(cur), filepath.Base(cur))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := r.Entries[hkID]; !maps.Equal(got, want) {
			t.Errorf("%s: Holzwerk Krause routed to %v, want %v", name, got, want)
		}
		return r
	}
	full, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	routing("full")
	if _, err := os.Stat(filepath.Join(out, publication.PublicationsDir, full.ID, "private")); err == nil {
		t.Error("the routing is inside the publication's folder")
	}
	delta, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now.Add(time.Minute), Delta: true})
	if err != nil {
		t.Fatal(err)
	}
	if delta.Rendered != 0 {
		t.Fatalf("a delta with no change rendered %d entries", delta.Rendered)
	}
	routing("delta")
	night, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now.Add(2 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if night.Rendered != 0 || night.Reused != full.Entries {
		t.Fatalf("the full publication after: %+v, want every entry reused", night)
	}
	routing("full, reused")
	// Without the current publication's routing file nothing is reused.
	if err := os.Remove(publication.RoutingPath(out, night.ID)); err != nil {
		t.Fatal(err)
	}
	again, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now.Add(3 * time.Minute), Delta: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Rendered != again.Entries || again.Reused != 0 {
		t.Fatalf("after a lost routing file: %+v, want every entry rendered", again)
	}
	routing("after a lost routing file")
	m, err := publication.Verify(filepath.Join(out, publication.PublicationsDir, again.ID))
	if err != nil {
		t.Fatal(err)
	}
	if m.Delta || len(m.Packs) != 1 {
		t.Errorf("after a lost routing file: delta %v, packs %v; want one full publication with its own pack", m.Delta, m.Packs)
	}
	// Prune: the routing files go with their publications; an orphan goes.
	orphan := &publication.Routing{Publication: "pub_01zzzzzzzzzzzzzzzzzzzzzzzz"}
	if err := publication.WriteRouting(out, orphan); err != nil {
		t.Fatal(err)
	}
	gone, err := Prune(out, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 3 {
		t.Fatalf("pruned %v, want 3 publications", gone)
	}
	ids, err := publication.RoutingIDs(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 1 || ids[0] != again.ID {
		t.Errorf("routing files after Prune: %v, want only %s", ids, again.ID)
	}
}
