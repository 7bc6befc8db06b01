package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/export"
)

// D62, PRIV-25: keys are stored hashed, work until revoked, and carry no
// tier.
func TestKeys_CreateCheckRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	secret, k, err := export.CreateKey(path, "Acme Data GmbH", now)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := os.ReadFile(path)
	if strings.Contains(string(stored), secret) || !strings.HasPrefix(secret, export.KeyPrefix) || len(secret) < 50 {
		t.Fatalf("the store holds the key itself, or the key is weak: %q", secret)
	}
	keys, _ := export.ReadKeys(path)
	if got, ok := export.CheckKey(keys, secret); !ok || got.ID != k.ID {
		t.Fatal("a fresh key is refused")
	}
	if _, ok := export.CheckKey(keys, secret+"x"); ok {
		t.Fatal("a wrong key is accepted")
	}
	if _, _, err := export.CreateKey(path, "  ", now); err == nil {
		t.Fatal("a key without a buyer name")
	}
	if err := export.RevokeKey(path, k.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	keys, _ = export.ReadKeys(path)
	if _, ok := export.CheckKey(keys, secret); ok {
		t.Fatal("a revoked key is accepted")
	}
	if len(keys) != 1 || keys[0].RevokedAt == "" {
		t.Fatalf("revoked keys stay listed: %+v", keys)
	}
	if err := export.RevokeKey(path, "key_nope", now); err == nil {
		t.Fatal("revoking an unknown key")
	}
}
