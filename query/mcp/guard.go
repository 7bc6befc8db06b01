package mcp

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/daawid/registry/render"
)

// guard refuses a request that a DNS-rebinding page could make (§7.1):
// a Host that is none of the site's hosts nor a loopback name, or an
// Origin that is none of the site's origins nor a loopback one. Clients
// that send no Origin (every MCP client outside a browser) pass on the
// Host alone, so real clients behind a proxy keep working.
func guard(site render.Site, next http.Handler) http.Handler {
	hosts := map[string]bool{}
	origins := map[string]bool{}
	for _, u := range []string{site.BaseURL, site.APIURL, site.MCPURL} {
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			hosts[strings.ToLower(p.Hostname())] = true
			origins[strings.ToLower(p.Scheme+"://"+p.Host)] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := hostName(r.Host); !hosts[h] && !loopback(h) {
			http.Error(w, "Forbidden: unknown host "+r.Host, http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || (!origins[strings.ToLower(o)] && !loopback(strings.ToLower(u.Hostname()))) {
				http.Error(w, "Forbidden: cross-origin request from "+o, http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func hostName(hostport string) string {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

func loopback(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
