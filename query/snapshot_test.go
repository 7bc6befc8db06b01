package query_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// publishExamples publishes the register samples and saved websites,
// without the server's indexes (query.PublishFixtures).
func publishExamples(t *testing.T) (state, out string, site render.Site) {
	return query.PublishFixtures(t, false)
}

// The server opens the current publication, finds documents by path and
// by entry, and reads their bytes from the packs: §3.7 byte for byte.
func TestSnapshot_OpenAndFind(t *testing.T) {
	_, out, _ := publishExamples(t)
	snaps, err := query.OpenSnapshots(out)
	if err != nil {
		t.Fatal(err)
	}
	defer snaps.Close()
	sn := snaps.Acquire()
	defer sn.Release()
	d, ok := sn.Doc("/schreinerei-beispiel.md")
	if !ok {
		t.Fatal("no /schreinerei-beispiel.md")
	}
	b, err := sn.Bytes(d)
	if err != nil || !bytes.Equal(b, fixtures.Spec("schreinerei-beispiel.de.md")) {
		t.Fatalf("/schreinerei-beispiel.md differs from §3.7 (%v)", err)
	}
	if d.ETag == "" || d.MediaType != "text/markdown; charset=utf-8" {
		t.Errorf("document row %+v", d)
	}
	if _, ok := sn.EntryDoc("ent_01k8r3a0b1c2d3e4f5g6h7j8k9", render.KindView, "de"); !ok {
		t.Error("no view of Schreinerei Beispiel in de")
	}
	if _, ok := sn.Doc("/llms.txt"); !ok {
		t.Error("no /llms.txt")
	}
	if _, ok := sn.Doc("/no-such-entry.md"); ok {
		t.Error("an unknown path was found")
	}
}

// A swap while requests read drops none: readers keep the snapshot they
// took until they release it, new requests get the new one, and an old
// snapshot's files close after its last reader. A publication that cannot
// be opened leaves the current one serving.
func TestSnapshots_SwapUnderLoadDropsNothing(t *testing.T) {
	state, out, site := publishExamples(t)
	snaps, err := query.OpenSnapshots(out)
	if err != nil {
		t.Fatal(err)
	}
	defer snaps.Close()
	first := snaps.Acquire()
	firstID := first.Manifest.ID
	first.Release()
	stop := make(chan struct{})
	var reads, failures atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				sn := snaps.Acquire()
				d, ok := sn.Doc("/holzwerk-krause.md")
				if !ok {
					failures.Add(1)
				} else if b, err := sn.Bytes(d); err != nil || int64(len(b)) != d.DecodedLength() || !bytes.HasPrefix(b, []byte("---\n")) {
					failures.Add(1)
				}
				sn.Release()
				reads.Add(1)
			}
		}()
	}
	ctx := context.Background()
	for i := 1; i <= 3; i++ {
		now := time.Date(2026, 11, 10, 3, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
		if _, err := pipeline.Compile(ctx, pipeline.CompileConfig{StateDir: state, Now: now}); err != nil {
			t.Fatal(err)
		}
		if _, err := pipeline.Publish(ctx, pipeline.PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now.Add(time.Minute), Delta: i%2 == 0}); err != nil {
			t.Fatal(err)
		}
		swapped, err := snaps.Refresh()
		if err != nil || !swapped {
			t.Fatalf("refresh %d: swapped %v, %v", i, swapped, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if failures.Load() != 0 || reads.Load() < 10 {
		t.Fatalf("%d of %d reads failed during the swaps", failures.Load(), reads.Load())
	}
	cur := snaps.Acquire()
	if cur.Manifest.ID == firstID {
		t.Fatal("still on the first publication")
	}
	cur.Release()
	// A broken newer publication: the current one keeps serving.
	pub, _ := publication.Current(out)
	broken := filepath.Join(out, "publications", "pub_broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(broken, "manifest.json"), []byte("{not json"), 0o644)
	os.Remove(filepath.Join(out, "current"))
	os.Symlink(filepath.Join("publications", "pub_broken"), filepath.Join(out, "current"))
	if _, err := snaps.Refresh(); err == nil {
		t.Fatal("a broken publication was taken")
	}
	sn := snaps.Acquire()
	defer sn.Release()
	if sn.Dir != pub {
		t.Fatalf("serving %s after a failed refresh, want %s", sn.Dir, pub)
	}
	if _, ok := sn.Doc("/holzwerk-krause.md"); !ok {
		t.Fatal("the current snapshot stopped serving")
	}
}

// TestEntryAnswer_Markdown_TOOL: get_entry's text is the bytes of
// /{slug}.md in the answer's language, and get_entry_sections' that
// document with only the sections asked for (§7.4).
func TestEntryAnswer_Markdown_TOOL(t *testing.T) {
	_, out, site := publishExamples(t)
	snaps, err := query.OpenSnapshots(out)
	if err != nil {
		t.Fatal(err)
	}
	defer snaps.Close()
	svc := query.NewService(snaps, site)
	rd, err := svc.Begin(time.Date(2026, 10, 2, 5, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.End()
	a, err := rd.Entry(query.EntryInput{Slug: "schreinerei-beispiel"})
	if err != nil {
		t.Fatal(err)
	}
	md, err := a.Markdown()
	if err != nil || !bytes.Equal(md, fixtures.Spec("schreinerei-beispiel.de.md")) {
		t.Fatalf("get_entry's text is not /schreinerei-beispiel.md (%v)", err)
	}
	a, err = rd.Entry(query.EntryInput{Slug: "schreinerei-beispiel", Sections: []string{"legal"}})
	if err != nil {
		t.Fatal(err)
	}
	cut, _ := a.Markdown()
	if want := render.SelectMarkdownSections(md, []schemas.SectionKey{"legal"}); !bytes.Equal(cut, want) || bytes.Contains(cut, []byte("## Facts")) || !bytes.Contains(cut, []byte("## Legal")) {
		t.Errorf("sections text:\n%s", cut)
	}
}
