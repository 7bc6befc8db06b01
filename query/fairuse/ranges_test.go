package fairuse_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/daawid/registry/query/fairuse"
)

// claimedAgents are 15 User-Agents of 15 crawler families (every
// category of the table, plus a browser): what one address may claim in
// turn to collect an allowance per claim.
var claimedAgents = []string{
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
	"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
	"Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
	"Mozilla/5.0 (compatible; Applebot/0.1; +http://www.apple.com/go/applebot)",
	"Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)",
	"Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)",
	"CCBot/2.0 (https://commoncrawl.org/faq/)",
	"DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
	"meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
	"MistralAI-User/1.0 (+https://docs.mistral.ai/robots)",
	"cohere-ai",
	"Mozilla/5.0 (compatible; YouBot/1.0; +http://about.you.com/youbot/)",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
}

// TestFairUse_15ClaimedAgentsOneAllowance_MCP80: one address that claims
// 15 crawlers in turn, each claim read after read, gets no more than one
// allowance (300) in the minute in total, with or without published
// ranges that do not hold it: an unverified claim counts as the
// address's own reads (MCP-80). Before, each claimed kind had a fresh
// 300, about 4,500 a minute.
func TestFairUse_15ClaimedAgentsOneAllowance_MCP80(t *testing.T) {
	kinds := map[string]bool{}
	for _, ua := range claimedAgents {
		kinds[fairuse.CategoryOf(ua, "")] = true
	}
	if len(kinds) != 15 {
		t.Fatalf("the agents name %d categories, want 15 distinct claims", len(kinds))
	}
	elsewhere := fairuse.Ranges{"openai": {netip.MustParsePrefix("20.171.206.0/24")}, "google": {netip.MustParsePrefix("66.249.64.0/19")}}
	for _, ranges := range []fairuse.Ranges{nil, elsewhere} {
		l := fairuse.NewLimiter(limit)
		l.Ranges = ranges
		ip := netip.MustParseAddr("198.51.100.7")
		allowed := 0
		for range limit {
			for _, ua := range claimedAgents {
				if ok, _ := l.Allow(fairuse.CategoryOf(ua, ""), ip, noon); ok {
					allowed++
				}
			}
		}
		// Signature-Agent claims are no way around it either.
		for _, host := range []string{`"https://chatgpt.com"`, `"https://claude.ai"`} {
			if ok, _ := l.Allow(fairuse.CategoryOf(claimedAgents[14], host), ip, noon); ok {
				allowed++
			}
		}
		if allowed != limit {
			t.Errorf("ranges %v: 15 claimed agents from one address got %d reads in a minute, want %d (one allowance)", ranges, allowed, limit)
		}
	}
}

// TestFairUse_PublishedRangesAreBelieved_MCP80: a crawler from its
// operator's published range keeps an allowance of its own beside the
// address's other readers; the same claim from outside the range does not.
func TestFairUse_PublishedRangesAreBelieved_MCP80(t *testing.T) {
	ranges, err := fairuse.ParseRanges([]byte(`{"openai": ["20.171.206.0/24", "2a01:111:f402::/48"]}`))
	if err != nil {
		t.Fatal(err)
	}
	l := fairuse.NewLimiter(limit)
	l.Ranges = ranges
	gptbot := fairuse.CategoryOf(claimedAgents[0], "")
	inside := netip.MustParseAddr("20.171.206.9")
	exhaust(t, l, fairuse.Other, inside, noon)
	exhaust(t, l, gptbot, inside, noon) // its own allowance: believed
	if ok, _ := l.Allow(gptbot, inside, noon); ok {
		t.Error("the believed crawler got more than its allowance")
	}
	if got := ranges.Believed(gptbot, netip.MustParseAddr("::ffff:20.171.206.9")); got != "openai" {
		t.Errorf("an IPv4-mapped address in the range is believed as %q", got)
	}
	if got := ranges.Believed(gptbot, netip.MustParseAddr("20.171.207.9")); got != fairuse.Other {
		t.Errorf("a claim outside the range is believed as %q", got)
	}
	if got := ranges.Believed("google", inside); got != fairuse.Other {
		t.Errorf("another operator's claim from OpenAI's range is believed as %q", got)
	}
}

// TestParseRanges_NamesTheField: a bad ranges file is refused naming the
// category or the range at fault.
func TestParseRanges_NamesTheField(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"openai": ["20.171.206.0/33"]}`, `openai: "20.171.206.0/33"`},
		{`{"openia": ["20.171.206.0/24"]}`, `"openia" is not a category`},
		{`{"other": ["0.0.0.0/0"]}`, `"other" is not a category`},
		{`["openai"]`, "crawler ranges:"},
	} {
		_, err := fairuse.ParseRanges([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseRanges(%s): %v, want an error with %q", c.in, err, c.want)
		}
	}
}
