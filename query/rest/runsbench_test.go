package rest_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// BenchmarkRequestQuote_MCP (issue 14): request_quote over MCP on
// loopback, on the embedded store (SQLite, WAL), from 16 concurrent
// clients, each call a new run with its own requester; then GET of the
// confirmation pages those runs made. It reports runs started a second
// and the p50 and p99 of both. The per-entry limit of 100 started a day
// (ACT-51) would stop a benchmark after 100 runs, so it is raised here;
// every other limit is checked as in production. Run it with
//
//	go test ./query/rest -run '^$' -bench RequestQuote_MCP -benchtime 3000x
func BenchmarkRequestQuote_MCP(b *testing.B) {
	l := actions.DefaultLimits
	l.StartedPerDay = 1 << 30
	rg := newRunsRig(b, "sqlite", &l)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	const workers = 16
	n := max(b.N, 300)
	confirmPaths := make([]string, n)
	quote := func(i int) error {
		out, err := testserver.CallMCP(client, rg.URL, i, "request_quote", string(mustJSON(testserver.QuoteFrom(fmt.Sprintf("bench%d@example.org", i)))))
		if err != nil {
			return err
		}
		j := bytes.Index(out, []byte(`"confirmUrl":"`))
		if j < 0 {
			return fmt.Errorf("no confirmUrl: %.300s", out)
		}
		u := out[j+len(`"confirmUrl":"`):]
		u = u[:bytes.IndexByte(u, '"')]
		confirmPaths[i] = strings.TrimPrefix(string(u), reg.Site.BaseURL)
		return nil
	}
	page := func(i int) error {
		resp, err := client.Get(rg.URL + confirmPaths[i])
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("confirmation page: %d", resp.StatusCode)
		}
		return nil
	}
	b.ResetTimer()
	q, took := testserver.Load(b, n, workers, quote)
	// The quote phase's garbage is its own: collect it before the pages
	// are measured, as a server between two bursts would have.
	runtime.GC()
	p, _ := testserver.Load(b, n, workers, page)
	b.StopTimer()
	pct := testserver.Percentile
	b.ReportMetric(float64(n)/took.Seconds(), "runs/s")
	b.ReportMetric(pct(q, .5), "quote-p50-ms")
	b.ReportMetric(pct(q, .99), "quote-p99-ms")
	b.ReportMetric(pct(p, .5), "page-p50-ms")
	b.ReportMetric(pct(p, .99), "page-p99-ms")
	_ = schemas.ActionRequestQuote
}
