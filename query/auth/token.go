package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/daawid/registry/query/internal/secret"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// tokenError is an error of the token endpoint (RFC 6749 §5.2).
type tokenError struct{ code, desc string }

func (e *tokenError) Error() string { return e.code + ": " + e.desc }

func invalidGrant(desc string) error { return &tokenError{"invalid_grant", desc} }

// token is the token endpoint: the authorization_code and refresh_token
// grants, for public clients only (MCP-14: no client authentication).
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.tokenFail(w, &tokenError{"invalid_request", "the body must be a form (application/x-www-form-urlencoded) under 16 KB"})
		return
	}
	if _, _, ok := r.BasicAuth(); ok || r.PostForm.Get("client_secret") != "" {
		s.tokenFail(w, &tokenError{"invalid_client", "only public clients are taken: token_endpoint_auth_method none, no secret"})
		return
	}
	now := s.cfg.Now()
	var resp map[string]any
	var err error
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		resp, err = s.codeGrant(r.Context(), r, now)
	case "refresh_token":
		resp, err = s.refreshGrant(r.Context(), r, now)
	default:
		err = &tokenError{"unsupported_grant_type", "grant_type: must be authorization_code or refresh_token"}
	}
	if err != nil {
		s.tokenFail(w, err)
		return
	}
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, resp, "no-store")
}

func (s *Server) tokenFail(w http.ResponseWriter, err error) {
	var te *tokenError
	if !errors.As(err, &te) {
		s.cfg.Log.Error("auth: token", "err", err)
		te = &tokenError{"server_error", "the token could not be made; try again"}
	}
	status := http.StatusBadRequest
	switch te.code {
	case "invalid_client":
		status = http.StatusUnauthorized
	case "server_error":
		status = http.StatusInternalServerError
	}
	writeJSON(w, status, map[string]string{"error": te.code, "error_description": te.desc}, "no-store")
}

// family is a grant as the token endpoint reads it.
type family struct {
	id, clientID, subject, scope, resource string
	expires                                time.Time
	revoked                                bool
}

func (s *Server) loadFamily(ctx context.Context, id string) (*family, error) {
	var f family
	var expires int64
	var revoked sql.NullInt64
	err := s.st.queryRow(ctx, `SELECT id, client_id, subject, scope, resource, expires_at, revoked_at FROM auth_families WHERE id = ?`, id).
		Scan(&f.id, &f.clientID, &f.subject, &f.scope, &f.resource, &expires, &revoked)
	if err != nil {
		return nil, fmt.Errorf("read the grant: %w", err)
	}
	f.expires, f.revoked = fromMillis(expires), revoked.Valid
	return &f, nil
}

// revoke ends a grant: its refresh tokens and the access tokens it gave
// stop working (MCP-19; a reused code, RFC 9700 §4.5).
func (s *Server) revoke(ctx context.Context, familyID, why string, now time.Time) {
	if _, err := s.st.exec(ctx, `UPDATE auth_families SET revoked_at = ?, revoked_why = ? WHERE id = ? AND revoked_at IS NULL`,
		millis(now), why, familyID); err != nil {
		s.cfg.Log.Error("auth: revoke", "family", familyID, "err", err)
	}
	s.cfg.Log.Warn("auth: grant revoked", "family", familyID, "why", why)
}

// codeGrant trades an authorization code for tokens. The code is used
// once: a second use is refused and revokes what the first gave.
func (s *Server) codeGrant(ctx context.Context, r *http.Request, now time.Time) (map[string]any, error) {
	f := r.PostForm
	code, verifier := f.Get("code"), f.Get("code_verifier")
	if code == "" {
		return nil, &tokenError{"invalid_request", "code: missing"}
	}
	if verifier == "" {
		return nil, &tokenError{"invalid_request", "code_verifier: missing (PKCE S256 is required)"}
	}
	var familyID, redirectURI, challenge string
	var expires int64
	var used sql.NullInt64
	err := s.st.queryRow(ctx, `SELECT family_id, redirect_uri, code_challenge, expires_at, used_at FROM auth_codes WHERE code_hash = ?`, secret.HashToken(code)).
		Scan(&familyID, &redirectURI, &challenge, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalidGrant("code: unknown")
	}
	if err != nil {
		return nil, fmt.Errorf("read the code: %w", err)
	}
	if used.Valid {
		s.revoke(ctx, familyID, "authorization code used twice", now)
		return nil, invalidGrant("code: was already used; the tokens it gave are revoked")
	}
	fam, err := s.loadFamily(ctx, familyID)
	if err != nil {
		return nil, err
	}
	switch {
	case !now.Before(fromMillis(expires)):
		return nil, invalidGrant("code: has run out")
	case f.Get("client_id") != fam.clientID:
		return nil, invalidGrant("client_id: is not the client the code was given to")
	case f.Get("redirect_uri") != redirectURI:
		return nil, invalidGrant("redirect_uri: is not the one of the authorization request")
	case f.Get("resource") != fam.resource:
		return nil, &tokenError{"invalid_target", "resource: must be " + fam.resource}
	case !pkceMatches(verifier, challenge):
		return nil, invalidGrant("code_verifier: does not match the code_challenge")
	}
	ok, err := s.st.once(ctx, "auth_codes", "code_hash", secret.HashToken(code), now)
	if err != nil {
		return nil, fmt.Errorf("use the code: %w", err)
	}
	if !ok {
		s.revoke(ctx, familyID, "authorization code used twice", now)
		return nil, invalidGrant("code: was already used; the tokens it gave are revoked")
	}
	return s.issue(ctx, fam, now)
}

