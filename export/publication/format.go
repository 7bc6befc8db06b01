package publication

import (
	"hash/crc32"
	"sort"
	"strconv"
	"time"
)

// Manifest is a publication's manifest.json.
type Manifest struct {
	SpecVersion string `json:"specVersion"`
	// Format is the publication format (FormatVersion; 4: the feed's
	// segments Parquet only, D122): 2 stores documents
	// compressed one by one (issue 18); 0, a publication written before,
	// stores them as served. A server refuses a format newer than it
	// knows rather than serve bytes it cannot read.
	Format    int              `json:"format,omitempty"`
	Engine    string           `json:"engine"`
	ID        string           `json:"id"`
	Run       string           `json:"run"`
	CreatedAt string           `json:"createdAt"`
	BaseURL   string           `json:"baseUrl"`
	Counts    map[string]int64 `json:"counts"`
	// FeedLast is the last sequence number of the change feed.
	FeedLast int64 `json:"feedLast"`
	// Delta: this publication's index is a delta over the ones before it.
	Delta bool `json:"delta"`
	// Index are the document indexes to read, in order (a later one
	// replaces every document of an entry it names); Packs the packs they
	// point into.
	Index []string `json:"index"`
	Packs []string `json:"packs"`
	// Site are the registry-level files' index rows (also in the index):
	// a delta that keeps some of them finds them here without reading a
	// full index.
	Site []DocRow `json:"site"`
	// Serve are the server's indexes of the full index Index starts with,
	// written at publish so that a server maps them instead of building
	// them (D115); nil: a server builds them from Index at open.
	Serve *ServeFiles       `json:"serve,omitempty"`
	Files map[string]string `json:"files"` // name → SHA-256
}

// ServeFiles are the server's indexes of one full document index (D115):
// its documents as the server looks them up (Docs) and its entries'
// search index (Search), each a file of sections a server memory-maps. A
// delta publication links them from the publication before it, with the
// full index they were made from.
type ServeFiles struct {
	Index  string `json:"index"` // the full index they were made from
	Docs   string `json:"docs"`
	Search string `json:"search"`
}

// DocRow is one document of a publication, as its index lists it: where
// its bytes are (pack, offset, length) and how it is served.
type DocRow struct {
	EntryID      string    `json:"entryId,omitempty" parquet:"entry_id,dict"`
	Slug         string    `json:"slug,omitempty" parquet:"slug,dict"`
	Kind         string    `json:"kind" parquet:"kind,dict"`
	Lang         string    `json:"lang,omitempty" parquet:"lang,dict"`
	Path         string    `json:"path" parquet:"path"`
	Pack         string    `json:"pack" parquet:"pack,dict"`
	Offset       int64     `json:"offset" parquet:"offset"`
	Length       int64     `json:"length" parquet:"length"`
	MediaType    string    `json:"mediaType" parquet:"media_type,dict"`
	ETag         string    `json:"etag" parquet:"etag"`
	LastModified time.Time `json:"lastModified" parquet:"last_modified,timestamp(millisecond)"`
	Revision     int32     `json:"revision,omitempty" parquet:"revision"`
	// NextChangeAt is the revision's nextChangeAt (D4): the server never
	// serves the document from that instant on, but the entry re-rendered
	// as time has changed it (D66).
	NextChangeAt time.Time `json:"nextChangeAt,omitzero" parquet:"next_change_at,timestamp(millisecond),optional"`
	// Checksum is the CRC-32C (Castagnoli) of the document's bytes in its
	// pack (DocChecksum): the server checks it before the bytes first enter
	// its document cache or are served, so a pack damaged on disk answers
	// 503 for the documents it hurts instead of serving them (issue 15).
	// 0 is "not recorded": publications written before it still read, and
	// are served unchecked.
	Checksum uint32 `json:"checksum,omitempty" parquet:"checksum,optional"`
	// Encoding is how the bytes at Offset are stored (EncodingZstd, or
	// EncodingIdentity: as served), and IdentityLength the document's
	// length once decoded; Length and Checksum are of the stored bytes, so
	// a document is still read by offset and length and checked before it
	// is decoded (issue 18). Both are absent from the indexes of
	// publications written before: identity, IdentityLength = Length.
	Encoding       string `json:"encoding,omitempty" parquet:"encoding,dict,optional"`
	IdentityLength int64  `json:"identityLength,omitempty" parquet:"identity_length,optional"`
}

