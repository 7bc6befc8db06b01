package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/cmd/daawid/server"
	"github.com/daawid/registry/export/publication"
)

// startDemo prepares the demo's publications in a folder of the test's
// own, lets damage change them, and serves them on loopback until the
// test ends; it returns the address and the log.
func startDemo(t *testing.T, damage func(out string), cfg server.Config) (string, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	site, err := server.SiteFor("", "localhost:18932")
	if err != nil {
		t.Fatal(err)
	}
	d, err := demo.Prepare(dir, site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if damage != nil {
		damage(d.Out)
	}
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	bound := make(chan string, 1)
	cfg.Out, cfg.Addr, cfg.Site, cfg.Reports = d.Out, "127.0.0.1:0", site, dir+"/reports"
	cfg.Log, cfg.Bound = slog.New(slog.NewTextHandler(logs, nil)), func(a string) { bound <- a }
	cfg.Actions = server.ActionsConfig{RunsDB: dir + "/runs/runs.db", SecretFile: dir + "/runs/secret", CreateSecret: true}
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, cfg) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("no graceful shutdown")
		}
	})
	select {
	case addr := <-bound:
		return addr, logs
	case err := <-done:
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not start")
	}
	return "", nil
}

func getURL(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServe_StartOnDamagedCurrentServesNewestGood: a server started on a
// current publication whose registry.duckdb no longer matches its
// manifest (one byte changed) serves the newest publication that
// verifies, the demo's first, and says so in its log and on /readyz,
// which stays 200 (issue 15); the entry pages answer.
func TestServe_StartOnDamagedCurrentServesNewestGood(t *testing.T) {
	var current, previous string
	damage := func(out string) {
		cur, err := publication.Current(out)
		if err != nil {
			t.Fatal(err)
		}
		current = filepath.Base(cur)
		des, err := os.ReadDir(filepath.Join(out, publication.PublicationsDir))
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			if de.Name() != current && !strings.HasSuffix(de.Name(), ".tmp") {
				previous = de.Name()
			}
		}
		if previous == "" {
			t.Fatal("the demo made one publication; the test needs an earlier one")
		}
		path := filepath.Join(cur, publication.RegistryFile)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		b := make([]byte, 1)
		st, _ := f.Stat()
		f.ReadAt(b, st.Size()-1)
		b[0] ^= 0xff
		if _, err := f.WriteAt(b, st.Size()-1); err != nil {
			t.Fatal(err)
		}
	}
	addr, logs := startDemo(t, damage, server.Config{})
	code, body := getURL(t, "http://"+addr+"/readyz")
	if code != http.StatusOK || !strings.HasPrefix(body, "ready: publication "+previous+"\n") ||
		!strings.Contains(body, "fallback: the current publication "+current+" does not verify") || !strings.Contains(body, "registry.duckdb") {
		t.Errorf("/readyz: %d %q; want the earlier publication %s served and the damaged %s named", code, body, previous, current)
	}
	if code, _ := getURL(t, "http://"+addr+"/llms.txt"); code != http.StatusOK {
		t.Errorf("/llms.txt: %d", code)
	}
	log := logs.String()
	if !strings.Contains(log, "the current publication does not verify") || !strings.Contains(log, previous) || !strings.Contains(log, current) {
		t.Errorf("the log does not say which publication failed and which serves:\n%s", log)
	}
}

// TestServe_SlowBodyOnEveryRoute: a request whose body comes a byte a
// second is closed by the server's read timeout on every route that
// takes a body (the runs of the REST mirror, MCP, the report form, an
// action's web form, the confirmation page) and on a GET that sends one
// (issue 15); the timeout is the server's, so no route can forget it.
func TestServe_SlowBodyOnEveryRoute(t *testing.T) {
	const timeout = 2 * time.Second
	addr, _ := startDemo(t, nil, server.Config{ReadTimeout: timeout})
	routes := []struct{ method, path, media string }{
		{"POST", "/v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs", "application/json"},
		{"POST", "/mcp", "application/json"},
		{"POST", "/holzwerk-krause/report", "application/x-www-form-urlencoded"},
		{"POST", "/holzwerk-krause/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j", "application/x-www-form-urlencoded"},
		{"POST", "/confirm/0123456789abcdefghjkmnpqrstvwxy", "application/x-www-form-urlencoded"},
		{"GET", "/holzwerk-krause.md", "text/plain"},
	}
	var wg sync.WaitGroup
	held := make([]time.Duration, len(routes))
	for i, rt := range routes {
		wg.Go(func() { held[i] = slowBody(t, addr, rt.method, rt.path, rt.media) })
	}
	wg.Wait()
	for i, rt := range routes {
		if held[i] == 0 || held[i] > timeout+3*time.Second {
			t.Errorf("%s %s: a body sent a byte a second held the connection for %v (timeout %v; 0: never closed)", rt.method, rt.path, held[i].Round(time.Second), timeout)
		}
	}
}

// slowBody sends a request announcing a body of 1,000 bytes and then
// sends it a byte a second; it returns how long until the server closed
// the connection, or 0 if it had not after 10 s.
func slowBody(t *testing.T, addr, method, path, media string) time.Duration {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: 1000\r\n\r\n", method, path, addr, media)
	start := time.Now()
	buf := make([]byte, 4096)
	for time.Since(start) < 10*time.Second {
		if _, err := conn.Write([]byte("x")); err != nil {
			return time.Since(start)
		}
		conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := conn.Read(buf); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return time.Since(start)
		}
	}
	return 0
}
