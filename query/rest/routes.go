package rest

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"

	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The route table. The API host's routes are schemas.APIRoutes, the same
// table the OpenAPI document and /docs/api are made from (REST-13): each
// gives its method and path there, and its handler here, by operationId
// (operations), so a route cannot be served without being described, nor
// described without being served. The server's other routes follow: the
// companions of starting a request, the files and pages about the API,
// operations and MCP. routes_test.go holds Gin's routes against the
// OpenAPI document, with the reason for each route outside it.

// apiPrefix is the API host's part of the paths (REST-01): on a split
// deployment, a request under it belongs to the API host (onItsHost), and
// every route of schemas.APIRoutes is under it.
const apiPrefix = "/v1"

// mcpPath is the MCP endpoint (HTTP-06), the MCP host's part of the paths.
const mcpPath = "/mcp"

// anyHostPaths are answered on whichever host asks: health checks and
// robots.txt.
var anyHostPaths = map[string]bool{"/healthz": true, "/readyz": true, "/robots.txt": true}

// operation is the handler of one operation of schemas.APIRoutes.
type operation struct {
	h handler
	// tail: the path's last parameter takes the rest of the path,
	// slashes and all (an export file's path has folders).
	tail bool
}

// operations are the handlers of schemas.APIRoutes, by operationId.
func (s *Server) operations() map[string]operation {
	return map[string]operation{
		"getEntry":           {h: s.entryByID},
		"getEntryBySlug":     {h: s.entryBySlug},
		"getEntryByDomain":   {h: s.entryByDomain},
		"getOfferings":       {h: s.offerings},
		"getBrandKit":        {h: s.brandKit},
		"search":             {h: s.search},
		"startRun":           {h: s.startRun},
		"getRun":             {h: s.runStatus},
		"getChanges":         {h: s.changes},
		"getExportsManifest": {h: s.exportsManifest},
		"getExportFile":      {h: s.exportFile, tail: true},
	}
}

// routes registers every route. GET routes answer HEAD the same way
// without a body (REST-39).
func (s *Server) routes() error {
	e := s.engine
	get := func(path string, h gin.HandlerFunc) {
		e.GET(path, h)
		e.HEAD(path, h)
	}
	paths, err := s.apiRoutes(get)
	if err != nil {
		return err
	}
	// Requests (§8, §7.6): every view links an action's runs address, so
	// a GET of it says how a request is started (405), and a browser app
	// may ask before it POSTs (CORS preflight).
	e.OPTIONS(paths["startRun"], s.runsPreflight)
	get(paths["startRun"], s.wrap(s.runsGet))
	// Published schemas and the pages about the API.
	get("/schemas/0.1/:file", s.wrap(s.schemaFile))
	get("/docs/api", s.wrap(s.apiDocs))
	// The search and browse pages for people (issue 15), beside the
	// landing page, which pages serves at /.
	get("/search", s.wrap(s.searchPeople))
	get("/search/categories", s.wrap(s.browseCategories))
	get("/search/towns", s.wrap(s.browseTowns))
	get("/docs/ranking", s.wrap(s.ranking))
	get("/docs/ranking.md", s.wrap(s.rankingMarkdown))
	get("/ns", s.wrap(s.namespace))
	get("/ns.jsonld", s.wrap(s.namespaceJSONLD))
	// Operations.
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	// MCP (HTTP-06): mounted by the MCP server.
	e.Any(mcpPath, s.mcpHandler)
	e.Any(mcpPath+"/*rest", s.mcpHandler)
	// The authorization server of the owner tools (§7.2): OAuth, not part
	// of the REST API, mounted beside it as the MCP endpoint is.
	for _, p := range authGetPaths {
		get(p, s.authHandler)
	}
	e.POST("/token", s.authHandler)
	e.POST("/connect/:token/:step", s.authHandler)
	e.POST("/owner/confirm/:token", s.authHandler)
	// Everything else: pages, documents, registry-level files.
	e.NoRoute(s.wrap(s.pages))
	return nil
}

