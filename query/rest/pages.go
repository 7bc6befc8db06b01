package rest

import (
	"net/http"
	"strings"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// pages serves every path no other route claims: the registry-level files
// and the entry pages and documents, all looked up by path in the
// publication (§2.1), and the per-entry routes around them.
func (s *Server) pages(c *gin.Context, rd *query.Read) error {
	r := c.Request
	path := r.URL.Path
	if r.Method == http.MethodPost && strings.HasSuffix(path, "/report") {
		return s.reportPost(c, rd, strings.TrimSuffix(strings.TrimPrefix(path, "/"), "/report"))
	}
	if r.Method == http.MethodPost && strings.HasPrefix(path, "/claim/") {
		return s.claimPost(c, rd, strings.TrimPrefix(path, "/claim/"))
	}
	if r.Method == http.MethodPost && strings.HasPrefix(path, "/confirm/") {
		return s.confirmPost(c, strings.TrimPrefix(path, "/confirm/"))
	}
	if slug, actionID, ok := actionFormPath(path); ok && r.Method == http.MethodPost {
		return s.actionFormPost(c, rd, slug, actionID)
	}
	if r.Method == http.MethodOptions {
		return s.preflight(c)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		c.Header("Allow", "GET, HEAD")
		return &query.Error{Code: query.CodeNotFound, Message: r.Method + " is not served at " + path}
	}
	switch {
	case path == "/":
		return s.home(c, rd)
	case strings.HasPrefix(path, "/id/"):
		return s.entryIRI(c, rd, strings.TrimPrefix(path, "/id/"))
	case strings.HasPrefix(path, "/claim/"):
		return s.claimPage(c, rd, strings.TrimPrefix(path, "/claim/"))
	case strings.HasPrefix(path, "/confirm/"):
		return s.confirmPage(c, strings.TrimPrefix(path, "/confirm/"))
	case path == "/privacy":
		return s.privacyPolicy(c)
	case strings.HasSuffix(path, "/report") && strings.Count(path, "/") == 2:
		return s.reportForm(c, rd, strings.TrimSuffix(strings.TrimPrefix(path, "/"), "/report"))
	}
	if slug, actionID, ok := actionFormPath(path); ok {
		return s.actionForm(c, rd, slug, actionID)
	}
	// /{slug} and /{slug}/{lang} are negotiated (HTTP-01, HTTP-07): the
	// page's markdown is its path with ".md".
	negotiated := false
	doc, err := rd.Document(path)
	if err == nil && doc.Kind == render.KindHTML {
		negotiated = true
		c.Writer.Header()["Vary"] = valVaryAccept // HTTP-14: on /{slug} only
		if prefersMarkdown(r.Header.Get("Accept")) {
			doc, err = rd.Document(doc.Path + ".md")
		}
	}
	if err != nil {
		if qe, ok := query.AsError(err); ok && qe.Code == query.CodeNotFound {
			if to, ok := s.renamed(rd, r.URL.Path); ok {
				c.Redirect(http.StatusMovedPermanently, to)
				return nil
			}
			if to, ok := s.defaultLanguagePath(rd, r.URL.Path); ok {
				c.Redirect(http.StatusMovedPermanently, to)
				return nil
			}
		}
		return err
	}
	if doc.Kind == publication.KindSite {
		s.siteHeaders(c, doc)
		return serveDoc(c, doc)
	}
	html := doc.Kind == render.KindHTML || doc.Kind == render.KindLegal || doc.Kind == render.KindPrivacy
	s.docHeaders(c, &doc.DocRow, doc.Langs, !html)
	if negotiated && doc.Kind != render.KindHTML {
		c.Header("Content-Location", doc.Path)
	}
	return serveDoc(c, doc)
}

// actionFormPath reads /{slug}/actions/{actionId}, an action's web form
// (HTTP-36).
func actionFormPath(path string) (slug, actionID string, ok bool) {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(parts) != 3 || parts[1] != "actions" || !schemas.ValidID(schemas.PrefixAction, parts[2]) {
		return "", "", false
	}
	return parts[0], parts[2], true
}

// renamed finds the path an old slug's path moved to: the same path with
// the entry's slug now (D47: old slugs redirect, 301).
func (s *Server) renamed(rd *query.Read, path string) (string, bool) {
	rest := strings.TrimPrefix(path, "/")
	slug, tail := rest, ""
	if i := strings.IndexAny(rest, "/."); i >= 0 {
		slug, tail = rest[:i], rest[i:]
	}
	e, err := rd.BySlug(slug)
	if err != nil || !e.Renamed {
		return "", false
	}
	return s.site.PageURL(e.Slug) + tail, true
}

// defaultLanguagePath is where /{slug}/{lang}.md and /{slug}/{lang}
// move when {lang} is the entry's default language: /{slug}.md and
// /{slug}, the one address of each (HTTP-03). A redirect rather than a
// second copy keeps one URL per representation for caches and for the
// canonical link; a language the entry lacks stays 404 (D67).
func (s *Server) defaultLanguagePath(rd *query.Read, path string) (string, bool) {
	slug, tail, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok {
		return "", false
	}
	lang, md := strings.CutSuffix(tail, ".md")
	if lang == "" || strings.ContainsAny(lang, "/.") {
		return "", false
	}
	e, err := rd.BySlug(slug)
	if err != nil || e.Renamed || e.DefaultLanguage() != lang {
		return "", false
	}
	if md {
		return s.site.PageURL(e.Slug) + ".md", true
	}
	return s.site.PageURL(e.Slug), true
}

// hourCached reports whether a registry-level file is cached for an
// hour: the server card (DISC-12) and the pages that change only with the
// engine (the docs and the published schemas).
func hourCached(path string) bool {
	return path == "/mcp/server-card" || strings.HasPrefix(path, "/docs/") || strings.HasPrefix(path, "/schemas/")
}

// entryIRI dereferences an entry's subject IRI (HTTP-39): the IRI names
// the business or person, not a document, so it answers 303 See Other to
// the page that describes it.
func (s *Server) entryIRI(c *gin.Context, rd *query.Read, id string) error {
	if !schemas.ValidID(schemas.PrefixEntry, id) {
		return &query.Error{Code: query.CodeNotFound, Message: id + " is not an entry ID"}
	}
	e, err := rd.ByID(id)
	if err != nil {
		return err
	}
	c.Header("Cache-Control", cacheEntry)
	c.Header("Access-Control-Allow-Origin", "*")
	target := s.site.PageURL(e.Slug)
	if prefersMarkdown(c.GetHeader("Accept")) {
		target += ".md"
	} else if strings.Contains(c.GetHeader("Accept"), "application/ld+json") {
		target += ".json"
	}
	c.Header("Vary", "Accept")
	c.Redirect(http.StatusSeeOther, target)
	return nil
}

// siteHeaders are the registry-level files' headers: validators, five
// minutes of caching, and CORS, since agents in browsers read them too.
func (s *Server) siteHeaders(c *gin.Context, d *query.Doc) {
	h := c.Writer.Header()
	h.Set("ETag", d.ETag)
	if !d.LastModified.IsZero() {
		h["Last-Modified"] = []string{httpDate(d.LastModified)}
	}
	h["Cache-Control"] = valCacheEntry
	if hourCached(d.Path) {
		h["Cache-Control"] = valCacheHour
	}
	// VIEW-29: the hosted fonts change only with the engine, and a page
	// or a brand kit on any origin loads them (fonts need CORS), so they
	// are cached for 30 days and revalidated by ETag after that.
	if strings.HasPrefix(d.Path, render.FontsPath) {
		h["Cache-Control"] = valCacheFont
	}
	// The pages' shared style sheet is named by its content's hash: a new
	// sheet is a new URL, so this one never changes (RFC 8246).
	if d.Path == pageCSSPath {
		h["Cache-Control"] = valCacheImmutable
	}
	h["Access-Control-Allow-Origin"] = valAnyOrigin
}

var (
	valCacheFont      = []string{"public, max-age=2592000"}
	valCacheImmutable = []string{"public, max-age=31536000, immutable"}
	pageCSSPath       = render.PageCSS().Path
)

// preflight answers CORS preflight requests for the read routes: any
// origin, GET and HEAD, the conditional headers.
func (s *Server) preflight(c *gin.Context) error {
	h := c.Writer.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Accept, Accept-Language, If-None-Match, If-Modified-Since, Range, Signature-Agent, Authorization, Content-Type, Idempotency-Key")
	h.Set("Access-Control-Max-Age", "86400")
	c.Status(http.StatusNoContent)
	return nil
}