// pkceMatches checks the verifier against the S256 challenge (RFC 7636
// §4.6), in constant time.
func pkceMatches(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

// refreshGrant rotates a refresh token (MCP-19): the one sent is used up
// and a new one comes with the access token; one sent a second time
// revokes the whole family, since either the app or a thief holds a copy.
func (s *Server) refreshGrant(ctx context.Context, r *http.Request, now time.Time) (map[string]any, error) {
	f := r.PostForm
	rt := f.Get("refresh_token")
	if rt == "" {
		return nil, &tokenError{"invalid_request", "refresh_token: missing"}
	}
	var familyID string
	var expires int64
	var used sql.NullInt64
	err := s.st.queryRow(ctx, `SELECT family_id, expires_at, used_at FROM auth_refresh WHERE token_hash = ?`, secret.HashToken(rt)).Scan(&familyID, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalidGrant("refresh_token: unknown")
	}
	if err != nil {
		return nil, fmt.Errorf("read the refresh token: %w", err)
	}
	if used.Valid {
		s.revoke(ctx, familyID, "refresh token used twice", now)
		return nil, invalidGrant("refresh_token: was already used; the grant is revoked, sign in again")
	}
	fam, err := s.loadFamily(ctx, familyID)
	if err != nil {
		return nil, err
	}
	switch {
	case fam.revoked:
		return nil, invalidGrant("refresh_token: the grant was revoked; sign in again")
	case !now.Before(fromMillis(expires)):
		return nil, invalidGrant("refresh_token: has run out; sign in again")
	case f.Get("client_id") != fam.clientID:
		return nil, invalidGrant("client_id: is not the client the token was given to")
	case f.Get("resource") != "" && f.Get("resource") != fam.resource:
		return nil, &tokenError{"invalid_target", "resource: must be " + fam.resource}
	case f.Get("scope") != "" && checkScope(f.Get("scope")) != "":
		return nil, &tokenError{"invalid_scope", checkScope(f.Get("scope"))}
	}
	ok, err := s.st.once(ctx, "auth_refresh", "token_hash", secret.HashToken(rt), now)
	if err != nil {
		return nil, fmt.Errorf("use the refresh token: %w", err)
	}
	if !ok {
		s.revoke(ctx, familyID, "refresh token used twice", now)
		return nil, invalidGrant("refresh_token: was already used; the grant is revoked, sign in again")
	}
	return s.issue(ctx, fam, now)
}

// accessClaims are an access token's claims (RFC 9068 §2.2). sid names
// the grant, so a revoked grant's tokens stop working before they expire.
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
	SID      string `json:"sid"`
}

// issue makes an access token and a new refresh token of a grant.
func (s *Server) issue(ctx context.Context, fam *family, now time.Time) (map[string]any, error) {
	rt := secret.NewToken()
	if _, err := s.st.exec(ctx, `INSERT INTO auth_refresh (token_hash, family_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		secret.HashToken(rt), fam.id, millis(now), millis(now.Add(refreshTTL))); err != nil {
		return nil, fmt.Errorf("keep the refresh token: %w", err)
	}
	if _, err := s.st.exec(ctx, `UPDATE auth_families SET expires_at = ? WHERE id = ?`, millis(now.Add(refreshTTL)), fam.id); err != nil {
		return nil, fmt.Errorf("extend the grant: %w", err)
	}
	at, err := s.sign(accessClaims{Claims: jwt.Claims{Issuer: s.cfg.Issuer, Subject: fam.subject, Audience: jwt.Audience{fam.resource},
		Expiry: jwt.NewNumericDate(now.Add(accessTTL)), IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now), ID: secret.NewToken()},
		ClientID: fam.clientID, Scope: fam.scope, SID: fam.id})
	if err != nil {
		return nil, err
	}
	return map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(accessTTL.Seconds()),
		"refresh_token": rt, "scope": fam.scope}, nil
}

// sign signs an access token as RFC 9068 asks: typ at+jwt.
func (s *Server) sign(c accessClaims) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: signingAlg, Key: s.keys.signing},
		(&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		return "", fmt.Errorf("signer: %w", err)
	}
	tok, err := jwt.Signed(signer).Claims(c).Serialize()
	if err != nil {
		return "", fmt.Errorf("sign the access token: %w", err)
	}
	return tok, nil
}
