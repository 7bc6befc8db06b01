package pipeline

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/daawid/registry/export/publication"
)

// serveIndexes writes the server's indexes of a full publication
// (PublishConfig.ServeIndexes), or links a delta's from the publication
// before it when they are of the full index the delta goes over.
func (p *publisher) serveIndexes(dir string, src entrySource) error {
	if p.delta {
		prev := p.prevManifest.Serve
		if prev == nil || len(p.prevManifest.Index) == 0 || prev.Index != p.prevManifest.Index[0] {
			return nil
		}
		for _, name := range []string{prev.Docs, prev.Search} {
			if err := os.Link(filepath.Join(p.prevDir, filepath.FromSlash(name)), filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
		p.serve = prev
		return nil
	}
	if p.cfg.ServeIndexes == nil {
		return nil
	}
	// The state is read no more: its database gives its memory back before
	// the indexes are built, so that the publication's peak is the larger
	// of the two steps', not their sum (D115).
	if src.reuse != nil {
		src.reuse.close()
	}
	if err := p.st.Close(); err != nil {
		return err
	}
	files := publication.ServeFilesOf(p.rep.ID)
	if err := p.cfg.ServeIndexes(dir, files); err != nil {
		return err
	}
	p.serve = &files
	return nil
}

// linkPrevious links into the publication the indexes (for a delta) and
// the packs of the previous publication it points into, so it stands
// alone, and a pack lives as long as a publication uses it.
func (p *publisher) linkPrevious(dir string) error {
	if p.delta {
		for _, idx := range p.prevManifest.Index {
			if err := os.Link(filepath.Join(p.prevDir, filepath.FromSlash(idx)), filepath.Join(dir, filepath.FromSlash(idx))); err != nil {
				return err
			}
		}
		for _, pk := range p.prevManifest.Packs {
			p.packs[pk] = true
		}
	}
	for pk := range p.packs {
		if pk == publication.OwnPack(p.rep.ID) {
			continue
		}
		if err := os.Link(filepath.Join(p.prevDir, filepath.FromSlash(pk)), filepath.Join(dir, filepath.FromSlash(pk))); err != nil {
			return fmt.Errorf("link %s: %w", pk, err)
		}
	}
	return nil
}