// DecodedLength is the document's length as served without a content
// coding.
func (d *DocRow) DecodedLength() int64 {
	if d.Encoding == EncodingIdentity || d.IdentityLength == 0 {
		return d.Length
	}
	return d.IdentityLength
}

// castagnoli is the CRC-32C table; the standard library computes it with
// the processor's CRC32 instruction where there is one (SSE 4.2, ARMv8),
// several GB a second, so checking a document costs little beside reading
// it.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// DocChecksum is the checksum a document's index row records for its
// bytes (DocRow.Checksum). A document whose CRC-32C is 0 is recorded as 1,
// so that 0 keeps meaning "not recorded"; the check, DocChecksumOK, knows
// the two apart.
func DocChecksum(b []byte) uint32 {
	if c := crc32.Checksum(b, castagnoli); c != 0 {
		return c
	}
	return 1
}

// DocChecksumOK reports whether bytes match the checksum their index row
// records; a row without one (0, an older publication) matches anything.
func DocChecksumOK(b []byte, sum uint32) bool {
	return sum == 0 || DocChecksum(b) == sum
}

// DocETag is a document's strong ETag (HTTP-10, D66): the contract's
// "ent_…-r{revision}", then the kind and language of the representation, so
// that no two representations share a strong validator (RFC 9110 §8.8.1),
// and the first 8 hex digits of the render key (render.Site.Key), which
// changes the bytes of a revision when the engine or the base URLs change:
// "ent_01k8r2m5n7p9q3s4t6v8w0x2yz-r42-md-de-1f2e3d4c". The bytes of a
// document are a pure function of these, so no body is hashed.
func DocETag(entryID string, revision int, kind, lang, renderKey string) string {
	b := make([]byte, 0, 64)
	b = append(b, '"')
	b = append(b, entryID...)
	b = append(b, "-r"...)
	b = strconv.AppendInt(b, int64(revision), 10)
	b = append(b, '-')
	b = append(b, kind...)
	if lang != "" {
		b = append(b, '-')
		b = append(b, lang...)
	}
	if len(renderKey) > 8 {
		renderKey = renderKey[:8]
	}
	b = append(b, '-')
	b = append(b, renderKey...)
	return string(append(b, '"'))
}

// The index-level kinds. Every other kind in an index is the name of a
// per-entry format of render.Formats (one table, D59): a publication never
// names a kind of its own beyond these two.
const (
	// KindSite is a registry-level file (llms.txt, the sitemaps, ...).
	KindSite = "site"
	// KindRemoved, in a delta index, says the entry has no documents any
	// more.
	KindRemoved = "removed"
)

// ResolveDocs reads an index chain (the indexes of a manifest, in order,
// each as read): a later index replaces every document of an entry it
// names (a removed entry's tombstone leaves none), and the last index's
// registry-level files replace the earlier ones. Entries come in entry ID
// order, each with its documents in the order written; then the
// registry-level files.
func ResolveDocs(chain [][]DocRow) []DocRow {
	byEntry := map[string][]DocRow{}
	var site []DocRow
	for _, docs := range chain {
		seen := map[string]bool{}
		site = site[:0:0]
		for _, d := range docs {
			if d.Kind == KindSite {
				site = append(site, d)
				continue
			}
			if !seen[d.EntryID] {
				seen[d.EntryID] = true
				delete(byEntry, d.EntryID)
			}
			if d.Kind != KindRemoved {
				byEntry[d.EntryID] = append(byEntry[d.EntryID], d)
			}
		}
	}
	ids := make([]string, 0, len(byEntry))
	for id := range byEntry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []DocRow
	for _, id := range ids {
		out = append(out, byEntry[id]...)
	}
	return append(out, site...)
}
