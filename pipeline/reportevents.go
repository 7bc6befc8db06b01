package pipeline

import (
	"bufio"
	"encoding/json"
	"os"
	"time"

	"github.com/daawid/registry/schemas"
)

// ReportEvents writes report_opened events for n listed entries (the
// first by entry ID): each gives its entry a new revision, the changes of
// the delta benchmark. It stays in the pipeline, unlike the benchmark
// harness in cmd/daawid/bench, because it reads the state's own tables and
// the snapshot layer tests of query use it as well.
func ReportEvents(stateDir, path string, n int, at time.Time) error {
	st, err := OpenState(stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.db.Query(`SELECT entry_id FROM entries WHERE removed_at IS NULL ORDER BY entry_id LIMIT ?`, n)
	if err != nil {
		return err
	}
	defer rs.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			f.Close()
			return err
		}
		line, _ := json.Marshal(map[string]string{"entry": id, "type": "report_opened", "at": schemas.FormatTime(at)})
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
