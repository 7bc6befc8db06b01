//go:build !unix

package publication

import (
	"io"
	"os"
)

// mapFile reads the file into memory where this engine does not map
// files: the same bytes, in the heap.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
