package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// TestPublish_DeltaSitemapsMergedSameAsMade: a delta's sitemaps are the
// previous parts merged with the entries it rendered or removed (D121),
// and are byte for byte those a full publication of the same state makes
// from every listed entry: after a Companies House product that dissolved
// every 50th company, renamed every 37th and added one every 60th, in
// parts of 150 URLs.
func TestPublish_DeltaSitemapsMergedSameAsMade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run1 := synth.DefaultRunNow
	regs, state, site := compileSynth(t, dir, 1200, 5)
	var regs2 []string
	for _, f := range regs {
		if strings.Contains(f, "BasicCompanyData") {
			next := filepath.Join(dir, "next", filepath.Base(f))
			changeCompaniesHouse(t, f, next, 50, 37, "A")
			f = next
		}
		regs2 = append(regs2, f)
	}
	out, full := filepath.Join(dir, "out"), filepath.Join(dir, "full")
	const limit = 150
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: run1.Add(time.Minute), SitemapLimit: limit}); err != nil {
		t.Fatal(err)
	}
	run2 := run1.Add(24 * time.Hour)
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: regs2, Now: run2}); err != nil {
		t.Fatal(err)
	}
	delta, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: run2.Add(time.Minute), SitemapLimit: limit, Delta: true})
	if err != nil {
		t.Fatal(err)
	}
	if delta.Rendered == 0 || delta.Sitemaps != "merged" {
		t.Fatalf("the delta rendered %d entries and its sitemaps were %q, not merged", delta.Rendered, delta.Sitemaps)
	}
	made, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: full, Site: site, Now: run2.Add(time.Minute), SitemapLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	if made.Sitemaps != "made" {
		t.Fatalf("a full publication's sitemaps were %q", made.Sitemaps)
	}
	sitemaps := func(out string) map[string][]byte {
		pub, err := publication.Current(out)
		if err != nil {
			t.Fatal(err)
		}
		m, err := publication.ReadManifest(pub)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]byte{}
		for _, d := range m.Site {
			if listingFile(d.Path) && d.Path != "/awp/content/structure.json" {
				got[d.Path] = docBytes(t, pub, d)
			}
		}
		return got
	}
	merged, want := sitemaps(out), sitemaps(full)
	if len(want) < 5 {
		t.Fatalf("the full publication has %d sitemap files: too few parts to test a merge", len(want))
	}
	for path, b := range want {
		if !bytes.Equal(merged[path], b) {
			t.Errorf("%s: the delta's merged sitemap differs from the one made from every entry", path)
		}
	}
	if len(merged) != len(want) {
		t.Errorf("the delta has %d sitemap files, the full publication %d", len(merged), len(want))
	}
	// The merge saw renames, removals and new entries.
	if delta.Removed == 0 || !bytes.Contains(want["/sitemaps/sitemap-1.xml"], []byte("<url>")) {
		t.Errorf("the delta removed %d entries", delta.Removed)
	}
}

// compileSynth generates entries companies (seed) under dir and compiles
// them at synth.DefaultRunNow into dir/state: the register files, the
// state and the default site.
func compileSynth(t *testing.T, dir string, entries int, seed int64) ([]string, string, render.Site) {
	t.Helper()
	regs := synthRegisters(t, synth.Config{Entries: entries, Seed: seed, Out: filepath.Join(dir, "data"), RunNow: synth.DefaultRunNow, SiteSample: -1})
	state := filepath.Join(dir, "state")
	if _, err := Compile(context.Background(), CompileConfig{StateDir: state, Registers: regs, Now: synth.DefaultRunNow}); err != nil {
		t.Fatal(err)
	}
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	return regs, state, site
}

