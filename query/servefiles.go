package query

import (
	"bufio"
	"fmt"
	"path/filepath"
	"runtime/debug"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
)

// WriteServeFiles writes the server's indexes of a publication's full
// document index (D115): the document index as the server looks
// documents up, and the entries' search index, each a sections file the
// server memory-maps at open instead of building it in its heap. The
// pipeline calls it through PublishConfig.ServeIndexes (the pipeline does
// not import the serving side; cmd wires the two), once the index and the
// packs it points into are written. gaz places the entries (nil: the
// bundled gazetteer).
//
// What it holds grows with the entries (about 0.3 KB an entry for the
// document index, then 0.7 KB for the search index being built), so it
// collects its garbage at a quarter of the live heap, not at all of it: a
// publication's peak stays within its stated budget (D113, D115).
func WriteServeFiles(dir string, files publication.ServeFiles, gaz *places.Gazetteer) error {
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	// What the process freed before goes back to the system first: the
	// peak is then the build's, not the build's over the rest (D115).
	debug.FreeOSMemory()
	if gaz == nil {
		// The bundled gazetteer loads (once) while the document index is
		// read: it is needed only for the search index after.
		go places.Default()
	}
	// The document index is read with its arrays spilled to temporary
	// files beside it as it is read (docspill.go, D116).
	docsPath := filepath.Join(dir, filepath.FromSlash(files.Docs))
	sp, err := newDocSpill(filepath.Dir(docsPath))
	if err != nil {
		return err
	}
	defer sp.close()
	built, err := readDocIndexSpilling(dir, []string{files.Index}, sp)
	if err != nil {
		return err
	}
	if err := writeAtomic(docsPath, func(f *publication.AtomicFile) error {
		w := bufio.NewWriterSize(f.File, 1<<20)
		if _, err := writeDocFile(w, built); err != nil {
			return err
		}
		return w.Flush()
	}); err != nil {
		return fmt.Errorf("document index file: %w", err)
	}
	// The search index grows without the document index: only where each
	// entry's search record lies is kept (24 bytes an entry, D116).
	refs := sp.refs
	built = nil
	if err := sp.close(); err != nil {
		return err
	}
	if gaz == nil {
		if gaz, err = places.Default(); err != nil {
			return err
		}
	}
	packs := map[string]*pack{}
	defer func() {
		for _, p := range packs {
			p.f.Close()
		}
	}()
	for _, name := range refs.packs {
		p, err := openPack(filepath.Join(dir, filepath.FromSlash(name)), nil)
		if err != nil {
			return err
		}
		packs[name] = p
	}
	// The builder holds of the arrays growing with the entries only the
	// entry being added; the rest waits in temporary files beside the
	// index, copied into the search file at the end (D116).
	searchPath := filepath.Join(dir, filepath.FromSlash(files.Search))
	b, err := search.NewSpillingBuilder(gaz, filepath.Dir(searchPath))
	if err != nil {
		return err
	}
	defer b.Close()
	if err := addSearchRecords(b, refs, packs); err != nil {
		return err
	}
	refs = nil
	if err := writeAtomic(searchPath, func(f *publication.AtomicFile) error {
		w := bufio.NewWriterSize(f.File, 1<<20)
		if _, err := b.WriteFile(w); err != nil {
			return err
		}
		return w.Flush()
	}); err != nil {
		return fmt.Errorf("search index file: %w", err)
	}
	return nil
}

func writeAtomic(path string, write func(*publication.AtomicFile) error) error {
	f, err := publication.CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// openServeFiles maps a publication's server indexes of its full layer.
func openServeFiles(dir string, files publication.ServeFiles) (*docIndex, error) {
	m, err := publication.MapFile(filepath.Join(dir, filepath.FromSlash(files.Docs)))
	if err != nil {
		return nil, err
	}
	ix, err := openDocFile(m)
	if err != nil {
		m.Release()
		return nil, fmt.Errorf("%s: %w", files.Docs, err)
	}
	search := filepath.Join(dir, filepath.FromSlash(files.Search))
	if ix.search.mapped, err = publication.MapFile(search); err != nil {
		m.Release()
		return nil, err
	}
	// Both files read into the page cache behind the first requests
	// (D129): the search file first, whose cold postings cost the most.
	// Best effort: a file that cannot be advised is still read as used.
	go func() {
		publication.PrefetchFile(search)
		publication.PrefetchFile(filepath.Join(dir, filepath.FromSlash(files.Docs)))
	}()
	return ix, nil
}

// acquire takes a reference to the files a layer lies in, for a snapshot
// that serves it; release gives it back, and the last one unmaps them.
func (ix *docIndex) acquire() {
	if ix != nil && ix.mapped != nil {
		ix.mapped.Acquire()
		ix.search.mapped.Acquire()
	}
}

func (ix *docIndex) release() {
	if ix != nil && ix.mapped != nil {
		ix.mapped.Release()
		ix.search.mapped.Release()
	}
}

// ServeIndexer is WriteServeFiles for PublishConfig.ServeIndexes, placing
// entries with gaz (nil: the bundled gazetteer).
func ServeIndexer(gaz *places.Gazetteer) func(dir string, files publication.ServeFiles) error {
	return func(dir string, files publication.ServeFiles) error { return WriteServeFiles(dir, files, gaz) }
}
