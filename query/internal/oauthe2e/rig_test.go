package oauthe2e

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/query/internal/testserver"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
)

// ownerEmail owns Holzwerk Krause in every rig (seeded with Owners.Add, as
// the claim flow will).
const ownerEmail = "inhaber@holzwerk-krause.de"

// rig is the serving process as `daawid demo` runs it: one origin on
// loopback over plain http serving the pages, the MCP endpoint and the
// authorization server in test mode, with a real SMTP server on loopback
// filing the sign-in codes. Apps' Client ID Metadata Documents are served
// over https on loopback by app, whose document and path the test sets.
type rig struct {
	URL, Resource string
	Now           time.Time
	Auth          *auth.Server
	// Snaps is the server's publication; a test that runs a delta
	// publication refreshes it, as the serving process does on a swap.
	Snaps     *query.Snapshots
	catcher   *mail.Catcher
	storePath string
	// app serves the Client ID Metadata Document at /client.json (https);
	// back is a plain http loopback page an app's redirect URI can name.
	app, back *httptest.Server
	// clientPath is the metadata document's path on app.
	clientPath string
	mu         sync.Mutex
	metadata   []byte
	mailsSeen  map[string]bool
	// http follows no redirect: each answer is looked at.
	http *http.Client
}

func newRig(t *testing.T) *rig { return newRigOn(t, reg, "") }

