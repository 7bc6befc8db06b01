package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/daawid/registry/query/internal/secret"
	"github.com/go-jose/go-jose/v4"
)

// signingAlg is the access tokens' algorithm: ES256, which every JOSE
// library reads (the npm jose package included).
const signingAlg = jose.ES256

// keySet is the signing key and the public keys that verify tokens.
type keySet struct {
	signing jose.JSONWebKey
	public  jose.JSONWebKeySet
}

// loadKeys reads the store's signing keys, making one on the first start
// (MCP-18). Several processes starting at once may each make one; every
// process then signs with the oldest and publishes all of them, so a
// token any of them signed verifies.
func loadKeys(ctx context.Context, st *Store, now time.Time) (*keySet, error) {
	ks, err := readKeys(ctx, st)
	if err != nil || len(ks.public.Keys) > 0 {
		return ks, err
	}
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("make the signing key: %w", err)
	}
	kid := secret.NewToken()[:16]
	jwk := jose.JSONWebKey{Key: priv, KeyID: kid, Algorithm: string(signingAlg), Use: "sig"}
	raw, err := jwk.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("keep the signing key: %w", err)
	}
	if _, err := st.exec(ctx, `INSERT INTO auth_keys (kid, alg, jwk, created_at) VALUES (?, ?, ?, ?)`,
		kid, string(signingAlg), string(raw), millis(now)); err != nil {
		return nil, fmt.Errorf("keep the signing key: %w", err)
	}
	return readKeys(ctx, st)
}

func readKeys(ctx context.Context, st *Store) (*keySet, error) {
	rows, err := st.query(ctx, `SELECT jwk FROM auth_keys ORDER BY created_at, kid`)
	if err != nil {
		return nil, fmt.Errorf("read the signing keys: %w", err)
	}
	defer rows.Close()
	ks := &keySet{}
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, fmt.Errorf("read the signing keys: %w", err)
		}
		var k jose.JSONWebKey
		if err := json.Unmarshal([]byte(raw), &k); err != nil {
			return nil, fmt.Errorf("read the signing keys: %w", err)
		}
		if len(ks.public.Keys) == 0 {
			ks.signing = k
		}
		ks.public.Keys = append(ks.public.Keys, k.Public())
	}
	return ks, rows.Err()
}
