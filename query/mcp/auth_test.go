package mcp_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The owner tools' authorization, end to end on loopback: the test
// registry's server with the authorization server mounted, a real SMTP
// server filing the sign-in codes, an app's Client ID Metadata Document
// served by the test, a Go HTTP client playing the app and the owner's
// browser, and the SDK's own MCP client with the token.

const ownerEmail = "inhaber@holzwerk-krause.de"

type authRig struct {
	*testserver.Server
	auth      *auth.Server
	catcher   *mail.Catcher
	clientID  string
	redirect  string
	http      *http.Client
	resource  string
	issuer    string
	mailsSeen map[string]bool
}

func newAuthRig(t *testing.T) *authRig { return newAuthRigOn(t, reg, "") }

// newAuthRigOn is the rig over a registry r, its owner tools writing
// into inboxDir ("" for none).
func newAuthRigOn(t *testing.T, r *testserver.Registry, inboxDir string) *authRig {
	t.Helper()
	ctx := context.Background()
	ts := testserver.New(t, r)
	st, err := auth.OpenStore(ctx, filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	catcher, err := mail.StartCatcher("127.0.0.1:0", filepath.Join(t.TempDir(), "mail"), mail.CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { catcher.Close() })
	sender, err := mail.NewSender(catcher.URL())
	if err != nil {
		t.Fatal(err)
	}
	app := httptest.NewServer(nil)
	t.Cleanup(app.Close)
	rg := &authRig{Server: ts, catcher: catcher, clientID: app.URL + "/client.json", redirect: app.URL + "/callback",
		resource: reg.Site.MCPURL, issuer: ts.URL, mailsSeen: map[string]bool{}}
	app.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/client.json" {
			json.NewEncoder(w).Encode(map[string]any{"client_id": rg.clientID, "client_name": "Test Assistant",
				"redirect_uris": []string{rg.redirect}, "token_endpoint_auth_method": "none"})
			return
		}
		http.NotFound(w, r)
	})
	secret := make([]byte, 32)
	rand.Read(secret)
	rg.auth, err = auth.New(ctx, auth.Config{Store: st, Secret: secret, Issuer: ts.URL, Resource: rg.resource, Mailer: sender,
		TestMode: true, Now: func() time.Time { return ts.Now }})
	if err != nil {
		t.Fatal(err)
	}
	if err := rg.auth.Owners().Add(ctx, auth.Owner{EntryID: hkID, Email: ownerEmail, Method: "email", ProvedAt: ts.Now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	ts.REST.MountAuth(rg.auth)
	opt := ts.MCPOptions()
	opt.Auth = rg.auth
	if inboxDir != "" {
		opt.Inbox = &inbox.Inbox{Dir: inboxDir}
	}
	ts.MountMCP(opt)
	rg.http = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return rg
}

// pkce is a verifier and its S256 challenge.
func pkce() (verifier, challenge string) {
	var b [32]byte
	rand.Read(b[:])
	verifier = base64.RawURLEncoding.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// authorizeURL is an authorization request with params changed by set.
func (rg *authRig) authorizeURL(challenge string, set map[string]string) string {
	q := url.Values{"response_type": {"code"}, "client_id": {rg.clientID}, "redirect_uri": {rg.redirect}, "state": {"st4te"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "scope": {"entries:write"}, "resource": {rg.resource}}
	for k, v := range set {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	return rg.URL + "/authorize?" + q.Encode()
}

func (rg *authRig) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := rg.http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (rg *authRig) post(t *testing.T, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	resp, err := rg.http.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var sixDigits = regexp.MustCompile(`\b[0-9]{6}\b`)

// signIn runs the authorization request to the owner's decision and
// returns where the browser is sent back to.
func (rg *authRig) signIn(t *testing.T, challenge, decision string) *url.URL {
	t.Helper()
	connect, _ := rg.signedIn(t, challenge)
	resp, body := rg.post(t, connect+"/consent", url.Values{"decision": {decision}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("consent: %d %s", resp.StatusCode, body)
	}
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// signedIn runs the authorization request to the consent page and returns
// the connect page's address and the consent page.
func (rg *authRig) signedIn(t *testing.T, challenge string) (connect, consent string) {
	t.Helper()
	resp, body := rg.get(t, rg.authorizeURL(challenge, nil))
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "/connect/") {
		t.Fatalf("authorize: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	connect = resp.Header.Get("Location")
	if _, body = rg.get(t, connect); !strings.Contains(body, "Test Assistant") {
		t.Fatalf("MCP-16: the connect page does not name the app:\n%s", body)
	}
	if resp, body = rg.post(t, connect+"/email", url.Values{"email": {ownerEmail}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("email: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool {
		return strings.Contains(r.To, ownerEmail) && !rg.mailsSeen[r.File]
	})
	if err != nil {
		t.Fatalf("no sign-in mail: %v", err)
	}
	rg.mailsSeen[m.File] = true
	code := sixDigits.FindString(m.Body)
	resp, body = rg.post(t, connect+"/code", url.Values{"code": {code}})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Allow") || !strings.Contains(body, rg.clientID) {
		t.Fatalf("MCP-16: after the code, no consent naming the app and its address: %d\n%s", resp.StatusCode, body)
	}
	return connect, body
}

// tokenCall posts to the token endpoint.
func (rg *authRig) tokenCall(t *testing.T, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, body := rg.post(t, rg.URL+"/token", form)
	var out map[string]any
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("token: %d %s", resp.StatusCode, body)
	}
	return resp.StatusCode, out
}

func (rg *authRig) codeForm(code, verifier string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "client_id": {rg.clientID},
		"redirect_uri": {rg.redirect}, "resource": {rg.resource}}
}

// tokens runs the whole flow and returns the token response.
func (rg *authRig) tokens(t *testing.T) map[string]any {
	t.Helper()
	verifier, challenge := pkce()
	back := rg.signIn(t, challenge, "allow")
	status, tok := rg.tokenCall(t, rg.codeForm(back.Query().Get("code"), verifier))
	if status != http.StatusOK {
		t.Fatalf("token: %d %v", status, tok)
	}
	return tok
}

// mcpCall posts one JSON-RPC message to /mcp with headers.
func (rg *authRig) mcpCall(t *testing.T, body string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, rg.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const listMine = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_my_entries","arguments":{}}}`
const searchCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"Tischler"}}}`

// TestAuth_MCP16_MCP18_FullFlow: the app is sent to the connect page,
// the owner signs in with the code the SMTP server received and allows
// the app (MCP-16); the code comes back with iss (MCP-15); the token is a
// JWT for the MCP endpoint alone, valid one hour, with entries:write
// (MCP-18, MCP-10); the SDK's Go client calls list_my_entries with it.
func TestAuth_MCP16_MCP18_FullFlow(t *testing.T) {
	rg := newAuthRig(t)
	verifier, challenge := pkce()
	back := rg.signIn(t, challenge, "allow")
	if back.Query().Get("iss") != rg.issuer || back.Query().Get("state") != "st4te" || back.Query().Get("code") == "" {
		t.Fatalf("MCP-15: the authorization response is %s", back)
	}
	status, tok := rg.tokenCall(t, rg.codeForm(back.Query().Get("code"), verifier))
	if status != http.StatusOK || tok["token_type"] != "Bearer" || tok["expires_in"] != float64(3600) || tok["scope"] != "entries:write" || tok["refresh_token"] == "" {
		t.Fatalf("token: %d %v", status, tok)
	}
	at := tok["access_token"].(string)
	parts := strings.Split(at, ".")
	if len(parts) != 3 {
		t.Fatalf("MCP-18: the access token is no JWT: %s", at)
	}
	hdr, _ := base64.RawURLEncoding.DecodeString(parts[0])
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var h, c map[string]any
	json.Unmarshal(hdr, &h)
	json.Unmarshal(payload, &c)
	if h["typ"] != "at+jwt" || h["alg"] != "ES256" {
		t.Errorf("MCP-18: header %v, want typ at+jwt (RFC 9068)", h)
	}
	if c["aud"] != rg.resource && !(func() bool { a, ok := c["aud"].([]any); return ok && len(a) == 1 && a[0] == rg.resource })() {
		t.Errorf("MCP-18: aud %v, want %s only", c["aud"], rg.resource)
	}
	if c["exp"].(float64)-c["iat"].(float64) != 3600 || c["iss"] != rg.issuer || c["scope"] != "entries:write" || c["client_id"] != rg.clientID {
		t.Errorf("MCP-18: claims %v", c)
	}
	if strings.Contains(string(payload), ownerEmail) {
		t.Error("the token carries the owner's address")
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "daawid-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: rg.URL + "/mcp",
		HTTPClient: &http.Client{Transport: testserver.Bearer{Token: at}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := testserver.CallTool(t, cs, "list_my_entries", map[string]any{})
	if res.IsError {
		t.Fatalf("list_my_entries: %s", testserver.TextOf(res))
	}
	var mine struct {
		Entries []map[string]any `json:"entries"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &mine)
	if len(mine.Entries) != 1 || mine.Entries[0]["id"] != hkID || mine.Entries[0]["slug"] != testserver.HKSlug ||
		mine.Entries[0]["role"] != "owner" || mine.Entries[0]["live"] != true || mine.Entries[0]["revision"] == nil {
		t.Errorf("TOOL-21: list_my_entries: %s", raw)
	}
}

// TestAuth_MCP17_Metadata: the protected-resource metadata at both paths
// (MCP-17) names the MCP endpoint and the authorization server, whose
// metadata (RFC 8414) says S256 only (MCP-13), public clients only
// (MCP-14), iss in responses (MCP-15), metadata documents and no
// registration endpoint (MCP-12), entries:write (MCP-10).
func TestAuth_MCP17_Metadata(t *testing.T) {
	rg := newAuthRig(t)
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		resp, body := rg.get(t, rg.URL+p)
		var m map[string]any
		if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &m) != nil || m["resource"] != rg.resource ||
			m["authorization_servers"].([]any)[0] != rg.issuer {
			t.Errorf("MCP-17: %s: %d %s", p, resp.StatusCode, body)
		}
	}
	resp, body := rg.get(t, rg.URL+"/.well-known/oauth-authorization-server")
	var m map[string]any
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &m) != nil {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	want := map[string]string{"code_challenge_methods_supported": `["S256"]`, "token_endpoint_auth_methods_supported": `["none"]`,
		"scopes_supported": `["entries:write"]`, "authorization_response_iss_parameter_supported": `true`,
		"client_id_metadata_document_supported": `true`, "issuer": `"` + rg.issuer + `"`}
	for k, v := range want {
		if got, _ := json.Marshal(m[k]); string(got) != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	if _, ok := m["registration_endpoint"]; ok {
		t.Error("MCP-12: a registration endpoint is published")
	}
	for _, k := range []string{"authorization_endpoint", "jwks_uri"} {
		if resp, _ := rg.get(t, m[k].(string)); resp.StatusCode == http.StatusNotFound {
			t.Errorf("%s %s answers 404", k, m[k])
		}
	}
	if status, out := rg.tokenCall(t, url.Values{}); status != http.StatusBadRequest || out["error"] != "unsupported_grant_type" {
		t.Errorf("token_endpoint: %d %v", status, out)
	}
}

// TestAuth_MCP13_PKCE: plain, or no method, is refused, back at the app
// with iss (MCP-13, MCP-15); a wrong verifier gets no token.
func TestAuth_MCP13_PKCE(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	for _, set := range []map[string]string{{"code_challenge_method": "plain"}, {"code_challenge_method": ""}, {"code_challenge": ""}} {
		resp, _ := rg.get(t, rg.authorizeURL(challenge, set))
		back, _ := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || back.Query().Get("error") != "invalid_request" || back.Query().Get("iss") != rg.issuer {
			t.Errorf("MCP-13: %v: %d %s", set, resp.StatusCode, back)
		}
	}
	back := rg.signIn(t, challenge, "allow")
	wrong, _ := pkce()
	if status, out := rg.tokenCall(t, rg.codeForm(back.Query().Get("code"), wrong)); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("MCP-13: a wrong verifier: %d %v", status, out)
	}
}

