package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// TestRegistryPrecopy_TakenOnlyWhenItsSource: the copy a delta run makes
// ahead is moved into place (the same file, not copied again) when it is
// of the registry the delta copies; of another registry it is removed and
// a copy of the right one made; one nothing takes is removed (D128).
func TestRegistryPrecopy_TakenOnlyWhenItsSource(t *testing.T) {
	out := t.TempDir()
	pubA, pubB := filepath.Join(out, publication.PublicationsDir, "pub_a"), filepath.Join(out, publication.PublicationsDir, "pub_b")
	for i, d := range []string{pubA, pubB} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, publication.RegistryFile), bytes.Repeat([]byte{byte('a' + i)}, 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := publication.Swap(out, filepath.Join(publication.PublicationsDir, "pub_a")); err != nil {
		t.Fatal(err)
	}
	srcA, srcB := filepath.Join(pubA, publication.RegistryFile), filepath.Join(pubB, publication.RegistryFile)
	want := func(dst, src string) {
		t.Helper()
		if !bytes.Equal(readAll(t, dst), readAll(t, src)) {
			t.Errorf("%s is not a copy of %s", dst, src)
		}
		if _, err := os.Stat(precopyPath(out)); !os.IsNotExist(err) {
			t.Errorf("the copy made ahead is still there (%v)", err)
		}
	}

	c := startRegistryPrecopy(out)
	if c == nil {
		t.Fatal("no copy started over a current publication")
	}
	if err := c.wait(); err != nil {
		t.Fatal(err)
	}
	if got, w := readAll(t, precopyPath(out)), readAll(t, srcA); !bytes.Equal(got, w) {
		t.Fatal("the copy made ahead is not a copy of the current registry")
	}
	// Marked, to tell the copy made ahead from one made by take.
	if err := os.WriteFile(precopyPath(out), []byte("made ahead"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "taken.duckdb")
	if err := c.take(srcA, dst); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(dst); string(got) != "made ahead" {
		t.Errorf("the registry was copied again instead of the copy made ahead moved (%d bytes)", len(got))
	}
	if _, err := os.Stat(precopyPath(out)); !os.IsNotExist(err) {
		t.Errorf("the copy made ahead is still there (%v)", err)
	}

	c = startRegistryPrecopy(out)
	other := filepath.Join(t.TempDir(), "other.duckdb")
	if err := c.take(srcB, other); err != nil {
		t.Fatal(err)
	}
	want(other, srcB)

	c = startRegistryPrecopy(out)
	c.discard()
	if _, err := os.Stat(precopyPath(out)); !os.IsNotExist(err) {
		t.Errorf("a copy nothing took is still there (%v)", err)
	}
	var none *registryPrecopy
	third := filepath.Join(t.TempDir(), "third.duckdb")
	if err := none.take(srcA, third); err != nil {
		t.Fatal(err)
	}
	want(third, srcA)
}

// TestRun_DeltaWithPrecopySameAsPublish: a delta run, whose copy of the
// registry database is made during its compile, publishes the same
// registry database and a publication that verifies, as a compile and a
// delta publication run one after the other (D128).
func TestRun_DeltaWithPrecopySameAsPublish(t *testing.T) {
	ctx := context.Background()
	state := compileExamples(t)
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	base := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	root := t.TempDir()
	outs := []string{filepath.Join(root, "run"), filepath.Join(root, "publish")}
	states := []string{state, filepath.Join(root, "state2")}
	if _, err := Publish(ctx, PublishConfig{StateDir: state, OutDir: outs[0], Site: site, Now: base}); err != nil {
		t.Fatal(err)
	}
	copyTree(t, state, states[1])
	copyTree(t, outs[0], outs[1])
	events := filepath.Join(root, "events.jsonl")
	at := base.Add(10 * time.Minute)
	if err := ReportEvents(state, events, 2, at); err != nil {
		t.Fatal(err)
	}
	run, err := Run(ctx, RunConfig{Compile: CompileConfig{StateDir: states[0], Verification: []string{events}, Now: at.Add(time.Minute)},
		Publish: PublishConfig{StateDir: states[0], OutDir: outs[0], Site: site, Delta: true}}, "delta")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(ctx, CompileConfig{StateDir: states[1], Verification: []string{events}, Now: at.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	pub, err := Publish(ctx, PublishConfig{StateDir: states[1], OutDir: outs[1], Site: site, Now: at.Add(time.Minute), Delta: true})
	if err != nil {
		t.Fatal(err)
	}
	if run.Publish == nil || run.Publish.Rendered == 0 || run.Publish.Rendered != pub.Rendered {
		t.Fatalf("rendered: run %+v, publish %d; want the same, some", run.Publish, pub.Rendered)
	}
	var tables [2]string
	for i, out := range outs {
		cur, err := publication.Current(out)
		if err != nil {
			t.Fatal(err)
		}
		m, err := publication.Verify(cur)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !m.Delta {
			t.Fatalf("%s: not a delta", out)
		}
		reg := openRegistry(t, cur)
		if err := reg.QueryRow(`SELECT string_agg(entry_id || ' ' || revision || ' ' || status || ' ' || coalesce(etag, ''), ',' ORDER BY entry_id) FROM entries`).Scan(&tables[i]); err != nil {
			t.Fatal(err)
		}
		reg.Close()
		if _, err := os.Stat(precopyPath(out)); !os.IsNotExist(err) {
			t.Errorf("%s: the copy made ahead is left (%v)", out, err)
		}
	}
	if tables[0] != tables[1] || tables[0] == "" {
		t.Errorf("the run's registry entries differ from the publication's:\n%s\n%s", tables[0], tables[1])
	}
}

// copyTree copies a folder, its links as links.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		default:
			copyFile(t, path, to)
			return nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
