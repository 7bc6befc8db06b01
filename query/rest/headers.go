package rest

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query"
	"github.com/gin-gonic/gin"
)

// cacheEntry is the contract's caching of entry representations
// (HTTP-13): five minutes fresh, a day stale while revalidating.
const cacheEntry = "public, max-age=300, stale-while-revalidate=86400"

func itoa(n int) string { return strconv.Itoa(n) }

// Header values every document response carries, made once: a header
// map holds a value slice as it is given, and net/http copies the map
// before writing, so the same slices serve every request without a copy
// (D74). Keys set this way must be in canonical form.
var (
	valCacheEntry   = []string{cacheEntry}
	valCacheHour    = []string{"public, max-age=3600"}
	valAnyOrigin    = []string{"*"}
	valExpose       = []string{"ETag, Last-Modified, Link, Content-Language, Retry-After, X-Trace-Id"}
	valAcceptRanges = []string{"bytes"}
	valVaryAccept   = []string{"Accept"}
	// Vary of a document response (issue 18): alone, or after Accept on
	// /{slug}, whose representation Accept chooses too (HTTP-14).
	valVaryEncoding       = []string{"Accept-Encoding"}
	valVaryAcceptEncoding = []string{"Accept, Accept-Encoding"}
	valZstd               = []string{publication.EncodingZstd}
	mediaValues           = map[string][]string{}
)

func init() {
	for _, m := range []string{"text/markdown; charset=utf-8", "text/html; charset=utf-8", "application/json", "application/ld+json",
		"text/plain; charset=utf-8", "application/xml", "application/xml; charset=utf-8"} {
		mediaValues[m] = []string{m}
	}
}

// mediaValue is a media type as a header value.
func mediaValue(m string) []string {
	if v, ok := mediaValues[m]; ok {
		return v
	}
	return []string{m}
}

// docHeaders sets the §2.2 header set of an entry representation:
// ETag (HTTP-10), Last-Modified (HTTP-11), Content-Language (HTTP-12),
// Cache-Control (HTTP-13), CORS on .md, .json and API reads (HTTP-15) and
// the Link header to the other representations (HTTP-16).
func (s *Server) docHeaders(c *gin.Context, d *publication.DocRow, langs []string, cors bool) {
	h := c.Writer.Header()
	vals := make([]string, 0, 4) // the values made for this response, in one allocation
	set := func(key, v string) {
		vals = append(vals, v)
		h[key] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	if d.ETag != "" {
		set("Etag", d.ETag)
	}
	if !d.LastModified.IsZero() {
		set("Last-Modified", httpDate(d.LastModified))
	}
	if d.Lang != "" {
		set("Content-Language", d.Lang)
	} else if len(langs) > 0 {
		set("Content-Language", strings.Join(langs, ", ")) // the JSON-LD holds every language (HTTP-12, D67)
	}
	h["Cache-Control"] = valCacheEntry
	if cors {
		h["Access-Control-Allow-Origin"] = valAnyOrigin
		h["Access-Control-Expose-Headers"] = valExpose
	}
	if d.Slug != "" {
		set("Link", s.entryLink(d.Slug, d.Lang, langs))
	}
}

// httpDate is t as an HTTP date (RFC 9110 §5.6.7).
func httpDate(t time.Time) string {
	var b [len(http.TimeFormat) + 2]byte
	return string(t.UTC().AppendFormat(b[:0], http.TimeFormat))
}

// entryLink points to the other representations of an entry in a
// language (HTTP-16, D67): the markdown, the JSON-LD and the canonical
// page, in that order, each with an absolute URL.
func (s *Server) entryLink(slug, lang string, langs []string) string {
	def := len(langs) == 0 || lang == "" || lang == langs[0]
	page := s.pageBase
	var b strings.Builder
	b.Grow(3*(len(page)+len(slug)+4) + 110)
	b.WriteByte('<')
	b.WriteString(page)
	b.WriteString(slug)
	if !def {
		b.WriteByte('/')
		b.WriteString(lang)
	}
	b.WriteString(`.md>; rel="alternate"; type="text/markdown", <`)
	b.WriteString(page)
	b.WriteString(slug)
	b.WriteString(`.json>; rel="alternate"; type="application/ld+json", <`)
	b.WriteString(page)
	b.WriteString(slug)
	if !def {
		b.WriteByte('/')
		b.WriteString(lang)
	}
	b.WriteString(`>; rel="canonical"`)
	return b.String()
}

// bodies are the buffers documents are read into, one per response in
// flight.
var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// serveDoc writes a document (D74). A plain GET or HEAD, the common case,
// is answered with the document's bytes read once (or copied from the
// document cache) and written with the headers in one write; ranges and
// conditional requests go through http.ServeContent, which answers 206,
// 304 for a matching If-None-Match (REST-34) or an If-Modified-Since not
// older than Last-Modified, and 412 and 416. The caller has set the
// validators (docHeaders, siteHeaders). The bytes are read, and so
// checked against the index's checksum, before any header is written:
// a damaged document fails with query.CorruptError, which fail answers
// 503, and HEAD and conditional requests are no way around it (issue 15).
//
// Content coding (issue 18): a client whose Accept-Encoding takes the
// encoding the pack stores the document in (zstd) gets the stored bytes
// as they are, with Content-Encoding and an ETag of its own (the strong
// ETag with "-zstd" before its closing quote, RFC 9110 §8.8.3: two
// representations, two validators), so If-None-Match and If-Range work
// per encoding; every other client gets the bytes decoded (identity),
// gzip-only ones too: recompressing per response was measured too dear
// (docs/performance.md). Every document response says Vary:
// Accept-Encoding. A Range applies to the bytes of the representation
// chosen, the encoded ones for zstd (RFC 9110 §14.1.2).
func serveDoc(c *gin.Context, d *query.Doc) error {
	r := c.Request
	h := c.Writer.Header()
	bp := bodies.Get().(*[]byte)
	enc := chooseEncoding(r.Header["Accept-Encoding"], d.Encoding)
	var b []byte
	var err error
	if enc != "" {
		b, err = d.AppendStored((*bp)[:0])
	} else {
		b, err = d.AppendBody((*bp)[:0])
	}
	if err != nil {
		bodies.Put(bp)
		return err
	}
	defer func() {
		if cap(b) <= 1<<20 { // a rare large document does not stay in the pool
			*bp = b[:0]
			bodies.Put(bp)
		}
	}()
	h["Content-Type"] = mediaValue(d.MediaType)
	varyEncoding(h)
	if enc != "" {
		h["Content-Encoding"] = valZstd
		if et := h["Etag"]; len(et) == 1 {
			h["Etag"] = []string{encodedETag(et[0], enc)}
		}
	}
	if conditional(r.Header) {
		http.ServeContent(c.Writer, r, "", d.LastModified, bytes.NewReader(b))
		return nil
	}
	h["Accept-Ranges"] = valAcceptRanges
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	c.Writer.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		c.Writer.WriteHeaderNow()
		return nil
	}
	c.Writer.Write(b)
	return nil
}

