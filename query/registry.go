package query

import (
	"context"
	"time"

	"github.com/daawid/registry/export/publication"
)

// registryTables is what the server keeps in memory from a publication's
// registry.duckdb besides the documents: the entries that left the
// registry (410), the hosts verified entries answer by-domain lookups for,
// and the slugs entries had before a rename. Each is small next to the
// documents: only removed entries, verified hosts and renames have rows.
// They are read through the publication format's typed readers.
type registryTables struct {
	removed     map[string]removedEntry // entry ID → when and why
	removedSlug map[string]string       // slug → entry ID
	hosts       map[string]string       // verified host → entry ID
	oldSlugs    map[string]string       // old slug → entry ID
}

type removedEntry struct {
	Slug   string
	At     time.Time
	Reason string
}

func readRegistryTables(dir string) (*registryTables, error) {
	reg, err := publication.OpenRegistry(dir)
	if err != nil {
		return nil, err
	}
	defer reg.Close()
	ctx := context.Background()
	t := &registryTables{removed: map[string]removedEntry{}, removedSlug: map[string]string{}, hosts: map[string]string{}, oldSlugs: map[string]string{}}
	if err := reg.RemovedEntries(ctx, func(e publication.RemovedEntry) error {
		t.removed[e.EntryID], t.removedSlug[e.Slug] = removedEntry{Slug: e.Slug, At: e.At, Reason: e.Reason}, e.EntryID
		return nil
	}); err != nil {
		return nil, err
	}
	if err := reg.VerifiedHosts(ctx, func(host, id string) error {
		t.hosts[host] = id
		return nil
	}); err != nil {
		return nil, err
	}
	if err := reg.OldSlugs(ctx, func(slug, id string) error {
		t.oldSlugs[slug] = id
		return nil
	}); err != nil {
		return nil, err
	}
	return t, nil
}
