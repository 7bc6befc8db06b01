package keys

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// Key is one buyer key as stored.
type Key struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	SHA256    string `json:"sha256"`
	CreatedAt string `json:"createdAt"`
	RevokedAt string `json:"revokedAt,omitempty"`
}

// KeyPrefix starts every buyer key.
const KeyPrefix = "dwk_"

var keyEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// ReadKeys reads a key store; a missing store has no keys.
func ReadKeys(path string) ([]Key, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("keys: read the store: %w", err)
	}
	var keys []Key
	if err := json.Unmarshal(b, &keys); err != nil {
		return nil, fmt.Errorf("keys: read %s: %w", path, err)
	}
	return keys, nil
}

// writeKeys writes the store whole and renames it into place, so a
// reader never sees half a store.
func writeKeys(path string, keys []Key) error {
	sort.Slice(keys, func(i, j int) bool { return keys[i].ID < keys[j].ID })
	b, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return fmt.Errorf("keys: write %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("keys: write %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("keys: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("keys: write %s: %w", path, err)
	}
	return nil
}

func hashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateKey makes a key for a buyer and stores its hash; the returned
// secret is not kept anywhere.
func CreateKey(path, name string, now time.Time) (secret string, k Key, err error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Key{}, errors.New("keys: a key needs the buyer's name")
	}
	keys, err := ReadKeys(path)
	if err != nil {
		return "", Key{}, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", Key{}, fmt.Errorf("keys: make a key: %w", err)
	}
	secret = KeyPrefix + strings.ToLower(keyEncoding.EncodeToString(raw))
	k = Key{ID: "key_" + strings.ToLower(ulid.MustNew(ulid.Timestamp(now), rand.Reader).String()), Name: name, SHA256: hashKey(secret),
		CreatedAt: now.UTC().Format(time.RFC3339)}
	if err := writeKeys(path, append(keys, k)); err != nil {
		return "", Key{}, err
	}
	return secret, k, nil
}

// RevokeKey revokes a key by its ID; it stays listed, revoked.
func RevokeKey(path, id string, now time.Time) error {
	keys, err := ReadKeys(path)
	if err != nil {
		return err
	}
	for i := range keys {
		if keys[i].ID == id {
			if keys[i].RevokedAt == "" {
				keys[i].RevokedAt = now.UTC().Format(time.RFC3339)
			}
			return writeKeys(path, keys)
		}
	}
	return fmt.Errorf("keys: no key %s", id)
}

// CheckKey finds the live key a secret is, comparing hashes in constant
// time.
func CheckKey(keys []Key, secret string) (Key, bool) {
	if !strings.HasPrefix(secret, KeyPrefix) {
		return Key{}, false
	}
	h := []byte(hashKey(secret))
	for _, k := range keys {
		if subtle.ConstantTimeCompare(h, []byte(k.SHA256)) == 1 && k.RevokedAt == "" {
			return k, true
		}
	}
	return Key{}, false
}
