package rest_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/actions/mail"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/rest"
)

// The action runs' test rig: the test registry served with a runs store
// (a SQLite file, or a fresh schema of the PostgreSQL server .ci/run
// starts), the request routes, pages and MCP tools, and a real SMTP
// server on loopback that files every mail in a Maildir. One clock drives
// the server and the runs, so the tests move time instead of sleeping.

type runsRig struct {
	*testServer
	acts    *actions.Service
	store   *actions.Store
	catcher *mail.Catcher
	sender  *mail.Sender
	mu      sync.Mutex
}

// storeKinds are the stores every store-dependent test runs on.
var storeKinds = []string{"sqlite", "postgres"}

// openRunsStore opens an empty store of a kind: a SQLite file in a
// temporary folder, or a schema of its own on the test PostgreSQL.
func openRunsStore(t testing.TB, kind string) *actions.Store {
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

// newRunsRig serves the test registry with action runs on a store of a
// kind, with the contract's limits unless limits says others.
func newRunsRig(t testing.TB, kind string, limits *actions.Limits, opts ...serverOption) *runsRig {
	t.Helper()
	rg := &runsRig{}
	rg.store = openRunsStore(t, kind)
	catcher, err := mail.StartCatcher("127.0.0.1:0", filepath.Join(t.TempDir(), "mail"), mail.CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { catcher.Close() })
	rg.catcher = catcher
	if rg.sender, err = mail.NewSender(catcher.URL()); err != nil {
		t.Fatal(err)
	}
	gaz, err := places.Default()
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("a test secret of at least thirty-two bytes")
	var ts *testServer
	cfg := actions.Config{Store: rg.store, Secret: secret, Site: reg.site, Places: gaz, Now: func() time.Time { return ts.now },
		Log: slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if limits != nil {
		cfg.Limits = *limits
	}
	acts, err := actions.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rg.acts = acts
	opts = append(opts, func(c *rest.Config) { c.Actions = acts })
	ts = newServer(t, opts...)
	ts.srv.MountMCP(qmcp.Handler(ts.svc, qmcp.Options{Now: func() time.Time { return ts.now }, Allow: ts.srv.ReadAllowed,
		Count: ts.srv.CountRead, Actions: acts, Platform: ts.srv.ReaderCategory}))
	rg.testServer = ts
	return rg
}

// testWriter writes a logger's lines into the test's log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// drain sends every mail the outbox holds now, as the server's sender
// would, and says how many went.
func (rg *runsRig) drain(t testing.TB) int {
	t.Helper()
	n, err := rg.acts.SendDue(context.Background(), rg.sender, 1000)
	if err != nil {
		t.Fatalf("outbox: %v", err)
	}
	return n
}

// mails are the mails the SMTP server has filed.
func (rg *runsRig) mails(t testing.TB) []mail.Received {
	t.Helper()
	ms, err := mail.ReadMaildir(rg.catcher.Dir())
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// codeFor is the code of the newest code mail to an address.
func (rg *runsRig) codeFor(t testing.TB, to string) string {
	t.Helper()
	rg.drain(t)
	ms := rg.mails(t)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if !strings.Contains(m.To, to) || !strings.Contains(m.MessageID, ".code") {
			continue
		}
		for _, line := range strings.Split(m.Body, "\n") {
			for _, p := range []string{"Your code: ", "Ihr Code: "} {
				if c, ok := strings.CutPrefix(line, p); ok {
					return strings.TrimSpace(c)
				}
			}
		}
	}
	t.Fatalf("no code mail to %s among %d mails", to, len(ms))
	return ""
}

// postForm sends a form POST (as the page's buttons do) and reads the
// answer.
func (rg *runsRig) postForm(t testing.TB, path string, vals url.Values, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return rg.post(t, path, "application/x-www-form-urlencoded", vals.Encode(), headers)
}

// postJSON sends a JSON POST: a string as it is, anything else marshalled.
func (rg *runsRig) postJSON(t testing.TB, path string, body any, headers ...string) (*http.Response, []byte) {
	t.Helper()
	b, ok := body.(string)
	if !ok {
		b = string(mustJSON(body))
	}
	return rg.post(t, path, "application/json", b, headers)
}

func (rg *runsRig) post(t testing.TB, path, contentType, body string, headers []string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rg.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	return doReq(t, req)
}

func doReq(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// tokenOf is the token of a confirmation URL.
func tokenOf(t testing.TB, confirmURL string) string {
	t.Helper()
	i := strings.LastIndex(confirmURL, "/confirm/")
	if i < 0 {
		t.Fatalf("not a confirmation URL: %s", confirmURL)
	}
	return confirmURL[i+len("/confirm/"):]
}

// exampleQuote is the contract's example call (§7.6, ACT-64).
func exampleQuote() map[string]any {
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
