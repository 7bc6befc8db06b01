package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/daawid/registry/render"
)

// nginxProc is nginx serving the static tree.
type nginxProc struct {
	cmd    *exec.Cmd
	url    string
	waited chan struct{}
}

func (b *serveBench) startNginx(root string) (*nginxProc, error) {
	prefix := filepath.Join(b.work, "nginx")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;\n" // the workers read the work directory, which may be private
	}
	// open_file_cache keeps each cached file open in every worker: the
	// workers need a descriptor limit above the cache. Past the hard limit
	// (root without CAP_SYS_RESOURCE cannot raise it either) the cache is
	// what fits under it.
	cache := int64(200_000)
	nofile := cache + int64(4*b.connections) + 1024
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && int64(lim.Max) < nofile {
		nofile = int64(lim.Max)
		cache = max(1000, nofile-int64(4*b.connections)-1024)
	}
	b.nginxCache = cache
	conf := fmt.Sprintf(`# daawid bench serve: the static tree of the chosen markdown documents
%[1]sworker_processes auto;
worker_rlimit_nofile %[5]d;
daemon off;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events {
    worker_connections 4096;
}
http {
    access_log off;
    types { text/markdown md; }
    default_type text/markdown;
    charset utf-8;
    charset_types text/markdown;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    open_file_cache max=%[6]d inactive=60s;
    open_file_cache_valid 60s;
    keepalive_requests 100000;
    keepalive_timeout 65;
    server {
        listen 127.0.0.1:%[3]d;
        root %[4]s;
        location / { }
    }
}
`, user, prefix, port, root, nofile, cache)
	confFile := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(prefix, "stderr.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(b.nginx, "-e", filepath.Join(prefix, "error.log"), "-p", prefix+"/", "-c", confFile)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	ng := &nginxProc{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), waited: exited}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(prefix, "error.log"))
			return nil, fmt.Errorf("nginx exited: %s", log)
		default:
		}
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
			return nil, errors.New("nginx did not listen within 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return ng, nil
}

func (n *nginxProc) stop() {
	select {
	case <-n.waited:
		return
	default:
	}
	syscall.Kill(n.pid(), syscall.SIGTERM)
	select {
	case <-n.waited:
	case <-time.After(20 * time.Second):
		syscall.Kill(n.pid(), syscall.SIGKILL)
		<-n.waited
	}
}

func (n *nginxProc) pid() int { return n.cmd.Process.Pid }

// cpu is the CPU seconds of nginx's master and workers.
func (n *nginxProc) cpu() float64 {
	t := procCPU(n.pid())
	for _, pid := range childPIDs(n.pid()) {
		t += procCPU(pid)
	}
	return t
}

// rss is the peak and current RSS of nginx's master and workers, summed.
func (n *nginxProc) rss() (peak, now int64) {
	for _, pid := range append([]int{n.pid()}, childPIDs(n.pid())...) {
		p, c := procMemMB(pid)
		peak, now = peak+p, now+c
	}
	return peak, now
}

// serverProc is `daawid serve`.
type serverProc struct {
	cmd    *exec.Cmd
	url    string
	ready  time.Duration
	done   chan struct{}
	client *http.Client
}

