package pipeline

import (
	"context"
	"sort"
)

// entrySource is what a publication renders: a delta's changed entries
// (a few, held), or for a full publication every current entry of the
// state, streamed from it in storage order (issue 18: its memory does not
// grow with the registry).
type entrySource struct {
	st *State
	// changed are a delta's entries by key; nil streams the state.
	changed map[string]*EntryRow
	// reuse, for a full publication over one made by the same engine for
	// the same site, are its documents kept.
	reuse *reuse
}

// publishChunk is how many entries a publication reads and renders at
// once. Three chunks are in flight (read and rendered, waiting, appended):
// at 512 entries they hold about 50 MB, which with the entries step's
// collector setting is what the heap grows to (D119); both cores still
// have a chunk's entries to share.
const publishChunk = 512

// live calls fn with the live entries in storage order, in chunks.
func (src entrySource) live(ctx context.Context, fn func([]*EntryRow) error) error {
	if src.changed == nil {
		return src.st.ScanLive(ctx, publishChunk, fn)
	}
	var live []*EntryRow
	for _, r := range src.changed {
		if !r.Removed {
			live = append(live, r)
		}
	}
	inStorageOrder(live)
	for len(live) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := live[:min(publishChunk, len(live))]
		live = live[len(part):]
		if err := fn(part); err != nil {
			return err
		}
	}
	return nil
}

// removed is the removed entries, by entry ID.
func (src entrySource) removed(ctx context.Context) ([]*EntryRow, error) {
	if src.changed == nil {
		return src.st.Removed(ctx)
	}
	var out []*EntryRow
	for _, r := range src.changed {
		if r.Removed {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].EntryID < out[j].EntryID })
	return out, nil
}

// countLive is how many entries live calls fn with (for the progress).
func (src entrySource) countLive(ctx context.Context) (int64, error) {
	if src.changed == nil {
		return src.st.CountLive(ctx)
	}
	var n int64
	for _, r := range src.changed {
		if !r.Removed {
			n++
		}
	}
	return n, nil
}
