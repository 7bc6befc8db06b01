package mcp_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/schemas"
)

// BenchmarkMCPGetEntry_vsREST (issue 7): tools/call get_entry and GET
// /v1/entries/{id} for the same entries over one loopback server, each
// under the same concurrent load in one run, with their p50 and p99 (the
// issue's bound: MCP's p99 at most twice REST's). Run it with
//
//	go test ./query/mcp -run XXX -bench MCPGetEntry -benchtime 4000x
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
		_, err := testserver.CallMCP(client, ts.URL, i, "get_entry", fmt.Sprintf(`{"id":%q}`, ids[i%len(ids)]))
		return err
	}
	n := max(b.N, 200)
	b.ResetTimer()
	r, _ := testserver.Load(b, n, workers, restGet)
	m, _ := testserver.Load(b, n, workers, mcp)
	b.StopTimer()
	p := testserver.Percentile
	b.ReportMetric(p(r, .5), "rest-p50-ms")
	b.ReportMetric(p(r, .99), "rest-p99-ms")
	b.ReportMetric(p(m, .5), "mcp-p50-ms")
	b.ReportMetric(p(m, .99), "mcp-p99-ms")
	b.ReportMetric(p(m, .99)/p(r, .99), "p99-ratio")
}
