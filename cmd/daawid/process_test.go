package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// builtBinary is the daawid binary, built once for the tests that run it
// as a process (a schedule, two demos side by side).
var builtBinary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// daawidBinary builds the binary into a folder of the test process's own
// (removed when the test binary exits: see TestMain) and returns its path.
func daawidBinary(t *testing.T) string {
	t.Helper()
	builtBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "daawid-bin-")
		if err != nil {
			builtBinary.err = err
			return
		}
		builtDir = dir
		builtBinary.path = filepath.Join(dir, "daawid")
		builtBinary.out, builtBinary.err = exec.Command("go", "build", "-o", builtBinary.path, ".").CombinedOutput()
	})
	if builtBinary.err != nil {
		t.Fatalf("go build: %v\n%s", builtBinary.err, builtBinary.out)
	}
	return builtBinary.path
}

var builtDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// lockedBuffer is a process's output that the test reads while the
// process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *lockedBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *lockedBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls until found returns a non-empty string, or fails the test
// after limit, showing what the process wrote.
func waitFor(t *testing.T, limit time.Duration, what string, out *lockedBuffer, found func(string) string) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if v := found(out.String()); v != "" {
			return v
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no %s after %v; the process wrote:\n%s", what, limit, out.String())
	return ""
}

// jsonLogValue is the value of key in the first JSON log line whose msg is
// msg (and, when match is set, that has every key and value of match).
func jsonLogValue(logs, msg, key string, match map[string]string) string {
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) != nil || line["msg"] != msg {
			continue
		}
		ok := true
		for k, v := range match {
			if s, _ := line[k].(string); s != v {
				ok = false
			}
		}
		if v, _ := line[key].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// scrape reads url's Prometheus text exposition with the reference parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("scrape %s: status %d", url, resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	return fams
}

// metricValue is the value of the series of family name whose labels
// include every label of want; ok is false when there is none.
func metricValue(fams map[string]*dto.MetricFamily, name string, want map[string]string) (v float64, ok bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		match := 0
		for _, l := range m.GetLabel() {
			if w, in := want[l.GetName()]; in && w == l.GetValue() {
				match++
			}
		}
		if match != len(want) {
			continue
		}
		switch {
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Untyped != nil:
			return m.GetUntyped().GetValue(), true
		}
	}
	return 0, false
}
