package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

type updatesFile struct {
	LastSync string `json:"last_sync"`
	Changes  []struct {
		Type, ID, Timestamp, Path, Title string
		TokenCount                       *int `json:"token_count"`
		Seq                              int64
	} `json:"changes"`
	HasMore bool   `json:"has_more"`
	Next    string `json:"next"`
}

// readUpdates reads updates.json of a publication and follows next to
// the end, checking each page on the way: has_more exactly when next is
// given and published, consecutive sequence numbers, a page's worth on
// every numbered page. It gives the files in the order read and the
// sequence numbers seen.
func readUpdates(t *testing.T, pub string, size int) ([]updatesFile, map[int64]bool) {
	t.Helper()
	var files []updatesFile
	seen := map[int64]bool{}
	path := render.AWPUpdatesPath
	for path != "" {
		body, _ := doc(t, pub, path)
		var f updatesFile
		if err := json.Unmarshal(body, &f); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if f.HasMore != (f.Next != "") {
			t.Fatalf("%s: has_more %v with next %q", path, f.HasMore, f.Next)
		}
		if path != render.AWPUpdatesPath && len(f.Changes) != size {
			t.Fatalf("%s: %d changes, want a page of %d", path, len(f.Changes), size)
		}
		for i, c := range f.Changes {
			if i > 0 && c.Seq != f.Changes[i-1].Seq+1 {
				t.Fatalf("%s: seq %d after %d", path, c.Seq, f.Changes[i-1].Seq)
			}
			if c.Type == "" || c.ID == "" || c.Timestamp == "" || !strings.HasSuffix(c.Path, ".md") || c.TokenCount == nil {
				t.Fatalf("%s: change %+v lacks an AWP-32 field", path, c)
			}
			if c.Type != "removed" && (c.Title == "" || *c.TokenCount <= 0 || "/"+c.Title+".md" == c.Path) {
				t.Fatalf("%s: change %+v: the title must be the entry's name and token_count its estimate", path, c)
			}
			seen[c.Seq] = true
		}
		files = append(files, f)
		path = f.Next
	}
	return files, seen
}

// TestPublish_AWPUpdates_AWP32_AWP33: the AWP updates file keeps the latest
// changes across publications (a delta without changes still shows them,
// never changes: [] with has_more: true), pages back through numbered
// pages to the oldest, every page it names is published (has_more only
// then), and each change carries the fields AWP-32 lists, its title the
// entry's name, not its slug.
func TestPublish_AWPUpdates_AWP32_AWP33(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	const size = 25
	at := time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)
	publish := func(now time.Time, delta bool) (*PublishReport, string) {
		t.Helper()
		rep, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: now, Delta: delta, UpdatesPageSize: size})
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := publication.Current(out)
		if _, err := publication.Verify(pub); err != nil {
			t.Fatal(err)
		}
		return rep, pub
	}
	// every checks that the updates file and its pages hold every change
	// 1..last, and that the first file holds the newest page's worth.
	every := func(pub string, last int64) []updatesFile {
		t.Helper()
		files, seen := readUpdates(t, pub, size)
		for s := int64(1); s <= last; s++ {
			if !seen[s] {
				t.Fatalf("%s: change %d is on no page", pub, s)
			}
		}
		first := files[0].Changes
		if n := len(first); (last >= size && n < size) || n == 0 || first[n-1].Seq != last {
			t.Fatalf("updates.json: %d changes ending at %d, want the latest (at least %d) ending at %d", n, first[n-1].Seq, min(last, size), last)
		}
		if files[len(files)-1].HasMore {
			t.Fatal("the last page says has_more")
		}
		return files
	}

	full, pub1 := publish(at, false)
	last := full.Entries // one created change per entry
	if last < 3*size {
		t.Fatalf("the examples make %d changes, too few to page by %d", last, size)
	}
	files := every(pub1, last)
	if len(files) != int(last/size) {
		t.Errorf("updates.json and %d pages, want %d files", len(files)-1, last/size)
	}
	hk := false
	for _, c := range files[0].Changes {
		hk = hk || c.Title == "Holzwerk Krause"
	}
	for _, f := range files[1:] {
		for _, c := range f.Changes {
			hk = hk || c.Title == "Holzwerk Krause"
		}
	}
	if !hk {
		t.Error("no change titled Holzwerk Krause")
	}

	// A delta with no changes: the latest changes are still there.
	none, pub2 := publish(at.Add(time.Minute), true)
	if none.Rendered != 0 {
		t.Fatalf("a delta without changes rendered %d", none.Rendered)
	}
	every(pub2, last)
	for n := int64(1); n <= last/size; n++ {
		if _, d := doc(t, pub2, render.AWPUpdatesPagePath(n)); d.Pack == publication.OwnPack(none.ID) {
			t.Errorf("the delta wrote page %d again", n)
		}
	}

	// A delta with changes: the noindex windows end, entries are
	// re-issued; the pages that became full are written, the others kept.
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Now: time.Date(2026, 11, 10, 3, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	changed, pub3 := publish(time.Date(2026, 11, 10, 3, 1, 0, 0, time.UTC), true)
	m3, _ := publication.ReadManifest(pub3)
	if m3.FeedLast <= last {
		t.Fatalf("the delta recorded no changes: %+v", changed)
	}
	files = every(pub3, m3.FeedLast)
	if files[0].LastSync != "2026-11-10T03:01:00Z" {
		t.Errorf("last_sync %s", files[0].LastSync)
	}
	if _, d := doc(t, pub3, render.AWPUpdatesPagePath(m3.FeedLast/size)); last/size != m3.FeedLast/size && d.Pack != publication.OwnPack(changed.ID) {
		t.Error("the page that became full was not written by the delta")
	}

	// The nightly publication writes the pages again, the same chain.
	night, pub4 := publish(time.Date(2026, 11, 10, 4, 0, 0, 0, time.UTC), false)
	every(pub4, m3.FeedLast)
	if _, d := doc(t, pub4, render.AWPUpdatesPagePath(1)); d.Pack != publication.OwnPack(night.ID) {
		t.Error("the nightly publication kept the old page 1")
	}
}
