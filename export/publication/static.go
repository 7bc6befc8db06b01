package publication

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// WriteStatic writes a publication's served documents as a plain file
// tree any web server or CDN can serve: each document at its path; a page
// without an extension as {path}/index.html, a document several languages
// share a path for (the view) as {path}/{lang}.json, another JSON
// document without an extension (the server card) as {path}.json, a
// folder's document (a path ending in /) as its index.json. A
// document without a path is not served and not written.
func WriteStatic(pub, dir string) error {
	docs, err := ReadPublicationDocs(pub)
	if err != nil {
		return err
	}
	packs := map[string]*os.File{}
	defer func() {
		for _, f := range packs {
			f.Close()
		}
	}()
	for _, d := range docs {
		if d.Path == "" {
			continue
		}
		pack := packs[d.Pack]
		if pack == nil {
			if pack, err = os.Open(filepath.Join(pub, filepath.FromSlash(d.Pack))); err != nil {
				return err
			}
			packs[d.Pack] = pack
		}
		// The tree holds documents as served without a content coding:
		// stored bytes are checked and decoded (issue 18).
		stored := make([]byte, d.Length)
		if _, err := pack.ReadAt(stored, d.Offset); err != nil && err != io.EOF {
			return fmt.Errorf("%s: %w", d.Path, err)
		}
		if !DocChecksumOK(stored, d.Checksum) {
			return fmt.Errorf("%s: the stored bytes fail their checksum", d.Path)
		}
		body, err := DecodeDoc(nil, stored, d.Encoding)
		if err != nil {
			return fmt.Errorf("%s: %w", d.Path, err)
		}
		if err := writeStaticFile(filepath.Join(dir, filepath.FromSlash(StaticName(d))), bytes.NewReader(body)); err != nil {
			return err
		}
	}
	return nil
}

// StaticName is where WriteStatic writes a document, relative to the
// tree's root.
func StaticName(d DocRow) string {
	rel := strings.TrimPrefix(d.Path, "/")
	if path.Ext(d.Path) != "" {
		return rel
	}
	// A folder's own document (the AWP /awp/content/ and /awp/api/
	// indexes) is its index file, as web servers serve a folder.
	if strings.HasSuffix(rel, "/") {
		if strings.HasPrefix(d.MediaType, "text/html") {
			return rel + "index.html"
		}
		return rel + "index.json"
	}
	switch {
	case strings.HasPrefix(d.MediaType, "text/html"):
		return rel + "/index.html"
	case d.Lang != "" && d.Kind != KindSite:
		return rel + "/" + d.Lang + ".json"
	default:
		return rel + ".json"
	}
}

func writeStaticFile(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
