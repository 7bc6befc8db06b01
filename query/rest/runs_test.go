package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// TestRuns_ACT39_CodesAndClock drives the code rules by the rig's clock,
// never by sleeping: a code works 15 minutes, a run an hour, a run sends
// 3 codes, and 5 wrong codes lock it.
func TestRuns_ACT39_CodesAndClock(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			rg := newRunsRig(t, kind, nil)
			ctx := context.Background()
			start := rg.Now
			res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("clock@example.org"))
			if err != nil {
				t.Fatal(err)
			}
			token := tokenOf(t, res.ConfirmURL)
			// ACT-38: a code is needed, always.
			if err := rg.acts.Confirm(ctx, token, "123456", rg.Now); err == nil {
				t.Fatal("a run was sent without any code (ACT-38)")
			}
			if err := rg.acts.SendCode(ctx, token, ip(1), rg.Now); err != nil {
				t.Fatal(err)
			}
			code := rg.codeFor(t, "clock@example.org")
			// ACT-39: the code ran out after 15 minutes.
			rg.Now = start.Add(15 * time.Minute)
			if err := rg.acts.Confirm(ctx, token, code, rg.Now); codeOf(err) != query.CodeConfirmationExpire {
				t.Errorf("a code after 15 minutes: %v, want confirmation_expired (ACT-39)", err)
			}
			rg.Now = start.Add(16 * time.Minute)
			for i := range 2 {
				if err := rg.acts.SendCode(ctx, token, ip(i+2), rg.Now); err != nil {
					t.Fatalf("code %d: %v", i+2, err)
				}
			}
			// ACT-39: a 4th code is refused.
			if err := rg.acts.SendCode(ctx, token, ip(9), rg.Now); codeOf(err) != query.CodeNotAllowed {
				t.Errorf("a 4th code: %v, want not_allowed (ACT-39)", err)
			}
			code = rg.codeFor(t, "clock@example.org")
			// ACT-33: the run waits an hour, no longer.
			rg.Now = start.Add(time.Hour)
			if err := rg.acts.Confirm(ctx, token, code, rg.Now); codeOf(err) != query.CodeConfirmationExpire {
				t.Errorf("a run after an hour: %v, want confirmation_expired (ACT-33)", err)
			}
			if st, err := rg.acts.Status(ctx, res.RunID, rg.Now); err != nil || st.Status != "expired" || st.UpdatedAt != res.ExpiresAt {
				t.Errorf("status after the hour: %+v %v, want expired at %s (ACT-63)", st, err, res.ExpiresAt)
			}
			// A right code in time sends the run.
			rg.Now = start
			res2, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("clock2@example.org"))
			if err != nil {
				t.Fatal(err)
			}
			if err := rg.acts.SendCode(ctx, tokenOf(t, res2.ConfirmURL), ip(1), rg.Now); err != nil {
				t.Fatal(err)
			}
			rg.Now = start.Add(14 * time.Minute)
			if err := rg.acts.Confirm(ctx, tokenOf(t, res2.ConfirmURL), rg.codeFor(t, "clock2@example.org"), rg.Now); err != nil {
				t.Fatalf("the right code within 15 minutes: %v", err)
			}
			if st, _ := rg.acts.Status(ctx, res2.RunID, rg.Now); st.Status != "submitted" {
				t.Errorf("status %s after Send, want submitted (ACT-44)", st.Status)
			}
			rg.drain(t)
			if st, _ := rg.acts.Status(ctx, res2.RunID, rg.Now); st.Status != "delivered" {
				t.Errorf("status %s after the SMTP server took it, want delivered (ACT-45)", st.Status)
			}
		})
	}
}

func codeOf(err error) string {
	if qe, ok := query.AsError(err); ok {
		return qe.Code
	}
	if err == nil {
		return ""
	}
	return "other: " + err.Error()
}

