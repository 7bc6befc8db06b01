package rest

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/claim"
	"github.com/daawid/registry/query/counting"
	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/render"
	"github.com/gin-gonic/gin"
)

// Config is what the server is built from (STYLE 12: no globals).
type Config struct {
	// Limiter keeps the fair-use limit (§7.8); nil: none.
	Limiter *fairuse.Limiter
	// Counter counts reads and logs searches (§8); nil: nothing counted.
	Counter *counting.Counter
	// Keys is the buyer key store (export.CreateKey); "" closes the
	// exports and the change feed.
	Keys string
	// Reports is the folder where reports made on /{slug}/report go
	// (reports.jsonl, and the report_opened events the pipeline reads,
	// events.jsonl); "" refuses reports.
	Reports string
	// TrustedProxies are the proxies whose X-Forwarded-For is believed
	// (CIDRs); none by default, so a client cannot pick its own address.
	TrustedProxies []string
	// Now is the clock; nil uses time.Now. Below cmd, time is passed in
	// (ARCHITECTURE 4): every read gets the request's instant.
	Now func() time.Time
	Log *slog.Logger
	// Metrics, when set, are updated on every request.
	Metrics *Metrics
	// Actions runs the requests (§7.6); nil: the request routes and pages
	// answer unavailable.
	Actions *actions.Service
	// Inbox is where claims and confirmed owner changes go into the
	// pipeline (D95, D96); nil: claims answer unavailable.
	Inbox *inbox.Inbox
}

// Server holds the routes.
type Server struct {
	cfg  Config
	svc  *query.Service
	site render.Site
	// pageBase is the pages' URL prefix: the base URL and "/".
	pageBase string
	log      *slog.Logger
	engine   *gin.Engine
	// hosts of a split deployment (§2.1): pages, API, MCP; empty on a
	// local copy, where one origin serves everything.
	pagesHost, apiHost, mcpHost string
	// mcp is the MCP endpoint's handler, mounted by the MCP package.
	mcp http.Handler
	// auth is the authorization server of the owner tools (query/auth),
	// mounted by the serving command; nil: its paths are unknown.
	auth http.Handler
	// claims runs the claim flow (query/claim), mounted by the serving
	// command; nil: the claim pages say no claims are taken online.
	claims *claim.Service
	keys   *keyStore // nil: the exports are closed
	// reportMu: one writer of the report files per process.
	reportMu sync.Mutex
}

// New builds the server's routes over a Service.
func New(cfg Config, svc *query.Service) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	site := svc.Site()
	s := &Server{cfg: cfg, svc: svc, site: site, log: cfg.Log, pageBase: site.PageURL("")}
	if pages, api, mcp := hostOf(site.BaseURL), hostOf(site.APIURL), hostOf(site.MCPURL); pages != api || pages != mcp {
		s.pagesHost, s.apiHost, s.mcpHost = pages, api, mcp
	}
	if cfg.Keys != "" {
		s.keys = &keyStore{path: cfg.Keys}
	}
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	e.HandleMethodNotAllowed = false
	e.UseRawPath = true // slugs never need it; by-domain hosts may carry %2F
	if err := e.SetTrustedProxies(cfg.TrustedProxies); err != nil {
		return nil, fmt.Errorf("rest: trusted proxies: %w", err)
	}
	e.Use(gin.CustomRecoveryWithWriter(nil, func(c *gin.Context, err any) {
		s.log.Error("panic", "path", c.Request.URL.Path, "err", err)
		writeProblem(c.Writer, Problem{Type: site.BaseURL + "/docs/api#unavailable", Title: "Unavailable", Status: 500,
			Detail: "the server failed on this request", Code: query.CodeUnavailable})
		c.Abort()
	}))
	e.Use(s.common)
	s.engine = e
	if err := s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.engine }

// MountMCP puts the MCP endpoint's handler at /mcp (HTTP-06).
func (s *Server) MountMCP(h http.Handler) { s.mcp = h }

// MountAuth puts the authorization server of the owner tools (query/auth)
// at its paths (authGetPaths, /token, /connect/…).
func (s *Server) MountAuth(h http.Handler) { s.auth = h }

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.ToLower(p.Host)
}

// common runs before every route: a trace ID in a header only (§7.3), no
// cookies ever, the host a route area belongs to, and an access log
// without addresses.
func (s *Server) common(c *gin.Context) {
	start := time.Now()
	// A trace ID joins a request to its log line; it is no secret, so a
	// fast generator does.
	var id [16]byte
	trace := string(hex.AppendEncode(id[:0], binary.BigEndian.AppendUint64(nil, rand.Uint64())))
	c.Writer.Header()["X-Trace-Id"] = []string{trace}
	if s.pagesHost != "" && !s.onItsHost(c) {
		c.Abort()
		return
	}
	c.Next()
	c.Writer.Header().Del("Set-Cookie") // nothing on the read path sets one; make sure
	s.cfg.Metrics.observe(c.Request.URL.Path, c.Writer.Status(), time.Since(start).Seconds())
	if s.log.Enabled(c.Request.Context(), slog.LevelInfo) {
		s.log.Info("http", "method", c.Request.Method, "path", c.Request.URL.Path, "status", c.Writer.Status(),
			"bytes", c.Writer.Size(), "ms", time.Since(start).Milliseconds(), "reader", s.category(c.Request), "trace", trace)
	}
}

