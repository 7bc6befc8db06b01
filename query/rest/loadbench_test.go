package rest_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// load runs do(0) … do(n-1) from workers goroutines at once, as that
// many clients would, and gives each call's latency, sorted, and the
// wall time of the whole. The first error fails the benchmark.
func load(b *testing.B, n, workers int, do func(i int) error) ([]time.Duration, time.Duration) {
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	next := make(chan int)
	errs := make(chan error, workers)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for i := range next {
				t := time.Now()
				if err := do(i); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
				lat[i] = time.Since(t)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	took := time.Since(start)
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	slices.Sort(lat)
	return lat, took
}

// percentile is a sorted latency list's quantile in milliseconds.
func percentile(l []time.Duration, q float64) float64 {
	return float64(l[min(len(l)-1, int(q*float64(len(l))))].Microseconds()) / 1000
}

// callMCP calls a tool as a 2026-07-28 client sends it (the version,
// capabilities and client in _meta, the method and tool in headers) and
// gives the answer's bytes; a tool error is an error.
func callMCP(client *http.Client, base string, id int, tool, args string) ([]byte, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`, id, tool, args)
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || bytes.Contains(out, []byte(`"isError":true`)) {
		return nil, fmt.Errorf("MCP %s: %d %.300s", tool, resp.StatusCode, out)
	}
	return out, nil
}
