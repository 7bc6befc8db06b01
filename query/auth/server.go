package auth

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/internal/secret"
)

// ScopeEntriesWrite is the owner tools' scope (MCP-10, MCP-27).
const ScopeEntriesWrite = "entries:write"

// reservedScopes are named by the contract for later (MCP-27): asked for
// now, they are refused as invalid_scope rather than granted.
var reservedScopes = map[string]bool{"actions:submit": true, "requests:read": true}

// The lifetimes of what the server hands out.
const (
	accessTTL   = time.Hour           // MCP-18
	refreshTTL  = 30 * 24 * time.Hour // a grant lasts a month unless used
	codeTTL     = 5 * time.Minute     // an authorization code
	requestTTL  = 30 * time.Minute    // a connect page, sign-in and consent
	mailCodeTTL = 15 * time.Minute    // the emailed sign-in code, as the action runs' (ACT-39)
)

// Limits of the sign-in, the action runs' (ACT-39, ACT-53).
const (
	codesPerRequest      = 3
	triesPerRequest      = 5
	codeMailsPerAddrHour = 5
)

// Mailer sends one message (mail.Sender over SMTP; the action runs' Mailer).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Config is what the authorization server is built from.
type Config struct {
	Store *Store
	// Secret keys the hashes of codes and the owners' subjects; at least
	// 32 bytes (the action runs' secret, actions.LoadSecret).
	Secret []byte
	// Issuer is the authorization server's origin: https://auth.daawid.example,
	// or the site's origin on a local copy (MCP-11).
	Issuer string
	// Resource is the MCP endpoint, the only audience of the access
	// tokens (MCP-18): https://mcp.daawid.example/mcp.
	Resource string
	// PagesURL is the registry's pages' origin, for the pages' links.
	PagesURL string
	// Mailer sends the sign-in codes (nil: they are logged as unsent);
	// MailFrom is Daawid's address.
	Mailer   Mailer
	MailFrom string
	// TestMode lets a client's metadata document live on plain http on a
	// loopback address (tests and the demo); never in production (MCP-12).
	TestMode bool
	// Now is the clock (ARCHITECTURE 4); nil: time.Now.
	Now func() time.Time
	Log *slog.Logger
}

// Server is the authorization server.
type Server struct {
	cfg     Config
	st      *Store
	keys    *keySet
	owners  *Owners
	clients *clientFetcher
	mux     *http.ServeMux
	// registry is the registry the owner pages read and write through
	// (UseRegistry); nil until the MCP server hands it over.
	registry Registry
	// mailWait, when set, receives the end of each code mail's sending,
	// so a test can wait for it; production never sets it.
	mailDone func()
}

// New builds the authorization server, making its signing key on the
// first start.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("auth: no store")
	}
	if len(cfg.Secret) < 32 {
		return nil, errors.New("auth: the secret must be at least 32 bytes")
	}
	for name, u := range map[string]string{"issuer": cfg.Issuer, "resource": cfg.Resource} {
		p, err := url.Parse(u)
		if err != nil || p.Host == "" || (p.Scheme != "https" && p.Scheme != "http") {
			return nil, errors.New("auth: the " + name + " must be an absolute http(s) URL: " + u)
		}
	}
	cfg.Issuer = strings.TrimRight(cfg.Issuer, "/")
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.PagesURL == "" {
		cfg.PagesURL = cfg.Issuer
	}
	keys, err := loadKeys(ctx, cfg.Store, cfg.Now())
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, st: cfg.Store, keys: keys, owners: NewOwners(cfg.Store, cfg.Secret), clients: newClientFetcher(cfg.TestMode)}
	s.routes()
	return s, nil
}

// Owners is the owners table (the claim flow writes it).
func (s *Server) Owners() *Owners { return s.owners }

// Store is the writable store the server keeps its tables in (the claim
// flow keeps its own beside them).
func (s *Server) Store() *Store { return s.st }

// Issuer is the authorization server's origin.
func (s *Server) Issuer() string { return s.cfg.Issuer }

// Paths are the paths the server answers, for mounting beside the REST
// routes: exact paths, and prefixes ending in "/".
var Paths = []string{
	"/.well-known/oauth-authorization-server",
	"/.well-known/oauth-protected-resource",
	"/.well-known/oauth-protected-resource/mcp",
	"/authorize", "/token", "/jwks", "/connect/", "/owner/",
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /.well-known/oauth-authorization-server", s.serverMetadata)
	m.HandleFunc("GET /.well-known/oauth-protected-resource", s.resourceMetadata)
	m.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", s.resourceMetadata)
	m.HandleFunc("GET /jwks", s.jwks)
	m.HandleFunc("GET /authorize", s.authorize)
	m.HandleFunc("POST /token", s.token)
	m.HandleFunc("GET /connect/{token}", s.connectPage)
	m.HandleFunc("POST /connect/{token}/email", s.connectEmail)
	m.HandleFunc("POST /connect/{token}/code", s.connectCode)
	m.HandleFunc("POST /connect/{token}/consent", s.connectConsent)
	m.HandleFunc("GET /connect/{token}/entries/{entry}", s.download)
	m.HandleFunc("GET /owner/confirm/{token}", s.waitingPage)
	m.HandleFunc("POST /owner/confirm/{token}", s.waitingConfirm)
	s.mux = m
}

// ServeHTTP answers the authorization server's paths. Nothing it answers
// may be cached by a shared cache, but the metadata documents.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/.well-known/") && r.URL.Path != "/jwks" {
		w.Header().Set("Cache-Control", "no-store")
	}
	s.mux.ServeHTTP(w, r)
}

// ResourceMetadataURL is where the MCP endpoint's protected-resource
// metadata is (RFC 9728 §3.1: the well-known path before the resource's
// path), the URL the 401's challenge names (MCP-21).
func ResourceMetadataURL(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + strings.TrimRight(u.Path, "/")
}

// serverMetadata is RFC 8414's document (MCP-12 to MCP-15).
func (s *Server) serverMetadata(w http.ResponseWriter, r *http.Request) {
	iss := s.cfg.Issuer
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         iss,
		"authorization_endpoint":                         iss + "/authorize",
		"token_endpoint":                                 iss + "/token",
		"jwks_uri":                                       iss + "/jwks",
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"scopes_supported":                               []string{ScopeEntriesWrite},
		"authorization_response_iss_parameter_supported": true,
		"client_id_metadata_document_supported":          true,
	}, "public, max-age=3600")
}

// resourceMetadata is RFC 9728's document of the MCP endpoint, at both
// paths (MCP-17).
func (s *Server) resourceMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 s.cfg.Resource,
		"authorization_servers":    []string{s.cfg.Issuer},
		"scopes_supported":         []string{ScopeEntriesWrite},
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "Daawid owner tools",
	}, "public, max-age=3600")
}

// jwks publishes the public keys that verify the access tokens.
func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.keys.public, "public, max-age=300")
}

func writeJSON(w http.ResponseWriter, status int, v any, cache string) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, "could not encode the answer", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if cache != "" {
		w.Header().Set("Cache-Control", cache)
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// keyed is the HMAC of parts under the secret, in hex: how codes are
// kept (compared in constant time with hmac.Equal, never read back).
func (s *Server) keyed(parts ...string) string {
	return secret.Keyed(s.cfg.Secret, parts...)
}