// varyEncoding adds Accept-Encoding to a document response's Vary.
func varyEncoding(h http.Header) {
	switch v := h["Vary"]; {
	case len(v) == 0:
		h["Vary"] = valVaryEncoding
	case len(v) == 1 && v[0] == "Accept":
		h["Vary"] = valVaryAcceptEncoding
	default:
		h["Vary"] = append(v[:len(v):len(v)], "Accept-Encoding")
	}
}

// encodedETag is the strong ETag of a document's representation in a
// content coding: the identity's ETag with "-{coding}" before its
// closing quote (RFC 9110 §8.8.3), so no two representations share a
// validator and a 304 is only ever answered for the bytes the client
// holds.
func encodedETag(etag, coding string) string {
	if len(etag) < 2 || etag[len(etag)-1] != '"' {
		return etag
	}
	return etag[:len(etag)-1] + "-" + coding + `"`
}

// conditional reports whether a request asks for a range or sets a
// precondition (RFC 9110 §13).
func conditional(h http.Header) bool {
	return h["Range"] != nil || h["If-None-Match"] != nil || h["If-Modified-Since"] != nil ||
		h["If-Match"] != nil || h["If-Unmodified-Since"] != nil
}

// notModified reports whether the request's validators match the
// representation: If-None-Match by the weak comparison RFC 9110 §13.1.2
// asks for, else If-Modified-Since.
func notModified(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == etag {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !modified.IsZero() {
		if t, err := http.ParseTime(ims); err == nil && !modified.Truncate(time.Second).After(t) {
			return true
		}
	}
	return false
}

// writeJSON answers a JSON body the handler built, or 304 when the
// validators match (the body is then not sent).
func writeJSON(c *gin.Context, media string, etag string, modified time.Time, body []byte) {
	h := c.Writer.Header()
	if notModified(c.Request, etag, modified) {
		h.Del("Content-Type")
		c.Writer.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", media)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.Writer.WriteHeader(http.StatusOK)
	if c.Request.Method != http.MethodHead {
		c.Writer.Write(body)
	}
}