// TestRuns_ACT05_Idempotency: the same key and body within 24 hours is
// the same run with a new link that replaces the old one (REST-25); the
// same key with another body is invalid_input naming the key (D75).
func TestRuns_ACT05_Idempotency(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	path := "/v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs"
	body := testserver.ExampleQuote()
	delete(body, "actionId")
	r1, b1 := rg.postJSON(t, path, body)
	if r1.StatusCode != 201 {
		t.Fatalf("first: %d %s", r1.StatusCode, b1)
	}
	var a1, a2 struct{ RunID, ConfirmURL string }
	json.Unmarshal(b1, &a1)
	rg.Now = rg.Now.Add(10 * time.Minute)
	r2, b2 := rg.postJSON(t, path, body)
	json.Unmarshal(b2, &a2)
	if r2.StatusCode != 200 || a2.RunID != a1.RunID || a2.ConfirmURL == a1.ConfirmURL || r2.Header.Get("Location") == "" {
		t.Fatalf("repeat: %d %s, want 200, the same run, a new link (REST-25, ACT-05)", r2.StatusCode, b2)
	}
	if resp, _ := rg.get(t, strings.TrimPrefix(a1.ConfirmURL, reg.Site.BaseURL)); resp.StatusCode != 404 {
		t.Errorf("the old link answers %d after a new one replaced it, want 404 (REST-25)", resp.StatusCode)
	}
	if resp, _ := rg.get(t, strings.TrimPrefix(a2.ConfirmURL, reg.Site.BaseURL)); resp.StatusCode != 200 {
		t.Errorf("the new link answers %d", resp.StatusCode)
	}
	other := testserver.ExampleQuote()
	delete(other, "actionId")
	other["description"] = "Etwas ganz anderes als vorher, bitte."
	r3, b3 := rg.postJSON(t, path, other)
	if p := problemOf(t, r3, b3); r3.StatusCode != 422 || p.Code != "invalid_input" || len(p.Issues) != 1 || p.Issues[0].Field != "idempotencyKey" {
		t.Errorf("the key with another body: %d %s, want 422 naming idempotencyKey (ACT-05)", r3.StatusCode, b3)
	}
	// REST-23: the key in the header and another in the body.
	r4, b4 := rg.postJSON(t, path, body, "Idempotency-Key: another-key-123")
	if p := problemOf(t, r4, b4); r4.StatusCode != 422 || p.Issues[0].Field != "idempotencyKey" {
		t.Errorf("two keys: %d %s (REST-23)", r4.StatusCode, b4)
	}
	// REST-22: actionId in the body must say what the address says.
	wrong := testserver.ExampleQuote()
	wrong["actionId"] = "act_01k8r2m7bb1b2c3d4e5f6g7h8j"
	r5, b5 := rg.postJSON(t, path, wrong)
	if p := problemOf(t, r5, b5); r5.StatusCode != 422 || p.Issues[0].Field != "actionId" {
		t.Errorf("another actionId in the body: %d %s (REST-22)", r5.StatusCode, b5)
	}
	// A day later the key is free again: a new run.
	rg.Now = rg.Now.Add(25 * time.Hour)
	r6, b6 := rg.postJSON(t, path, body)
	if r6.StatusCode != 201 || strings.Contains(string(b6), a1.RunID) {
		t.Errorf("the key after 24 hours: %d %s, want a new run (ACT-05)", r6.StatusCode, b6)
	}
}

