package pipeline

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// TestPublish_KindsAreTheFormatTable: the publication's document kinds
// are the table of formats (render.Table) and nothing else. For every
// entry of a publication of the compiled examples, its index rows (kind,
// language, path, media type, length) are exactly the documents
// render.Documents makes of the entry's revision, in the same order; every
// other row is a registry-level file; and every row of the table that
// applies to some example entry is published.
func TestPublish_KindsAreTheFormatTable(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	out := t.TempDir()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	pub, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := publication.ReadPublicationDocs(pub)
	if err != nil {
		t.Fatal(err)
	}
	byEntry := map[string][]string{}
	for _, d := range docs {
		if d.Kind == publication.KindSite {
			if d.EntryID != "" {
				t.Errorf("registry-level file %s names entry %s", d.Path, d.EntryID)
			}
			continue
		}
		if _, ok := render.FormatByName(d.Kind); !ok {
			t.Errorf("%s: kind %q is not a row of render.Table", d.EntryID, d.Kind)
		}
		byEntry[d.EntryID] = append(byEntry[d.EntryID], fmt.Sprintf("%s|%s|%s|%s|%d", d.Kind, d.Lang, d.Path, d.MediaType, d.DecodedLength()))
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, rows, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	var live []*EntryRow
	for _, r := range rows {
		if !r.Removed {
			live = append(live, r)
		}
	}
	entries, err := st.Revisions(live)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(byEntry) || len(entries) < 80 {
		t.Fatalf("%d entries in the state, %d with documents in the publication", len(entries), len(byEntry))
	}
	seen := map[string]bool{}
	for id, e := range entries {
		made, _ := render.Documents(e, site)
		var want []string
		for _, d := range made {
			want = append(want, fmt.Sprintf("%s|%s|%s|%s|%d", d.Kind, d.Lang, d.Path, d.MediaType, len(d.Body)))
			seen[d.Kind] = true
		}
		if !slices.Equal(byEntry[id], want) {
			t.Errorf("%s: the publication holds\n%v\nrender.Documents makes\n%v", id, byEntry[id], want)
		}
	}
	for _, f := range render.Table {
		if !seen[f.Name] && f.Name != render.KindPrivacy {
			t.Errorf("no example entry has a %s document: the test no longer covers that row", f.Name)
		}
	}
}
