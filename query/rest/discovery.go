package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The published schemas and the pages about the API and the vocabulary.
// They are pure functions of the engine and the site, made once.

// static is a file made once at start.
type static struct {
	body  []byte
	media string
	etag  string
}

func newStatic(body []byte, media string) static {
	sum := sha256.Sum256(body)
	return static{body: body, media: media, etag: `"` + hex.EncodeToString(sum[:10]) + `"`}
}

func (s *Server) staticFiles() map[string]static {
	out := map[string]static{
		"/docs/api":                 newStatic(render.APIDocs(s.site), "text/html; charset=utf-8"),
		"/docs/ranking":             newStatic(render.RankingPolicyPage(s.site), "text/html; charset=utf-8"),
		"/docs/ranking.md":          newStatic(render.RankingPolicyMarkdown(s.site), "text/markdown; charset=utf-8"),
		"/schemas/0.1/openapi.json": newStatic(schemas.OpenAPI(s.site.APIURL, s.site.BaseURL), "application/vnd.oai.openapi+json"),
		"/ns":                       newStatic(render.NamespaceHTML(s.site), "text/html; charset=utf-8"),
		"/ns.jsonld":                newStatic(render.NamespaceJSONLD(s.site), "application/ld+json"),
	}
	for name, b := range schemas.SchemaFiles() {
		if name != "openapi.json" {
			out["/schemas/0.1/"+name] = newStatic(b, "application/schema+json")
		}
	}
	return out
}

func (s *Server) serveStatic(c *gin.Context, path string) error {
	f, ok := s.static[path]
	if !ok {
		return &query.Error{Code: query.CodeNotFound, Message: "nothing is published at " + path}
	}
	h := c.Writer.Header()
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Access-Control-Allow-Origin", "*")
	writeJSON(c, f.media, f.etag, s.started, f.body)
	return nil
}

// schemaFile: GET /schemas/0.1/{file} (PRIV-02, REST-13).
func (s *Server) schemaFile(c *gin.Context, _ *query.Read) error {
	return s.serveStatic(c, "/schemas/0.1/"+strings.TrimPrefix(c.Param("file"), "/"))
}

// apiDocs: GET /docs/api.
func (s *Server) apiDocs(c *gin.Context, _ *query.Read) error {
	return s.serveStatic(c, "/docs/api")
}

// ranking: GET /docs/ranking, the ranking policy (SEARCH-20): a page, or
// markdown when asked for as the entry pages are (HTTP-07).
func (s *Server) ranking(c *gin.Context, _ *query.Read) error {
	c.Header("Vary", "Accept")
	if prefersMarkdown(c.GetHeader("Accept")) {
		return s.serveStatic(c, "/docs/ranking.md")
	}
	return s.serveStatic(c, "/docs/ranking")
}

// rankingMarkdown: GET /docs/ranking.md.
func (s *Server) rankingMarkdown(c *gin.Context, _ *query.Read) error {
	return s.serveStatic(c, "/docs/ranking.md")
}

// namespaceJSONLD: GET /ns.jsonld.
func (s *Server) namespaceJSONLD(c *gin.Context, _ *query.Read) error {
	return s.serveStatic(c, "/ns.jsonld")
}

// namespace: GET /ns, the daawid: terms (HTTP-38): HTML, or the
// vocabulary as JSON-LD when asked for.
func (s *Server) namespace(c *gin.Context, _ *query.Read) error {
	c.Header("Vary", "Accept")
	if strings.Contains(c.GetHeader("Accept"), "application/ld+json") {
		return s.serveStatic(c, "/ns.jsonld")
	}
	return s.serveStatic(c, "/ns")
}
