package fairuse

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
)

// Ranges are the address ranges each category's operator publishes for
// its crawlers and fetchers (OpenAI's gptbot.json and chatgpt-user.json,
// Google's googlebot.json, Bing's bingbot.json, …), by category. They
// decide whether a claimed category is believed (MCP-80): a read that
// names a category in User-Agent or Signature-Agent counts in that
// category's allowance only when it comes from one of that category's
// ranges; from anywhere else the claim is not believed and the read
// counts as the address's own ("other"). So one address gets one
// allowance however many crawlers it claims to be, and an operator's real
// crawlers, behind its own ranges, keep their allowance apart from the
// other readers of a shared address.
//
// Published ranges were chosen over reverse DNS with forward
// confirmation: they are checked in memory on every read, where DNS would
// put a lookup (and a resolver an attacker can slow) on the read path, and
// the operators that matter publish them. A deployment loads them from a
// file it refreshes (`daawid serve --crawler-ranges FILE`); without one no
// claim is believed.
type Ranges map[string][]netip.Prefix

// ParseRanges reads ranges as JSON: {"openai": ["20.171.206.0/24", …], …}.
// Categories must be ones CategoryOf returns (not "other"), and every
// range a CIDR; an error names the category and the range.
func ParseRanges(b []byte) (Ranges, error) {
	var raw map[string][]string
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("crawler ranges: %w", err)
	}
	known := Categories()
	out := Ranges{}
	for cat, cidrs := range raw {
		if cat == Other || !slices.Contains(known, cat) {
			return nil, fmt.Errorf("crawler ranges: %q is not a category of reader (one of %v, not %q)", cat, known, Other)
		}
		for _, c := range cidrs {
			p, err := netip.ParsePrefix(c)
			if err != nil {
				return nil, fmt.Errorf("crawler ranges: %s: %q: %w", cat, c, err)
			}
			out[cat] = append(out[cat], p.Masked())
		}
	}
	return out, nil
}

// Believed is the category a read counts in: the claimed one when addr
// is in that category's published ranges, else Other.
func (r Ranges) Believed(claimed string, addr netip.Addr) string {
	if claimed == Other {
		return Other
	}
	addr = addr.Unmap()
	for _, p := range r[claimed] {
		if p.Contains(addr) {
			return claimed
		}
	}
	return Other
}