// TestRuns_ACT42_LinkScanner: GET and HEAD on every URL in every mail and
// page of the flow change no run.
func TestRuns_ACT42_LinkScanner(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	ctx := context.Background()
	res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("scan@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	token := tokenOf(t, res.ConfirmURL)
	if err := rg.acts.SendCode(ctx, token, ip(1), rg.Now); err != nil {
		t.Fatal(err)
	}
	rg.drain(t)
	state := func() string {
		p, err := rg.acts.Page(ctx, token, rg.Now)
		if err != nil {
			t.Fatal(err)
		}
		counts, _ := rg.acts.StepCounts(ctx)
		return p.Status + "|" + itoa(p.CodesLeft) + "|" + itoa(p.TriesLeft) + "|" + p.CodeExpiresAt.String() + "|" + mustString(counts)
	}
	before := state()
	var urls []string
	hrefRe := regexp.MustCompile(`(?:href|action|src)="([^"]+)"`)
	urlRe := regexp.MustCompile(`https?://[^\s"<>]+`)
	for _, p := range []string{strings.TrimPrefix(res.ConfirmURL, reg.Site.BaseURL), "/" + hkSlug + "/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j", "/privacy"} {
		_, body := rg.get(t, p)
		urls = append(urls, p)
		for _, m := range hrefRe.FindAllStringSubmatch(string(body), -1) {
			urls = append(urls, m[1])
		}
	}
	for _, m := range rg.mails(t) {
		urls = append(urls, urlRe.FindAllString(m.Body, -1)...)
	}
	urls = append(urls, res.ConfirmURL, res.ConfirmURL+"?done=sent", res.ConfirmURL+"?op=send&code=000000", res.ConfirmURL+"?op=cancel")
	slices.Sort(urls)
	urls = slices.Compact(urls)
	for _, u := range urls {
		p := strings.TrimPrefix(u, reg.Site.BaseURL)
		if !strings.HasPrefix(p, "/") {
			continue
		}
		for _, m := range []string{http.MethodGet, http.MethodHead} {
			resp, _ := rg.do(t, m, p)
			// Every link the pages and mails give answers (the scanner's
			// made-up query strings are read as the page itself).
			if resp.StatusCode >= 400 {
				t.Errorf("%s %s: %d", m, p, resp.StatusCode)
			}
		}
	}
	if after := state(); after != before {
		t.Errorf("GET and HEAD on %d URLs changed the run (ACT-42):\nbefore %s\nafter  %s", len(urls), before, after)
	}
	if len(urls) < 8 {
		t.Errorf("only %d URLs scanned: %v", len(urls), urls)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func mustString(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestRuns_HTTP37_SameOrigin: a POST from another site's page changes
// nothing (ACT-42); Cancel from Daawid's page cancels (ACT-47).
func TestRuns_HTTP37_SameOrigin(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("origin@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimPrefix(res.ConfirmURL, reg.Site.BaseURL)
	resp, _ := rg.postForm(t, path, url.Values{"op": {"cancel"}}, "Origin: https://evil.example")
	if resp.StatusCode != 403 {
		t.Errorf("a POST from another origin: %d, want 403", resp.StatusCode)
	}
	resp, _ = rg.postForm(t, path, url.Values{"op": {"cancel"}}, "Sec-Fetch-Site: cross-site")
	if resp.StatusCode != 403 {
		t.Errorf("a cross-site POST: %d, want 403", resp.StatusCode)
	}
	if st, _ := rg.acts.Status(context.Background(), res.RunID, rg.Now); st.Status != "awaiting_confirmation" {
		t.Fatalf("refused POSTs changed the run: %s", st.Status)
	}
	resp, _ = rg.postForm(t, path, url.Values{"op": {"cancel"}}, "Origin: "+reg.Site.BaseURL)
	if resp.StatusCode != 303 {
		t.Errorf("Cancel from Daawid's page: %d, want 303", resp.StatusCode)
	}
	if st, _ := rg.acts.Status(context.Background(), res.RunID, rg.Now); st.Status != "cancelled" {
		t.Errorf("after Cancel: %s, want cancelled (ACT-47)", st.Status)
	}
}

// TestRuns_Faults_SMTPDown: mails that the SMTP server refuses for a
// while wait in the outbox with backoff and all go once it takes them
// again; nothing is lost (ACT-45).
func TestRuns_Faults_SMTPDown(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	ctx := context.Background()
	var tokens []string
	for _, email := range []string{"d1@example.org", "d2@example.org", "d3@example.org"} {
		res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom(email))
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tokenOf(t, res.ConfirmURL))
		if err := rg.acts.SendCode(ctx, tokenOf(t, res.ConfirmURL), ip(len(tokens)), rg.Now); err != nil {
			t.Fatal(err)
		}
	}
	var codes []string
	for _, email := range []string{"d1@example.org", "d2@example.org", "d3@example.org"} {
		codes = append(codes, rg.codeFor(t, email))
	}
	for i := range tokens {
		if err := rg.acts.Confirm(ctx, tokens[i], codes[i], rg.Now); err != nil {
			t.Fatal(err)
		}
	}
	// The SMTP server goes away: nothing is sent, and nothing is lost.
	rg.catcher.Close()
	for range 3 {
		if n := rg.drain(t); n != 0 {
			t.Fatalf("%d mails sent with the SMTP server down", n)
		}
		rg.Now = rg.Now.Add(11 * time.Minute)
	}
	if h, err := rg.acts.Health(ctx, rg.Now); err != nil || h.OutboxPending != 3 || h.OldestPending.IsZero() {
		t.Errorf("health with the mail server down: %+v %v, want 3 pending", h, err)
	}
	catcher := restartCatcher(t, rg)
	rg.catcher = catcher
	if n := rg.drain(t); n != 3 {
		t.Errorf("%d mails sent when the SMTP server came back, want 3", n)
	}
	if n := rg.drain(t); n != 0 {
		t.Errorf("%d mails sent twice", n)
	}
	if h, err := rg.acts.Health(ctx, rg.Now); err != nil || h.OutboxPending != 0 || h.OutboxFailed != 0 {
		t.Errorf("health after: %+v %v", h, err)
	}
	delivered := 0
	for _, m := range rg.mails(t) {
		if strings.Contains(m.MessageID, ".delivery@") {
			delivered++
		}
	}
	if delivered != 3 {
		t.Errorf("%d requests delivered, want 3", delivered)
	}
}

// TestRuns_Faults_FullDisk: a store that cannot write answers
// unavailable and loses none of the runs it had (a transaction commits
// whole or not at all).
func TestRuns_Faults_FullDisk(t *testing.T) {
	dir := t.TempDir()
	store, err := actions.OpenSQLite(context.Background(), dir+"/runs.db", "max_page_count(40)")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rg := newRunsRig(t, "sqlite", nil)
	acts, err := actions.New(actions.Config{Store: store, Secret: []byte("a test secret of at least thirty-two bytes"), Site: reg.Site, Now: func() time.Time { return rg.Now }})
	if err != nil {
		t.Fatal(err)
	}
	rg.acts = acts
	var started []string
	var full error
	for i := range 500 {
		res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("full"+itoa3(i)+"@example.org"))
		if err != nil {
			full = err
			break
		}
		started = append(started, res.RunID)
	}
	if full == nil {
		t.Fatal("the small store never filled up")
	}
	if qe, ok := query.AsError(full); !ok || qe.Code != query.CodeUnavailable {
		t.Fatalf("a full store answered %v, want unavailable", full)
	}
	for _, id := range started {
		if st, err := acts.Status(context.Background(), id, rg.Now); err != nil || st.Status != "awaiting_confirmation" {
			t.Fatalf("run %s after the disk filled: %+v %v", id, st, err)
		}
	}
	t.Logf("%d runs kept when the store filled up", len(started))
	// A store that is gone (a lost connection) answers unavailable too.
	store.Close()
	if _, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("gone@example.org")); codeOf(err) != query.CodeUnavailable {
		t.Errorf("a closed store: %v, want unavailable", err)
	}
	if _, err := acts.Status(context.Background(), started[0], rg.Now); codeOf(err) != query.CodeUnavailable {
		t.Errorf("status on a closed store: %v, want unavailable", err)
	}
}

func itoa3(i int) string { return fmt.Sprintf("%03d", i) }

// restartCatcher starts the SMTP server again on its address, over the
// same Maildir.
func restartCatcher(t *testing.T, rg *runsRig) *mail.Catcher {
	t.Helper()
	c, err := mail.StartCatcher(rg.catcher.Addr(), rg.catcher.Dir(), mail.CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestRuns_ACT49_Handoff: a handoff action answers with the business's
// URL (REST-26 200) and keeps only a counter.
func TestRuns_ACT49_Handoff(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	e := entryOf(t, "person-camille-roux")
	var act schemas.Action
	for _, a := range e.Actions {
		if a.Handoff() {
			act = a
		}
	}
	body := map[string]any{"entry": e.Slug, "purpose": "Un premier rendez-vous",
		"preferredSlots": []any{map[string]any{"from": "2026-12-10T10:00:00+01:00", "to": "2026-12-10T11:00:00+01:00"}},
		"requester":      map[string]any{"name": "Mara Example", "email": "mara@example.org"}}
	resp, b := rg.postJSON(t, "/v1/actions/"+act.ID+"/runs", body)
	var r struct{ Status, RunID, URL string }
	json.Unmarshal(b, &r)
	if resp.StatusCode != 200 || r.Status != "handoff" || r.URL != act.Delivery.URL {
		t.Fatalf("handoff: %d %s (ACT-49, REST-26)", resp.StatusCode, b)
	}
	if _, err := rg.acts.Status(context.Background(), r.RunID, rg.Now); codeOf(err) != query.CodeNotFound {
		t.Errorf("a handoff was kept as a run: %v (ACT-49)", err)
	}
	counts, _ := rg.acts.StepCounts(context.Background())
	if len(counts) != 1 || counts[0].Step != "handoff" || counts[0].N != 1 || counts[0].EntryID != e.ID {
		t.Errorf("step counts %+v, want one handoff (ACT-59)", counts)
	}
}

func entryOf(t *testing.T, slug string) *schemas.Entry {
	t.Helper()
	for _, e := range fixtures.Entries() {
		if e.Slug == slug {
			return e
		}
	}
	t.Fatalf("no fixture %s", slug)
	return nil
}

// TestRuns_ACT57_Retention: the sweeper ends runs whose hour is over,
// deletes a run never sent within a day of running out (ACT-57) and a
// sent one after 90 days (ACT-58), and keeps the step counts (ACT-59).
func TestRuns_ACT57_Retention(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			rg := newRunsRig(t, kind, nil)
			ctx := context.Background()
			start := rg.Now
			unsent, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("unsent@example.org"))
			if err != nil {
				t.Fatal(err)
			}
			sent, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("sent@example.org"))
			if err != nil {
				t.Fatal(err)
			}
			tok := tokenOf(t, sent.ConfirmURL)
			if err := rg.acts.SendCode(ctx, tok, ip(1), rg.Now); err != nil {
				t.Fatal(err)
			}
			if err := rg.acts.Confirm(ctx, tok, rg.codeFor(t, "sent@example.org"), rg.Now); err != nil {
				t.Fatal(err)
			}
			rg.drain(t)
			sweep := func(at time.Time) actions.SweepReport {
				t.Helper()
				rep, err := rg.acts.Sweep(ctx, at)
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			exists := func(id string, at time.Time) bool {
				_, err := rg.acts.Status(ctx, id, at)
				return codeOf(err) != query.CodeNotFound
			}
			if rep := sweep(start.Add(2 * time.Hour)); rep.Expired != 1 || rep.DeletedUnsent != 0 {
				t.Errorf("two hours on: %+v, want one run ended", rep)
			}
			if !exists(unsent.RunID, start.Add(2*time.Hour)) {
				t.Error("a run was deleted an hour after it ran out")
			}
			sweep(start.Add(25 * time.Hour))
			if exists(unsent.RunID, start.Add(25*time.Hour)) {
				t.Error("a run never sent is kept a day after it ran out (ACT-57)")
			}
			if !exists(sent.RunID, start.Add(89*24*time.Hour)) {
				t.Error("a sent run was deleted before 90 days")
			}
			sweep(start.Add(91 * 24 * time.Hour))
			if exists(sent.RunID, start.Add(91*24*time.Hour)) {
				t.Error("a sent run is kept after 90 days (ACT-58)")
			}
			counts, err := rg.acts.StepCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			steps := map[string]int64{}
			for _, c := range counts {
				steps[c.Step] += c.N
				if c.Platform == "" || c.Kind != "request_quote" || c.Day != start.Format(time.DateOnly) && c.Day != start.Add(2*time.Hour).Format(time.DateOnly) {
					t.Errorf("step count %+v", c)
				}
			}
			want := map[string]int64{"started": 2, "code_sent": 1, "submitted": 1, "delivered": 1, "expired": 1}
			if !maps.Equal(steps, want) {
				t.Errorf("step counts %v, want %v (ACT-59)", steps, want)
			}
		})
	}
}