// TestAuth_MCP15_Denied: the owner denies; the app gets access_denied
// with iss (MCP-15, MCP-16).
func TestAuth_MCP15_Denied(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	back := rg.signIn(t, challenge, "deny")
	if back.Query().Get("error") != "access_denied" || back.Query().Get("iss") != rg.issuer || back.Query().Get("code") != "" {
		t.Errorf("MCP-15: %s", back)
	}
}

// TestAuth_MCP27_ReservedScope: a reserved scope is refused (MCP-27).
func TestAuth_MCP27_ReservedScope(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	resp, _ := rg.get(t, rg.authorizeURL(challenge, map[string]string{"scope": "actions:submit"}))
	back, _ := url.Parse(resp.Header.Get("Location"))
	if back.Query().Get("error") != "invalid_scope" || back.Query().Get("iss") != rg.issuer {
		t.Errorf("MCP-27: %d %s", resp.StatusCode, back)
	}
}

// TestAuth_MCP18_Resource: a request for another resource is refused
// (RFC 8707, MCP-18).
func TestAuth_MCP18_Resource(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	for _, r := range []string{"https://other.example/mcp", ""} {
		resp, _ := rg.get(t, rg.authorizeURL(challenge, map[string]string{"resource": r}))
		back, _ := url.Parse(resp.Header.Get("Location"))
		if back.Query().Get("error") != "invalid_target" {
			t.Errorf("MCP-18: resource %q: %d %s", r, resp.StatusCode, back)
		}
	}
}

