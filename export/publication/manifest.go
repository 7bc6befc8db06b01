package publication

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ReadManifest reads a publication's manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: manifest.json: %w", dir, err)
	}
	return &m, nil
}

// WriteManifest fills m.Files with the SHA-256 of every file of dir and
// writes dir/manifest.json atomically. A file linked from the previous
// publication prev (a directory, or "") keeps the checksum prevFiles
// records for it (the same immutable file), unless it is one of own, the
// files this publication wrote itself; the rest are hashed.
func WriteManifest(dir string, m *Manifest, prev string, prevFiles map[string]string, own ...string) error {
	return WriteManifestSums(dir, m, prev, prevFiles, nil, own...)
}

// WriteManifestSums is WriteManifest told the SHA-256 of some of the
// files (sums, by name) by their writer, who hashed their bytes as it
// wrote them: they are not read back (D133: a 10M-entry publication's
// pack is 50 GB, read again only to be hashed).
func WriteManifestSums(dir string, m *Manifest, prev string, prevFiles, sums map[string]string, own ...string) error {
	if m.Files == nil {
		m.Files = map[string]string{}
	}
	var names []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel = filepath.ToSlash(rel); rel != ManifestFile {
			names = append(names, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	mine := map[string]bool{}
	for _, o := range own {
		mine[o] = true
	}
	for _, name := range names {
		if sum, ok := sums[name]; ok {
			m.Files[name] = sum
			continue
		}
		if sum, ok := prevFiles[name]; ok && !mine[name] && prev != "" && sameFile(filepath.Join(dir, filepath.FromSlash(name)), filepath.Join(prev, filepath.FromSlash(name))) {
			m.Files[name] = sum
			continue
		}
		sum, err := FileSHA256(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		m.Files[name] = sum
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	af, err := CreateAtomic(filepath.Join(dir, ManifestFile))
	if err != nil {
		return err
	}
	if _, err := af.File.Write(append(b, '\n')); err != nil {
		af.Abort()
		return err
	}
	return af.Commit()
}

// sameFile reports whether two paths are links to one file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(sa, sb)
}

// FileSHA256 is the SHA-256 of a file in hex (manifests; the pipeline
// skips a register file compiled before by it).
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Verify checks a publication's files against its manifest.
func Verify(dir string) (*Manifest, error) { return VerifyExcept(dir, nil) }

// VerifyForServing checks what a server opens a publication by (the
// manifest, the document indexes, registry.duckdb, the feed, the exports)
// against the manifest, and leaves out the packs: their documents are
// checked one by one against the index's checksums as they are read
// (DocRow.Checksum), so one damaged document costs that document, not
// the publication, and a server does not hash gigabytes of packs before
// it serves (issue 15).
func VerifyForServing(dir string) (*Manifest, error) {
	return VerifyExcept(dir, func(name string) bool { return strings.HasPrefix(name, PacksDir+"/") })
}

// VerifyExcept is Verify for the files skip does not name (nil: none),
// in name order, so the first mismatch reported is always the same.
func VerifyExcept(dir string, skip func(name string) bool) (*Manifest, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if len(m.Files) == 0 {
		return nil, fmt.Errorf("%s: the manifest lists no files", dir)
	}
	names := make([]string, 0, len(m.Files))
	for name := range m.Files {
		if skip == nil || !skip(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		want := m.Files[name]
		got, err := FileSHA256(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		if got != want {
			return nil, fmt.Errorf("%s: SHA-256 %s, the manifest says %s", name, got, want)
		}
	}
	return m, nil
}

// AtomicFile is a file written under a temporary name and renamed into
// place once complete and synced: a crash mid-write leaves the previous
// file, or none.
type AtomicFile struct {
	path string
	File *os.File
}

// CreateAtomic starts an AtomicFile at path (its directory is made).
func CreateAtomic(path string) (*AtomicFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	return &AtomicFile{path: path, File: f}, nil
}

// Commit syncs the file and renames it into place.
func (a *AtomicFile) Commit() error {
	if err := a.File.Sync(); err != nil {
		a.Abort()
		return err
	}
	if err := a.File.Close(); err != nil {
		os.Remove(a.File.Name())
		return err
	}
	return os.Rename(a.File.Name(), a.path)
}

// Abort drops the file.
func (a *AtomicFile) Abort() {
	a.File.Close()
	os.Remove(a.File.Name())
}
