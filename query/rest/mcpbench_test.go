package rest_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/schemas"
)

// BenchmarkMCPGetEntry_vsREST (issue 7): tools/call get_entry and GET
// /v1/entries/{id} for the same entries over one loopback server, each
// under the same concurrent load in one run, with their p50 and p99 (the
// issue's bound: MCP's p99 at most twice REST's). Run it with
//
//	go test ./query/rest -run XXX -bench MCPGetEntry -benchtime 4000x
func BenchmarkMCPGetEntry_vsREST(b *testing.B) {
	// No fair-use limit: one address makes thousands of reads.
	ts := mcpServer(b, func(c *rest.Config) { c.Limiter = nil })
	var ids []string
	for _, e := range fixtures.Entries() {
		if e.Status != schemas.StatusUnclaimed {
			ids = append(ids, e.ID)
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	const workers = 16
	restGet := func(i int) error {
		resp, err := client.Get(ts.URL + "/v1/entries/" + ids[i%len(ids)])
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("REST: %d", resp.StatusCode)
		}
		return nil
	}
	mcp := func(i int) error {
		// As a 2026-07-28 client sends it: the version, capabilities and
		// client in _meta, the method and tool in headers.
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_entry","arguments":{"id":%q},`+
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`, i, ids[i%len(ids)])
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "get_entry")
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || bytes.Contains(out, []byte(`"isError":true`)) {
			return fmt.Errorf("MCP: %d %.200s", resp.StatusCode, out)
		}
		return nil
	}
	n := max(b.N, 200)
	b.ResetTimer()
	r, _ := load(b, n, workers, restGet)
	m, _ := load(b, n, workers, mcp)
	b.StopTimer()
	p := percentile
	b.ReportMetric(p(r, .5), "rest-p50-ms")
	b.ReportMetric(p(r, .99), "rest-p99-ms")
	b.ReportMetric(p(m, .5), "mcp-p50-ms")
	b.ReportMetric(p(m, .99), "mcp-p99-ms")
	b.ReportMetric(p(m, .99)/p(r, .99), "p99-ratio")
}
