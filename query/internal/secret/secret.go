// Package secret holds how the serving side makes and keeps its secrets:
// codes typed by people, tokens in links, and the keyed hashes the
// writable store keeps in their place, compared in constant time. The
// action runs, the authorization server and the claim flow share it.
package secret

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"math/big"
)

// Keyed is the HMAC-SHA-256 of parts under key, in hex: how the store
// keeps what must be compared but never read back (addresses, codes,
// idempotency keys). Each part ends with a zero byte, so ("ab", "c") and
// ("a", "bc") differ.
func Keyed(key []byte, parts ...string) string {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))
}

// SameHash compares two hex hashes in constant time; an empty or
// malformed one matches nothing.
func SameHash(a, b string) bool {
	x, err1 := hex.DecodeString(a)
	y, err2 := hex.DecodeString(b)
	return err1 == nil && err2 == nil && len(x) > 0 && hmac.Equal(x, y)
}

// HashToken is how a random token is kept: it has 155 or more random
// bits, so a plain hash is as good as a keyed one.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

var tokenEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// NewToken is 160 random bits in Crockford's base32 alphabet, lower case
// (32 characters).
func NewToken() string {
	var b [20]byte
	rand.Read(b[:])
	return tokenEncoding.EncodeToString(b[:])
}

// NewCode is a six-digit code from crypto/rand (ACT-37), as people type
// the codes mailed to them.
func NewCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}
