package main

import (
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// freePort is a port on loopback that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestDemo_SideBySide runs two demos at once, each with its own --dir and
// --addr (issue 16: the demo once bound a second, fixed port for its
// metrics, so a second demo exited). Both answer / and serve their
// metrics at /metrics on their one serve port, the server's and the
// schedule's, and neither starts a metrics listener of its own.
func TestDemo_SideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs two demos")
	}
	bin := daawidBinary(t)
	type demo struct {
		cmd  *exec.Cmd
		out  lockedBuffer
		base string
	}
	demos := make([]*demo, 2)
	for i := range demos {
		port := freePort(t)
		d := &demo{cmd: exec.Command(bin, "demo", "--dir", filepath.Join(t.TempDir(), "demo"), "--addr", "127.0.0.1:"+strconv.Itoa(port))}
		d.cmd.Stdout, d.cmd.Stderr = &d.out, &d.out
		if err := d.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.cmd.Process.Kill(); d.cmd.Wait() })
		demos[i] = d
	}
	serving := regexp.MustCompile(`serving on (http://\S+) `)
	for _, d := range demos {
		d.base = waitFor(t, 120*time.Second, "serving line", &d.out, func(s string) string {
			if m := serving.FindStringSubmatch(s); m != nil {
				return m[1]
			}
			return ""
		})
	}
	if demos[0].base == demos[1].base {
		t.Fatalf("both demos serve on %s", demos[0].base)
	}
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, d := range demos {
		// The serve port's address: the base URL names localhost, the
		// demo listens on 127.0.0.1.
		addr := strings.Replace(d.base, "localhost", "127.0.0.1", 1)
		if code, body := get(addr + "/"); code != 200 || !strings.Contains(body, "<html") {
			t.Errorf("%s/: %d %.200s", addr, code, body)
		}
		fams := scrape(t, addr+"/metrics")
		if v, ok := metricValue(fams, "daawid_http_requests_total", map[string]string{"area": "page", "code": "200"}); !ok || v < 1 {
			t.Errorf("%s/metrics: the page read is not counted (%v, %v)", addr, v, ok)
		}
		// The schedule's metrics are on the same port: the publication
		// the demo made is there from the start.
		if v, ok := metricValue(fams, "daawid_pipeline_feed_sequence", nil); !ok || v <= 0 {
			t.Errorf("%s/metrics: feed sequence %v, %v", addr, v, ok)
		}
		if strings.Contains(d.out.String(), "msg=metrics") {
			t.Errorf("%s started a metrics listener of its own:\n%s", addr, d.out.String())
		}
	}
	for _, d := range demos {
		d.cmd.Process.Signal(syscall.SIGTERM)
		if err := d.cmd.Wait(); err != nil {
			t.Errorf("demo after SIGTERM: %v\n%s", err, d.out.String())
		}
	}
}
