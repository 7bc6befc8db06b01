package auth

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/go-jose/go-jose/v4/jwt"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func newTestServer(t *testing.T, dsn string, testMode bool) *Server {
	t.Helper()
	st, err := OpenStore(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	secret := make([]byte, 32)
	rand.Read(secret)
	s, err := New(context.Background(), Config{Store: st, Secret: secret, Issuer: "https://auth.daawid.example",
		Resource: "https://mcp.daawid.example/mcp", TestMode: testMode, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStore_MigrationsOnce: the tables are made once and a second start
// keeps the signing key (MCP-18), on SQLite and PostgreSQL.
func TestStore_MigrationsOnce(t *testing.T) {
	run := func(t *testing.T, dsn string) {
		a := newTestServer(t, dsn, false)
		b := newTestServer(t, dsn, false)
		if a.keys.signing.KeyID != b.keys.signing.KeyID {
			t.Errorf("a second start made another key: %s, %s", a.keys.signing.KeyID, b.keys.signing.KeyID)
		}
	}
	t.Run("sqlite", func(t *testing.T) { run(t, filepath.Join(t.TempDir(), "runs.db")) })
	t.Run("postgres", func(t *testing.T) { run(t, citools.Postgres(t)) })
}

// TestVerify_MCP18_AudienceAndExpiry: a token of ours for another
// audience, an expired one and one of a revoked grant are refused
// (MCP-18, MCP-23); a good one carries its scope for MCP-24's check.
func TestVerify_MCP18_AudienceAndExpiry(t *testing.T) {
	s := newTestServer(t, filepath.Join(t.TempDir(), "runs.db"), false)
	ctx := context.Background()
	a := &authRequest{clientID: "https://app.example/client.json", subject: "own_x", scope: ScopeEntriesWrite, resource: s.cfg.Resource,
		redirectURI: "https://app.example/cb", challenge: strings.Repeat("a", 43)}
	if err := s.grant(ctx, a, "fam_1", "code1", testNow); err != nil {
		t.Fatal(err)
	}
	claims := func(aud string, exp time.Time, scope string) accessClaims {
		return accessClaims{Claims: jwt.Claims{Issuer: s.cfg.Issuer, Subject: "own_x", Audience: jwt.Audience{aud},
			Expiry: jwt.NewNumericDate(exp), IssuedAt: jwt.NewNumericDate(testNow)}, Scope: scope, SID: "fam_1"}
	}
	good, _ := s.sign(claims(s.cfg.Resource, testNow.Add(time.Hour), ScopeEntriesWrite))
	p, err := s.Verify(ctx, good, testNow)
	if err != nil || !p.HasScope(ScopeEntriesWrite) || p.Subject != "own_x" {
		t.Fatalf("a good token: %v %v", p, err)
	}
	noScope, _ := s.sign(claims(s.cfg.Resource, testNow.Add(time.Hour), ""))
	if p, err := s.Verify(ctx, noScope, testNow); err != nil || p.HasScope(ScopeEntriesWrite) {
		t.Errorf("MCP-24: a token without the scope: %v %v", p, err)
	}
	other, _ := s.sign(claims("https://other.example/mcp", testNow.Add(time.Hour), ScopeEntriesWrite))
	if _, err := s.Verify(ctx, other, testNow); err == nil {
		t.Error("MCP-18: a token for another audience was taken")
	}
	if _, err := s.Verify(ctx, good, testNow.Add(time.Hour)); err == nil {
		t.Error("MCP-23: an expired token was taken")
	}
	s.revoke(ctx, "fam_1", "test", testNow)
	if _, err := s.Verify(ctx, good, testNow); err == nil {
		t.Error("MCP-19: a revoked grant's token was taken")
	}
}

// TestClientFetch_MCP12_Guarded: in production a metadata document on a
// loopback address is refused at dial time, whatever its name; plain
// http is refused; a document whose client_id is not its URL, or that
// is too large, is refused; in test mode a loopback document is read.
func TestClientFetch_MCP12_Guarded(t *testing.T) {
	var doc any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { json.NewEncoder(w).Encode(doc) }))
	defer srv.Close()
	tls := httptest.NewTLSServer(srv.Config.Handler)
	defer tls.Close()
	ctx := context.Background()
	prod := newClientFetcher(false)
	for _, id := range []string{tls.URL + "/client.json", strings.Replace(tls.URL, "127.0.0.1", "localhost", 1) + "/client.json"} {
		if _, err := prod.fetch(ctx, id); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("MCP-12: production fetched %s: %v", id, err)
		}
	}
	if _, err := prod.fetch(ctx, srv.URL+"/client.json"); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("MCP-12: production took plain http: %v", err)
	}
	test := newClientFetcher(true)
	id := srv.URL + "/client.json"
	doc = map[string]any{"client_id": id, "client_name": "App", "redirect_uris": []string{"http://127.0.0.1/cb"}}
	if md, err := test.fetch(ctx, id); err != nil || md.ClientName != "App" || !md.allows("http://127.0.0.1/cb") || md.allows("http://127.0.0.1/cb/") {
		t.Errorf("test mode: %v %v", md, err)
	}
	doc = map[string]any{"client_id": "https://elsewhere.example/c.json", "client_name": "App", "redirect_uris": []string{"x"}}
	if _, err := test.fetch(ctx, id); err == nil || !strings.Contains(err.Error(), "client_id") {
		t.Errorf("MCP-12: a document with another client_id: %v", err)
	}
	doc = map[string]any{"client_id": id, "client_name": strings.Repeat("x", 6000), "redirect_uris": []string{"x"}}
	if _, err := test.fetch(ctx, id); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("a document over the size limit: %v", err)
	}
}

// TestGuardedClient_MCP12_AddressesAndTime: the fetcher of what an
// outsider names (MCP-12's metadata documents, D96's well-known files)
// refuses every private, loopback, link-local, shared or unspecified
// address, takes public ones, and gives up on a server slower than its
// limit.
func TestGuardedClient_MCP12_AddressesAndTime(t *testing.T) {
	for addr, public := range map[string]bool{
		"10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "127.0.0.1": false, "169.254.169.254": false,
		"100.64.0.1": false, "0.0.0.0": false, "224.0.0.1": false, "::1": false, "fe80::1": false, "fd00::1": false,
		"::ffff:10.0.0.1": false, "::ffff:127.0.0.1": false, "93.184.216.34": true, "2606:2800:220:1::1": true,
	} {
		if got := publicAddr(netip.MustParseAddr(addr)); got != public {
			t.Errorf("MCP-12: %s public: %v, want %v", addr, got, public)
		}
	}
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	c := GuardedClient(true, 300*time.Millisecond, nil)
	started := time.Now()
	resp, err := c.Get(slow.URL + "/client.json")
	if err == nil {
		resp.Body.Close()
		t.Fatal("a server slower than the limit answered")
	}
	if took := time.Since(started); took > 3*time.Second {
		t.Errorf("gave up after %v, not near its 300 ms limit", took)
	}
	if _, err := GuardedClient(false, time.Second, nil).Get(slow.URL + "/client.json"); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("MCP-12: production dialled loopback: %v", err)
	}
}
