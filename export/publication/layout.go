package publication

import (
	"errors"
	"os"
	"path/filepath"
)

// The names of a publication's layout (doc.go).
const (
	PublicationsDir = "publications"
	CurrentLink     = "current"
	ManifestFile    = "manifest.json"
	RegistryFile    = "registry.duckdb"
	PacksDir        = "packs"
	IndexesDir      = "index"
	ExportsDir      = "exports"
)

// OwnPack is a publication's own pack, relative to its directory.
func OwnPack(id string) string { return PacksDir + "/" + id + ".pack" }

// OwnIndex is a publication's own document index, relative to its
// directory.
func OwnIndex(id string) string { return IndexesDir + "/" + id + ".parquet" }

// ServeFilesOf are the names of the server's indexes of a publication's
// own full index (D115).
func ServeFilesOf(id string) ServeFiles {
	return ServeFiles{Index: OwnIndex(id), Docs: IndexesDir + "/" + id + ".docs", Search: IndexesDir + "/" + id + ".search"}
}

// Current is the directory {out}/current points at.
func Current(out string) (string, error) {
	target, err := os.Readlink(filepath.Join(out, CurrentLink))
	if err != nil {
		return "", err
	}
	return filepath.Join(out, target), nil
}

// Swap points {out}/current at target (relative to out) with one rename
// of a new symlink over the old one: a reader sees the old or the new
// publication, never neither.
func Swap(out, target string) error {
	tmp := filepath.Join(out, CurrentLink+".tmp")
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(out, CurrentLink)); err != nil {
		return err
	}
	return SyncEntries(out)
}

// SyncTree syncs every file of a directory tree and the directories
// themselves, so a rename that publishes it is durable with its content.
func SyncTree(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, de := range entries {
		if de.IsDir() {
			if err := SyncTree(filepath.Join(dir, de.Name())); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(filepath.Join(dir, de.Name()))
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return SyncEntries(dir)
}

// SyncEntries syncs a directory itself: its list of entries (a rename or
// a new file in it is durable once this returns).
func SyncEntries(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// LinkTree hard-links every file of src into dst (the immutable files of
// the previous publication a new one carries over); a missing src links
// nothing.
func LinkTree(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return os.Link(path, target)
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
