package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
)

// Site is the configuration every projection depends on besides the
// revision and the language: where the registry's hosts are, and the
// vocabulary tables. Base URLs are configuration (ARCHITECTURE decision 8).
type Site struct {
	// BaseURL serves pages and documents: https://daawid.example.
	BaseURL string
	// APIURL is the REST mirror's origin: https://api.daawid.example.
	APIURL string
	// MCPURL is the MCP endpoint: https://mcp.daawid.example/mcp.
	MCPURL string
	// Categories labels category codes and maps them to schema.org types.
	Categories Categories
}

// Categories is what the renderers need of the category taxonomy.
type Categories interface {
	Label(code, lang string) string
	SchemaTypeFor(codes []string) string
}

// DefaultBaseURL is the contract's example host.
const DefaultBaseURL = "https://daawid.example"

// NewSite derives the API and MCP hosts from the base URL as the contract
// shows them: https://daawid.example → https://api.daawid.example and
// https://mcp.daawid.example/mcp. A local copy (localhost, 127.0.0.1, [::1])
// serves everything from one origin over plain http (VIEW-21).
func NewSite(baseURL string, cats Categories) (Site, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return Site{}, fmt.Errorf("site url %q: must be an absolute http(s) URL", baseURL)
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return Site{}, fmt.Errorf("site url %q: must be an origin without a path", baseURL)
	}
	local := IsLocalHost(u.Hostname())
	if u.Scheme == "http" && !local {
		return Site{}, fmt.Errorf("site url %q: plain http is allowed on localhost, 127.0.0.1 and [::1] only", baseURL)
	}
	origin := u.Scheme + "://" + u.Host
	s := Site{BaseURL: origin, Categories: cats}
	if local {
		s.APIURL = origin
		s.MCPURL = origin + "/mcp"
	} else {
		s.APIURL = u.Scheme + "://api." + u.Host
		s.MCPURL = u.Scheme + "://mcp." + u.Host + "/mcp"
	}
	return s, nil
}

// IsLocalHost reports whether host is the machine running a local copy.
func IsLocalHost(host string) bool {
	switch strings.Trim(host, "[]") {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// PageURL is the entry's page: {base}/{slug}.
func (s Site) PageURL(slug string) string { return s.BaseURL + "/" + slug }

// EntryIRI is the subject IRI: {base}/id/{entryId} (LD-06).
func (s Site) EntryIRI(id string) string { return s.BaseURL + "/id/" + id }

// APIEntryURL is the REST URL of the entry.
func (s Site) APIEntryURL(id string) string { return s.APIURL + "/v1/entries/" + id }

// ActionRunsURL is where a run of the action is started by REST.
func (s Site) ActionRunsURL(actionID string) string {
	return s.APIURL + "/v1/actions/" + actionID + "/runs"
}

// ActionFormURL is the human web form of an action.
func (s Site) ActionFormURL(slug, actionID string) string {
	return s.BaseURL + "/" + slug + "/actions/" + actionID
}

// EngineVersion names the renderers' output: documents of a revision are
// reused from the previous publication only when it and the site are the
// same (a new engine or base URL renders everything again).
const EngineVersion = "daawid-engine/0.5"

// Key is what besides a revision and a language decides the bytes of an
// entry's documents: the engine and the base URLs. It is part of every
// document's ETag (publication.DocETag).
func (s Site) Key() string {
	sum := sha256.Sum256([]byte(EngineVersion + "\x00" + s.BaseURL + "\x00" + s.APIURL + "\x00" + s.MCPURL))
	return hex.EncodeToString(sum[:8])
}
