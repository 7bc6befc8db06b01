package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/cmd/daawid/server"
	"github.com/daawid/registry/query/actions/mail"
)

// TestServe_SIGKILLBeforeHandOver: a person presses Send while the mail
// server refuses mail; the server is killed with SIGKILL before the
// request reached the mail server; once it runs again (and the mail
// server takes mail) the business gets the request once, and the run is
// delivered (ACT-44, ACT-45).
func TestServe_SIGKILLBeforeHandOver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the server twice")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "daawid")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	site, err := server.SiteFor("", addr)
	if err != nil {
		t.Fatal(err)
	}
	d, err := demo.Prepare(filepath.Join(dir, "demo"), site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var down atomic.Bool
	catcher, err := mail.StartCatcher("127.0.0.1:0", filepath.Join(dir, "mail"), mail.CatcherOptions{Refuse: func() error {
		if down.Load() {
			return errors.New("mail server down for the test")
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer catcher.Close()
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "serve", "--out", d.Out, "--addr", addr, "--metrics-addr", "", "--runs-db", filepath.Join(dir, "runs.db"),
			"--secret-file", filepath.Join(dir, "secret"), "--smtp", catcher.URL(), "--log-level", "warn")
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					return cmd
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		cmd.Process.Kill()
		t.Fatal("the server did not become ready")
		return nil
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("a secret of thirty-two bytes or more, for the test"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := start()
	defer func() { srv.Process.Kill(); srv.Wait() }()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	body := `{"entry":"holzwerk-krause","description":"Ein Einbauschrank unter der Dachschräge, bitte.","postalCode":"42105","desiredTiming":"im Frühjahr",
		"requester":{"name":"Kim Example","email":"kim@example.org"}}`
	resp, err := client.Post("http://"+addr+"/v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ RunID, ConfirmURL string }
	json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("POST runs: %d", resp.StatusCode)
	}
	confirm := "http://" + addr + "/confirm/" + res.ConfirmURL[strings.LastIndex(res.ConfirmURL, "/")+1:]
	press := func(vals url.Values) {
		t.Helper()
		resp, err := client.PostForm(confirm, vals)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 303 {
			t.Fatalf("POST %v: %d", vals, resp.StatusCode)
		}
	}
	press(url.Values{"op": {"code"}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.To, "kim@example.org") })
	if err != nil {
		t.Fatalf("no code mail: %v", err)
	}
	code := ""
	for _, l := range strings.Split(m.Body, "\n") {
		if c, ok := strings.CutPrefix(l, "Your code: "); ok {
			code = strings.TrimSpace(c)
		}
	}
	// The mail server goes down; the person presses Send.
	down.Store(true)
	press(url.Values{"op": {"send"}, "code": {code}})
	time.Sleep(300 * time.Millisecond) // the sender's first try fails
	srv.Process.Signal(syscall.SIGKILL)
	srv.Wait()
	if n := deliveries(t, catcher.Dir()); n != 0 {
		t.Fatalf("%d deliveries while the mail server was down", n)
	}
	down.Store(false)
	srv = start()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel2()
	if _, err := mail.WaitFor(ctx2, catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.MessageID, ".delivery@") }); err != nil {
		t.Fatalf("the request never reached the business after the restart: %v", err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := deliveries(t, catcher.Dir()); n != 1 {
		t.Errorf("the business got the request %d times, want once", n)
	}
	sresp, err := http.Get("http://" + addr + "/v1/runs/" + res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := io.ReadAll(sresp.Body)
	sresp.Body.Close()
	if !strings.Contains(string(sb), `"status":"delivered"`) {
		t.Errorf("status after the restart: %s", sb)
	}
}

func deliveries(t *testing.T, dir string) int {
	t.Helper()
	ms, err := mail.ReadMaildir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range ms {
		if strings.Contains(m.MessageID, ".delivery@") {
			n++
		}
	}
	return n
}

var _ = fmt.Sprint