// apiRoutes registers the routes of schemas.APIRoutes with the handlers
// of operations, and gives each operation's Gin path.
func (s *Server) apiRoutes(get func(string, gin.HandlerFunc)) (map[string]string, error) {
	ops := s.operations()
	paths := map[string]string{}
	names := map[string]string{}
	for _, rt := range schemas.APIRoutes() {
		op, ok := ops[rt.OperationID]
		if !ok {
			return nil, fmt.Errorf("rest: no handler for %s %s (%s)", rt.Method, rt.Path, rt.OperationID)
		}
		delete(ops, rt.OperationID)
		if !strings.HasPrefix(rt.Path, apiPrefix+"/") {
			return nil, fmt.Errorf("rest: %s %s is outside the API host's %s", rt.Method, rt.Path, apiPrefix)
		}
		path, renames := ginPath(rt.Path, op.tail, names)
		paths[rt.OperationID] = path
		h := s.wrap(op.h)
		if len(renames) > 0 {
			h = renamed(renames, h)
		}
		switch rt.Method {
		case http.MethodGet:
			get(path, h)
		case http.MethodPost:
			s.engine.POST(path, h)
		default:
			return nil, fmt.Errorf("rest: %s %s: no way to serve %s", rt.Method, rt.Path, rt.Method)
		}
	}
	for id := range ops {
		return nil, fmt.Errorf("rest: a handler for %s, which schemas.APIRoutes does not have", id)
	}
	return paths, nil
}

// ginPath is an OpenAPI path in Gin's syntax: {x} is :x, or *x when it
// takes the rest of the path (tail). Gin names a wildcard segment once
// for every route through it, so a parameter where an earlier route has
// one takes that one's name ({entry} of the offerings and brand-kit
// routes is :id, getEntry's): renames says which, Gin's name to the
// document's, and names keeps the names given, by the path before them.
func ginPath(path string, tail bool, names map[string]string) (string, map[string]string) {
	var b strings.Builder
	var renames map[string]string
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, seg := range segs {
		b.WriteByte('/')
		name, ok := strings.CutPrefix(seg, "{")
		if !ok {
			b.WriteString(seg)
			continue
		}
		name = strings.TrimSuffix(name, "}")
		if i == len(segs)-1 && tail {
			b.WriteString("*" + name)
			continue
		}
		before := b.String()
		gname, taken := names[before]
		if !taken {
			gname, names[before] = name, name
		}
		if gname != name {
			if renames == nil {
				renames = map[string]string{}
			}
			renames[gname] = name
		}
		b.WriteString(":" + gname)
	}
	return b.String(), renames
}

// renamed gives a handler its path parameters by the names the OpenAPI
// document gives them (REST-18: {entry} is an ID or a slug), whatever
// Gin calls them.
func renamed(renames map[string]string, h gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		for i := range c.Params {
			if name, ok := renames[c.Params[i].Key]; ok {
				c.Params[i].Key = name
			}
		}
		h(c)
	}
}

// authGetPaths are the authorization server's GET routes (query/auth):
// its metadata (RFC 8414), the MCP endpoint's protected-resource metadata
// at both paths (RFC 9728, MCP-17), its keys, the authorization endpoint
// and the connect page (MCP-16).
var authGetPaths = []string{
	"/.well-known/oauth-authorization-server",
	"/.well-known/oauth-protected-resource",
	"/.well-known/oauth-protected-resource/mcp",
	"/jwks", "/authorize", "/connect/:token",
	// The owner's download of an entry in the open format (PRIV-29) and
	// the page that confirms a change waiting for the owner (MCP-26).
	"/connect/:token/entries/:entry", "/owner/confirm/:token",
}

// resourceMetadataPrefix is where the MCP endpoint's protected-resource
// metadata lives, on the MCP host (MCP-17).
const resourceMetadataPrefix = "/.well-known/oauth-protected-resource"

// authHandler serves a route of the authorization server, or, when none
// is mounted, answers as an unknown path does.
func (s *Server) authHandler(c *gin.Context) {
	if s.auth == nil {
		s.wrap(s.pages)(c)
		return
	}
	s.auth.ServeHTTP(c.Writer, c.Request)
}

func (s *Server) mcpHandler(c *gin.Context) {
	if s.mcp == nil || (c.Request.URL.Path == mcpPath+"/server-card") {
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

// readyz is ready only with a publication loaded. A server that started
// on a current publication that does not verify is ready with the newest
// one that does, and says so on a second line (issue 15), so a probe
// stays green while an operator sees what to repair.
func (s *Server) readyz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	rd, err := s.svc.Begin(s.cfg.Now())
	if err != nil {
		c.String(http.StatusServiceUnavailable, "no publication loaded\n")
		return
	}
	defer rd.End()
	msg := fmt.Sprintf("ready: publication %s\n", rd.Publication().ID)
	if fb := s.svc.Fallback(); fb != nil {
		msg += fmt.Sprintf("fallback: the current publication %s does not verify (%s); serving %s, the newest that does\n",
			filepath.Base(fb.Current), fb.Reason, rd.Publication().ID)
	}
	c.String(http.StatusOK, "%s", msg)
}
