package rest_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// Issue 15: a publication holds only public data. Where a request goes is
// in a routing file outside the publication's folder; the publication
// holds each entry's public revision.

// claimedFixtures are the fixture entries the test registry publishes.
func claimedFixtures() []*schemas.Entry {
	var out []*schemas.Entry
	for _, e := range fixtures.Entries() {
		if e.Status != schemas.StatusUnclaimed {
			out = append(out, e)
		}
	}
	return out
}

// TestPrivate_VIEW05_NoPrivateValueInPublication walks every file of every
// publication of the test registry, its static tree and its exports, and
// finds none of the fixtures' private values (private contact points,
// VIEW-05; delivery addresses, D15; locality-only streets, PRIV-18) in
// any, while the private routing file beside the publications holds the
// delivery addresses (so the values searched for are real ones).
func TestPrivate_VIEW05_NoPrivateValueInPublication(t *testing.T) {
	values := fixtures.PrivateValues(claimedFixtures()...)
	if len(values) < 10 {
		t.Fatalf("only %d private values in the fixtures", len(values))
	}
	cur, err := publication.Current(reg.Out)
	if err != nil {
		t.Fatal(err)
	}
	static := filepath.Join(t.TempDir(), "static")
	if err := publication.WriteStatic(cur, static); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cur, publication.ExportsDir)); err != nil {
		t.Fatalf("the test registry has no exports to search: %v", err)
	}
	for _, root := range []string{filepath.Join(reg.Out, publication.PublicationsDir), static} {
		leaks, files, err := testserver.FindPrivateValues(root, values)
		if err != nil {
			t.Fatal(err)
		}
		if files < 10 {
			t.Fatalf("%s: only %d files searched", root, files)
		}
		for _, l := range leaks {
			t.Errorf("%s holds the private value %q", l.File, l.Value)
		}
	}
	// The routing file is where the addresses went: it holds them.
	r, err := publication.ReadRouting(publication.RoutingPathOf(cur), filepath.Base(cur))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, e := range claimedFixtures() {
		for id, to := range e.DeliveryAddresses() {
			if got := r.Address(e.ID, id); got != to {
				t.Errorf("routing of %s %s: %q, want %q", e.Slug, id, got, to)
			}
			if slices.Contains(values, to) {
				found++
			}
		}
	}
	if found == 0 {
		t.Error("no private delivery address is in the routing file")
	}
	if st, err := os.Stat(publication.RoutingPathOf(cur)); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the routing file's mode: %v %v, want 0600", st.Mode().Perm(), err)
	}
}

// privateQuotes are calls that start a quote of a claimed fixture whose
// requests go to a private address (D15), from a requester near the
// entry's primary location, with the address.
func privateQuotes(t *testing.T) (calls []map[string]any, to []string) {
	values := fixtures.PrivateValues(claimedFixtures()...)
	for _, e := range claimedFixtures() {
		for _, a := range e.ActionsOfType(schemas.ActionRequestQuote) {
			addr := e.DeliveryAddress(&a)
			if !slices.Contains(values, addr) || e.Status == schemas.StatusSuspended {
				continue
			}
			q := testserver.QuoteTo(e.Slug, "private-route@example.org")
			q["actionId"] = a.ID
			if l := e.PrimaryLocation(); l != nil && l.Address.PostalCode != "" {
				q["postalCode"] = l.Address.PostalCode
			}
			calls, to = append(calls, q), append(to, addr)
		}
	}
	if len(calls) == 0 {
		t.Fatal("no fixture has a quote action that delivers to a private address")
	}
	return calls, to
}

// startPrivateQuote starts the first of the private quotes the checks of
// a call let through; it fails the test when none starts.
func startPrivateQuote(t *testing.T, rg *runsRig) (*actions.Result, string, error) {
	calls, to := privateQuotes(t)
	var err error
	for i, q := range calls {
		var res *actions.Result
		res, err = rg.startRun(t, schemas.ActionRequestQuote, q)
		if qe, ok := query.AsError(err); ok && (qe.Code == query.CodeInvalidInput || qe.Code == query.CodeOutsideServiceArea) {
			t.Logf("%s: %v", q["entry"], err)
			continue
		}
		t.Logf("a quote to %s (%s)", q["entry"], to[i])
		return res, to[i], err
	}
	t.Fatalf("no private quote starts: %v", err)
	return nil, "", nil
}

