// Package inbox is the serving side's one crossing into the pipeline
// (ARCHITECTURE: the server never writes the state): owner edits go into
// the owner inbox folder the compile merges (decision D95), and
// verification events are appended to the events file it reads (D49).
package inbox

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/daawid/registry/schemas"
	"github.com/oklog/ulid/v2"
)

// Inbox writes into the pipeline's inputs.
type Inbox struct {
	// Dir is the owner inbox folder; "" refuses edits.
	Dir string
	// Events is the verification events file (JSON lines); "" refuses
	// events.
	Events string
	mu     sync.Mutex
}

// ErrClosed says the registry takes no edits or events here.
var ErrClosed = errors.New("this registry takes no owner changes")

// WriteEdit writes an edit as a new file of the owner inbox and returns its
// name. The file appears whole or not at all: it is written under a name
// the compile does not read, synced, then renamed. Names sort by the
// edit's time, so the compile applies edits in the order they were made.
func (b *Inbox) WriteEdit(ed *schemas.OwnerEdit, now time.Time) (string, error) {
	if b == nil || b.Dir == "" {
		return "", ErrClosed
	}
	ed.Type = schemas.EditType
	data, err := json.MarshalIndent(ed, "", "  ")
	if err != nil {
		return "", err
	}
	id := strings.ToLower(ulid.MustNew(ulid.Timestamp(now), rand.Reader).String())
	name := fmt.Sprintf("%s-%s-%s.json", now.UTC().Format("20060102T150405Z"), ed.Entry, id)
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(b.Dir, ".edit-*.tmp")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(append(data, '\n'))
	if serr := tmp.Sync(); err == nil {
		err = serr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(b.Dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("owner inbox: %w", err)
	}
	return name, nil
}

// Event is one verification event (D49), as the compile reads it.
type Event struct {
	Entry  string `json:"entry"`
	Type   string `json:"type"`
	At     string `json:"at"`
	Host   string `json:"host,omitempty"`
	Method string `json:"method,omitempty"`
}

// AppendEvent appends an event to the events file, synced before it
// returns, one writer at a time.
func (b *Inbox) AppendEvent(ev Event) error {
	if b == nil || b.Events == "" {
		return ErrClosed
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(b.Events), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(b.Events, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