// TestAuth_MCP12_RedirectNotListed: a redirect URI the metadata document
// does not list is answered on a page, never redirected to (MCP-12).
func TestAuth_MCP12_RedirectNotListed(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	resp, body := rg.get(t, rg.authorizeURL(challenge, map[string]string{"redirect_uri": rg.redirect + "/evil"}))
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" || !strings.Contains(body, "redirect_uri") {
		t.Errorf("MCP-12: %d %q %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
}

// TestAuth_MCP19_CodeReused: a code used twice is refused, and the tokens
// it gave stop working (RFC 9700 §4.5).
func TestAuth_MCP19_CodeReused(t *testing.T) {
	rg := newAuthRig(t)
	verifier, challenge := pkce()
	back := rg.signIn(t, challenge, "allow")
	form := rg.codeForm(back.Query().Get("code"), verifier)
	status, tok := rg.tokenCall(t, form)
	if status != 200 {
		t.Fatalf("%d %v", status, tok)
	}
	if resp, _ := rg.mcpCall(t, listMine, "Authorization: Bearer "+tok["access_token"].(string)); resp.StatusCode != 200 {
		t.Fatalf("the fresh token: %d", resp.StatusCode)
	}
	if status, out := rg.tokenCall(t, form); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("a reused code: %d %v", status, out)
	}
	if resp, _ := rg.mcpCall(t, listMine, "Authorization: Bearer "+tok["access_token"].(string)); resp.StatusCode != 401 {
		t.Errorf("the reused code's access token still works: %d", resp.StatusCode)
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {rg.clientID}}
	if status, out := rg.tokenCall(t, refresh); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("the reused code's refresh token still works: %d %v", status, out)
	}
}

