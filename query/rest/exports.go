package rest

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/keys"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The buyers' routes (D62): the bulk exports of the current publication
// and the change feed, behind a buyer key sent as a bearer token. Every
// key gets the same files.

// keyStore rereads the key store when it changes, so a revoked key stops
// working without a restart.
type keyStore struct {
	mu    sync.Mutex
	path  string
	mod   time.Time
	size  int64
	keys  []keys.Key
	err   error
	check time.Time
}

func (k *keyStore) current(now time.Time) ([]keys.Key, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.check.IsZero() && now.Sub(k.check) < time.Second {
		return k.keys, k.err
	}
	k.check = now
	fi, err := os.Stat(k.path)
	if err != nil {
		k.keys, k.err = nil, nil
		if !os.IsNotExist(err) {
			k.err = err
		}
		return k.keys, k.err
	}
	if fi.ModTime().Equal(k.mod) && fi.Size() == k.size && k.keys != nil {
		return k.keys, nil
	}
	k.keys, k.err = keys.ReadKeys(k.path)
	k.mod, k.size = fi.ModTime(), fi.Size()
	return k.keys, k.err
}

// buyer checks the request's buyer key.
func (s *Server) buyer(c *gin.Context) error {
	c.Header("X-Robots-Tag", "noindex")
	c.Header("Access-Control-Allow-Origin", "*")
	c.Header("Cache-Control", "private, no-store")
	auth := c.GetHeader("Authorization")
	secret, ok := strings.CutPrefix(auth, "Bearer ")
	if s.keys == nil || !ok {
		c.Header("WWW-Authenticate", `Bearer realm="daawid exports"`)
		return &query.Error{Code: query.CodeSignInRequired, Message: "the exports and the change feed need a buyer key: send it as Authorization: Bearer dwk_…"}
	}
	all, err := s.keys.current(s.cfg.Now())
	if err != nil {
		return err
	}
	if _, ok := keys.CheckKey(all, strings.TrimSpace(secret)); !ok {
		c.Header("WWW-Authenticate", `Bearer realm="daawid exports", error="invalid_token"`)
		return &query.Error{Code: query.CodeSignInRequired, Message: "the buyer key is unknown or revoked"}
	}
	return nil
}

// exportsManifest: GET /v1/exports, the current publication's export
// manifest (every file with its table, rows and SHA-256).
func (s *Server) exportsManifest(c *gin.Context, rd *query.Read) error {
	c.Request.URL.Path = "/v1/exports/manifest.json"
	return s.serveExport(c, rd, "manifest.json")
}

// exportFile: GET /v1/exports/{file}, with Range requests.
func (s *Server) exportFile(c *gin.Context, rd *query.Read) error {
	return s.serveExport(c, rd, strings.TrimPrefix(c.Param("file"), "/"))
}

func (s *Server) serveExport(c *gin.Context, rd *query.Read, rel string) error {
	if err := s.buyer(c); err != nil {
		return err
	}
	clean := filepath.Clean("/" + rel)
	if rel == "" || strings.Contains(rel, "..") || clean == "/" {
		return &query.Error{Code: query.CodeNotFound, Message: "no export file at " + rel}
	}
	path := filepath.Join(rd.PublicationDir(), "exports", filepath.FromSlash(clean))
	f, err := os.Open(path)
	if err != nil {
		return &query.Error{Code: query.CodeNotFound, Message: "no export file at " + rel + " in publication " + rd.Publication().ID}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		return &query.Error{Code: query.CodeNotFound, Message: "no export file at " + rel}
	}
	// Files of a publication never change: the publication and the file
	// name are a strong validator.
	c.Header("ETag", `"`+rd.Publication().ID+"-"+strconv.FormatInt(fi.Size(), 36)+`"`)
	c.Header("Accept-Ranges", "bytes")
	switch {
	case strings.HasSuffix(rel, ".parquet"):
		c.Header("Content-Type", "application/vnd.apache.parquet")
	case strings.HasSuffix(rel, ".json"):
		c.Header("Content-Type", "application/json")
	case strings.HasSuffix(rel, ".jsonl"):
		c.Header("Content-Type", "application/jsonl")
	}
	http.ServeContent(c.Writer, c.Request, filepath.Base(path), fi.ModTime(), f)
	return nil
}

// changes: GET /v1/changes?cursor=&limit=, the change feed after a
// sequence number: {changes, nextCursor, hasMore}. The cursor is the last
// sequence number read, as a string.
func (s *Server) changes(c *gin.Context, rd *query.Read) error {
	if err := s.buyer(c); err != nil {
		return err
	}
	var after int64
	if cur := c.Query("cursor"); cur != "" {
		n, err := strconv.ParseInt(cur, 10, 64)
		if err != nil || n < 0 {
			return &query.Error{Code: query.CodeInvalidInput, Message: "cursor: must be a sequence number from a previous answer's nextCursor",
				Issues: []query.Issue{{Field: "cursor", Message: "must be a sequence number"}}}
		}
		after = n
	}
	limit := 1000
	if l := c.Query("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 10000 {
			return &query.Error{Code: query.CodeInvalidInput, Message: "limit: must be from 1 to 10000",
				Issues: []query.Issue{{Field: "limit", Message: "must be from 1 to 10000"}}}
		}
		limit = n
	}
	list, more, err := publication.ReadFeed(filepath.Join(rd.PublicationDir(), publication.FeedDir), after, limit)
	if err != nil {
		return err
	}
	next := after
	if len(list) > 0 {
		next = list[len(list)-1].Seq
	}
	if list == nil {
		list = []schemas.Change{}
	}
	c.JSON(http.StatusOK, gin.H{"changes": list, "nextCursor": strconv.FormatInt(next, 10), "hasMore": more})
	return nil
}
