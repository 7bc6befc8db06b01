package auth

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/daawid/registry/query/internal/secret"
)

// pkceChallenge is an S256 challenge: the base64url of a SHA-256, 43
// characters (RFC 7636 §4.2).
var pkceChallenge = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// authorize is the authorization endpoint. A request whose client or
// redirect URI cannot be trusted is answered here, on a page, never sent
// back (RFC 6749 §4.1.2.1); every other mistake goes back to the app's
// redirect URI with iss (MCP-15). A good request waits on the connect
// page for the owner's sign-in and consent (MCP-16).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	clientID, redirectURI := q.Get("client_id"), q.Get("redirect_uri")
	if clientID == "" {
		s.errorPage(w, http.StatusBadRequest, "client_id: missing; an app names itself by the URL of its Client ID Metadata Document")
		return
	}
	md, err := s.clients.fetch(r.Context(), clientID)
	if err != nil {
		s.cfg.Log.Info("auth: client refused", "client", clientID, "err", err)
		s.errorPage(w, http.StatusBadRequest, err.Error())
		return
	}
	if redirectURI == "" || !md.allows(redirectURI) {
		s.errorPage(w, http.StatusBadRequest, "redirect_uri: is not one of the redirect_uris of the app's metadata document")
		return
	}
	back := func(code, desc string) {
		s.redirect(w, r, redirectURI, url.Values{"error": {code}, "error_description": {desc}, "state": {q.Get("state")}})
	}
	scope, resource := strings.TrimSpace(q.Get("scope")), q.Get("resource")
	switch {
	case q.Get("response_type") != "code":
		back("unsupported_response_type", "response_type: only code is supported")
	case q.Get("code_challenge_method") != "S256":
		// MCP-13: plain, or no method (which means plain), is refused.
		back("invalid_request", "code_challenge_method: must be S256")
	case !pkceChallenge.MatchString(q.Get("code_challenge")):
		back("invalid_request", "code_challenge: must be the 43-character base64url SHA-256 of the code_verifier")
	case resource != s.cfg.Resource:
		// RFC 8707, MCP-18: a token is for the MCP endpoint and nothing else.
		back("invalid_target", "resource: must be "+s.cfg.Resource)
	default:
		if scope == "" {
			scope = ScopeEntriesWrite
		}
		if msg := checkScope(scope); msg != "" {
			back("invalid_scope", msg)
			return
		}
		token := secret.NewToken()
		now := s.cfg.Now()
		if _, err := s.st.exec(r.Context(), `INSERT INTO auth_requests (id, client_id, client_name, redirect_uri, state, code_challenge, scope, resource, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, secret.HashToken(token), clientID, md.ClientName, redirectURI, q.Get("state"),
			q.Get("code_challenge"), scope, resource, millis(now), millis(now.Add(requestTTL))); err != nil {
			s.cfg.Log.Error("auth: keep the request", "err", err)
			back("temporarily_unavailable", "the authorization server could not keep the request; try again")
			return
		}
		http.Redirect(w, r, s.cfg.Issuer+"/connect/"+token, http.StatusSeeOther)
	}
}

// checkScope refuses a scope the server does not grant (MCP-27): the
// reserved ones by name, and any other.
func checkScope(scope string) string {
	for _, sc := range strings.Fields(scope) {
		if reservedScopes[sc] {
			return "scope: " + sc + " is reserved and not granted yet; ask for " + ScopeEntriesWrite
		}
		if sc != ScopeEntriesWrite {
			return "scope: " + sc + " is unknown; the only scope is " + ScopeEntriesWrite
		}
	}
	return ""
}

// redirect sends the browser back to the app with params and iss, which
// every authorization response carries (RFC 9207, MCP-15).
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, redirectURI string, params url.Values) {
	u, err := url.Parse(redirectURI)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "redirect_uri: is not a URL")
		return
	}
	q := u.Query()
	for k, vs := range params {
		if len(vs) > 0 && vs[0] != "" {
			q.Set(k, vs[0])
		}
	}
	q.Set("iss", s.cfg.Issuer)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}