// newRigOn is the rig over the registry r, the owner tools and the
// confirmation page writing their edits into the owner inbox inboxDir (""
// for none: the tools then answer that the registry takes no changes).
func newRigOn(t *testing.T, r *testserver.Registry, inboxDir string) *rig {
	t.Helper()
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rg := &rig{URL: "http://" + ln.Addr().String(), Now: testserver.ServeNow, storePath: filepath.Join(t.TempDir(), "runs.db"),
		clientPath: "/client.json", mailsSeen: map[string]bool{}, http: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	// A local copy serves everything from one origin (VIEW-21), so the
	// MCP endpoint, its protected-resource metadata and the issuer share
	// the loopback origin, as in the demo.
	site, err := render.NewSite(rg.URL, r.Site.Categories)
	if err != nil {
		t.Fatal(err)
	}
	rg.Resource = site.MCPURL
	snaps := query.NewSnapshots(r.Out)
	if _, err := snaps.Refresh(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { snaps.Close() })
	rg.Snaps = snaps
	svc := query.NewService(snaps, site)
	now := func() time.Time { return rg.Now }
	rs, err := rest.New(rest.Config{Now: now}, svc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := auth.OpenStore(ctx, rg.storePath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rg.catcher, err = mail.StartCatcher("127.0.0.1:0", filepath.Join(t.TempDir(), "mail"), mail.CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rg.catcher.Close() })
	sender, err := mail.NewSender(rg.catcher.URL())
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 32)
	rand.Read(secret)
	rg.Auth, err = auth.New(ctx, auth.Config{Store: st, Secret: secret, Issuer: rg.URL, Resource: rg.Resource, PagesURL: rg.URL,
		Mailer: sender, TestMode: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := rg.Auth.Owners().Add(ctx, auth.Owner{EntryID: testserver.HKID, Email: ownerEmail, Method: "email", ProvedAt: rg.Now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	rs.MountAuth(rg.Auth)
	opt := qmcp.Options{Now: now, Auth: rg.Auth}
	if inboxDir != "" {
		opt.Inbox = &inbox.Inbox{Dir: inboxDir}
	}
	rs.MountMCP(qmcp.Handler(svc, opt))
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: rs.Handler()}}
	srv.Start()
	t.Cleanup(srv.Close)

	rg.app = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rg.mu.Lock()
		doc := rg.metadata
		rg.mu.Unlock()
		if r.URL.Path != rg.clientPath || doc == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	}))
	t.Cleanup(rg.app.Close)
	rg.back = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back in the app</title></head><body><h1 id="back">Back</h1></body></html>`)
	}))
	t.Cleanup(rg.back.Close)
	return rg
}

// ClientID is the app's client_id: its metadata document's https URL.
func (rg *rig) ClientID() string { return rg.app.URL + rg.clientPath }

// RedirectURI is the redirect URI of the Go-driven app.
func (rg *rig) RedirectURI() string { return rg.back.URL + "/callback" }

// serveMetadata sets the metadata document the app serves.
func (rg *rig) serveMetadata(doc []byte) {
	rg.mu.Lock()
	defer rg.mu.Unlock()
	rg.metadata = doc
}

// goApp makes the app a Go-driven one named "Go Test App" whose redirect
// URI is rg.RedirectURI().
func (rg *rig) goApp(t *testing.T) {
	t.Helper()
	doc, err := json.Marshal(map[string]any{"client_id": rg.ClientID(), "client_name": "Go Test App",
		"redirect_uris": []string{rg.RedirectURI()}, "token_endpoint_auth_method": "none"})
	if err != nil {
		t.Fatal(err)
	}
	rg.serveMetadata(doc)
}

// pkce is a verifier and its S256 challenge (MCP-13).
func pkce() (verifier, challenge string) {
	var b [32]byte
	rand.Read(b[:])
	verifier = base64.RawURLEncoding.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// authorizeURL is the Go-driven app's authorization request.
func (rg *rig) authorizeURL(challenge string) string {
	q := url.Values{"response_type": {"code"}, "client_id": {rg.ClientID()}, "redirect_uri": {rg.RedirectURI()}, "state": {"st4te"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "scope": {auth.ScopeEntriesWrite}, "resource": {rg.Resource}}
	return rg.URL + "/authorize?" + q.Encode()
}

func (rg *rig) do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := rg.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func (rg *rig) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rg.do(t, req)
}

func (rg *rig) post(t *testing.T, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return rg.do(t, req)
}

var sixDigits = regexp.MustCompile(`\b[0-9]{6}\b`)

// mailedCode waits for the next sign-in mail to the owner and returns its
// code.
func (rg *rig) mailedCode(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool {
		return strings.Contains(r.To, ownerEmail) && !rg.mailsSeen[r.File]
	})
	if err != nil {
		t.Fatalf("no sign-in mail reached the SMTP server: %v", err)
	}
	rg.mailsSeen[m.File] = true
	code := sixDigits.FindString(m.Body)
	if code == "" {
		t.Fatalf("the sign-in mail has no six-digit code:\n%s", m.Body)
	}
	return code
}

// connectPages are the connect pages of one sign-in as the server sent
// them, by step.
type connectPages map[string]string

// signIn runs the Go-driven app's authorization request over HTTP to the
// owner's decision, keeping each page, and returns where the browser is
// sent back to.
func (rg *rig) signIn(t *testing.T, challenge, decision string) (*url.URL, connectPages) {
	t.Helper()
	pages := connectPages{}
	resp, body := rg.get(t, rg.authorizeURL(challenge))
	connect := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(connect, rg.URL+"/connect/") {
		t.Fatalf("authorize: %d %q %s", resp.StatusCode, connect, body)
	}
	steps := []struct {
		name, method, path string
		form               url.Values
		status             int
	}{
		{"email", http.MethodGet, "", nil, http.StatusOK},
		{"code", http.MethodPost, "/email", url.Values{"email": {ownerEmail}}, http.StatusOK},
		{"consent", http.MethodPost, "/code", nil, http.StatusOK},
		{"decision", http.MethodPost, "/consent", url.Values{"decision": {decision}}, http.StatusSeeOther},
	}
	for _, s := range steps {
		if s.name == "consent" {
			s.form = url.Values{"code": {rg.mailedCode(t)}}
		}
		if s.method == http.MethodGet {
			resp, body = rg.get(t, connect+s.path)
		} else {
			resp, body = rg.post(t, connect+s.path, s.form)
		}
		if resp.StatusCode != s.status {
			t.Fatalf("connect step %s: %d, want %d\n%s", s.name, resp.StatusCode, s.status, body)
		}
		pages[s.name] = body
	}
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	// The connect link once answered is spent: what the owner sees on
	// going back to it after the decision.
	resp, body = rg.get(t, connect)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the connect page after the decision: %d\n%s", resp.StatusCode, body)
	}
	pages["spent"] = body
	return back, pages
}

// tokenResponse is the token endpoint's answer.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// tokens runs the Go-driven app's whole flow and returns its tokens.
func (rg *rig) tokens(t *testing.T) tokenResponse {
	t.Helper()
	verifier, challenge := pkce()
	back, _ := rg.signIn(t, challenge, "allow")
	resp, body := rg.post(t, rg.URL+"/token", url.Values{"grant_type": {"authorization_code"}, "code": {back.Query().Get("code")},
		"code_verifier": {verifier}, "client_id": {rg.ClientID()}, "redirect_uri": {rg.RedirectURI()}, "resource": {rg.Resource}})
	var tr tokenResponse
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &tr) != nil || tr.AccessToken == "" {
		t.Fatalf("token: %d %s", resp.StatusCode, body)
	}
	return tr
}

// mint signs a token with the server's own signing key, read from its
// store, as the server would sign it but with claims the server never
// issues (another audience, no scope): the claims of a real token of
// the rig, changed by change. It is how a test reaches the checks behind
// the signature (MCP-18, MCP-24).
func (rg *rig) mint(t *testing.T, real string, change func(c map[string]any)) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+rg.storePath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var raw string
	if err := db.QueryRow(`SELECT jwk FROM auth_keys ORDER BY created_at, kid LIMIT 1`).Scan(&raw); err != nil {
		t.Fatalf("read the signing key: %v", err)
	}
	var key jose.JSONWebKey
	if err := key.UnmarshalJSON([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.ParseSigned(real, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{}
	if err := tok.UnsafeClaimsWithoutVerification(&claims); err != nil {
		t.Fatal(err)
	}
	change(claims)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mcpPost posts one JSON-RPC message to the MCP endpoint, with a bearer
// token when token is not empty.
func (rg *rig) mcpPost(t *testing.T, body, token string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rg.Resource, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return rg.do(t, req)
}
