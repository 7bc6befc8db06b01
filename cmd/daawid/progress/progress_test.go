package progress

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPublish_BarRateAndClearedLine: on a terminal, the publication's bar
// counts its rate from its start (a bar made at the first call reported
// millions of entries a second), and when it finishes its line is cleared
// and ended, so what is printed next starts on a clean line with nothing
// of the bar left after it.
func TestPublish_BarRateAndClearedLine(t *testing.T) {
	var w bytes.Buffer
	progress := Publish(&w, true, nil)
	time.Sleep(300 * time.Millisecond) // the publication opens and reads its state
	progress(500, 1000)
	time.Sleep(250 * time.Millisecond) // past the bar's throttle
	progress(1000, 1000)
	out := w.String()
	if !strings.Contains(out, "publishing entries") {
		t.Fatalf("no bar drawn: %q", out)
	}
	for _, m := range regexp.MustCompile(`(\d+) entries/s`).FindAllStringSubmatch(out, -1) {
		if n, _ := strconv.Atoi(m[1]); n > 5000 {
			t.Errorf("a rate of %s entries/s for 1000 entries in more than half a second", m[1])
		}
	}
	last := out[strings.LastIndexAny(out, "\r\n")+1:]
	if strings.TrimSpace(last) != "" {
		t.Errorf("the finished bar leaves %q on its line", last)
	}
}

// TestNewBar_FinishClears: a compile's bar, finished, leaves nothing on
// its line (the report used to be followed by a stray "compiling rows").
func TestNewBar_FinishClears(t *testing.T) {
	var w bytes.Buffer
	bar := NewBar(&w, -1, "compiling rows", "rows")
	bar.Add64(10)
	time.Sleep(250 * time.Millisecond)
	bar.Add64(10)
	bar.Finish()
	out := w.String()
	if last := out[strings.LastIndexAny(out, "\r\n")+1:]; strings.TrimSpace(last) != "" || !strings.Contains(out, "compiling rows") {
		t.Errorf("after Finish the line holds %q (all: %q)", last, out)
	}
}