// TestRuns_HTTP36_ActionLinksAnswer: every action every published view
// links answers: its web form (HTTP-36, VIEW-17) with the form, its REST
// address with 405 and how to POST (VIEW-17), so nothing the registry
// publishes leads nowhere.
func TestRuns_HTTP36_ActionLinksAnswer(t *testing.T) {
	rg := newRunsRig(t, "sqlite", nil)
	forms, rests := 0, 0
	for _, e := range fixtures.Entries() {
		if e.Status == schemas.StatusUnclaimed || e.Status == schemas.StatusSuspended {
			continue
		}
		resp, body := rg.get(t, "/v1/entries/"+e.ID)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", e.Slug, resp.StatusCode)
		}
		var v schemas.EntryView
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		for _, a := range v.Actions {
			if a.Form != "" {
				forms++
				if resp, _ := rg.get(t, strings.TrimPrefix(a.Form, reg.Site.BaseURL)); resp.StatusCode != 200 {
					t.Errorf("%s: form %s answers %d (HTTP-36)", e.Slug, a.Form, resp.StatusCode)
				}
			}
			rests++
			resp, _ := rg.get(t, strings.TrimPrefix(a.Rest, reg.Site.APIURL))
			if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST, OPTIONS" {
				t.Errorf("%s: GET %s answers %d (Allow %q)", e.Slug, a.Rest, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	}
	if forms < 10 || rests < 15 {
		t.Errorf("only %d forms and %d REST addresses checked", forms, rests)
	}
}