// TestAuth_MCP19_RefreshRotates: a refresh token gives a new one and is
// used up; sent again, it revokes the whole family, the new refresh
// token and the access tokens included (MCP-19).
func TestAuth_MCP19_RefreshRotates(t *testing.T) {
	rg := newAuthRig(t)
	tok := rg.tokens(t)
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {rg.clientID}, "resource": {rg.resource}}
	status, next := rg.tokenCall(t, form)
	if status != 200 || next["refresh_token"] == tok["refresh_token"] || next["access_token"] == "" {
		t.Fatalf("MCP-19: refresh: %d %v", status, next)
	}
	if status, out := rg.tokenCall(t, form); status != 400 || out["error"] != "invalid_grant" {
		t.Errorf("MCP-19: a refresh token used twice: %d %v", status, out)
	}
	form.Set("refresh_token", next["refresh_token"].(string))
	if status, out := rg.tokenCall(t, form); status != 400 {
		t.Errorf("MCP-19: the family's newest refresh token still works after a reuse: %d %v", status, out)
	}
	if resp, _ := rg.mcpCall(t, listMine, "Authorization: Bearer "+next["access_token"].(string)); resp.StatusCode != 401 {
		t.Errorf("MCP-19: the family's access token still works after a reuse: %d", resp.StatusCode)
	}
}