// onItsHost sends a request for one route area that came to another host
// of a split deployment to the right host (301), so old links keep
// working; a host the deployment does not name (a proxy, a health check)
// is served as is.
func (s *Server) onItsHost(c *gin.Context) bool {
	host := strings.ToLower(c.Request.Host)
	if host != s.pagesHost && host != s.apiHost && host != s.mcpHost {
		return true
	}
	path := c.Request.URL.Path
	want := s.pagesHost
	switch {
	case strings.HasPrefix(path, apiPrefix+"/") || path == apiPrefix:
		want = s.apiHost
	case path == mcpPath || strings.HasPrefix(path, mcpPath+"/") || strings.HasPrefix(path, resourceMetadataPrefix):
		want = s.mcpHost
	case anyHostPaths[path]:
		return true
	}
	if host == want {
		return true
	}
	u := *c.Request.URL
	u.Scheme, u.Host = "https", want
	if strings.HasPrefix(s.site.BaseURL, "http://") {
		u.Scheme = "http"
	}
	c.Redirect(http.StatusMovedPermanently, u.String())
	return false
}

// category is the category of reader (§7.8, REST-38).
func (s *Server) category(r *http.Request) string {
	return fairuse.CategoryOf(r.Header.Get("User-Agent"), r.Header.Get("Signature-Agent"))
}

// clientAddr is the caller's address, as the trusted proxies say.
func clientAddr(c *gin.Context) netip.Addr {
	a, err := netip.ParseAddr(c.ClientIP())
	if err != nil {
		host, _, _ := net.SplitHostPort(c.Request.RemoteAddr)
		a, _ = netip.ParseAddr(host)
	}
	return a
}

// handler is a route that returns its error (STYLE 9).
type handler func(c *gin.Context, rd *query.Read) error

// wrap gives a route one publication for the request and turns its error
// into a problem: a query.Error into its code's status, anything else
// into 500 with a safe message and the detail in the log only.
func (s *Server) wrap(h handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		rd, err := s.svc.Begin(s.cfg.Now())
		if err != nil {
			s.fail(c, err)
			return
		}
		defer rd.End()
		if err := h(c, rd); err != nil {
			s.fail(c, err)
		}
	}
}

func (s *Server) fail(c *gin.Context, err error) {
	var qe *query.Error
	internal := false
	if ce, ok := query.AsCorrupt(err); ok {
		// A document that fails its checksum is unavailable, not an
		// error of the request: 503, logged with where the damage is, and
		// never served (issue 15).
		s.log.Error("document fails its checksum", "path", c.Request.URL.Path, "pack", ce.Pack, "offset", ce.Offset,
			"err", err, "trace", c.Writer.Header().Get("X-Trace-Id"))
		qe = &query.Error{Code: query.CodeUnavailable, Message: "this document cannot be served at the moment; try again later", RetryAfterSeconds: 60}
	} else if !errors.As(err, &qe) {
		s.log.Error("request failed", "path", c.Request.URL.Path, "err", err, "trace", c.Writer.Header().Get("X-Trace-Id"))
		qe = &query.Error{Code: query.CodeUnavailable, Message: "the server could not answer this request; try again"}
		internal = true
	}
	p := s.problemOf(qe)
	if internal {
		p.Status = http.StatusInternalServerError
	}
	if strings.HasPrefix(c.Request.URL.Path, "/v1/") {
		c.Header("X-Robots-Tag", "noindex")
		c.Header("Access-Control-Allow-Origin", "*")
	} else if wantsHTML(c.GetHeader("Accept")) {
		// A person's browser gets a page, not a JSON document; agents and
		// scripts get the problem (D67).
		if err := s.writePage(c, p.Status, errorPage, map[string]any{"Title": p.Title, "Base": s.site.BaseURL, "Problem": p}); err == nil {
			c.Abort()
			return
		}
	}
	writeProblem(c.Writer, p)
	c.Abort()
}

// wantsHTML reports whether an Accept header is a browser's: it names
// text/html and does not prefer markdown.
func wantsHTML(accept string) bool {
	return strings.Contains(accept, "text/html") && !prefersMarkdown(accept)
}

// limit keeps the fair-use limit for a read (§7.8): over it, rate_limited
// with the seconds to the next minute.
func (s *Server) limit(c *gin.Context) error {
	if s.cfg.Limiter == nil {
		return nil
	}
	return s.allow(s.category(c.Request), clientAddr(c))
}

// allow takes one read of a reader's minute, or answers rate_limited
// with the seconds to the next minute (REST and MCP alike).
func (s *Server) allow(cat string, addr netip.Addr) error {
	ok, retry := s.cfg.Limiter.Allow(cat, addr, s.cfg.Now())
	if ok {
		return nil
	}
	s.cfg.Metrics.limited(cat)
	return &query.Error{Code: query.CodeRateLimited, RetryAfterSeconds: retry,
		Message: "more than 300 reads this minute from this address for this kind of reader; try again in " + itoa(retry) + " seconds"}
}
