package counting

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Compaction merges a day's many small files (one a flush) into one. The
// merged file and its parts must never both be visible, or a reader
// summing them would count twice. So the merged file is written under a
// temporary name, then each part is hidden by a rename that names the
// merged file (P.parquet.into-M), then the merged file is renamed into
// place, then the hidden parts are deleted. A reader in between sees too
// few files for a moment, never too many; and after a crash, Open knows
// from each hidden part's name whether its merged file made it: if so
// the part goes, if not it comes back.

// hiddenInfix joins a hidden part's name to its merged file's stem.
const hiddenInfix = fileExt + ".into-"

// Compact merges the reads files and the searches files of a day
// (YYYY-MM-DD) into one file each. Reads are summed per entry and
// category; searches keep their order.
func (c *Counter) Compact(day string) error {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return fmt.Errorf("counting: compact: %w", err)
	}
	d := dayOf(t)
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if c.closed {
		return ErrClosed
	}
	return errors.Join(
		compactDir(c, c.dayDir(readsDir, d), sumReads),
		compactDir[searchRow](c, c.dayDir(searchesDir, d), nil))
}

// compactDir merges the files of one day directory; merge (nil: none)
// turns the rows of all of them, in file order, into the merged rows.
func compactDir[T any](c *Counter, dir string, merge func([]T) []T) error {
	names, err := dataFiles(dir)
	if errors.Is(err, os.ErrNotExist) || len(names) < 2 {
		return nil
	}
	if err != nil {
		return fmt.Errorf("counting: compact: %w", err)
	}
	var rows []T
	for _, n := range names {
		r, err := readParquet[T](filepath.Join(dir, n))
		if err != nil {
			return fmt.Errorf("counting: compact: %w", err)
		}
		rows = append(rows, r...)
	}
	if merge != nil {
		rows = merge(rows)
	}
	merged := c.nextName()
	path := filepath.Join(dir, merged)
	if err := writeTemp(path, rows); err != nil {
		return fmt.Errorf("counting: compact: %w", err)
	}
	undo := func(err error) error {
		return errors.Join(fmt.Errorf("counting: compact: %w", err), c.recoverDay(dir))
	}
	stem := strings.TrimSuffix(merged, fileExt)
	for _, n := range names {
		if err := os.Rename(filepath.Join(dir, n), filepath.Join(dir, strings.TrimSuffix(n, fileExt)+hiddenInfix+stem)); err != nil {
			return undo(err)
		}
	}
	// The parts must be hidden on disk before the merged file can appear.
	if err := syncDir(dir); err != nil {
		return undo(err)
	}
	if err := os.Rename(path+tmpExt, path); err != nil {
		return undo(err)
	}
	// Until the merged file's rename is durable, the hidden parts stay:
	// the next Open deletes them once it sees the merged file.
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("counting: compact: %w", err)
	}
	var errs []error
	for _, n := range names {
		if err := os.Remove(filepath.Join(dir, strings.TrimSuffix(n, fileExt)+hiddenInfix+stem)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("counting: compact: %w", errors.Join(errs...))
	}
	return syncDir(dir)
}

// sumReads sums one day's read rows per entry and category, sorted.
func sumReads(rows []readRow) []readRow {
	slices.SortFunc(rows, func(a, b readRow) int {
		return cmp.Or(cmp.Compare(a.EntryID, b.EntryID), cmp.Compare(a.Category, b.Category))
	})
	out := rows[:0]
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1].EntryID == r.EntryID && out[n-1].Category == r.Category {
			out[n-1].Reads += r.Reads
			continue
		}
		out = append(out, r)
	}
	return out
}

// recoverDay puts a day directory back in order after an interrupted
// flush or compaction: a hidden part is deleted if its merged file is in
// place and shown again if not, and temporary files go.
func (c *Counter) recoverDay(dir string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var restored, deleted, temps int
	var errs []error
	for _, de := range des {
		name := de.Name()
		part, merged, ok := strings.Cut(name, hiddenInfix)
		if !ok || strings.HasSuffix(name, tmpExt) {
			continue
		}
		switch _, err := os.Stat(filepath.Join(dir, merged+fileExt)); {
		case err == nil:
			errs, deleted = append(errs, os.Remove(filepath.Join(dir, name))), deleted+1
		case errors.Is(err, os.ErrNotExist):
			errs, restored = append(errs, os.Rename(filepath.Join(dir, name), filepath.Join(dir, part+fileExt))), restored+1
		default:
			// Not knowing whether the merged file is there, showing the
			// part could count it twice: leave it for the next Open.
			errs = append(errs, err)
		}
	}
	for _, de := range des {
		if strings.HasSuffix(de.Name(), tmpExt) {
			errs, temps = append(errs, os.Remove(filepath.Join(dir, de.Name()))), temps+1
		}
	}
	if restored+deleted+temps == 0 {
		return nil
	}
	c.log.Info("counting: cleared an interrupted write", "dir", dir, "parts_restored", restored, "parts_deleted", deleted, "temporary_files", temps)
	return errors.Join(append(errs, syncDir(dir))...)
}