// TestPublish_DeltaOldSlugsSameAsFull: a delta writes the old slugs of
// the entries it changed or removed and keeps the rest of its copy's
// (issue 18), and its table holds the rows a full publication of the
// same state writes from every identity: over two deltas, the second
// renaming other companies than the first, whose old slugs it carries.
func TestPublish_DeltaOldSlugsSameAsFull(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run1 := synth.DefaultRunNow
	regs, state, site := compileSynth(t, dir, 600, 7)
	product := func(src, dst string, drop, rename int, tag string) []string {
		var out []string
		for _, f := range regs {
			if strings.Contains(f, "BasicCompanyData") {
				changeCompaniesHouse(t, src, dst, drop, rename, tag)
				f = dst
			}
			out = append(out, f)
		}
		return out
	}
	var ch string
	for _, f := range regs {
		if strings.Contains(f, "BasicCompanyData") {
			ch = f
		}
	}
	out := filepath.Join(dir, "out")
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: run1.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	next, next2 := filepath.Join(dir, "next", filepath.Base(ch)), filepath.Join(dir, "next2", filepath.Base(ch))
	steps := []struct {
		regs []string
		now  time.Time
	}{
		{product(ch, next, 50, 37, "A"), run1.Add(24 * time.Hour)},
		{product(next, next2, 1<<30, 41, "B"), run1.Add(48 * time.Hour)},
	}
	var before map[string]string
	for i, s := range steps {
		if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: s.regs, Now: s.now}); err != nil {
			t.Fatal(err)
		}
		delta, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: s.now.Add(time.Minute), Delta: true})
		if err != nil {
			t.Fatal(err)
		}
		if delta.Rendered == 0 || delta.Rendered > delta.Entries/2 {
			t.Fatalf("delta %d rendered %d of %d entries", i+1, delta.Rendered, delta.Entries)
		}
		full := filepath.Join(dir, fmt.Sprintf("full%d", i+1))
		if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: full, Site: site, Now: s.now.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		got, want := oldSlugsOf(t, out), oldSlugsOf(t, full)
		if len(want) == 0 || !maps.Equal(got, want) {
			t.Fatalf("delta %d: %d old slugs, the full publication %d (they differ)", i+1, len(got), len(want))
		}
		// The second delta renamed other entries: the first's old slugs
		// are still there, carried from its copy.
		for slug, id := range before {
			if got[slug] != id {
				t.Errorf("delta %d: old slug %s of %s is lost", i+1, slug, id)
			}
		}
		if before != nil && len(got) <= len(before) {
			t.Errorf("delta %d renamed no entry: %d old slugs, %d before", i+1, len(got), len(before))
		}
		before = got
	}
}

