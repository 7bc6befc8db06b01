package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
)

func TestProfOpenSnapshot(t *testing.T) {
	pub := os.Getenv("BENCHSERVE_PUB")
	if pub == "" {
		t.Skip()
	}
	f, _ := os.Create("/tmp/open.cpu")
	pprof.StartCPUProfile(f)
	t0 := time.Now()
	docs, err := pipeline.ReadDocs(pub)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ReadDocs: %d docs in %s", len(docs), time.Since(t0))
	docs = nil
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 = time.Now()
	sn, err := query.OpenSnapshot(pub)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("OpenSnapshot: %d docs in %s", sn.Len(), time.Since(t0))
	pprof.StopCPUProfile()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	t.Logf("heap %d MB", (m1.HeapAlloc-m0.HeapAlloc)>>20)
	h, _ := os.Create("/tmp/open.heap")
	pprof.WriteHeapProfile(h)
	h.Close()
	runtime.KeepAlive(sn)
}

func TestProfServe(t *testing.T) {
	out := os.Getenv("BENCHSERVE_OUT")
	if out == "" {
		t.Skip()
	}
	site, _ := serveSite("https://daawid.example", "127.0.0.1:18666")
	log, _ := newLogger(os.Stderr, "warn")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := serveConfig{Out: out, Addr: "127.0.0.1:18666", Site: site, NoLimit: true, Log: log, Counts: filepath.Join(out, "..", "counts"), Reports: filepath.Join(out, "..", "reports")}
	go serve(ctx, cfg)
	for {
		if r, err := http.Get("http://127.0.0.1:18666/readyz"); err == nil && r.StatusCode == 200 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	exec.Command("wrk", "-t2", "-c64", "-d3s", "-s", filepath.Join(out, "..", "load.lua"), "http://127.0.0.1:18666").Run()
	f, _ := os.Create("/tmp/serve.cpu")
	pprof.StartCPUProfile(f)
	o, _ := exec.Command("wrk", "-t2", "-c64", "-d10s", "-s", filepath.Join(out, "..", "load.lua"), "http://127.0.0.1:18666").CombinedOutput()
	pprof.StopCPUProfile()
	t.Logf("%s", o)
}
