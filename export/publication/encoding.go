package publication

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
	"github.com/valyala/gozstd"
)

// The encodings a document can be stored in (DocRow.Encoding). They are
// HTTP content codings by name (RFC 9110 §8.4.1, RFC 8878 §7.2): a
// server answers a client that accepts the stored one with the stored
// bytes as they are (issue 18).
const (
	// EncodingIdentity is a document stored as it is served: a pack of a
	// publication written before issue 18, or a document compression
	// would not make smaller.
	EncodingIdentity = ""
	// EncodingZstd is a Zstandard frame (RFC 8878) without a dictionary,
	// so that any zstd decoder, a browser's too, reads it; see
	// docs/performance.md for the measurement that chose it.
	EncodingZstd = "zstd"
	// EncodingZstdDict is a Zstandard frame compressed with one of this
	// engine's dictionaries (Dictionaries), named by the frame's
	// Dictionary_ID (RFC 8878 §3.1.1.1.3). It is not an HTTP content
	// coding: only documents that are never served as they are stored (an
	// entry's card, search record and public revision, which have no path,
	// D120; its legal notice, served decoded, D130) are stored so, and
	// whoever reads one decodes it.
	EncodingZstdDict = "zstd-dict"
)

// ServedAsStored reports whether a document stored in encoding may be
// sent as it is stored, with that content coding: zstd, not a frame that
// needs a dictionary of this engine's.
func ServedAsStored(encoding string) bool { return encoding == EncodingZstd }

// FormatVersion is the publication format a manifest names
// (Manifest.Format). 5: as 4, and an entry's legal notice and JSON view
// may be stored with a dictionary (D130; a reader of 4 has not got them); 4: as 3, and the feed's segments are Parquet only
// (D122; a reader of 3 would find the feed empty); 3: as 2, and the documents that are never served
// may be compressed with a dictionary (EncodingZstdDict, D120); 2:
// documents stored compressed, each on its own (EncodeDoc); none (0):
// every document stored as it is served. A reader takes them all,
// document by document, by DocRow.Encoding.
const FormatVersion = 5

// zstdLevel is the level a document served as stored is written at:
// the pipeline compresses every document it renders. With klauspost's
// encoder the fastest level kept 94 % of the better level's gain at 1.6
// times its speed (D113, D130); with libzstd (D132) level 1 is as fast
// again and its frames are 3 % smaller than klauspost's fastest on the
// pages, markdown and JSON-LD measured (docs/performance.md).
const zstdLevel = 1

// zstdDictLevel is the level of the documents stored with a dictionary
// (D132): libzstd attaches a dictionary's prepared tables to a small
// document instead of copying them, so its level 3 costs what level 1
// does on documents this small and takes the bytes klauspost's fastest
// level took.
const zstdDictLevel = 3

// zstdMaxWindow bounds the window a stored frame may ask for: RFC 8878
// §3.1.1.1.2 has HTTP decoders accept 8 MB. libzstd's level 1 asks for
// at most 512 KB (a window log of 19), and a document smaller than that
// is one segment with its size in the frame's header.
const zstdMaxWindow = 8 << 20

// The documents are compressed by libzstd (D132, github.com/valyala/gozstd,
// which keeps a pool of compression contexts: any number of renderers
// compress at once). klauspost's encoder copied a dictionary's 256 KB
// match table into its state for every document of a kind with one, and
// built new entropy tables for every small block: 44 % of a
// publication's CPU. The frames are standard (RFC 8878): the decoder
// below reads them, and the ones klauspost wrote before.
// No frame carries zstd's own checksum (4 bytes a document, D130; libzstd
// writes none unless asked): a pack's reader checks the stored bytes
// against the index's checksum before it decodes them (DocRow.Checksum,
// issue 15).
var (
	// The decoder reads any number of documents at once (DecodeAll is
	// safe for concurrent use) and refuses a frame that claims more memory
	// than a document could need.
	zstdDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxWindow(zstdMaxWindow),
		zstd.WithDecoderMaxMemory(1<<30), zstd.WithDecoderDicts(dictionaryBytes()...))
)

// EncodeDoc is the bytes a pack stores for a document and their
// encoding: the document compressed with zstd, on its own, so that it is
// still read by offset and length; the document itself (identity) when
// compressing would not make it smaller. dst is reused. An entry's
// documents are EncodeDocOf's, which uses a kind's dictionary.
func EncodeDoc(dst, body []byte) ([]byte, string) {
	return encodeWith(nil, EncodingZstd, dst, body)
}

// encodeWith compresses body into dst, with the prepared dictionary cd
// when there is one, stored as encoding, or keeps it as it is (identity)
// when compressing would not make it smaller (an empty body among them:
// libzstd makes no frame of nothing).
func encodeWith(cd *gozstd.CDict, encoding string, dst, body []byte) ([]byte, string) {
	var out []byte
	if cd != nil {
		out = gozstd.CompressDict(dst[:0], body, cd)
	} else {
		out = gozstd.CompressLevel(dst[:0], body, zstdLevel)
	}
	if len(out) >= len(body) {
		return append(out[:0], body...), EncodingIdentity
	}
	return out, encoding
}

// DecodeDoc appends the document stored as stored in encoding to dst:
// its bytes as served without a content coding.
func DecodeDoc(dst, stored []byte, encoding string) ([]byte, error) {
	switch encoding {
	case EncodingIdentity:
		return append(dst, stored...), nil
	case EncodingZstd, EncodingZstdDict:
		out, err := zstdDecoder.DecodeAll(stored, dst)
		if err != nil {
			return dst, fmt.Errorf("zstd: %w", err)
		}
		return out, nil
	}
	return dst, fmt.Errorf("unknown document encoding %q", encoding)
}
