package server_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/cmd/daawid/server"
)

// syncBuffer is a log sink the server and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe_DemoEndToEnd: the demo's publication served on loopback with
// the site of its own origin (VIEW-21: plain http on localhost), the
// metrics on their own listener, access logs without addresses, and a
// graceful shutdown when the context ends.
func TestServe_DemoEndToEnd(t *testing.T) {
	dir := t.TempDir()
	site, err := server.SiteFor("", "localhost:18931")
	if err != nil {
		t.Fatal(err)
	}
	d, err := demo.Prepare(dir, site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	bound := make(chan string, 1)
	cfg := server.Config{Out: d.Out, Addr: "127.0.0.1:0", MetricsAddr: "127.0.0.1:0", Site: site, Reports: dir + "/reports", Counts: dir + "/counts",
		DocCache: 32 << 20, Log: slog.New(slog.NewTextHandler(&logs, nil)), Bound: func(a string) { bound <- a },
		Actions: server.ActionsConfig{RunsDB: dir + "/runs/runs.db", SecretFile: dir + "/runs/secret", CreateSecret: true}, ReadTimeout: 2 * time.Second}
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, cfg) }()
	var addr string
	select {
	case addr = <-bound:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start")
	}
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("http://" + addr + "/holzwerk-krause.md"); code != 200 || !strings.Contains(body, "url: http://localhost:18931/holzwerk-krause\n") {
		t.Errorf("markdown: %d %.300s", code, body)
	}
	if code, body := get("http://" + addr + "/readyz"); code != 200 || !strings.Contains(body, "pub_") {
		t.Errorf("/readyz: %d %s", code, body)
	}
	metricsAddr := ""
	for _, l := range strings.Split(logs.String(), "\n") {
		if i := strings.Index(l, "addr=http://"); i >= 0 && strings.Contains(l, "msg=metrics") {
			metricsAddr = strings.TrimSuffix(l[i+len("addr="):], "/metrics")
		}
	}
	code, body := get(metricsAddr + "/metrics")
	if code != 200 || !strings.Contains(body, `daawid_http_requests_total{area="document",code="200"} 1`) {
		t.Errorf("metrics at %q: %d", metricsAddr, code)
	}
	// D74, D66: the document cache's work and the time guard's stand-ins;
	// D75: the runs' health.
	for _, m := range []string{"daawid_doc_cache_reads_total 1\n", "daawid_doc_cache_misses_total 1\n", "daawid_doc_cache_entries 1\n", "daawid_stand_ins_total ",
		"daawid_runs_store_up 1\n", "daawid_outbox_pending 0\n", "daawid_outbox_failed 0\n", "daawid_runs_waiting 0\n", "daawid_outbox_oldest_pending_seconds 0\n"} {
		if !strings.Contains(body, m) {
			t.Errorf("no %q in the metrics", m)
		}
	}
	if code, _ := get("http://" + addr + "/metrics"); code == 200 {
		t.Error("the metrics are on the public listener")
	}
	// A request body sent a byte a second is cut off at the read timeout.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", addr)
	start := time.Now()
	closed := false
	for time.Since(start) < 10*time.Second {
		if _, err := conn.Write([]byte(" ")); err != nil {
			closed = true
			break
		}
		conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := conn.Read(make([]byte, 512)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			closed = true
			break
		}
	}
	if !closed || time.Since(start) > 6*time.Second {
		t.Errorf("a body sent a byte a second held the connection for %v", time.Since(start).Round(time.Second))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no graceful shutdown")
	}
	access := logs.String()
	if !strings.Contains(access, `msg=http method=GET path=/holzwerk-krause.md status=200`) {
		t.Errorf("no access log line:\n%s", access)
	}
	if strings.Contains(access, "127.0.0.1:") && strings.Contains(access, "msg=http ") {
		for _, l := range strings.Split(access, "\n") {
			if strings.Contains(l, "msg=http ") && strings.Contains(l, "127.0.0.1") {
				t.Errorf("an access log line has an address: %s", l)
			}
		}
	}
}
