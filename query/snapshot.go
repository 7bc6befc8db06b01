package query

import (
	"context"
	"fmt"
	"github.com/daawid/registry/schemas/snapshotio"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daawid/registry/schemas"
)

// Snapshot is one publication opened for serving: its manifest, every
// document indexed in memory by what the routes look it up by, and its
// packs open for reading. It is immutable; Snapshots swaps whole ones.
type Snapshot struct {
	Dir      string
	Manifest schemas.Manifest
	docs     []schemas.DocRow
	byPath   map[string]int32 // documents served at a path (pages by language, markdown, JSON-LD, site files)
	byEntry  map[string]int32 // entry ID + "\x00" + kind + "\x00" + language
	packs    map[string]*os.File
	// entries: every entry served, by ID; bySlug its current slug.
	entries map[string]*entryInfo
	bySlug  map[string]string
	reg     *registryTables
	// standIns are entries re-rendered in memory because their
	// nextChangeAt came before a publication re-issued them (D66).
	standIns sync.Map // entry ID → *standIn

	refs    atomic.Int64
	retired atomic.Bool
	closed  sync.Once
}

// OpenSnapshot opens a publication directory: it reads the manifest and
// the document index chain (no document bytes) and opens the packs.
func OpenSnapshot(dir string) (*Snapshot, error) {
	m, err := snapshotio.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	s := &Snapshot{Dir: dir, Manifest: *m, byPath: map[string]int32{}, byEntry: map[string]int32{}, packs: map[string]*os.File{},
		entries: map[string]*entryInfo{}, bySlug: map[string]string{}}
	if s.docs, err = snapshotio.ReadDocs(dir, m); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	for i, d := range s.docs {
		switch d.Kind {
		case schemas.DocView, schemas.DocEntry:
			// looked up by entry and language only
		default:
			s.byPath[d.Path] = int32(i)
		}
		if d.EntryID == "" {
			continue
		}
		s.byEntry[d.EntryID+"\x00"+d.Kind+"\x00"+d.Lang] = int32(i)
		if d.Kind == schemas.DocMarkdown {
			info := s.entries[d.EntryID]
			if info == nil {
				// The default language's markdown comes first (D59).
				info = &entryInfo{ID: d.EntryID, Slug: d.Slug, DefaultLang: d.Lang, NextChangeAt: d.NextChangeAt}
				s.entries[d.EntryID] = info
				s.bySlug[d.Slug] = d.EntryID
			}
			info.Langs = append(info.Langs, d.Lang)
		}
	}
	if s.reg, err = readRegistryTables(dir); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	for _, p := range s.Manifest.Packs {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			s.close()
			return nil, fmt.Errorf("snapshot %s: %w", dir, err)
		}
		s.packs[p] = f
	}
	return s, nil
}

// entryInfo is what the server knows of an entry without reading a
// document.
type entryInfo struct {
	ID, Slug, DefaultLang string
	Langs                 []string // default first
	NextChangeAt          time.Time
}

// HasLang reports whether the entry is published in lang.
func (e *entryInfo) HasLang(lang string) bool {
	for _, l := range e.Langs {
		if l == lang {
			return true
		}
	}
	return false
}

// Doc finds the document served at a path ("/holzwerk-krause.md",
// "/holzwerk-krause/en", "/llms.txt").
func (s *Snapshot) Doc(path string) (schemas.DocRow, bool) {
	i, ok := s.byPath[path]
	if !ok {
		return schemas.DocRow{}, false
	}
	return s.docs[i], true
}

// EntryDoc finds an entry's document of a kind in a language ("" for the
// JSON-LD, which holds every language).
func (s *Snapshot) EntryDoc(entryID, kind, lang string) (schemas.DocRow, bool) {
	i, ok := s.byEntry[entryID+"\x00"+kind+"\x00"+lang]
	if !ok {
		return schemas.DocRow{}, false
	}
	return s.docs[i], true
}

