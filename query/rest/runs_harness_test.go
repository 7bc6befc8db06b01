package rest_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/internal/testserver"
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

// newRunsRig serves the test registry with action runs on a store of a
// kind, with the contract's limits unless limits says others.
func newRunsRig(t testing.TB, kind string, limits *actions.Limits, opts ...serverOption) *runsRig {
	t.Helper()
	return newRunsRigFor(t, reg, kind, limits, opts...)
}

// newRunsRigFor is newRunsRig over another registry folder r.
func newRunsRigFor(t testing.TB, r *testserver.Registry, kind string, limits *actions.Limits, opts ...serverOption) *runsRig {
	t.Helper()
	rg := &runsRig{}
	rg.store = testserver.OpenRunsStore(t, kind)
	catcher, err := mail.StartCatcher("127.0.0.1:0", filepath.Join(t.TempDir(), "mail"), mail.CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { catcher.Close() })
	rg.catcher = catcher
	if rg.sender, err = mail.NewSender(catcher.URL()); err != nil {
		t.Fatal(err)
	}
	var ts *testServer
	rg.acts = testserver.NewActions(t, r, rg.store, func() time.Time { return ts.Now }, limits)
	opts = append(opts, func(c *rest.Config) { c.Actions = rg.acts })
	ts = &testServer{testserver.New(t, r, opts...)}
	opt := ts.MCPOptions()
	opt.Actions, opt.Platform = rg.acts, ts.REST.ReaderCategory
	ts.MountMCP(opt)
	rg.testServer = ts
	return rg
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
