package query

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daawid/registry/export/publication"

	"github.com/VictoriaMetrics/fastcache"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
)

// Snapshot is one publication opened for serving: its manifest, every
// document indexed in memory by what the routes look it up by, and its
// packs open for reading. It is immutable; Snapshots swaps whole ones.
type Snapshot struct {
	Dir      string
	Manifest publication.Manifest
	ix       layers
	packs    map[string]*pack // by name
	cache    *fastcache.Cache // the server's document cache; nil: none
	reg      *registryTables
	search   *search.Searcher
	// routing is where requests go, from the publication's private file
	// outside its folder (issue 15); nil with routingErr when it has none.
	routing    *publication.Routing
	routingErr error
	// ServeFilesErr says why the server indexes the publication wrote
	// (D115) are not used, when they are not: the document index was read
	// and the search index built instead.
	ServeFilesErr error
	// standIns are entries re-rendered in memory because their
	// nextChangeAt came before a publication re-issued them (D66).
	standIns sync.Map // entry ID → *standIn
	// sitePacks are packs only registry-level files point into.
	sitePacks sync.Map // name → *sitePack

	refs    atomic.Int64
	retired atomic.Bool
	closed  sync.Once
}

// OpenSnapshot opens a publication directory: it reads the manifest and
// the document index chain (no document bytes) and opens the packs.
func OpenSnapshot(dir string) (*Snapshot, error) { return openSnapshot(dir, nil, nil, nil) }

// openSnapshot opens a publication; when the one before it (prev) starts
// its index chain with the same full index, that layer is shared, and
// only the deltas after it are read (D71).
func openSnapshot(dir string, prev *Snapshot, gaz *places.Gazetteer, cache *fastcache.Cache) (*Snapshot, error) {
	m, err := publication.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if len(m.Index) == 0 {
		return nil, fmt.Errorf("snapshot %s: the manifest lists no index", dir)
	}
	if m.Format > publication.FormatVersion {
		// A newer pack format may store documents in ways this engine
		// cannot read: refuse the publication at the door rather than
		// serve bytes as something they are not (issue 18).
		return nil, fmt.Errorf("snapshot %s: manifest field format: publication format %d is newer than this server reads (%d)", dir, m.Format, publication.FormatVersion)
	}
	s := &Snapshot{Dir: dir, Manifest: *m, packs: map[string]*pack{}, cache: cache}
	switch {
	case prev != nil && slices.Equal(prev.ix.base.files, m.Index[:1]):
		s.ix.base = prev.ix.base
		s.ix.base.acquire()
	case m.Serve != nil && m.Serve.Index == m.Index[0]:
		// The publication wrote its server's indexes: mapped, not built
		// (D115). Files this server cannot use (damaged, or of another
		// version) cost the time of building them, not the publication.
		if s.ix.base, s.ServeFilesErr = openServeFiles(dir, *m.Serve); s.ServeFilesErr == nil {
			break
		}
		fallthrough
	default:
		if s.ix.base, err = readDocIndex(dir, m.Index[:1]); err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", dir, err)
		}
	}
	if len(m.Index) > 1 {
		if s.ix.top, err = readDocIndex(dir, m.Index[1:]); err != nil {
			s.close()
			return nil, fmt.Errorf("snapshot %s: %w", dir, err)
		}
	}
	if s.reg, err = readRegistryTables(dir); err != nil {
		s.close()
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	// A publication without its routing file (copied without {out}/private,
	// or made before routing files) is served; only requests are refused
	// (Read.DeliveryAddress).
	s.routing, s.routingErr = publication.ReadRouting(publication.RoutingPathOf(dir), m.ID)
	for _, p := range s.ix.packs() {
		pk, err := openPack(filepath.Join(dir, filepath.FromSlash(p)), cache)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("snapshot %s: %w", dir, err)
		}
		s.packs[p] = pk
	}
	if gaz == nil {
		if gaz, err = places.Default(); err != nil {
			s.close()
			return nil, fmt.Errorf("snapshot %s: %w", dir, err)
		}
	}
	if err := s.openSearch(gaz); err != nil {
		s.close()
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	return s, nil
}

