package rest_test

import (
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
)

// TestFairUse_Section78_Exact: under concurrent load from one address,
// exactly 300 reads of one category pass in a minute, the 301st and the
// rest answer rate_limited with Retry-After to the next minute, another
// category is unaffected, renaming gives no new allowance, and the next
// minute reads again. An IPv6 /64 counts as one address. The reader's
// category is believed because the address is in its operator's
// published ranges (MCP-80).
func TestFairUse_Section78_Exact(t *testing.T) {
	var trusted []string
	ts := newServer(t, func(c *rest.Config) {
		trusted = []string{"127.0.0.1/32", "::1/128"}
		c.TrustedProxies = trusted
		c.Limiter = fairuse.NewLimiter(300)
		c.Limiter.Ranges = fairuse.Ranges{"openai": {netip.MustParsePrefix("2001:db8:1::/48")}}
	})
	ts.Now = time.Date(2026, 11, 29, 12, 0, 17, 0, time.UTC)
	var ok, limited atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				resp, body := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT, "X-Forwarded-For: 2001:db8:1:2::10")
				switch resp.StatusCode {
				case 200:
					ok.Add(1)
				case 429:
					limited.Add(1)
					p := problemOf(t, resp, body)
					if p.Code != "rate_limited" || p.RetryAfterSeconds != 43 || resp.Header.Get("Retry-After") != "43" {
						t.Errorf("429: %+v, Retry-After %q", p, resp.Header.Get("Retry-After"))
					}
				default:
					t.Errorf("status %d", resp.StatusCode)
				}
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 300 || limited.Load() != 100 {
		t.Fatalf("%d passed and %d limited of 400, want 300 and 100", ok.Load(), limited.Load())
	}
	// Another address in the same /64: the same allowance, spent.
	if resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT, "X-Forwarded-For: 2001:db8:1:2:ffff::1"); resp.StatusCode != 429 {
		t.Errorf("same /64: %d", resp.StatusCode)
	}
	// Another /64, another category: unaffected.
	if resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT, "X-Forwarded-For: 2001:db8:1:3::10"); resp.StatusCode != 200 {
		t.Errorf("another /64: %d", resp.StatusCode)
	}
	if resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UABrowser, "X-Forwarded-For: 2001:db8:1:2::10"); resp.StatusCode != 200 {
		t.Errorf("another category: %d", resp.StatusCode)
	}
	// Renaming: every unknown name is "other"; spend other's allowance
	// under many names, then a new name is refused too.
	for i := 0; i < 299; i++ {
		ts.get(t, "/v1/entries/"+hkID, "User-Agent: tool-"+strconv.Itoa(i)+"/1.0", "X-Forwarded-For: 2001:db8:1:2::10")
	}
	if resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: brand-new-name/9", "X-Forwarded-For: 2001:db8:1:2::10"); resp.StatusCode != 429 {
		t.Errorf("a new name got a new allowance: %d", resp.StatusCode)
	}
	// Pages are not the REST mirror: not limited.
	if resp, _ := ts.get(t, "/"+hkSlug+".md", "User-Agent: "+testserver.UAChatGPT, "X-Forwarded-For: 2001:db8:1:2::10"); resp.StatusCode != 200 {
		t.Errorf("a document was limited: %d", resp.StatusCode)
	}
	// HEAD reads count nothing and are not limited (REST-39).
	if resp, _ := ts.do(t, http.MethodHead, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT, "X-Forwarded-For: 2001:db8:1:2::10"); resp.StatusCode != 200 {
		t.Errorf("HEAD was limited: %d", resp.StatusCode)
	}
	ts.Now = ts.Now.Add(time.Minute)
	if resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT, "X-Forwarded-For: 2001:db8:1:2::10"); resp.StatusCode != 200 {
		t.Errorf("the next minute: %d", resp.StatusCode)
	}
}

// TestFairUse_ClientCannotPickItsAddress: without trusted proxies, an
// X-Forwarded-For is ignored, so a caller cannot step through addresses.
func TestFairUse_ClientCannotPickItsAddress(t *testing.T) {
	ts := newServer(t)
	pass := 0
	for i := 0; i < 310; i++ {
		resp, _ := ts.get(t, "/v1/entries/"+hkID, "X-Forwarded-For: 10.0.0."+strconv.Itoa(i%250))
		if resp.StatusCode == 200 {
			pass++
		}
	}
	if pass != 300 {
		t.Errorf("%d reads passed, want 300", pass)
	}
}

// TestCounting_REST38_REST39: each entry returned is a read of its view by
// the category of reader; HEAD and errors count nothing; a 304 counts.
// The counts survive the server (flushed to Parquet).
func TestCounting_REST38_REST39(t *testing.T) {
	ts := newServer(t)
	resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT)
	etag := resp.Header.Get("ETag")
	ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT, "If-None-Match: "+etag)  // 304: counts
	ts.get(t, "/v1/entries/by-slug/"+hkSlug, "User-Agent: "+testserver.UABrowser)                // other
	ts.get(t, "/v1/entries/"+hkSlug+"/offerings", "User-Agent: "+testserver.UABrowser)           // a read of the view
	ts.do(t, http.MethodHead, "/v1/entries/"+hkID, "User-Agent: "+testserver.UAChatGPT)          // nothing
	ts.get(t, "/v1/entries/ent_00000000000000000000000000", "User-Agent: "+testserver.UAChatGPT) // error: nothing
	ts.get(t, "/"+hkSlug+".md", "User-Agent: "+testserver.UAChatGPT)                             // a document, not the API
	if err := ts.Counter.Flush(); err != nil {
		t.Fatal(err)
	}
	totals, err := ts.Counter.Totals()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, c := range totals {
		if c.EntryID == hkID && c.Day == "2026-11-29" {
			got[c.Category] += c.Reads
		}
	}
	if got["openai"] != 2 || got["other"] != 2 || len(got) != 2 {
		t.Errorf("counts %v, want openai 2 and other 2", got)
	}
}

// TestFairUse_15ClaimedAgentsFromOneAddress_MCP80: through the server, one
// address that claims 15 crawlers in turn (none of them from its
// operator's ranges) gets one allowance in total: of 15 × 21 reads, 300
// pass and the rest are rate_limited, whatever User-Agent each one names.
func TestFairUse_15ClaimedAgentsFromOneAddress_MCP80(t *testing.T) {
	ts := newServer(t)
	agents := []string{"GPTBot/1.2", "ClaudeBot/1.0", "Googlebot/2.1", "bingbot/2.0", "PerplexityBot/1.0", "Applebot/0.1",
		"Amazonbot/0.1", "Bytespider", "CCBot/2.0", "DuckAssistBot/1.2", "meta-externalagent/1.1", "MistralAI-User/1.0",
		"cohere-ai", "YouBot/1.0", testserver.UABrowser}
	pass := 0
	for range 21 {
		for _, ua := range agents {
			resp, _ := ts.get(t, "/v1/entries/"+hkID, "User-Agent: "+ua)
			if resp.StatusCode == http.StatusOK {
				pass++
			} else if resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("%s: status %d", ua, resp.StatusCode)
			}
		}
	}
	if pass != 300 {
		t.Errorf("15 claimed user agents from one address read %d times in a minute, want 300 (one allowance)", pass)
	}
}
