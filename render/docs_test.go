package render_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// docsByPath renders the documentation pages and gives them by path.
func docsByPath(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, d := range render.DocsPages(testSite(t)) {
		out[d.Path] = d.Body
	}
	return out
}

// TestDocs_DISC06_EveryLLMSTxtDocIsPublished: every doc llms.txt links
// is a registry page, as markdown and as a page for people (DISC-06),
// and so is the price list it links (PRIV-25).
func TestDocs_DISC06_EveryLLMSTxtDocIsPublished(t *testing.T) {
	site := testSite(t)
	published := map[string]bool{}
	for _, d := range render.RegistryPages(site) {
		published[d.Path] = true
	}
	llms := string(render.LLMSTxt(site))
	for _, want := range []string{"/docs/data-contract.md", "/docs/entry-schema.md", "/docs/identifiers.md", "/docs/verification.md", "/docs/prices.md"} {
		if !strings.Contains(llms, site.BaseURL+want+")") {
			t.Errorf("llms.txt does not link %s", want)
		}
		if !published[want] || !published[strings.TrimSuffix(want, ".md")] {
			t.Errorf("%s or its page is not a registry page", want)
		}
	}
	if !published[render.SchemaIndexPath] {
		t.Errorf("PRIV-02: %s is not a registry page", render.SchemaIndexPath)
	}
}

// TestDocs_PRIV02_DataContractIsThePublishedText: the data contract
// page holds the contract's text unchanged and says it is CC BY 4.0
// (PRIV-02, DISC-06).
func TestDocs_PRIV02_DataContractIsThePublishedText(t *testing.T) {
	text, err := os.ReadFile("contract/data-contract-0.1.txt")
	if err != nil {
		t.Fatal(err)
	}
	md := string(docsByPath(t)["/docs/data-contract.md"])
	if !strings.Contains(md, strings.TrimRight(string(text), "\n")) {
		t.Error("the contract's text is not in /docs/data-contract.md unchanged")
	}
	for _, want := range []string{"CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/", "by Daawid", "Apache 2.0"} {
		if !strings.Contains(md, want) {
			t.Errorf("the attribution lacks %q", want)
		}
	}
}

// TestDocs_DISC06_EntrySchemaNamesEveryField: the entry schema page has
// a section for every object of the published entry.json and a row for
// every field of each, with its limits (DISC-06); and every object has
// a meaning written for it.
func TestDocs_DISC06_EntrySchemaNamesEveryField(t *testing.T) {
	var d struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemas.SchemaFiles()["entry.json"], &d); err != nil {
		t.Fatal(err)
	}
	md := string(docsByPath(t)["/docs/entry-schema.md"])
	sections := map[string]string{}
	for _, sec := range strings.Split(md, "\n## ")[1:] {
		name, body, _ := strings.Cut(sec, "\n")
		sections[name] = body
	}
	for name, def := range d.Defs {
		if strings.HasPrefix(name, "Localized") {
			if !strings.Contains(sections["Localized text"], "| "+name+" |") {
				t.Errorf("%s is not in the localized text table", name)
			}
			continue
		}
		body, ok := sections[name]
		if !ok {
			t.Errorf("no section for %s", name)
			continue
		}
		if meaning, _, _ := strings.Cut(strings.TrimSpace(body), "\n"); meaning == "" || strings.HasPrefix(meaning, "|") {
			t.Errorf("%s has no meaning written for it", name)
		}
		for field := range def.Properties {
			if !strings.Contains(body, "| `"+field+"` |") {
				t.Errorf("%s.%s has no row", name, field)
			}
		}
	}
	for _, want := range []string{"| `summary` | [localized text](#localized-text) (≤ 300) |", "| `lat` | number | yes | ≥ -90; ≤ 90 |", "one of `request_quote`"} {
		if !strings.Contains(md, want) {
			t.Errorf("entry-schema.md lacks %q", want)
		}
	}
}

