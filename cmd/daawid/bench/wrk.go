package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// writeWrkScript writes the wrk script: each thread reads the paths and
// walks them round robin from its own offset; done prints the figures on
// one line ("BENCH-RESULT k=v ...", latencies in microseconds).
func writeWrkScript(work, pathsFile string, threads int) (string, error) {
	return writeWrkScriptAs(work, "load.lua", pathsFile, threads, "")
}

// writeWrkScriptAs writes the wrk script under name, each request with
// Accept-Encoding: acceptEncoding when it is not "" (a client that takes
// the stored zstd bytes, D111).
func writeWrkScriptAs(work, name, pathsFile string, threads int, acceptEncoding string) (string, error) {
	headers := "nil"
	if acceptEncoding != "" {
		headers = fmt.Sprintf(`{["Accept-Encoding"] = %q}`, acceptEncoding)
	}
	script := fmt.Sprintf(`-- daawid bench serve: GET round robin over the paths in %[1]q
local threads = %[2]d
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

local reqs = {}
local n = 0
local i = 0
function init(args)
  for line in io.lines(%[1]q) do
    if line ~= "" then
      n = n + 1
      reqs[n] = wrk.format("GET", line, %[3]s)
    end
  end
  i = math.floor((tid or 0) * n / threads)
end

function request()
  i = i + 1
  if i > n then i = 1 end
  return reqs[i]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH-RESULT requests=%%d duration_us=%%d bytes=%%d connect=%%d read=%%d write=%%d status=%%d timeout=%%d p50=%%d p90=%%d p99=%%d p999=%%d max=%%d\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`, pathsFile, threads, headers)
	p := filepath.Join(work, name)
	return p, os.WriteFile(p, []byte(script), 0o644)
}

// swapTail is how long the swap load goes on once the new publication is
// served.
const swapTail = 5 * time.Second

// wrkResult is one wrk run. Latencies are in milliseconds.
type wrkResult struct {
	requests                              int64
	seconds, rps                          float64
	connect, read, write, status, timeout int64
	p50, p90, p99, p999, max              float64
	rssMB, rssNow                         int64
	cpu                                   float64       // the target's CPU seconds during the run
	limit                                 time.Duration // wrk's timeout
	machine, wrkCPU                       float64       // CPU seconds of the whole machine and of wrk during the run
	raw                                   string
}

// cores is how many cores the target, wrk and everything else used on
// average during the run.
func (r *wrkResult) cores() string {
	if r.seconds == 0 {
		return "–"
	}
	other := max(0, r.machine-r.cpu-r.wrkCPU)
	return fmt.Sprintf("%.2f / %.2f / %.2f", r.cpu/r.seconds, r.wrkCPU/r.seconds, other/r.seconds)
}

func (r *wrkResult) cpuPerRequest() string {
	if r.requests == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", r.cpu/float64(r.requests)*1e6)
}

func (r *wrkResult) errors() int64 {
	return r.connect + r.read + r.write + r.status + r.timeout
}

func (r *wrkResult) errorsText() string {
	if r.errors() == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (non-2xx %d; connect %d, read %d, write %d; timeout %d: slower than %s)", r.errors(), r.status, r.connect, r.read, r.write, r.timeout, r.limit)
}

// runWrk runs wrk against url for d; during, when set, runs alongside
// from the moment wrk starts and may end the load early with stop (wrk
// stops on SIGINT and reports what it measured).
func (b *serveBench) runWrk(url string, d time.Duration, during func(started time.Time, stop func()) error) (*wrkResult, error) {
	cmd := exec.Command(b.wrk, "-t", fmt.Sprint(b.threads), "-c", fmt.Sprint(b.connections), "-d", fmt.Sprintf("%ds", int(d.Seconds())),
		"--timeout", fmt.Sprintf("%ds", max(1, int(b.timeout.Seconds()))), "--latency", "-s", b.lua, url)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	busy0 := machineBusy()
	started := time.Now()
	var once sync.Once
	done := make(chan struct{})
	stop := func() {
		once.Do(func() {
			select {
			case <-done:
			default:
				cmd.Process.Signal(os.Interrupt)
			}
		})
	}
	errc := make(chan error, 1)
	if during != nil {
		go func() { errc <- during(started, stop) }()
	} else {
		errc <- nil
	}
	werr := cmd.Wait()
	busy := machineBusy() - busy0
	close(done)
	derr := <-errc
	if werr != nil {
		return nil, fmt.Errorf("wrk: %v: %s", werr, out.String())
	}
	if derr != nil {
		return nil, derr
	}
	r := &wrkResult{raw: out.String(), limit: b.timeout, machine: busy,
		wrkCPU: (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()}
	var line string
	for _, l := range strings.Split(r.raw, "\n") {
		if strings.HasPrefix(l, "BENCH-RESULT ") {
			line = l
		}
	}
	if line == "" {
		return nil, fmt.Errorf("wrk printed no result: %s", r.raw)
	}
	v := map[string]int64{}
	for _, f := range strings.Fields(line)[1:] {
		k, s, _ := strings.Cut(f, "=")
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("wrk result %q: %w", f, err)
		}
		v[k] = int64(n)
	}
	ms := func(k string) float64 { return float64(v[k]) / 1000 }
	r.requests, r.seconds = v["requests"], float64(v["duration_us"])/1e6
	if r.seconds > 0 {
		r.rps = float64(r.requests) / r.seconds
	}
	r.connect, r.read, r.write, r.status, r.timeout = v["connect"], v["read"], v["write"], v["status"], v["timeout"]
	r.p50, r.p90, r.p99, r.p999, r.max = ms("p50"), ms("p90"), ms("p99"), ms("p999"), ms("max")
	fmt.Fprintf(b.stderr, "%s\n", strings.TrimSpace(r.raw))
	return r, nil
}