// Doc finds the document served at a path ("/holzwerk-krause.md",
// "/holzwerk-krause/en", "/llms.txt").
func (s *Snapshot) Doc(path string) (publication.DocRow, bool) {
	d, _, ok := s.docAt(path)
	return d, ok
}

// docAt finds the document served at a path, with its entry's languages.
func (s *Snapshot) docAt(path string) (publication.DocRow, []string, bool) {
	if d, ok := s.ix.site()[path]; ok {
		return d, nil, true
	}
	if len(path) < 2 || path[0] != '/' {
		return publication.DocRow{}, nil, false
	}
	ix, i, ok := s.ix.docAt(path)
	if !ok {
		return publication.DocRow{}, nil, false
	}
	return ix.rowAt(i, path), ix.langsOf(i), true
}

// EntryDoc finds an entry's document of a kind in a language ("" for the
// JSON-LD, which holds every language).
func (s *Snapshot) EntryDoc(entryID, kind, lang string) (publication.DocRow, bool) {
	d, _, ok := s.entryDoc(entryID, kind, lang)
	return d, ok
}

func (s *Snapshot) entryDoc(entryID, kind, lang string) (publication.DocRow, []string, bool) {
	e, ok := s.ix.byID(entryID)
	if !ok {
		return publication.DocRow{}, nil, false
	}
	i, ok := e.ix.entryDoc(e.at, kind, lang)
	if !ok {
		return publication.DocRow{}, nil, false
	}
	return e.ix.row(i), e.ix.langsOf(i), true
}

