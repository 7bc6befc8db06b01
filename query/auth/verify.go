package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Principal is the owner an access token speaks for, as the owner tools
// learn it.
type Principal struct {
	// Subject is the owner (Owners.Subject of their address).
	Subject  string
	ClientID string
	Scopes   []string
	Expiry   time.Time
}

// HasScope reports whether the token carries a scope.
func (p *Principal) HasScope(s string) bool { return slices.Contains(p.Scopes, s) }

// ErrInvalidToken is a token that is not one of ours, not for this
// resource, expired, or of a revoked grant (MCP-23).
var ErrInvalidToken = errors.New("invalid token")

// Verify checks an access token at now: our signature (ES256, our key),
// typ at+jwt, our issuer, the MCP endpoint as its only audience
// (MCP-18), not expired, and its grant not revoked.
func (s *Server) Verify(ctx context.Context, token string, now time.Time) (*Principal, error) {
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{signingAlg})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	if len(tok.Headers) != 1 || !strings.EqualFold(fmt.Sprint(tok.Headers[0].ExtraHeaders["typ"]), "at+jwt") {
		return nil, fmt.Errorf("%w: not an access token (typ at+jwt)", ErrInvalidToken)
	}
	var c accessClaims
	keys := s.keys.public.Key(tok.Headers[0].KeyID)
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: unknown key", ErrInvalidToken)
	}
	if err := tok.Claims(keys[0].Key, &c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	if len(c.Audience) != 1 {
		return nil, fmt.Errorf("%w: the audience must be the MCP endpoint alone", ErrInvalidToken)
	}
	if err := c.Claims.ValidateWithLeeway(jwt.Expected{Issuer: s.cfg.Issuer, AnyAudience: jwt.Audience{s.cfg.Resource}, Time: now}, 0); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	if c.Expiry == nil || c.Subject == "" || c.SID == "" {
		return nil, fmt.Errorf("%w: exp, sub and sid are required", ErrInvalidToken)
	}
	// RFC 7519 §4.1.4: a token is refused on or after exp; go-jose takes
	// it at exp itself.
	if !now.Before(c.Expiry.Time()) {
		return nil, fmt.Errorf("%w: expired", ErrInvalidToken)
	}
	fam, err := s.loadFamily(ctx, c.SID)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	if fam.revoked {
		return nil, fmt.Errorf("%w: the grant was revoked", ErrInvalidToken)
	}
	return &Principal{Subject: c.Subject, ClientID: c.ClientID, Scopes: strings.Fields(c.Scope), Expiry: c.Expiry.Time()}, nil
}
