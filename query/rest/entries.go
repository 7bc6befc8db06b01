package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The REST mirror's entry routes (§8): the same inputs, answers and codes
// as the MCP read tools, through the same Service (REST-01, REST-14).

// sectionsParam reads ?sections=, comma-separated or repeated (REST-17).
func sectionsParam(c *gin.Context) []string {
	var out []string
	for _, v := range c.QueryArray("sections") {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// entryByID: GET /v1/entries/{id}?lang=&sections= (REST-05). {id} is an
// ID (REST-18).
func (s *Server) entryByID(c *gin.Context, rd *query.Read) error {
	id := c.Param("id")
	if !schemas.ValidID(schemas.PrefixEntry, id) {
		return &query.Error{Code: query.CodeInvalidInput, Message: "id: must be an entry ID like ent_01k8r2m5n7p9q3s4t6v8w0x2yz; find an entry by its slug at /v1/entries/by-slug/{slug}",
			Issues: []query.Issue{{Field: "id", Message: "must be an entry ID"}}}
	}
	return s.entry(c, rd, query.EntryInput{ID: id})
}

// entryBySlug: GET /v1/entries/by-slug/{slug} (REST-06).
func (s *Server) entryBySlug(c *gin.Context, rd *query.Read) error {
	return s.entry(c, rd, query.EntryInput{Slug: c.Param("slug")})
}

// entryByDomain: GET /v1/entries/by-domain/{host} (REST-07, TOOL-07).
func (s *Server) entryByDomain(c *gin.Context, rd *query.Read) error {
	return s.entry(c, rd, query.EntryInput{Domain: c.Param("host")})
}

func (s *Server) entry(c *gin.Context, rd *query.Read, in query.EntryInput) error {
	if err := s.readAllowed(c); err != nil {
		return err
	}
	in.Language = c.Query("lang")
	in.Sections = sectionsParam(c)
	a, err := rd.Entry(in)
	if err != nil {
		return err
	}
	s.apiHeaders(c)
	d := a.Doc
	d.ETag = a.ETag()
	d.Lang = a.Language
	s.docHeaders(c, &d, a.Entry.Languages(), true)
	s.counted(c, a.Entry.ID)
	writeJSON(c, "application/json", d.ETag, d.LastModified, a.View)
	return nil
}

// offerings: GET /v1/entries/{entry}/offerings?q=&category=&audience=&lang=&limit=&cursor=
// (REST-09); {entry} is an ID or a slug (REST-18).
func (s *Server) offerings(c *gin.Context, rd *query.Read) error {
	if err := s.readAllowed(c); err != nil {
		return err
	}
	in := query.OfferingsInput{Entry: c.Param("entry"), Query: c.Query("q"), Category: c.Query("category"),
		Audience: c.Query("audience"), Language: c.Query("lang"), Cursor: c.Query("cursor")}
	if l := c.Query("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil {
			return &query.Error{Code: query.CodeInvalidInput, Message: "limit: must be a whole number from 1 to 50",
				Issues: []query.Issue{{Field: "limit", Message: "must be a whole number from 1 to 50"}}}
		}
		if n == 0 {
			n = -1 // 0 is a mistake here, not "the default"
		}
		in.Limit = n
	}
	p, err := rd.Offerings(in)
	if err != nil {
		return err
	}
	body, err := json.Marshal(p.OfferingsAnswer)
	if err != nil {
		return err
	}
	s.apiHeaders(c)
	s.answerHeaders(c, variantETag(p.Doc.ETag, "offerings", in.Query, in.Category, in.Audience, strconv.Itoa(in.Limit), in.Cursor), p.Language)
	s.counted(c, p.EntryID)
	writeJSON(c, "application/json", c.Writer.Header().Get("ETag"), p.Doc.LastModified, append(body, '\n'))
	return nil
}

// brandKit: GET /v1/entries/{entry}/brand-kit?lang= (REST-10).
func (s *Server) brandKit(c *gin.Context, rd *query.Read) error {
	if err := s.readAllowed(c); err != nil {
		return err
	}
	p, err := rd.BrandKit(query.BrandKitInput{Entry: c.Param("entry"), Language: c.Query("lang")})
	if err != nil {
		return err
	}
	body, err := json.Marshal(p.BrandKitAnswer)
	if err != nil {
		return err
	}
	s.apiHeaders(c)
	s.answerHeaders(c, variantETag(p.Doc.ETag, "brand-kit"), p.Language)
	s.counted(c, p.EntryID)
	writeJSON(c, "application/json", c.Writer.Header().Get("ETag"), p.Doc.LastModified, append(body, '\n'))
	return nil
}

// variantETag is the strong ETag of an answer made from a view: the
// view's ETag and what was asked, so two answers never share one.
func variantETag(viewETag string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return strings.TrimSuffix(viewETag, `"`) + "-" + parts[0] + "-" + hex.EncodeToString(sum[:4]) + `"`
}

// answerHeaders are the offerings' and brand kit's headers (REST-33):
// ETag, Content-Language, Cache-Control; and CORS (REST-31).
func (s *Server) answerHeaders(c *gin.Context, etag, lang string) {
	h := c.Writer.Header()
	h.Set("ETag", etag)
	h.Set("Content-Language", lang)
	h.Set("Cache-Control", cacheEntry)
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "ETag, Last-Modified, Link, Content-Language, Retry-After, X-Trace-Id")
}

// apiHeaders are on every API answer: not for search indexes (REST-37),
// readable from any origin (REST-31).
func (s *Server) apiHeaders(c *gin.Context) {
	c.Header("X-Robots-Tag", "noindex")
	c.Header("Access-Control-Allow-Origin", "*")
}

// readAllowed keeps the fair-use limit on the API's GET reads (§7.8);
// HEAD reads count nothing (REST-39).
func (s *Server) readAllowed(c *gin.Context) error {
	if c.Request.Method != http.MethodGet {
		return nil
	}
	return s.limit(c)
}

// counted counts an entry returned as a read of its view, by the
// category of reader (REST-38): a GET that answers 200 or 304; HEAD and
// errors count nothing (REST-39).
func (s *Server) counted(c *gin.Context, entryID string) {
	if s.cfg.Counter == nil || c.Request.Method != http.MethodGet {
		return
	}
	s.cfg.Counter.Read(entryID, s.category(c.Request), s.cfg.Now())
}
