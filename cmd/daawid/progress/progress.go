// Package progress shows a run's progress: a bar on a terminal, log lines
// otherwise. The bar is cleared when it finishes, so the report printed
// after it starts on a clean line.
package progress

import (
	"io"
	"log/slog"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Publish shows a publication's progress: a bar on a terminal,
// log lines every 50 000 entries otherwise.
func Publish(stderr io.Writer, tty bool, log *slog.Logger) func(done, total int64) {
	if tty {
		// The bar starts now, not at the first entry, so its rate counts
		// from the publication's start (a bar made at the first call saw
		// millions of reused entries in no time).
		bar := NewBar(stderr, -1, "publishing entries", "entries")
		sized := false
		return func(done, total int64) {
			if !sized {
				sized = true
				bar.ChangeMax64(total)
			}
			bar.Set64(done)
			if done == total {
				bar.Finish()
			}
		}
	}
	var last int64
	return func(done, total int64) {
		if done-last >= 50_000 || done == total {
			last = done
			log.Info("publish progress", "entries", done, "of", total)
		}
	}
}

// NewBar is a progress bar on a terminal: count, rate and elapsed time,
// redrawn at most five times a second, and cleared when it finishes, so
// the report printed after it starts on a clean line with nothing left
// of the bar.
func NewBar(w io.Writer, max int64, what, unit string) *progressbar.ProgressBar {
	return progressbar.NewOptions64(max, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
}
