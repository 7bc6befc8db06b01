package rest_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/query/rest"
)

// TestReport_HTTP22_HTTP24: the report form records a report for the
// moderators and a report_opened event the pipeline applies (opening the
// noindex window); a bad form comes back with its mistakes named; the
// reporter's address stays in the moderators' file only.
func TestReport_HTTP22_HTTP24(t *testing.T) {
	reports := t.TempDir()
	ts := newServer(t, func(c *rest.Config) { c.Reports = reports })
	resp, body := ts.get(t, "/"+hkSlug+"/report")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<form method="post" action="/`+hkSlug+`/report">`) || resp.Header.Get("Set-Cookie") != "" {
		t.Fatalf("form: %d %s", resp.StatusCode, body)
	}
	// HTTP-21: the legal and privacy notices one click from every page.
	for _, link := range []string{`href="` + reg.Site.BaseURL + "/" + hkSlug + `/impressum">Impressum</a>`, `href="` + reg.Site.BaseURL + "/" + hkSlug + `/datenschutz">Datenschutz</a>`} {
		if !strings.Contains(string(body), link) {
			t.Errorf("the report form's footer lacks %s", link)
		}
	}
	post := func(form url.Values) (*http.Response, string) {
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.PostForm(ts.URL+"/"+hkSlug+"/report", form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
		}
		return resp, b.String()
	}
	resp, page := post(url.Values{"reason": {"nonsense"}, "message": {"short"}, "email": {"not-an-address"}})
	if resp.StatusCode != 422 || !strings.Contains(page, "reason:") || !strings.Contains(page, "message:") || !strings.Contains(page, "email:") {
		t.Errorf("a bad report: %d %s", resp.StatusCode, page)
	}
	if _, err := os.Stat(filepath.Join(reports, "events.jsonl")); err == nil {
		t.Fatal("a refused report was recorded")
	}
	resp, _ = post(url.Values{"reason": {"wrong_information"}, "message": {"The opening hours on Saturday are wrong."}, "email": {"a.reader@example.org"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/"+hkSlug+"/report?sent=1" {
		t.Fatalf("a good report: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	ev, _ := os.ReadFile(filepath.Join(reports, "events.jsonl"))
	var e map[string]string
	if err := json.Unmarshal(ev, &e); err != nil || e["entry"] != hkID || e["type"] != "report_opened" || e["at"] != "2026-11-29T12:00:17Z" {
		t.Errorf("event %s", ev)
	}
	if strings.Contains(string(ev), "example.org") {
		t.Error("the reporter's address is in the events the pipeline reads")
	}
	rep, _ := os.ReadFile(filepath.Join(reports, "reports.jsonl"))
	if !strings.Contains(string(rep), `"reason":"wrong_information"`) || !strings.Contains(string(rep), `"id":"rep_`) {
		t.Errorf("report %s", rep)
	}
	if _, body := ts.get(t, "/"+hkSlug+"/report?sent=1"); !strings.Contains(string(body), "Thank you") {
		t.Error("no thank-you page")
	}
	if resp, _ := ts.get(t, "/no-such-entry/report"); resp.StatusCode != 404 {
		t.Errorf("report of an unknown entry: %d", resp.StatusCode)
	}
}

// TestClaim_HTTP34: the claim page names the entry and its ID.
func TestClaim_HTTP34(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/claim/"+hkID)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Holzwerk Krause") || !strings.Contains(string(body), hkID) {
		t.Errorf("claim page: %d", resp.StatusCode)
	}
	if resp, _ := ts.get(t, "/claim/not-an-id"); resp.StatusCode != 404 {
		t.Errorf("claim of a bad ID: %d", resp.StatusCode)
	}
}
