package testserver

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/places"
)

// OpenRunsStore opens an empty store of action runs of a kind: "sqlite",
// a file in a temporary folder, or "postgres", a schema of its own on the
// PostgreSQL server .ci/run starts (without it the test skips loudly, or
// fails under CI=true).
func OpenRunsStore(t testing.TB, kind string) *actions.Store {
	t.Helper()
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "runs.db")
	if kind == "postgres" {
		base := citools.Postgres(t)
		var b [6]byte
		rand.Read(b[:])
		schema := "t_" + hex.EncodeToString(b[:])
		db, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			t.Fatalf("postgres: %v", err)
		}
		t.Cleanup(func() { db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); db.Close() })
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	st, err := actions.OpenStore(ctx, dsn)
	if err != nil {
		t.Fatalf("open %s store: %v", kind, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// NewActions runs requests on a store for the test registry, by the clock
// now, with the contract's limits unless limits says others; it logs
// warnings into the test's log.
func NewActions(t testing.TB, reg *Registry, store *actions.Store, now func() time.Time, limits *actions.Limits) *actions.Service {
	t.Helper()
	gaz, err := places.Default()
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("a test secret of at least thirty-two bytes")
	cfg := actions.Config{Store: store, Secret: secret, Site: reg.Site, Places: gaz, Now: now,
		Log: slog.New(slog.NewTextHandler(TestWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if limits != nil {
		cfg.Limits = *limits
	}
	acts, err := actions.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return acts
}

// TestWriter writes a logger's lines into the test's log.
type TestWriter struct{ T testing.TB }

// Write logs a line.
func (w TestWriter) Write(p []byte) (int, error) {
	w.T.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// ExampleQuote is the contract's example call (§7.6, ACT-64).
func ExampleQuote() map[string]any {
	return map[string]any{
		"entry":          "holzwerk-krause",
		"actionId":       "act_01k8r2m7aa1b2c3d4e5f6g7h8j",
		"offeringId":     "off_01k8r2m6bb1b2c3d4e5f6g7h8j",
		"description":    "Einbauschrank für eine Dachschräge im Schlafzimmer, ca. 3,2 m breit, Eiche hell.",
		"postalCode":     "42105",
		"desiredTiming":  "Februar oder März 2027",
		"answers":        map[string]any{"has_sloped_ceiling": true},
		"requester":      map[string]any{"name": "Mara Example", "email": "mara@example.org", "preferredChannel": "email", "language": "de"},
		"idempotencyKey": "3c1f7a9e-quote-1",
	}
}

// QuoteFrom is the example quote from another requester, without an
// idempotency key.
func QuoteFrom(email string) map[string]any {
	q := ExampleQuote()
	delete(q, "idempotencyKey")
	q["requester"] = map[string]any{"name": "Racer " + email, "email": email}
	return q
}

// QuoteTo is a quote from a requester to any entry that takes quotes:
// no action, offering or answers of Holzwerk Krause's.
func QuoteTo(entry, email string) map[string]any {
	q := QuoteFrom(email)
	q["entry"] = entry
	delete(q, "actionId")
	delete(q, "offeringId")
	delete(q, "answers")
	return q
}
