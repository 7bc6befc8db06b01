package publication

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Where a request goes is private (D15, D75; issue 15: a publication holds
// only public data, so whoever copies or mirrors a publication's folder
// copies no private address). The pipeline writes it for each publication
// to a file of its own outside the publication's folder:
//
//	{out}/private/{pubId}.routing.json   {"publication", "entries": {entry ID: {action ID: address}}}
//
// written before the swap that makes the publication current, pruned with
// it, and never part of the manifest, the static tree or the exports. The
// server reads it when it opens the publication.

// PrivateDir is the folder of {out} that holds what a publication must not
// carry; only the pipeline and the server read it.
const PrivateDir = "private"

const routingSuffix = ".routing.json"

// Routing is where the requests of a publication's entries go: for each
// entry with an enabled action that has an address, the address by action
// ID (schemas.Entry.DeliveryAddresses).
type Routing struct {
	Publication string                       `json:"publication"`
	Entries     map[string]map[string]string `json:"entries"`
}

// Address is where a request of an entry's action goes; "" when the
// routing has none.
func (r *Routing) Address(entryID, actionID string) string {
	return r.Entries[entryID][actionID]
}

// RoutingPath is the routing file of the publication pubID under out.
func RoutingPath(out, pubID string) string {
	return filepath.Join(out, PrivateDir, pubID+routingSuffix)
}

// RoutingPathOf is the routing file of the publication in dir
// ({out}/publications/{pubId}).
func RoutingPathOf(dir string) string {
	dir = filepath.Clean(dir)
	return RoutingPath(filepath.Dir(filepath.Dir(dir)), filepath.Base(dir))
}

// RoutingIDs are the publications the routing files under out belong to.
func RoutingIDs(out string) ([]string, error) {
	des, err := os.ReadDir(filepath.Join(out, PrivateDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, de := range des {
		if id, ok := strings.CutSuffix(de.Name(), routingSuffix); ok && !de.IsDir() {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// WriteRouting writes a publication's routing file atomically (a crash
// leaves the previous file or none), readable by its owner only. Its JSON
// has sorted keys (encoding/json sorts a map's), so the same routing gives
// the same bytes.
func WriteRouting(out string, r *Routing) error {
	if r.Publication == "" {
		return errors.New("routing: no publication ID")
	}
	if r.Entries == nil {
		r.Entries = map[string]map[string]string{}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("routing %s: %w", r.Publication, err)
	}
	dir := filepath.Join(out, PrivateDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("routing %s: %w", r.Publication, err)
	}
	f, err := CreateAtomic(RoutingPath(out, r.Publication))
	if err != nil {
		return fmt.Errorf("routing %s: %w", r.Publication, err)
	}
	if err := f.File.Chmod(0o600); err != nil {
		f.Abort()
		return fmt.Errorf("routing %s: %w", r.Publication, err)
	}
	if _, err := f.File.Write(append(b, '\n')); err != nil {
		f.Abort()
		return fmt.Errorf("routing %s: %w", r.Publication, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("routing %s: %w", r.Publication, err)
	}
	return SyncEntries(dir)
}

// ReadRouting reads a routing file; an error wrapping os.ErrNotExist
// when there is none. A file that names another publication is refused,
// so a request never goes where another publication's entry said.
func ReadRouting(path, pubID string) (*Routing, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("routing: %w", err)
	}
	var r Routing
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("routing %s: %w", path, err)
	}
	if r.Publication != pubID {
		return nil, fmt.Errorf("routing %s: names the publication %q, not %q", path, r.Publication, pubID)
	}
	if r.Entries == nil {
		r.Entries = map[string]map[string]string{}
	}
	return &r, nil
}
