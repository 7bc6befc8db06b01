package keys_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/query/keys"
)

// D62, PRIV-25: keys are stored hashed, work until revoked, and carry no
// tier.
func TestKeys_CreateCheckRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	secret, k, err := keys.CreateKey(path, "Acme Data GmbH", now)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := os.ReadFile(path)
	if strings.Contains(string(stored), secret) || !strings.HasPrefix(secret, keys.KeyPrefix) || len(secret) < 50 {
		t.Fatalf("the store holds the key itself, or the key is weak: %q", secret)
	}
	all, _ := keys.ReadKeys(path)
	if got, ok := keys.CheckKey(all, secret); !ok || got.ID != k.ID {
		t.Fatal("a fresh key is refused")
	}
	if _, ok := keys.CheckKey(all, secret+"x"); ok {
		t.Fatal("a wrong key is accepted")
	}
	if _, _, err := keys.CreateKey(path, "  ", now); err == nil {
		t.Fatal("a key without a buyer name")
	}
	if err := keys.RevokeKey(path, k.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	all, _ = keys.ReadKeys(path)
	if _, ok := keys.CheckKey(all, secret); ok {
		t.Fatal("a revoked key is accepted")
	}
	if len(all) != 1 || all[0].RevokedAt == "" {
		t.Fatalf("revoked keys stay listed: %+v", all)
	}
	if err := keys.RevokeKey(path, "key_nope", now); err == nil {
		t.Fatal("revoking an unknown key")
	}
}