// Content is a document's bytes, for http.ServeContent (ranges included).
func (s *Snapshot) Content(d schemas.DocRow) (*io.SectionReader, error) {
	f := s.packs[d.Pack]
	if f == nil {
		return nil, fmt.Errorf("snapshot %s: no pack %s", s.Dir, d.Pack)
	}
	return io.NewSectionReader(f, d.Offset, d.Length), nil
}

// Bytes reads a document whole.
func (s *Snapshot) Bytes(d schemas.DocRow) ([]byte, error) {
	r, err := s.Content(d)
	if err != nil {
		return nil, err
	}
	b := make([]byte, d.Length)
	_, err = io.ReadFull(r, b)
	return b, err
}

// Len is how many documents the snapshot serves.
func (s *Snapshot) Len() int { return len(s.docs) }

func (s *Snapshot) close() {
	s.closed.Do(func() {
		for _, f := range s.packs {
			f.Close()
		}
	})
}

// Release gives back a snapshot taken with Snapshots.Acquire; the last
// release of a retired snapshot closes its files.
func (s *Snapshot) Release() {
	if s.refs.Add(-1) == 0 && s.retired.Load() {
		s.close()
	}
}

// Snapshots is the server's current publication. A request takes the
// current snapshot with Acquire and releases it when done; Refresh swaps
// in a newer publication atomically, and the old one's files close after
// its last request, so a swap drops nothing.
type Snapshots struct {
	out string
	cur atomic.Pointer[Snapshot]
	mu  sync.Mutex // one refresh at a time
}

// OpenSnapshots opens the publication {out}/current points at.
func OpenSnapshots(out string) (*Snapshots, error) {
	s := NewSnapshots(out)
	if _, err := s.Refresh(); err != nil {
		return nil, err
	}
	return s, nil
}

// NewSnapshots serves the publications of out without opening one yet: a
// server can start before the first publication and is ready once
// Refresh (or Watch) finds it.
func NewSnapshots(out string) *Snapshots { return &Snapshots{out: out} }

// Ready reports whether a publication is open.
func (s *Snapshots) Ready() bool { return s.cur.Load() != nil }

// Acquire takes the current snapshot; call Release on it when done. It
// returns nil before the first publication is open.
func (s *Snapshots) Acquire() *Snapshot {
	for {
		sn := s.cur.Load()
		if sn == nil {
			return nil
		}
		sn.refs.Add(1)
		if !sn.retired.Load() {
			return sn
		}
		sn.Release() // swapped meanwhile: take the new one
	}
}

// Refresh opens the publication `current` points at if it is not the one
// served, and swaps to it. It reports whether it swapped.
func (s *Snapshots) Refresh() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	target, err := os.Readlink(filepath.Join(s.out, "current"))
	if err != nil {
		return false, fmt.Errorf("snapshots: no current publication in %s: %w", s.out, err)
	}
	dir := filepath.Join(s.out, target)
	if old := s.cur.Load(); old != nil && old.Dir == dir {
		return false, nil
	}
	sn, err := OpenSnapshot(dir)
	if err != nil {
		return false, err
	}
	sn.refs.Add(1) // the Snapshots' own reference
	if old := s.cur.Swap(sn); old != nil {
		old.retired.Store(true)
		old.Release()
	}
	return true, nil
}

// Watch refreshes every interval until ctx ends, logging swaps and
// failures (a publication that cannot be opened leaves the current one
// serving).
func (s *Snapshots) Watch(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			swapped, err := s.Refresh()
			switch {
			case err != nil:
				log.Error("snapshot refresh", "err", err)
			case swapped:
				sn := s.Acquire()
				log.Info("snapshot swapped", "publication", sn.Manifest.ID, "documents", sn.Len())
				sn.Release()
			}
		}
	}
}

// Close retires the current snapshot.
func (s *Snapshots) Close() {
	if sn := s.cur.Swap(nil); sn != nil {
		sn.retired.Store(true)
		sn.Release()
	}
}