// oldSlugsOf are the old slugs of the current publication in out.
func oldSlugsOf(t *testing.T, out string) map[string]string {
	t.Helper()
	pub, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := publication.OpenRegistry(pub)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	got := map[string]string{}
	err = reg.OldSlugs(context.Background(), func(slug, id string) error {
		if got[slug] != "" {
			t.Errorf("old slug %s twice", slug)
		}
		got[slug] = id
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestStructure_FirstPagesOfEachSector: the content structure's sections
// (AWP-25) count every listed entry of a sector and list its first pages
// by slug, cut at the limit: the same as reading every listed entry in
// order, on 600 generated companies with a limit of 7.
func TestStructure_FirstPagesOfEachSector(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, state, site := compileSynth(t, dir, 600, 9)
	out := filepath.Join(dir, "out")
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: out, Site: site, Now: synth.DefaultRunNow.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	pub, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	db, err := export.CopyRegistryDB(filepath.Join(pub, publication.RegistryFile), filepath.Join(dir, "copy.duckdb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const limit = 7
	got, err := db.Structure(limit, func(sector string) string { return "T " + sector })
	if err != nil {
		t.Fatal(err)
	}
	reg := openRegistry(t, pub)
	defer reg.Close()
	rows := queryAll(t, reg, `SELECT coalesce(nullif(split_part(categories[1], '.', 1), ''), 'other'), coalesce(name, ''), slug, (coalesce(md_bytes, 0) + 3) // 4, array_to_string(categories, ' ')
		FROM entries WHERE listed AND status <> 'removed' ORDER BY 1, slug`)
	var want []schemas.StructureSection
	for _, r := range rows {
		sector := r[0].(string)
		if len(want) == 0 || want[len(want)-1].ID != sector {
			title := "Other"
			if sector != "other" {
				title = "T " + sector
			}
			want = append(want, schemas.StructureSection{ID: sector, Title: title})
		}
		sec := &want[len(want)-1]
		sec.Pages++
		tokens := int(r[3].(int64))
		sec.Tokens += tokens
		if len(sec.List) < limit {
			sec.List = append(sec.List, schemas.StructurePage{Title: r[1].(string), Path: "/" + r[2].(string) + ".md", Tokens: tokens, Tags: strings.Fields(r[4].(string))})
		}
	}
	full := 0
	for _, sec := range want {
		if sec.Pages > limit {
			full++
		}
	}
	if len(want) < 3 || full < 2 {
		t.Fatalf("%d sectors, %d of them over the limit: too few to test the cut", len(want), full)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("structure:\n%+v\nwant\n%+v", got, want)
	}
}

// TestMergeSitemapLines: the merge puts the run's lines among the
// previous ones in slug order, drops the lines of the slugs it replaces,
// cuts parts of the limit with each part's newest lastmod, and refuses
// (false, so the sitemaps are made again from every entry) a previous
// part not read, a line not as this engine writes it, and a count of
// lines other than the rows.
func TestMergeSitemapLines(t *testing.T) {
	const loc = "<url><loc>https://r.example/"
	line := func(slug, mod string) string {
		return loc + slug + "</loc><lastmod>2026-12-0" + mod + "T10:00:00Z</lastmod></url>\n"
	}
	prev := []string{line("a", "1") + line("b", "2") + line("c", "1"), line("d", "3") + line("e", "1")}
	adds := []sitemapLine{{"aa", line("aa", "4")}, {"c", line("c", "5")}, {"z", line("z", "1")}}
	seq := func(parts []string, ok bool) func(func(string, bool) bool) {
		return func(yield func(string, bool) bool) {
			for _, p := range parts {
				if !yield(p, ok) {
					return
				}
			}
		}
	}
	type part struct{ lines, newest string }
	run := func(parts []string, ok bool, drop map[string]bool, rows int64) ([]part, bool, error) {
		var got []part
		merged, err := mergeSitemapLines(seq(parts, ok), loc, 3, drop, adds, rows, func(body []byte, newest string) bool {
			lines, ok := urlsetLines(string(body))
			if !ok {
				t.Fatalf("a part is not a urlset: %q", body)
			}
			got = append(got, part{lines, newest})
			return true
		})
		return got, merged, err
	}
	got, merged, err := run(prev, true, map[string]bool{"c": true, "e": true}, 6)
	want := []part{{line("a", "1") + line("aa", "4") + line("b", "2"), "2026-12-04T10:00:00Z"},
		{line("c", "5") + line("d", "3") + line("z", "1"), "2026-12-05T10:00:00Z"}}
	if err != nil || !merged || !reflect.DeepEqual(got, want) {
		t.Fatalf("merged %v (%v):\n%q\nwant\n%q", merged, err, got, want)
	}
	// A dropped slug's every line goes (its languages' lines share it),
	// found by one cursor over the slugs in order.
	lang := func(slug, l, mod string) string {
		return loc + slug + "/" + l + "</loc><lastmod>2026-12-0" + mod + "T10:00:00Z</lastmod></url>\n"
	}
	got, merged, err = run([]string{line("a", "1") + lang("a", "de", "1") + line("b", "2") + lang("b", "de", "2") + line("d", "3")}, true,
		map[string]bool{"b": true, "bb": true, "0": true}, 6)
	want = []part{{line("a", "1") + lang("a", "de", "1") + line("aa", "4"), "2026-12-04T10:00:00Z"},
		{line("c", "5") + line("d", "3") + line("z", "1"), "2026-12-05T10:00:00Z"}}
	if err != nil || !merged || !reflect.DeepEqual(got, want) {
		t.Fatalf("dropping a slug's lines: merged %v (%v):\n%q\nwant\n%q", merged, err, got, want)
	}
	for name, c := range map[string]struct {
		parts []string
		ok    bool
		rows  int64
	}{
		"a part not read":         {prev, false, 6},
		"another count of rows":   {prev, true, 7},
		"a line without lastmod":  {[]string{loc + "a</loc></url>\n"}, true, 4},
		"a line of another site":  {[]string{strings.Replace(line("a", "1"), "r.example", "s.example", 1)}, true, 4},
		"a line without its end":  {[]string{strings.TrimSuffix(line("a", "1"), "\n")}, true, 4},
		"lines out of slug order": {[]string{line("b", "1") + line("a", "1")}, true, 5},
	} {
		if _, merged, err := run(c.parts, c.ok, map[string]bool{"c": true, "e": true}, c.rows); merged || err != nil {
			t.Errorf("%s: merged %v, %v", name, merged, err)
		}
	}
}
