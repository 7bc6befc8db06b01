package query

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// TestLayers_D71_DeltaSharesTheFullIndex: after a delta publication the
// server shares the full index with the publication before and reads
// only the deltas; what it serves equals the chain resolved row by row
// (publication.ResolveDocs), for the shared layers and a fresh open alike.
func TestLayers_D71_DeltaSharesTheFullIndex(t *testing.T) {
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	arch, err := pipeline.OpenArchive("../fixtures/websites", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	ctx := context.Background()
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	if _, err := pipeline.Compile(ctx, pipeline.CompileConfig{StateDir: state, Sites: arch, Seed: "../fixtures/compile/identity-seed.json",
		Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl", "../fixtures/registers/companies-house-sample.csv"}, Now: now}); err != nil {
		t.Fatal(err)
	}
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if _, err := pipeline.Publish(ctx, pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	snaps, err := OpenSnapshots(out)
	if err != nil {
		t.Fatal(err)
	}
	defer snaps.Close()
	first := snaps.Acquire()
	base := first.ix.base
	first.Release()
	// Two deltas: report windows opened on a few entries each time.
	for i := 1; i <= 2; i++ {
		at := now.Add(time.Duration(i) * time.Hour)
		events := filepath.Join(dir, "events.jsonl")
		if err := pipeline.ReportEvents(state, events, 5*i, at); err != nil {
			t.Fatal(err)
		}
		if _, err := pipeline.Compile(ctx, pipeline.CompileConfig{StateDir: state, Verification: []string{events}, Now: at.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if _, err := pipeline.Publish(ctx, pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Now: at.Add(2 * time.Minute), Delta: true}); err != nil {
			t.Fatal(err)
		}
		if swapped, err := snaps.Refresh(); err != nil || !swapped {
			t.Fatalf("refresh %d: %v %v", i, swapped, err)
		}
	}
	sn := snaps.Acquire()
	defer sn.Release()
	if sn.ix.base != base || sn.ix.top == nil || len(sn.Manifest.Index) != 3 {
		t.Fatalf("the delta did not share the full index (%d indexes)", len(sn.Manifest.Index))
	}
	fresh, err := OpenSnapshot(sn.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.close()
	want, err := publication.ReadDocs(sn.Dir, &sn.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, s := range []*Snapshot{sn, fresh} {
		for _, w := range want {
			var got publication.DocRow
			var ok bool
			switch {
			case w.Kind == publication.KindSite || (w.Path != "" && w.Kind != render.KindView):
				got, ok = s.Doc(w.Path)
			default:
				got, ok = s.EntryDoc(w.EntryID, w.Kind, w.Lang)
			}
			if !ok || !sameRow(&got, &w) {
				t.Fatalf("%s %s/%s: got %+v, want %+v", w.EntryID, w.Kind, w.Lang, got, w)
			}
			if w.Revision > 1 && w.Kind == render.KindMarkdown {
				changed++
			}
		}
		if s.Len() != len(want) {
			t.Errorf("serves %d documents, the chain %d", s.Len(), len(want))
		}
	}
	if changed == 0 {
		t.Error("no entry changed in the deltas")
	}
}
