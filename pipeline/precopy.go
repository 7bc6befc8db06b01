package pipeline

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
)

// registryPrecopy is a copy of the current publication's registry.duckdb
// that a delta run (Run) starts before its compile; the delta publication
// then takes it instead of copying the file itself. At 10M entries the
// file is 1.3 GB and its copy took 0.5–4.5 s on the 2-core machine, most
// of a delta's wait; made during the compile, it costs the run nothing
// it was not already waiting for (issue 18, D128).
//
// The copy is written to {out}/.registry-precopy.duckdb, beside
// publications/ rather than in it, so that nothing syncing the
// publications ever sees it; a run that dies leaves it to the next run,
// which writes over it or removes it.
type registryPrecopy struct {
	src, path string
	done      chan error
	once      sync.Once
	err       error
}

// precopyPath is where a delta run's copy of the registry is made.
func precopyPath(out string) string { return filepath.Join(out, ".registry-precopy.duckdb") }

// startRegistryPrecopy starts copying the current publication's
// registry.duckdb; nil when there is no current publication.
func startRegistryPrecopy(out string) *registryPrecopy {
	cur, err := publication.Current(out)
	if err != nil {
		return nil
	}
	c := &registryPrecopy{src: filepath.Join(cur, publication.RegistryFile), path: precopyPath(out), done: make(chan error, 1)}
	go func() { c.done <- export.CopyRegistryFile(c.src, c.path) }()
	return c
}

// wait waits for the copy, once.
func (c *registryPrecopy) wait() error {
	c.once.Do(func() { c.err = <-c.done })
	return c.err
}

// take puts a copy of the registry database src at dst: the copy made
// ahead, moved there, when it is a whole copy of src; else (none made, or
// of another publication, or failed) a copy made now.
func (c *registryPrecopy) take(src, dst string) error {
	if c != nil {
		if err := c.wait(); err == nil && c.src == src {
			if err := os.Rename(c.path, dst); err == nil {
				return nil
			}
		}
		os.Remove(c.path)
	}
	return export.CopyRegistryFile(src, dst)
}

// discard waits for a copy nothing took and removes it.
func (c *registryPrecopy) discard() {
	if c == nil {
		return
	}
	c.wait()
	os.Remove(c.path)
}

// removeStalePrecopy removes a copy a run that died left behind.
func removeStalePrecopy(out string) { os.Remove(precopyPath(out)) }
