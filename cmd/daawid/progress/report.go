package progress

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/daawid/registry/pipeline"
	"golang.org/x/term"
)

// PrintRun prints a run's reports: as JSON (the compile's alone, or both
// under "compile" and "publish"), or as tables.
func PrintRun(stdout io.Writer, jsonOut bool, rep *pipeline.Report, pub *pipeline.PublishReport) {
	if jsonOut {
		v := any(rep)
		if pub != nil {
			v = map[string]any{"compile": rep, "publish": pub}
		}
		b, _ := json.MarshalIndent(v, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return
	}
	PrintReport(stdout, rep)
	if pub != nil {
		fmt.Fprintf(stdout, "publication %s (run %s)\n", pub.ID, pub.Run)
		for _, row := range [][2]any{{"entries", pub.Entries}, {"removed", pub.Removed}, {"documents", pub.Documents},
			{"rendered", pub.Rendered}, {"copied from the previous publication", pub.Reused}, {"bytes", pub.Bytes}} {
			fmt.Fprintf(stdout, "  %-36s %10v\n", row[0], row[1])
		}
		fmt.Fprintf(stdout, "  %-36s %10.2f\n", "seconds", pub.Seconds)
	}
}

// IsTerminal reports whether w is a terminal, where bars are drawn.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// PrintReport writes the run report as a table and its problems.
func PrintReport(w io.Writer, r *pipeline.Report) {
	fmt.Fprintf(w, "run %s at %s\n", r.RunID, r.Now.Format(time.RFC3339))
	rows := [][2]any{
		{"rows read", r.RowsRead}, {"rows skipped", r.RowsSkipped}, {"warnings (row kept)", r.Warnings},
		{"register files skipped (unchanged)", r.FilesSkipped}, {"new entries", r.NewEntries},
		{"new revisions", r.Compiled}, {"unchanged", r.Unchanged}, {"owner revisions merged", r.Merged},
		{"owner revisions refused", r.Refused}, {"verification events", r.Events}, {"expired", r.Expired},
		{"removed (dissolved)", r.Removed}, {"websites crawled", r.SitesCrawled}, {"websites matched", r.SitesMatched},
	}
	for _, row := range rows {
		fmt.Fprintf(w, "  %-36s %10v\n", row[0], row[1])
	}
	fmt.Fprintf(w, "  %-36s %10.2f\n", "seconds (read, compile, commit, total)", r.Seconds.Total)
	fmt.Fprintf(w, "  %-36s %.2f / %.2f / %.2f\n", "", r.Seconds.Read, r.Seconds.Compile, r.Seconds.Commit)
	if r.RowsRead > 0 && r.Seconds.Total > 0 {
		fmt.Fprintf(w, "  %-36s %10.0f\n", "rows per second", float64(r.RowsRead)/r.Seconds.Total)
	}
	if len(r.Problems) > 0 {
		fmt.Fprintf(w, "problems (%d shown; all are in the state's refused table):\n", len(r.Problems))
		for _, p := range r.Problems {
			loc := p.File
			if p.Line > 0 {
				loc += fmt.Sprintf(":%d", p.Line)
			}
			if p.Path != "" {
				loc += " " + p.Path
			}
			kept := ""
			if p.Kept {
				kept = " (kept)"
			}
			fmt.Fprintf(w, "  %s: %s%s\n", loc, p.Reason, kept)
		}
	}
}
