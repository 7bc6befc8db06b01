package mail

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// maildir files messages into a Maildir: each one is written whole under
// tmp/ and then renamed into new/, so that a reader never sees half a
// message. (No Maildir module could be had from the module proxy, and the
// convention is these few lines.)
type maildir struct {
	dir  string
	now  func() time.Time
	host string
	pid  int
	seq  atomic.Uint64
}

// openMaildir makes dir and its tmp, new and cur folders when missing.
func openMaildir(dir string, now func() time.Time) (*maildir, error) {
	for _, sub := range []string{"tmp", "new", "cur"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("maildir %s: %w", dir, err)
		}
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	// The Maildir convention escapes "/" and ":" in the host part, since ":"
	// starts the info part of a file name in cur/.
	host = strings.NewReplacer("/", `\057`, ":", `\072`).Replace(host)
	return &maildir{dir: dir, now: now, host: host, pid: os.Getpid()}, nil
}

// deliver writes r into new/ and returns the file's path. A message that
// fails half-way, too large for instance, leaves nothing behind.
func (m *maildir) deliver(r io.Reader) (path string, err error) {
	name, err := m.uniqueName()
	if err != nil {
		return "", err
	}
	tmp := filepath.Join(m.dir, "tmp", name)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = io.Copy(f, r); err != nil {
		return "", err
	}
	// Synced before the rename: once the file is in new/, the sender has
	// been told 250 and will not send it again.
	if err = f.Sync(); err != nil {
		return "", err
	}
	if err = f.Close(); err != nil {
		return "", err
	}
	path = filepath.Join(m.dir, "new", name)
	if err = os.Rename(tmp, path); err != nil {
		return "", err
	}
	return path, nil
}

// uniqueName is time.MmicrosecondsPpidQcounterRrandom.host, after the
// Maildir convention; the random part keeps two catchers in one process,
// filing into one folder, apart.
func (m *maildir) uniqueName() (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	t := m.now()
	return fmt.Sprintf("%d.M%06dP%dQ%dR%s.%s",
		t.Unix(), t.Nanosecond()/1000, m.pid, m.seq.Add(1), hex.EncodeToString(b[:]), m.host), nil
}