// pack is the open pack a document's bytes are in.
func (s *Snapshot) pack(name string) (*pack, error) {
	if p, ok := s.packs[name]; ok {
		return p, nil
	}
	if p := s.sitePack(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("snapshot %s: no pack %s", s.Dir, name)
}

// sitePack opens a pack only registry-level files are in (the
// publication's own pack of a delta that rendered no entry).
func (s *Snapshot) sitePack(name string) *pack {
	v, _ := s.sitePacks.LoadOrStore(name, &sitePack{})
	sp := v.(*sitePack)
	sp.once.Do(func() { sp.p, _ = openPack(filepath.Join(s.Dir, filepath.FromSlash(name)), s.cache) })
	return sp.p
}

type sitePack struct {
	once sync.Once
	p    *pack
}

// Bytes reads a document whole, decoded: its bytes as served without a
// content coding.
func (s *Snapshot) Bytes(d publication.DocRow) ([]byte, error) {
	p, err := s.pack(d.Pack)
	if err != nil {
		return nil, err
	}
	stored, err := p.appendAt(make([]byte, 0, d.Length), d.Offset, d.Length, d.Checksum, true)
	if err != nil || d.Encoding == publication.EncodingIdentity {
		return stored, err
	}
	return decodeDoc(make([]byte, 0, d.DecodedLength()), stored, &d)
}

// Len is how many documents the snapshot serves.
func (s *Snapshot) Len() int { return s.ix.live() }

func (s *Snapshot) close() {
	s.closed.Do(func() {
		s.ix.base.release()
		for _, p := range s.packs {
			p.f.Close()
		}
		s.sitePacks.Range(func(_, v any) bool {
			if p := v.(*sitePack).p; p != nil {
				p.f.Close()
			}
			return true
		})
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
	// Gazetteer places entries and queries for search; nil: the bundled
	// one (places.Default). Set it before the first Refresh.
	Gazetteer *places.Gazetteer
	// DocCacheBytes is the size of the document cache all the
	// publications served share (D74); 0: none. Set it before the first
	// Refresh.
	DocCacheBytes int
	cache         atomic.Pointer[fastcache.Cache]
	cur           atomic.Pointer[Snapshot]
	mu            sync.Mutex // one refresh at a time
	// fallback says why the served publication is not current's: set
	// when the server started on a current that does not verify (issue
	// 15), cleared when a publication current points at is served.
	fallback atomic.Pointer[Fallback]
}

// Fallback is a start on a damaged current: the publication current
// points at (Current) failed verification (Reason), and the newest
// publication that verifies (Serving) is served instead, until current
// points at another publication.
type Fallback struct {
	Current, Serving, Reason string
}

// Fallback reports whether the server serves an older publication because
// current did not verify when it started; nil: it serves current.
func (s *Snapshots) Fallback() *Fallback { return s.fallback.Load() }

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
//
// The first publication a server opens is verified against its manifest
// first (publication.VerifyForServing): a start on a current that does
// not verify, or does not open, serves the newest publication of the
// folder that does, and Fallback says so (issue 15). Later swaps are not
// hashed again: the pipeline has just written and synced them, and their
// documents are checked by their checksums as they are read.
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
	if fb := s.fallback.Load(); fb != nil && fb.Current == dir {
		return false, nil // still the damaged one: keep serving the fallback
	}
	if s.cur.Load() == nil {
		return s.start(dir)
	}
	return s.swapTo(dir)
}

// start opens the first publication: current's when it verifies and
// opens, else the newest other one that does.
func (s *Snapshots) start(dir string) (bool, error) {
	err := s.verifyAndSwap(dir)
	if err == nil {
		return true, nil
	}
	for _, alt := range s.publicationsNewestFirst(dir) {
		if s.verifyAndSwap(alt) == nil {
			s.fallback.Store(&Fallback{Current: dir, Serving: alt, Reason: err.Error()})
			return true, nil
		}
	}
	return false, fmt.Errorf("snapshots: the current publication %s does not verify (%w), and no other publication in %s does", dir, err, s.out)
}

func (s *Snapshots) verifyAndSwap(dir string) error {
	if _, err := publication.VerifyForServing(dir); err != nil {
		return err
	}
	_, err := s.swapTo(dir)
	return err
}

// publicationsNewestFirst lists the publications of the folder other than
// skip, newest first by their manifests' creation time (then ID); a
// directory without a readable manifest is left out, and so is an
// unfinished one (.tmp).
func (s *Snapshots) publicationsNewestFirst(skip string) []string {
	root := filepath.Join(s.out, publication.PublicationsDir)
	des, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	type pub struct{ dir, created, id string }
	var pubs []pub
	for _, de := range des {
		dir := filepath.Join(root, de.Name())
		if !de.IsDir() || filepath.Ext(de.Name()) == ".tmp" || dir == filepath.Clean(skip) {
			continue
		}
		m, err := publication.ReadManifest(dir)
		if err != nil {
			continue
		}
		pubs = append(pubs, pub{dir, m.CreatedAt, m.ID})
	}
	slices.SortFunc(pubs, func(a, b pub) int {
		if a.created != b.created {
			return strings.Compare(b.created, a.created)
		}
		return strings.Compare(b.id, a.id)
	})
	out := make([]string, len(pubs))
	for i, p := range pubs {
		out[i] = p.dir
	}
	return out
}

// swapTo opens a publication and makes it the one served.
func (s *Snapshots) swapTo(dir string) (bool, error) {
	prev := s.cur.Load()
	if prev != nil {
		prev.refs.Add(1) // held while its full layer is looked at
		defer prev.Release()
	}
	if s.cache.Load() == nil && s.DocCacheBytes > 0 {
		s.cache.Store(fastcache.New(s.DocCacheBytes))
	}
	sn, err := openSnapshot(dir, prev, s.Gazetteer, s.cache.Load())
	if err != nil {
		return false, err
	}
	sn.refs.Add(1) // the Snapshots' own reference
	s.fallback.Store(nil)
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
				if sn.ServeFilesErr != nil {
					log.Warn("the publication's server indexes were built again, not mapped", "publication", sn.Manifest.ID, "err", sn.ServeFilesErr)
				}
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
