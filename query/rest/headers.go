package rest

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// cacheEntry is the contract's caching of entry representations
// (HTTP-13): five minutes fresh, a day stale while revalidating.
const cacheEntry = "public, max-age=300, stale-while-revalidate=86400"

func itoa(n int) string { return strconv.Itoa(n) }

// docHeaders sets the §2.2 header set of an entry representation:
// ETag (HTTP-10), Last-Modified (HTTP-11), Content-Language (HTTP-12),
// Cache-Control (HTTP-13), CORS on .md, .json and API reads (HTTP-15) and
// the Link header to the other representations (HTTP-16).
func (s *Server) docHeaders(c *gin.Context, d schemas.DocRow, langs []string, cors bool) {
	h := c.Writer.Header()
	if d.ETag != "" {
		h.Set("ETag", d.ETag)
	}
	if !d.LastModified.IsZero() {
		h.Set("Last-Modified", d.LastModified.UTC().Format(http.TimeFormat))
	}
	if d.Lang != "" {
		h.Set("Content-Language", d.Lang)
	} else if len(langs) > 0 {
		h.Set("Content-Language", strings.Join(langs, ", ")) // the JSON-LD holds every language (HTTP-12, D67)
	}
	h.Set("Cache-Control", cacheEntry)
	if cors {
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "ETag, Last-Modified, Link, Content-Language, Retry-After, X-Trace-Id")
	}
	if d.Slug != "" {
		h.Set("Link", s.entryLink(d.Slug, d.Lang, langs))
	}
}

// entryLink points to the other representations of an entry in a
// language (HTTP-16, D67): the markdown, the JSON-LD and the canonical
// page, in that order, each with an absolute URL.
func (s *Server) entryLink(slug, lang string, langs []string) string {
	def := len(langs) == 0 || lang == "" || lang == langs[0]
	page, md := s.site.PageURL(slug), s.site.PageURL(slug)+".md"
	if !def {
		page, md = s.site.PageURL(slug)+"/"+lang, s.site.PageURL(slug)+"/"+lang+".md"
	}
	return "<" + md + `>; rel="alternate"; type="text/markdown", <` + s.site.PageURL(slug) + `.json>; rel="alternate"; type="application/ld+json", <` + page + `>; rel="canonical"`
}

// serveDoc writes a document with http.ServeContent: ranges, HEAD like
// GET without a body, and 304 for a matching If-None-Match (REST-34) or
// an If-Modified-Since not older than Last-Modified.
func serveDoc(c *gin.Context, d *query.Doc) {
	c.Writer.Header().Set("Content-Type", d.MediaType)
	http.ServeContent(c.Writer, c.Request, "", d.LastModified, d.Body)
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
