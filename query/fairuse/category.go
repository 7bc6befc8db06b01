package fairuse

import (
	"slices"
	"strings"
)

// Other is the category of every reader the table does not name:
// browsers, curl, libraries and names nobody has published.
const Other = "other"

// reader is one category of reader: the product tokens its agents put in
// User-Agent and the hosts it names in Signature-Agent.
type reader struct {
	category string
	// tokens are product tokens, matched case-insensitively against the
	// tokens of a User-Agent; a token also matches its dash-suffixed
	// variants (Googlebot matches Googlebot-Image), which keeps a
	// vendor's family of crawlers together without listing each one.
	tokens []string
	// hosts are the origins an operator signs as (Web Bot Auth); a host
	// also matches its subdomains, never a look-alike such as
	// notchatgpt.com.
	hosts []string
}

// readers is the category table. The tokens are the ones the operators
// publish for their crawlers, search indexers and user-triggered fetchers
// (their bot pages, as collected by ai-robots-txt/ai.robots.txt and
// Cloudflare's AI crawler reference). Some, such as Google-Extended and
// Applebot-Extended, are robots.txt tokens that never appear in a
// User-Agent; they are listed so the table reads as the operator's whole
// family. Hosts are only domains the operator controls itself: shared
// hosting domains (amazonaws.com, googleusercontent.com) would let anyone
// sign as the operator.
//
// It is never written; byToken is its index.
var readers = []reader{
	{"amazon", []string{"Amazonbot", "Amzn-SearchBot", "Amzn-User"}, []string{"amazon.com"}},
	{"anthropic", []string{"ClaudeBot", "Claude-User", "Claude-SearchBot", "Claude-Web", "Claude-Code", "anthropic-ai"}, []string{"anthropic.com", "claude.ai", "claude.com"}},
	{"apple", []string{"Applebot", "Applebot-Extended"}, []string{"apple.com"}},
	{"bytedance", []string{"Bytespider", "TikTokSpider"}, []string{"bytedance.com", "tiktok.com"}},
	{"cohere", []string{"cohere-ai", "cohere-training-data-crawler"}, []string{"cohere.com", "cohere.ai"}},
	{"commoncrawl", []string{"CCBot"}, []string{"commoncrawl.org"}},
	{"duckduckgo", []string{"DuckAssistBot", "DuckDuckBot"}, []string{"duckduckgo.com"}},
	{"google", []string{"Googlebot", "Google-Extended", "GoogleOther", "Google-CloudVertexBot", "Google-Agent", "GoogleAgent-Mariner", "Google-NotebookLM", "Gemini-Deep-Research"}, []string{"google.com", "googlebot.com"}},
	{"meta", []string{"meta-externalagent", "meta-externalfetcher", "meta-webindexer", "FacebookBot", "facebookexternalhit"}, []string{"meta.com", "meta.ai", "facebook.com"}},
	{"microsoft", []string{"bingbot", "BingPreview", "MicrosoftPreview", "msnbot"}, []string{"microsoft.com", "bing.com"}},
	{"mistral", []string{"MistralAI-User", "MistralAI-Index", "MistralAI-Training"}, []string{"mistral.ai"}},
	{"openai", []string{"GPTBot", "ChatGPT-User", "OAI-SearchBot", "OAI-AdsBot"}, []string{"chatgpt.com", "openai.com"}},
	{"perplexity", []string{"PerplexityBot", "Perplexity-User"}, []string{"perplexity.ai"}},
	{"you", []string{"YouBot"}, []string{"you.com"}},
}

// Categories lists every category CategoryOf can return, "other"
// included, sorted, so metrics and counting exports can name them all up
// front. The slice is the caller's own.
func Categories() []string {
	out := make([]string, 0, len(readers)+1)
	for _, r := range readers {
		out = append(out, r.category)
	}
	out = append(out, Other)
	slices.Sort(out)
	return slices.Compact(out)
}

// CategoryOf names the category of reader from a request's User-Agent and
// Signature-Agent headers, or "other". When both name a category,
// Signature-Agent wins: under Web Bot Auth it is covered by the request's
// signature, where User-Agent is whatever the caller typed. This package
// does not check signatures; a caller that does should pass Signature-Agent
// only once it has verified.
//
// A browser User-Agent (Mozilla/... with no bot token) is "other", and so
// is any name the table does not hold, so inventing names never buys a new
// allowance.
func CategoryOf(userAgent, signatureAgent string) string {
	if c := categoryOfSignatureAgent(signatureAgent); c != "" {
		return c
	}
	if c := categoryOfUserAgent(userAgent); c != "" {
		return c
	}
	return Other
}

// categoryOfUserAgent returns the category of the first product token in
// ua that the table names, or "". Going token by token, rather than
// searching for substrings, keeps "bingbot" from matching inside
// "notbingbot" or "bingbot.htm".
func categoryOfUserAgent(ua string) string {
	for len(ua) > 0 {
		i := 0
		for i < len(ua) && !isTchar(ua[i]) {
			i++
		}
		j := i
		for j < len(ua) && isTchar(ua[j]) {
			j++
		}
		if tok := ua[i:j]; tok != "" {
			if c := categoryOfToken(tok); c != "" {
				return c
			}
		}
		ua = ua[j:]
	}
	return ""
}

// categoryOfToken looks tok up in byToken, ignoring case; failing that,
// it looks up each of tok's prefixes that ends before a dash, longest
// first, so that a vendor's dash-suffixed variants (Googlebot-Image) count
// as the token they extend.
func categoryOfToken(tok string) string {
	var buf [maxTokenLen]byte
	n := min(len(tok), maxTokenLen)
	for i := range n {
		buf[i] = lower(tok[i])
	}
	if len(tok) <= maxTokenLen {
		if c, ok := byToken[string(buf[:n])]; ok {
			return c
		}
	}
	for i := n - 1; i > 0; i-- {
		if buf[i] == '-' {
			if c, ok := byToken[string(buf[:i])]; ok {
				return c
			}
		}
	}
	return ""
}

// maxTokenLen bounds the tokens looked up, so the lowercase copy stays on
// the stack; the table's longest token is well short of it.
const maxTokenLen = 64

// byToken maps the table's tokens, lowercased, to their category. It is
// built once from readers, when the package loads, and never written: a
// map lookup per User-Agent token instead of a scan of the whole table
// keeps classifying a browser under a microsecond.
var byToken = indexTokens()

func indexTokens() map[string]string {
	m := map[string]string{}
	for _, r := range readers {
		for _, t := range r.tokens {
			if len(t) > maxTokenLen {
				panic("fairuse: token longer than maxTokenLen: " + t)
			}
			m[strings.ToLower(t)] = r.category
		}
	}
	return m
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isTchar reports whether c may appear in an HTTP token (RFC 9110 §5.6.2),
// the grammar of a User-Agent's product names.
func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
