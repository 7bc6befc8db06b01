package rest

import (
	"strings"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query"
	"github.com/gin-gonic/gin"
)

// The published schemas and the pages about the API and the vocabulary
// (render.RegistryPages): pure functions of the engine and the site,
// rendered once, at publish, and served from the publication like the
// other registry-level files, with an hour of caching (they change only
// with the engine).

// servePage serves a registry page of the publication.
func (s *Server) servePage(c *gin.Context, rd *query.Read, path string) error {
	doc, err := rd.Document(path)
	if err != nil {
		return err
	}
	if doc.Kind != publication.KindSite {
		return &query.Error{Code: query.CodeNotFound, Message: "nothing is published at " + path}
	}
	s.siteHeaders(c, doc)
	c.Header("Cache-Control", "public, max-age=3600")
	return serveDoc(c, doc)
}

// schemaFile: GET /schemas/0.1/{file} (PRIV-02, REST-13).
func (s *Server) schemaFile(c *gin.Context, rd *query.Read) error {
	return s.servePage(c, rd, "/schemas/0.1/"+strings.TrimPrefix(c.Param("file"), "/"))
}

// apiDocs: GET /docs/api.
func (s *Server) apiDocs(c *gin.Context, rd *query.Read) error {
	return s.servePage(c, rd, "/docs/api")
}

// ranking: GET /docs/ranking, the ranking policy (SEARCH-20): a page, or
// markdown when asked for as the entry pages are (HTTP-07).
func (s *Server) ranking(c *gin.Context, rd *query.Read) error {
	c.Header("Vary", "Accept")
	if prefersMarkdown(c.GetHeader("Accept")) {
		return s.servePage(c, rd, "/docs/ranking.md")
	}
	return s.servePage(c, rd, "/docs/ranking")
}

// rankingMarkdown: GET /docs/ranking.md.
func (s *Server) rankingMarkdown(c *gin.Context, rd *query.Read) error {
	return s.servePage(c, rd, "/docs/ranking.md")
}

// namespaceJSONLD: GET /ns.jsonld.
func (s *Server) namespaceJSONLD(c *gin.Context, rd *query.Read) error {
	return s.servePage(c, rd, "/ns.jsonld")
}

// namespace: GET /ns, the daawid: terms (HTTP-38): HTML, or the
// vocabulary as JSON-LD when asked for.
func (s *Server) namespace(c *gin.Context, rd *query.Read) error {
	c.Header("Vary", "Accept")
	if strings.Contains(c.GetHeader("Accept"), "application/ld+json") {
		return s.servePage(c, rd, "/ns.jsonld")
	}
	return s.servePage(c, rd, "/ns")
}