// TestPrivate_ACT44_RequestReachesPrivateAddress: a confirmed request
// still reaches the business at its private delivery address (ACT-44),
// which the server reads from the routing file, the publication holding
// no such address.
func TestPrivate_ACT44_RequestReachesPrivateAddress(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	res, to, err := startPrivateQuote(t, rg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token := tokenOf(t, res.ConfirmURL)
	if err := rg.acts.SendCode(ctx, token, ip(1), rg.Now); err != nil {
		t.Fatal(err)
	}
	if err := rg.acts.Confirm(ctx, token, rg.codeFor(t, "private-route@example.org"), rg.Now); err != nil {
		t.Fatal(err)
	}
	rg.drain(t)
	delivered := false
	for _, m := range rg.mails(t) {
		if strings.Contains(m.To, to) && strings.Contains(m.ReplyTo, "private-route@example.org") {
			delivered = true
		}
	}
	if !delivered {
		t.Errorf("no mail to %s, the private delivery address", to)
	}
}

// TestPrivate_MissingRoutingRefusesRequests serves the test registry's
// publication copied without its routing file (as a mirror of the
// publication folder would be): the pages are served, and a request is
// refused with unavailable, saying why, instead of failing or going
// nowhere (issue 15).
func TestPrivate_MissingRoutingRefusesRequests(t *testing.T) {
	cur, err := publication.Current(reg.Out)
	if err != nil {
		t.Fatal(err)
	}
	mirror := *reg
	mirror.Out = t.TempDir()
	rel := filepath.Join(publication.PublicationsDir, filepath.Base(cur))
	if err := publication.LinkTree(cur, filepath.Join(mirror.Out, rel)); err != nil {
		t.Fatal(err)
	}
	if err := publication.Swap(mirror.Out, rel); err != nil {
		t.Fatal(err)
	}
	rg := newRunsRigFor(t, &mirror, "sqlite", nil)
	if resp, _ := rg.Get(t, "/"+hkSlug+".md"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the entry without a routing file: %d, want 200", resp.StatusCode)
	}
	_, _, err = startPrivateQuote(t, rg)
	qe, ok := query.AsError(err)
	if !ok || qe.Code != query.CodeUnavailable || !strings.Contains(qe.Message, "routing file") {
		t.Fatalf("a request without a routing file: %v, want unavailable naming the routing file", err)
	}
	calls, _ := privateQuotes(t)
	q := calls[0]
	resp, body := rg.postJSON(t, "/v1/actions/"+q["actionId"].(string)+"/runs", q)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "routing file") {
		t.Errorf("POST without a routing file: %d %s, want 503 naming the routing file", resp.StatusCode, body)
	}
}

// TestPrivate_VIEW05_DemoHoldsNoPrivateValue runs the demo's publications
// (daawid demo: the sample registers, the saved websites, Holzwerk
// Krause's owner revision and, dropped into its owner inbox, every claimed
// fixture with private parts) with the static tree and the exports, and
// walks every file of its publications and its static tree for the
// entries' private values (VIEW-05, D15, PRIV-18): none is there, and the
// routing file beside them has the delivery addresses.
func TestPrivate_VIEW05_DemoHoldsNoPrivateValue(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo's two runs are skipped in -short mode")
	}
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		t.Fatal(err)
	}
	var entries []*schemas.Entry
	for _, e := range claimedFixtures() {
		if len(fixtures.PrivateValues(e)) == 0 || e.Slug == hkSlug {
			continue
		}
		e.Record.Revision = 1 // a new entry's first revision (D69)
		if err := os.WriteFile(filepath.Join(inbox, e.Slug+".json"), mustJSON(e), 0o644); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	b, err := fs.ReadFile(fixtures.Demo, "compile/inbox/holzwerk-krause.json")
	if err != nil {
		t.Fatal(err)
	}
	var hk schemas.Entry
	if err := json.Unmarshal(b, &hk); err != nil {
		t.Fatal(err)
	}
	entries = append(entries, &hk)
	values := fixtures.PrivateValues(entries...)
	if len(values) < 10 {
		t.Fatalf("only %d private values to look for", len(values))
	}
	d, err := demo.Prepare(dir, reg.Site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{filepath.Join(d.Out, publication.PublicationsDir), filepath.Join(dir, "static")} {
		leaks, files, err := testserver.FindPrivateValues(root, values)
		if err != nil {
			t.Fatal(err)
		}
		if files < 10 {
			t.Fatalf("%s: only %d files searched", root, files)
		}
		for _, l := range leaks {
			t.Errorf("%s holds the private value %q", l.File, l.Value)
		}
	}
	cur, err := publication.Current(d.Out)
	if err != nil {
		t.Fatal(err)
	}
	r, err := publication.ReadRouting(publication.RoutingPathOf(cur), filepath.Base(cur))
	if err != nil {
		t.Fatal(err)
	}
	routed := 0
	for _, e := range entries {
		for id, to := range e.DeliveryAddresses() {
			if r.Address(e.ID, id) == to {
				routed++
			}
		}
	}
	if routed == 0 {
		t.Error("the demo's routing file has none of the entries' delivery addresses")
	}
}
