package fairuse_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/daawid/registry/query/fairuse"
)

// User-Agent strings as the operators publish them or as they arrive.
const (
	uaChatGPTUser   = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	uaGPTBot        = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"
	uaOAISearchBot  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"
	uaClaudeBot     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	uaClaudeUser    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"
	uaPerplexityBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"
	uaPerplexityUsr = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)"
	uaGooglebot     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.204 Safari/537.36"
	uaGooglebotOld  = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaGoogleImage   = "Googlebot-Image/1.0"
	uaBingbot       = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"
	uaApplebot      = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
	uaMetaAgent     = "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)"
	uaFacebookHit   = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
	uaAmazonbot     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36"
	uaBytespider    = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"
	uaMistralUser   = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)"
	uaDuckAssist    = "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)"
	uaCohere        = "cohere-training-data-crawler/1.0"
	uaYouBot        = "Mozilla/5.0 (compatible; YouBot (+http://www.you.com))"
	uaCCBot         = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	uaChrome        = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaChromeMac     = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36"
	uaFirefox       = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	uaSafariIPhone  = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
	uaCurl          = "curl/8.7.1"
)

// TestCategoryOf_REST38 checks that real User-Agent strings land in their
// operator's category and that browsers, tools and unknown names are
// "other" (§7.8, REST-38).
func TestCategoryOf_REST38(t *testing.T) {
	for _, c := range []struct{ ua, want string }{
		{uaChatGPTUser, "openai"},
		{uaGPTBot, "openai"},
		{uaOAISearchBot, "openai"},
		{uaClaudeBot, "anthropic"},
		{uaClaudeUser, "anthropic"},
		{uaPerplexityBot, "perplexity"},
		{uaPerplexityUsr, "perplexity"},
		{uaGooglebot, "google"},
		{uaGooglebotOld, "google"},
		{uaGoogleImage, "google"},
		{uaBingbot, "microsoft"},
		{uaApplebot, "apple"},
		{uaMetaAgent, "meta"},
		{uaFacebookHit, "meta"},
		{uaAmazonbot, "amazon"},
		{uaBytespider, "bytedance"},
		{uaMistralUser, "mistral"},
		{uaDuckAssist, "duckduckgo"},
		{uaCohere, "cohere"},
		{uaYouBot, "you"},
		{uaCCBot, "commoncrawl"},
		{"gptbot/1.1", "openai"}, // product tokens match whatever their case
		{"CLAUDEBOT", "anthropic"},
		{"Googlebot-" + strings.Repeat("x", 100) + "/1", "google"}, // a variant longer than any token
		{uaChrome, "other"},
		{uaChromeMac, "other"},
		{uaFirefox, "other"},
		{uaSafariIPhone, "other"}, // AppleWebKit is not Applebot
		{uaCurl, "other"},
		{"python-requests/2.32.3", "other"},
		{"Go-http-client/1.1", "other"},
		{"", "other"},
		{"foo/1", "other"},
		{"notbingbot/1.0", "other"},                                 // a token inside another is not it
		{"GPTBotX/1.0", "other"},                                    // nor is a longer name
		{"Mozilla/5.0 (+https://example.com/GPTBot.html)", "other"}, // nor part of a URL path
	} {
		if got := fairuse.CategoryOf(c.ua, ""); got != c.want {
			t.Errorf("CategoryOf(%q) = %q, want %q", c.ua, got, c.want)
		}
	}
}

// TestCategoryOfSignatureAgent_REST38 checks Web Bot Auth's
// Signature-Agent: it names the category by its host, in either shape the
// drafts gave it, and wins over User-Agent because it is signed (§7.8,
// REST-38).
func TestCategoryOfSignatureAgent_REST38(t *testing.T) {
	for _, c := range []struct{ ua, sig, want string }{
		// ChatGPT agent browses with a plain Chrome User-Agent and signs.
		{uaChromeMac, `"https://chatgpt.com"`, "openai"},
		{uaChromeMac, `sig1="https://chatgpt.com"`, "openai"},
		{uaChromeMac, `sig1="https://chatgpt.com";key="x"`, "openai"},
		{"", `"https://openai.com"`, "openai"},
		{uaChrome, `https://claude.ai`, "anthropic"}, // quotes stripped on the way
		{uaChrome, `"https://AGENT.Chatgpt.COM:443/"`, "openai"},
		{uaChrome, `"https://perplexity.ai."`, "perplexity"},
		{uaChrome, `sig1="https://example.com", sig2="https://mistral.ai"`, "mistral"},
		{uaChrome, `"https://a.example/x,y", "https://you.com"`, "you"},
		// Both name a category: the signed header wins.
		{uaClaudeBot, `"https://chatgpt.com"`, "openai"},
		// An unknown signer leaves the decision to User-Agent.
		{uaGPTBot, `"https://example.com"`, "openai"},
		{uaChrome, `"https://example.com"`, "other"},
		// Look-alike hosts are not the operator.
		{uaChrome, `"https://notchatgpt.com"`, "other"},
		{uaChrome, `"https://chatgpt.com.evil.example"`, "other"},
		{uaChrome, `"https://chatgpt.com@evil.example"`, "other"},
		{uaChrome, `""`, "other"},
		{uaChrome, `sig1=`, "other"},
		{uaChrome, `,,,`, "other"},
	} {
		if got := fairuse.CategoryOf(c.ua, c.sig); got != c.want {
			t.Errorf("CategoryOf(%q, %q) = %q, want %q", c.ua, c.sig, got, c.want)
		}
	}
}

// TestCategories_REST38 checks that the list is sorted, unique, holds
// "other" and every category CategoryOf returned above, so metrics can
// name them all before the first read.
func TestCategories_REST38(t *testing.T) {
	cats := fairuse.Categories()
	if !slices.IsSorted(cats) || len(slices.Compact(slices.Clone(cats))) != len(cats) {
		t.Errorf("Categories() = %v, want sorted and unique", cats)
	}
	for _, want := range []string{"amazon", "anthropic", "apple", "bytedance", "cohere", "commoncrawl", "duckduckgo", "google", "meta", "microsoft", "mistral", "openai", "other", "perplexity", "you"} {
		if !slices.Contains(cats, want) {
			t.Errorf("Categories() lacks %q", want)
		}
	}
	cats[0] = "changed"
	if fairuse.Categories()[0] == "changed" {
		t.Error("Categories() shares its slice between callers")
	}
}
