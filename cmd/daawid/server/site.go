package server

import (
	"fmt"
	"net"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// SiteFor is the site of a served registry: the base URL given, or for a
// local address plain http on it (VIEW-21), else the contract's hosts.
// The errors name the flags they come from (--addr), as both commands
// that serve take the address by that flag.
func SiteFor(base, addr string) (render.Site, error) {
	if base == "" {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return render.Site{}, fmt.Errorf("--addr %q: %w", addr, err)
		}
		switch host {
		case "", "localhost", "127.0.0.1", "::1", "0.0.0.0", "::":
			base = "http://localhost:" + port
		default:
			base = render.DefaultBaseURL
		}
	}
	return render.NewSite(base, taxonomy.Default())
}
