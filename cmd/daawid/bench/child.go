package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// benchDir is the benchmark's working directory: dir, or a new temporary
// one removed by cleanup.
func benchDir(dir string) (work string, cleanup func(), err error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	d, err := os.MkdirTemp("", "daawid-bench-")
	if err != nil {
		return "", nil, err
	}
	return d, func() { os.RemoveAll(d) }, nil
}

// generate writes the synthetic data with a child process (on Linux a
// child's peak RSS starts at its parent's, so this process stays small
// and every step's figure is its own) and returns this binary and the
// --register flags of the register files.
func generate(data string, entries int, seed int64) (exe string, registers []string, err error) {
	if exe, err = os.Executable(); err != nil {
		return "", nil, err
	}
	os.RemoveAll(data)
	gen := exec.Command(exe, "fixtures", "generate", "--entries", fmt.Sprint(entries), "--seed", fmt.Sprint(seed), "--out", data, "--sites", "-1")
	if out, err := gen.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("generate: %v: %s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(data, "registers", "*"))
	for _, f := range files {
		registers = append(registers, "--register", f)
	}
	return exe, registers, nil
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	buf []byte
	max int
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// childResult is one step of a benchmark: its wall time, its peak RSS in
// MB and what it printed.
type childResult struct {
	wall float64
	rss  int64
	out  []byte
}

// runChild runs one step as a child process, after syncing the files of
// the steps before so their write-back does not land in its time. A step
// that fails is reported with the last lines it logged.
func runChild(exe string, args ...string) (childResult, error) {
	syscall.Sync()
	cmd := exec.Command(exe, args...)
	var b bytes.Buffer
	logTail := &tailWriter{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = &b, logTail
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return childResult{}, fmt.Errorf("%v: %w; its last log lines:\n%s", args[:min(2, len(args))], err, logTail.buf)
	}
	r := childResult{wall: time.Since(start).Seconds(), out: b.Bytes()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss / 1024 // kilobytes on Linux
	}
	return r, nil
}
