package pipeline

import (
	"errors"
	"fmt"
	"maps"
	"os"

	"github.com/daawid/registry/export/publication"
)

// Where a request goes (D75) is private, so it is not in the publication
// (issue 15): each publication gets a routing file of its own outside its
// folder (publication.Routing), with the addresses of every entry it
// serves. A delta starts from the current publication's file and changes
// the entries it renders or removes; a full publication takes the
// addresses of the entries it reuses from it too.

// readPreviousRouting reads the current publication's routing file and
// reports whether the publication may reuse its documents. Without the
// file (a publication made before routing files, or the file is lost)
// nothing is reused: every entry is rendered again, so no document of an
// older pack, which may hold private parts, is carried on, and every
// address is computed anew.
func (p *publisher) readPreviousRouting(prevID string) bool {
	r, err := publication.ReadRouting(publication.RoutingPath(p.cfg.OutDir, prevID), prevID)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			p.log.Warn("previous routing unreadable; publishing in full", "err", err)
		}
		return false
	}
	p.prevRoutes = r.Entries
	return true
}

// startRouting starts the publication's routes: the current publication's
// for a delta (it changes only the entries it renders or removes), none
// for a full publication (every entry is rendered or reused).
func (p *publisher) startRouting() {
	p.routes = map[string]map[string]string{}
	if p.delta {
		maps.Copy(p.routes, p.prevRoutes)
	}
}

// route sets where the requests of an entry's actions go; nil: nowhere.
func (p *publisher) route(entryID string, to map[string]string) {
	if len(to) == 0 {
		delete(p.routes, entryID)
		return
	}
	p.routes[entryID] = to
}

// writeRouting writes the publication's routing file, before the swap
// that makes it current (a server that opens it finds its file).
func (p *publisher) writeRouting() error {
	r := &publication.Routing{Publication: p.rep.ID, Entries: p.routes}
	if err := publication.WriteRouting(p.cfg.OutDir, r); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}
