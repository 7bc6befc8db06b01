package main

import (
	"bytes"
	"flag"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/cmd/daawid/server"
)

// TestServe_Procs: the server runs four Go scheduler threads a core by
// default, --procs sets another number and GOMAXPROCS in the environment
// wins over both (D131); each as the server's own metrics report it.
func TestServe_Procs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the server three times")
	}
	bin := daawidBinary(t)
	dir := t.TempDir()
	addr := "127.0.0.1:" + strconv.Itoa(freePort(t))
	site, err := server.SiteFor("", addr)
	if err != nil {
		t.Fatal(err)
	}
	d, err := demo.Prepare(filepath.Join(dir, "demo"), site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") {
			env = append(env, kv)
		}
	}
	procs := func(extraEnv []string, flags ...string) float64 {
		t.Helper()
		metrics := "127.0.0.1:" + strconv.Itoa(freePort(t))
		args := append([]string{"serve", "--out", d.Out, "--addr", addr, "--metrics-addr", metrics, "--log-level", "warn",
			"--runs-db", filepath.Join(dir, "runs.db"), "--secret-file", filepath.Join(dir, "secret")}, flags...)
		cmd := exec.Command(bin, args...)
		cmd.Env = append(env[:len(env):len(env)], extraEnv...)
		var out lockedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		waitFor(t, 60*time.Second, "ready server", &out, func(string) string {
			resp, err := http.Get("http://" + addr + "/readyz")
			if err != nil {
				return ""
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				return ""
			}
			return "ready"
		})
		v, ok := metricValue(scrape(t, "http://"+metrics+"/metrics"), "go_sched_gomaxprocs_threads", nil)
		if !ok {
			t.Fatalf("%v: no go_sched_gomaxprocs_threads in the server's metrics", flags)
		}
		return v
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("a secret of thirty-two bytes or more, for the test"), 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("GOMAXPROCS") != "" || flag.Lookup("test.cpu").Value.String() != "" {
		// This process's count was set for it, so it does not say the
		// machine's cores: the server's default is still four a core.
		if got := procs(nil); got < 4 || int(got)%4 != 0 {
			t.Errorf("default: GOMAXPROCS %v, want four a core", got)
		}
	} else if got, want := procs(nil), float64(4*runtime.GOMAXPROCS(0)); got != want {
		t.Errorf("default: GOMAXPROCS %v, want four a core (%v)", got, want)
	}
	if got := procs(nil, "--procs", "3"); got != 3 {
		t.Errorf("--procs 3: GOMAXPROCS %v", got)
	}
	if got := procs([]string{"GOMAXPROCS=5"}, "--procs", "3"); got != 5 {
		t.Errorf("GOMAXPROCS=5 with --procs 3: GOMAXPROCS %v, want the environment's 5", got)
	}
}

// TestServe_ProcsUsage: --procs under 1 is a usage error naming the flag.
func TestServe_ProcsUsage(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"serve", "--procs", "0"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "--procs") {
		t.Fatalf("serve --procs 0: exit %d, %q", code, stderr.String())
	}
}
