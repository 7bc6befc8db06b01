package rest

import (
	"context"
	"net/http"
	"net/netip"

	"github.com/gin-gonic/gin"
)

// routes registers every route area. GET routes answer HEAD the same way
// without a body (REST-39).
func (s *Server) routes() {
	e := s.engine
	get := func(path string, h handler) {
		e.GET(path, s.wrap(h))
		e.HEAD(path, s.wrap(h))
	}
	// REST mirror, §8. Gin names a path segment once, so {entry} of the
	// offerings and brand-kit routes is :id here too (REST-18 says what
	// each accepts).
	get("/v1/entries/:id", s.entryByID)
	get("/v1/entries/by-slug/:slug", s.entryBySlug)
	get("/v1/entries/by-domain/:host", s.entryByDomain)
	get("/v1/entries/:id/offerings", s.offerings)
	get("/v1/entries/:id/brand-kit", s.brandKit)
	get("/v1/search", s.search)
	// Requests (§8, §7.6): started by POST, read by GET; both no-store.
	e.POST("/v1/actions/:id/runs", s.wrap(s.startRun))
	e.OPTIONS("/v1/actions/:id/runs", s.runsPreflight)
	get("/v1/actions/:id/runs", s.runsGet)
	get("/v1/runs/:id", s.runStatus)
	// Buyers: the bulk exports and the change feed, behind keys.
	get("/v1/exports", s.exportsManifest)
	get("/v1/exports/*file", s.exportFile)
	get("/v1/changes", s.changes)
	// Published schemas and the pages about the API.
	get("/schemas/0.1/:file", s.schemaFile)
	get("/docs/api", s.apiDocs)
	get("/docs/ranking", s.ranking)
	get("/docs/ranking.md", s.rankingMarkdown)
	get("/ns", s.namespace)
	get("/ns.jsonld", s.namespaceJSONLD)
	// Operations.
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	// MCP (HTTP-06): mounted by the MCP server.
	e.Any("/mcp", s.mcpHandler)
	e.Any("/mcp/*rest", s.mcpHandler)
	// Everything else: pages, documents, registry-level files.
	e.NoRoute(s.wrap(s.pages))
}

func (s *Server) mcpHandler(c *gin.Context) {
	if s.mcp == nil || (c.Request.URL.Path == "/mcp/server-card") {
		s.wrap(s.pages)(c) // the server card is a registry-level file
		return
	}
	// The MCP tools read under the same fair-use limit and counting as
	// the REST mirror (§7.8): they find their reader in the context.
	ctx := context.WithValue(c.Request.Context(), readerKey{}, reader{s.category(c.Request), clientAddr(c)})
	s.mcp.ServeHTTP(c.Writer, c.Request.WithContext(ctx))
}

type readerKey struct{}

// reader is who makes an MCP call: the category of reader and address.
type reader struct {
	category string
	addr     netip.Addr
}

// ReadAllowed keeps the fair-use limit for an MCP read (§7.8): the same
// 300 a minute as the REST mirror's, counted together, for the reader
// of the call's context.
func (s *Server) ReadAllowed(ctx context.Context) error {
	r, ok := ctx.Value(readerKey{}).(reader)
	if !ok || s.cfg.Limiter == nil {
		return nil
	}
	return s.allow(r.category, r.addr)
}

// ReaderCategory is the category of reader of an MCP call's context
// (the AI platform a request's steps are counted under, ACT-59).
func (s *Server) ReaderCategory(ctx context.Context) string {
	if r, ok := ctx.Value(readerKey{}).(reader); ok {
		return r.category
	}
	return ""
}

// CountRead counts an entry an MCP tool returned as a read of its view,
// by the category of reader of the call's context (§8).
func (s *Server) CountRead(ctx context.Context, entryID string) {
	r, ok := ctx.Value(readerKey{}).(reader)
	if !ok || s.cfg.Counter == nil {
		return
	}
	s.cfg.Counter.Read(entryID, r.category, s.cfg.Now())
}

func (s *Server) healthz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.String(http.StatusOK, "ok\n")
}

// readyz is ready only with a publication loaded.
func (s *Server) readyz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	rd, err := s.svc.Begin(s.cfg.Now())
	if err != nil {
		c.String(http.StatusServiceUnavailable, "no publication loaded\n")
		return
	}
	defer rd.End()
	c.String(http.StatusOK, "ready: publication %s\n", rd.Publication().ID)
}