func (b *serveBench) startServer(exe, out string) (*serverProc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logFile, err := os.Create(filepath.Join(b.work, "serve.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	// The documents were rendered for the default site: serve for it too
	// (a request to 127.0.0.1 is no host of that deployment: served as is).
	cmd := exec.Command(exe, "serve", "--out", out, "--addr", addr, "--metrics-addr", "", "--no-limit", "--log-level", "warn",
		"--base-url", render.DefaultBaseURL)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &serverProc{cmd: cmd, url: "http://" + addr, done: make(chan struct{}), client: &http.Client{Timeout: 10 * time.Second}}
	go func() { cmd.Wait(); close(s.done) }()
	for {
		select {
		case <-s.done:
			log, _ := os.ReadFile(filepath.Join(b.work, "serve.log"))
			return nil, fmt.Errorf("daawid serve exited: %s", log)
		default:
		}
		if _, err := s.publication(); err == nil {
			break
		}
		if time.Since(start) > 15*time.Minute {
			s.stop()
			return nil, errors.New("daawid serve not ready within 15 minutes")
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.ready = time.Since(start)
	return s, nil
}

// floorProc is the net/http floor (bench floor), a child process.
type floorProc struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

func (b *serveBench) startFloor(exe, root string) (*floorProc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(exe, "bench", "floor", "--root", root, "--addr", addr, "--base-url", render.DefaultBaseURL)
	cmd.Stdout, cmd.Stderr = io.Discard, b.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	f := &floorProc{cmd: cmd, url: "http://" + addr, done: make(chan struct{})}
	go func() { cmd.Wait(); close(f.done) }()
	c := &http.Client{Timeout: 2 * time.Second}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		select {
		case <-f.done:
			return nil, errors.New("bench floor exited")
		default:
		}
		if resp, err := c.Get(f.url + "/"); err == nil {
			resp.Body.Close()
			return f, nil
		}
		if time.Since(start) > 2*time.Minute {
			f.stop()
			return nil, errors.New("bench floor not serving within 2 minutes")
		}
	}
}

func (f *floorProc) cpu() float64 { return procCPU(f.cmd.Process.Pid) }

func (f *floorProc) rss() (peak, now int64) { return procMemMB(f.cmd.Process.Pid) }

func (f *floorProc) stop() { stopChild(f.cmd, f.done, 10*time.Second) }

// stopChild asks a child process to stop (SIGTERM) and kills it after
// grace; done closes when it has exited.
func stopChild(cmd *exec.Cmd, done chan struct{}, grace time.Duration) {
	select {
	case <-done:
		return
	default:
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
	}
}

// publication is the publication ID /readyz reports.
func (s *serverProc) publication() (string, error) {
	resp, err := s.client.Get(s.url + "/readyz")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("/readyz: %s", resp.Status)
	}
	first, _, _ := strings.Cut(string(body), "\n") // a second line may say the server fell back
	_, id, ok := strings.Cut(strings.TrimSpace(first), "publication ")
	if !ok {
		return "", fmt.Errorf("/readyz: %q", body)
	}
	return id, nil
}

func (s *serverProc) stop() { stopChild(s.cmd, s.done, 30*time.Second) }

func (s *serverProc) pid() int { return s.cmd.Process.Pid }

// swapWatch records, from the start of the load, when the server began
// serving the new publication, and the slowest of its /readyz answers
// (asked every 100 ms from the swap until swapTail after it is served):
// a stall of the whole server shows there.
type swapWatch struct {
	srv                *serverProc
	want               string
	pointed, servedAt  time.Duration
	slowest, slowestAt time.Duration
}

// watch probes until swapTail after the new publication is served, or
// until (from started) without it.
func (w *swapWatch) watch(started time.Time, until time.Duration) {
	for {
		t0 := time.Now()
		id, err := w.srv.publication()
		if d := time.Since(t0); d > w.slowest {
			w.slowest, w.slowestAt = d, t0.Sub(started)
		}
		now := time.Since(started)
		if err == nil && id == w.want && w.servedAt == 0 {
			w.servedAt = now
		}
		if (w.servedAt > 0 && now >= w.servedAt+swapTail) || (w.servedAt == 0 && now >= until) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sameBytes fetches up to n of the tree's paths from url and counts those
// answered 200 with exactly the tree's bytes.
func sameBytes(url string, t *staticTree, n int) (int, error) {
	c := &http.Client{Timeout: 10 * time.Second}
	same := 0
	for _, p := range t.Paths[:min(n, len(t.Paths))] {
		resp, err := c.Get(url + p)
		if err != nil {
			return 0, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, err
		}
		want, err := os.ReadFile(filepath.Join(t.Root, filepath.FromSlash(strings.TrimPrefix(p, "/"))))
		if err != nil {
			return 0, err
		}
		if resp.StatusCode == http.StatusOK && bytes.Equal(body, want) {
			same++
		}
	}
	return same, nil
}

// freePort is a free TCP port on loopback for a target to listen on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
