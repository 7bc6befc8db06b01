package pipeline

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestRevisionFiles_OpenedOnceAtMostSome (D124): a revision file is
// opened once and kept for the next read; at most maxOpenRevisionFiles
// stay open, the least recently used closed first, and never one being
// read.
func TestRevisionFiles_OpenedOnceAtMostSome(t *testing.T) {
	dir := t.TempDir()
	paths := make([]string, maxOpenRevisionFiles+6)
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("run_%03d.parquet", i))
		if err := parquet.WriteFile(paths[i], []revisionRow{{EntryID: fmt.Sprintf("ent_%03d", i), Revision: 1, Entry: "{}"}}); err != nil {
			t.Fatal(err)
		}
	}
	var rf revisionFiles
	defer rf.close()
	first, doneFirst, err := rf.open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	again, done, err := rf.open(paths[0])
	if err != nil || again != first {
		t.Fatalf("the file was opened again (%v)", err)
	}
	done()
	// paths[0] is still read (doneFirst not called): it stays open however
	// many others come.
	for _, p := range paths[1:] {
		_, done, err := rf.open(p)
		if err != nil {
			t.Fatal(err)
		}
		done()
		if len(rf.files) > maxOpenRevisionFiles {
			t.Fatalf("%d files open, at most %d", len(rf.files), maxOpenRevisionFiles)
		}
	}
	if rf.files[paths[0]] == nil || rf.files[paths[0]].pf != first {
		t.Fatal("a file being read was closed")
	}
	if rf.files[paths[1]] != nil {
		t.Fatal("the least recently used file is still open")
	}
	if rf.files[paths[len(paths)-1]] == nil {
		t.Fatal("the file read last is not open")
	}
	doneFirst()
	// Read again, a closed file opens again and reads.
	pf, done, err := rf.open(paths[1])
	if err != nil || pf.NumRows() != 1 {
		t.Fatalf("reopened: %v", err)
	}
	done()
}