// TestAuth_MCP20_MCP21_MCP23_Gate: reads work without a token (MCP-20);
// an owner tool without one gets 401 with the challenge before the SDK
// runs (MCP-21); a bad or expired token gets 401 on a read too (MCP-23).
func TestAuth_MCP20_MCP21_MCP23_Gate(t *testing.T) {
	rg := newAuthRig(t)
	if resp, body := rg.mcpCall(t, searchCall); resp.StatusCode != 200 || strings.Contains(body, `"isError":true`) {
		t.Errorf("MCP-20: an anonymous read: %d %s", resp.StatusCode, body)
	}
	resp, _ := rg.mcpCall(t, listMine)
	want := `Bearer resource_metadata="https://mcp.daawid.example/.well-known/oauth-protected-resource/mcp", scope="entries:write"`
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
		t.Errorf("MCP-21: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp, _ := rg.mcpCall(t, searchCall, "Authorization: Bearer garbage"); resp.StatusCode != 401 ||
		!strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("MCP-23: a garbage token on a read: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	tok := rg.tokens(t)
	at := tok["access_token"].(string)
	if resp, _ := rg.mcpCall(t, searchCall, "Authorization: Bearer "+at); resp.StatusCode != 200 {
		t.Errorf("a good token on a read: %d", resp.StatusCode)
	}
	rg.Now = rg.Now.Add(time.Hour + time.Second)
	if resp, _ := rg.mcpCall(t, searchCall, "Authorization: Bearer "+at); resp.StatusCode != 401 {
		t.Errorf("MCP-23: an expired token on a read: %d", resp.StatusCode)
	}
}

// TestAuth_MCP22_OpenAI: an app that names itself OpenAI's gets the
// challenge as a tool error with _meta["mcp/www_authenticate"] (MCP-22).
func TestAuth_MCP22_OpenAI(t *testing.T) {
	rg := newAuthRig(t)
	resp, body := rg.mcpCall(t, listMine, "User-Agent: openai-mcp/1.0.0")
	if resp.StatusCode != 200 || !strings.Contains(body, `"isError":true`) || !strings.Contains(body, `"mcp/www_authenticate":["Bearer resource_metadata=`) ||
		!strings.Contains(body, "sign_in_required") {
		t.Errorf("MCP-22: %d %s", resp.StatusCode, body)
	}
}

// TestAuth_MCP25_SecuritySchemes: every tool declares securitySchemes:
// noauth, or oauth2 with entries:write for the owner tools (MCP-25).
func TestAuth_MCP25_SecuritySchemes(t *testing.T) {
	rg := newAuthRig(t)
	_, body := rg.mcpCall(t, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`)
	var out struct {
		Result struct {
			Tools []struct {
				Name string         `json:"name"`
				Meta map[string]any `json:"_meta"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.Result.Tools) == 0 {
		t.Fatalf("%v %s", err, body)
	}
	seenOwner := false
	for _, tool := range out.Result.Tools {
		got, _ := json.Marshal(tool.Meta["securitySchemes"])
		want := `[{"type":"noauth"}]`
		if schemas.IsOwnerTool(tool.Name) {
			seenOwner, want = true, `[{"scopes":["entries:write"],"type":"oauth2"}]`
		}
		if string(got) != want {
			t.Errorf("MCP-25: %s: %s, want %s", tool.Name, got, want)
		}
	}
	if !seenOwner {
		t.Error("list_my_entries is not listed")
	}
}

// TestAuth_MCP16_NoEnumeration: an address that owns nothing gets the
// same page as an owner's, and no mail.
func TestAuth_MCP16_NoEnumeration(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	var pages []string
	for _, email := range []string{"nobody@example.com", ownerEmail} {
		resp, _ := rg.get(t, rg.authorizeURL(challenge, nil))
		connect := resp.Header.Get("Location")
		resp, body := rg.post(t, connect+"/email", url.Values{"email": {email}})
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", email, resp.StatusCode)
		}
		pages = append(pages, strings.NewReplacer(connect[strings.LastIndexByte(connect, '/')+1:], "", "n…y@example.com", "", "i…r@holzwerk-krause.de", "").Replace(body))
	}
	if pages[0] != pages[1] {
		t.Errorf("the page tells an owner from a stranger:\n%s\n---\n%s", pages[0], pages[1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.To, ownerEmail) }); err != nil {
		t.Fatal(err)
	}
	msgs, _ := mail.ReadMaildir(rg.catcher.Dir())
	for _, m := range msgs {
		if !strings.Contains(m.To, ownerEmail) {
			t.Errorf("a code went to %s, who owns nothing", m.To)
		}
	}
}

// TestAuth_SignInTriesExactUnderConcurrency: twenty wrong sign-in codes
// at once compare no more than the sign-in's five tries (the rule of the
// action runs' codes); the rest are told the sign-in is locked or gone,
// and the right code after them signs nobody in.
func TestAuth_SignInTriesExactUnderConcurrency(t *testing.T) {
	rg := newAuthRig(t)
	_, challenge := pkce()
	resp, _ := rg.get(t, rg.authorizeURL(challenge, nil))
	connect := resp.Header.Get("Location")
	if resp, body := rg.post(t, connect+"/email", url.Values{"email": {ownerEmail}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("email: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.To, ownerEmail) })
	if err != nil {
		t.Fatal(err)
	}
	right := sixDigits.FindString(m.Body)
	wrong := "000000"
	if right == wrong {
		wrong = "000001"
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	compared, refused := 0, 0
	for range 20 {
		wg.Go(func() {
			resp, body := rg.post(t, connect+"/code", url.Values{"code": {wrong}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case resp.StatusCode == http.StatusBadRequest && strings.Contains(body, "tries left"):
				compared++
			case resp.StatusCode == http.StatusForbidden && strings.Contains(body, "locked"), resp.StatusCode == http.StatusNotFound:
				refused++
			}
		})
	}
	wg.Wait()
	if compared > 4 || compared+refused != 20 {
		t.Errorf("%d answered as wrong codes with tries left, %d as locked or gone; want at most 4 and the rest refused", compared, refused)
	}
	if resp, body := rg.post(t, connect+"/code", url.Values{"code": {right}}); resp.StatusCode == http.StatusOK || strings.Contains(body, "Allow") {
		t.Errorf("the right code after the tries signed in: %d", resp.StatusCode)
	}
}

// TestAuth_MCP14_PublicClientsOnly: a client that authenticates with a
// secret (HTTP Basic or client_secret) is refused at the token endpoint
// with invalid_client, and its code is not spent by the refusal; a
// metadata document that declares a confidential method is refused.
func TestAuth_MCP14_PublicClientsOnly(t *testing.T) {
	rg := newAuthRig(t)
	verifier, challenge := pkce()
	back := rg.signIn(t, challenge, "allow")
	form := rg.codeForm(back.Query().Get("code"), verifier)
	withSecret := url.Values{}
	for k, v := range form {
		withSecret[k] = v
	}
	withSecret.Set("client_secret", "s3cret")
	if status, out := rg.tokenCall(t, withSecret); status != 401 && status != 400 || out["error"] != "invalid_client" {
		t.Errorf("MCP-14: a client_secret: %d %v", status, out)
	}
	req, _ := http.NewRequest(http.MethodPost, rg.URL+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(rg.clientID, "s3cret")
	resp, err := rg.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if out["error"] != "invalid_client" {
		t.Errorf("MCP-14: HTTP Basic client authentication: %d %v", resp.StatusCode, out)
	}
	if status, tok := rg.tokenCall(t, form); status != http.StatusOK || tok["access_token"] == nil {
		t.Errorf("MCP-14: the public client's own exchange after the refusals: %d %v", status, tok)
	}

	conf := httptest.NewServer(nil)
	defer conf.Close()
	confID := conf.URL + "/client.json"
	conf.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"client_id": confID, "client_name": "Confidential App",
			"redirect_uris": []string{conf.URL + "/cb"}, "token_endpoint_auth_method": "client_secret_basic"})
	})
	u, _ := url.Parse(rg.authorizeURL(challenge, nil))
	q := u.Query()
	q.Set("client_id", confID)
	q.Set("redirect_uri", conf.URL+"/cb")
	u.RawQuery = q.Encode()
	resp, body := rg.get(t, u.String())
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "public clients") {
		t.Errorf("MCP-14: a confidential client's authorization request was taken: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
}
