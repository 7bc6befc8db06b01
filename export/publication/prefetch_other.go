//go:build !linux

package publication

// PrefetchFile does nothing where the engine does not ask the kernel to
// read ahead: the first reads fault the pages in.
func PrefetchFile(path string) error { return nil }