// TestDocs_DISC06_PagesLinkEachOther: every documentation page, as
// markdown and as HTML, links every other one, the HTML page links the
// pages (not the markdown), and /docs/api links them all and the price
// list (DISC-06, PRIV-25).
func TestDocs_DISC06_PagesLinkEachOther(t *testing.T) {
	site := testSite(t)
	docs := docsByPath(t)
	names := []string{"data-contract", "entry-schema", "identifiers", "verification", "prices"}
	for _, from := range names {
		md, html := string(docs["/docs/"+from+".md"]), string(docs["/docs/"+from])
		for _, to := range names {
			if !strings.Contains(md, "("+site.BaseURL+"/docs/"+to+".md)") {
				t.Errorf("%s.md does not link %s.md", from, to)
			}
			if !strings.Contains(html, `href="`+site.BaseURL+"/docs/"+to+`"`) {
				t.Errorf("the %s page does not link the %s page", from, to)
			}
		}
		if !strings.Contains(html, `href="`+site.BaseURL+`/privacy"`) {
			t.Errorf("HTTP-21: the %s page has no privacy link", from)
		}
	}
	api := string(render.APIDocs(site))
	for _, to := range names {
		if !strings.Contains(api, `href="`+site.BaseURL+"/docs/"+to+`"`) {
			t.Errorf("/docs/api does not link /docs/%s", to)
		}
	}
}

// TestDocs_PRIV25_OnePriceListForEveryBuyer: the price list names both
// keyed feeds with their price and freshness, the same terms for every
// buyer, and that single entries are free (PRIV-25, DISC-09).
func TestDocs_PRIV25_OnePriceListForEveryBuyer(t *testing.T) {
	md := string(docsByPath(t)["/docs/prices.md"])
	for _, want := range []string{"/v1/exports", "/v1/changes", "Free during the pilot (0.00 EUR)", "the same terms for every buyer", "no tiers", "Reading entries is free", "Rebuilt every night", "Every minute"} {
		if !strings.Contains(md, want) {
			t.Errorf("prices.md lacks %q", want)
		}
	}
}

// TestDocs_PRIV02_SchemaIndexListsEveryFile: /schemas/0.1/ links every
// published schema file and names the Apache 2.0 licence (PRIV-02).
func TestDocs_PRIV02_SchemaIndexListsEveryFile(t *testing.T) {
	site := testSite(t)
	page := string(render.SchemaIndexPage(site))
	var names []string
	for name := range schemas.SchemaFiles() {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !strings.Contains(page, `href="`+site.BaseURL+"/schemas/0.1/"+name+`"`) {
			t.Errorf("the index does not link %s", name)
		}
	}
	if !strings.Contains(page, "Apache License 2.0") {
		t.Error("the index does not name the Apache 2.0 licence")
	}
}

// TestDocs_HTTP17_NuHTMLChecker runs the Nu HTML checker over every
// documentation page and the schemas' index: no errors (HTTP-17).
func TestDocs_HTTP17_NuHTMLChecker(t *testing.T) {
	tools := ciTools(t, "java", "bash", "node_modules/vnu-jar/build/dist/vnu.jar")
	dir := t.TempDir()
	for _, d := range render.DocsPages(testSite(t)) {
		if !strings.HasPrefix(d.MediaType, "text/html") {
			continue
		}
		name := strings.ReplaceAll(strings.Trim(d.Path, "/"), "/", "_") + ".html"
		if err := os.WriteFile(filepath.Join(dir, name), d.Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("Nu HTML checker reports errors:\n%s", out)
	}
}

// TestLicences_PRIV02_FilesAtTheTop: the repository names its licences
// at the top level: Apache 2.0 for the code, schemas and validator, CC BY
// 4.0 for the contract's text (PRIV-02).
func TestLicences_PRIV02_FilesAtTheTop(t *testing.T) {
	for file, want := range map[string]string{
		"../LICENSE":         "Apache License\n                           Version 2.0, January 2004",
		"../LICENSE-spec.md": "Creative Commons\nAttribution 4.0 International licence (CC BY 4.0)",
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not say %q", file, want)
		}
	}
}
