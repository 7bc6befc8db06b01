package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestRender_MD_SpecExamplesFromCLI runs the commands the issue names and
// compares their output with the contract's examples (§3.6, §3.7 byte for
// byte; §4.3 by value is in the render package).
func TestRender_MD_SpecExamplesFromCLI(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "--format", "md", "--lang", "de", "../../fixtures/entries/holzwerk-krause.json"}, "holzwerk-krause.de.md"},
		{[]string{"render", "--format", "md", "../../fixtures/entries/schreinerei-beispiel.json"}, "schreinerei-beispiel.de.md"},
	} {
		code, out, errs := runCLI(tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		if out != string(fixtures.Spec(tc.want)) {
			t.Errorf("%v differs from the contract's example", tc.args)
		}
	}
}

func TestRender_Flags(t *testing.T) {
	hk := "../../fixtures/entries/holzwerk-krause.json"
	code, out, _ := runCLI("render", "--format", "md", "--sections", "capacity,legal", hk)
	if code != 0 || !strings.Contains(out, "## Capacity") || strings.Contains(out, "## Offerings") || !strings.Contains(out, "## Provenance") {
		t.Errorf("--sections capacity,legal: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("render", "--format", "view", "--site-url", "http://localhost:8080", hk)
	if code != 0 || !strings.Contains(out, `"html":"http://localhost:8080/holzwerk-krause"`) {
		t.Errorf("--site-url localhost: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("render", "--format", "md", "--site-url", "https://registry.test", hk)
	if code != 0 || !strings.Contains(out, "api: https://api.registry.test/v1/entries/") || !strings.Contains(out, "mcp: https://mcp.registry.test/mcp") {
		t.Errorf("derived hosts: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{
		{"render", "--format", "pdf", hk},
		{"render", "--sections", "nope", hk},
		{"render", "--site-url", "http://daawid.example", hk},
		{"render"},
		{"nosuchcommand"},
	} {
		if code, _, errs := runCLI(bad...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", bad, code, errs)
		}
	}
}

// TestValidate_PathsOfEveryMistake checks that validate prints every
// mistake with the file and its JSON pointer, and exits 1.
func TestValidate_PathsOfEveryMistake(t *testing.T) {
	dir := t.TempDir()
	bad := strings.Replace(string(fixtures.EntryJSON("holzwerk-krause.json")), `"690.00"`, `"690.0"`, 1)
	bad = strings.Replace(bad, `"status": "limited"`, `"status": "busy"`, 1)
	path := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI("validate", "../../fixtures/entries/holzwerk-krause.json", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{
		path + ": /offerings/2/price/min: must have two decimals",
		path + ": /capacity/status: busy is not one of",
		"1 of 2 file(s) have mistakes",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if code, out, _ := runCLI(append([]string{"validate"}, fixturePaths(t)...)...); code != 0 {
		t.Errorf("the fixtures do not validate:\n%s", out)
	}
}

func fixturePaths(t *testing.T) []string {
	var out []string
	for _, n := range fixtures.EntryNames() {
		out = append(out, "../../fixtures/entries/"+n)
	}
	return out
}

// TestDemo_MainJob runs the README's main job on the embedded default: the
// contract's Holzwerk Krause comes out of its sources, §3.6 byte for byte,
// in the static tree of a verified publication.
func TestDemo_MainJob(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCLI("demo", "--once", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "published 82 entries") {
		t.Errorf("report: %s", out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "static", "holzwerk-krause.md"))
	if err != nil || string(got) != string(fixtures.Spec("holzwerk-krause.de.md")) {
		t.Errorf("the demo's holzwerk-krause.md differs from §3.6 (%v)", err)
	}
	got, err = os.ReadFile(filepath.Join(dir, "static", "schreinerei-beispiel.md"))
	if err != nil || string(got) != string(fixtures.Spec("schreinerei-beispiel.de.md")) {
		t.Errorf("the demo's schreinerei-beispiel.md differs from §3.7 (%v)", err)
	}
}

// TestVersion: daawid version names the engine and the spec version a
// publication records (its manifest's engine and specVersion), and a
// build's commit line.
func TestVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"engine  " + render.EngineVersion + "\n", "spec    " + schemas.SchemaVersion + "\n", "\ncommit  "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("daawid version does not say %q:\n%s", want, out.String())
		}
	}
	if code := run([]string{"version", "extra"}, &out, &errOut); code != 2 {
		t.Errorf("daawid version extra: exit %d, want 2", code)
	}
}

// TestPipelineRun_MissingInputExits1: a nightly cron sees a failed night
// as one: `pipeline run` with a register file that is not there exits 1,
// names the file on stderr, and leaves no publication behind (README,
// "Exit status").
func TestPipelineRun_MissingInputExits1(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.csv")
	code, _, errs := runCLI("pipeline", "run", "--state", filepath.Join(dir, "state"), "--out", filepath.Join(dir, "out"),
		"--register", missing, "--now", "2026-10-02T04:00:00Z")
	if code != 1 || !strings.Contains(errs, missing) {
		t.Fatalf("exit %d, stderr %q; want 1 and the file named", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "current")); err == nil {
		t.Error("a failed run made a publication current")
	}
}
