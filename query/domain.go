package query

import (
	"errors"
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/daawid/registry/schemas"
	"golang.org/x/net/idna"
)

// hostProfile converts what AI apps write for a domain into the ASCII
// form entries verify (TOOL-07): "bücher.de" → "xn--bcher-kva.de", with
// UTS #46 mapping (capitals, full-width dots) and no strict STD3 check, so
// an underscore in a subdomain does not refuse a lookup.
var hostRe = regexp.MustCompile(schemas.HostPattern)

var hostProfile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.StrictDomainName(false))

// normalizeHost reads a domain as AI apps write it: an address
// ("https://www.Holzwerk-Krause.de/kontakt"), capitals, a port, a trailing
// dot, an IDN.
func normalizeHost(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("is empty")
	}
	if len(s) > 2048 {
		return "", errors.New("is longer than an address can be")
	}
	if strings.Contains(s, "://") || strings.HasPrefix(s, "//") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return "", errors.New("is not a host name or an address with one")
		}
		s = u.Host
	} else if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if h, _, err := net.SplitHostPort(s); err == nil {
		s = h
	}
	s = strings.TrimSuffix(s, ".")
	h, err := hostProfile.ToASCII(s)
	h = strings.ToLower(h)
	if err != nil || !hostRe.MatchString(h) {
		return "", errors.New("is not a domain name (like holzwerk-krause.de)")
	}
	return h, nil
}

// hostCandidates are the hosts to look up for a normalized host: itself,
// then without "www." or with it (TOOL-07: www. finds the domain's entry).
func hostCandidates(h string) []string {
	if rest, ok := strings.CutPrefix(h, "www."); ok && strings.Contains(rest, ".") {
		return []string{h, rest}
	}
	return []string{h, "www." + h}
}
