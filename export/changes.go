package export

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
)

// WriteChanges writes the changes table: one file per segment of the change
// feed (feedDir/{name}.parquet, names in order), the same rows with the
// export's column names. Version 1 hard-linked the feed's own segments,
// whose time column is `at`, a DuckDB keyword; the export's is changed_at.
// It returns the files written, with rows and checksums.
func WriteChanges(feedDir, outDir string, names []string) ([]File, int64, error) {
	if err := os.MkdirAll(filepath.Join(outDir, "changes"), 0o755); err != nil {
		return nil, 0, err
	}
	var files []File
	var total int64
	for _, name := range names {
		rel := "changes/" + name + ".parquet"
		n, err := copyChanges(filepath.Join(feedDir, name+".parquet"), filepath.Join(outDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, 0, fmt.Errorf("changes %s: %w", name, err)
		}
		sum, size, err := hashFile(filepath.Join(outDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, 0, err
		}
		files = append(files, File{Path: rel, Table: "changes", Rows: n, SHA256: sum, Bytes: size})
		total += n
	}
	return files, total, nil
}

func copyChanges(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	r := parquet.NewGenericReader[schemas.Change](in)
	defer r.Close()
	f, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	w := &typed[ChangeRow]{f: f, w: parquet.NewGenericWriter[ChangeRow](f, options()...), buf: make([]ChangeRow, 0, 1024)}
	w.w.SetKeyValueMetadata(ColumnsKey, columnsMetadata("changes"))
	var n int64
	buf := make([]schemas.Change, 1024)
	for {
		k, err := r.Read(buf)
		for _, c := range buf[:k] {
			if werr := w.add(ChangeRow{Seq: c.Seq, Type: c.Type, EntryID: c.EntryID, Slug: c.Slug, Revision: c.Revision, ChangedAt: c.At, Publication: c.Publication}); werr != nil {
				w.close()
				return 0, werr
			}
			n++
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			w.close()
			return 0, err
		}
	}
	return n, w.close()
}
