package schemas

import (
	"encoding/json"
	"time"
)

// Clone returns a deep copy of the entry, so a new revision can be derived
// without touching the one it came from.
func (e *Entry) Clone() *Entry {
	b, err := json.Marshal(e)
	if err != nil {
		panic("schemas: an entry does not marshal: " + err.Error())
	}
	var c Entry
	if err := json.Unmarshal(b, &c); err != nil {
		panic("schemas: an entry does not round-trip: " + err.Error())
	}
	return &c
}

// FormatTime writes an instant the way the registry stores it: UTC, whole
// seconds, "Z".
func FormatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }
