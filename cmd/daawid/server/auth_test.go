package server_test

import (
	"testing"

	"github.com/daawid/registry/cmd/daawid/server"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

// TestAuthURLFor_MCP11 checks where the authorization server lives
// (MCP-11, D106): at auth. beside api. and mcp. when hosts are split, at
// the site's own origin on a local copy, at --auth-url when given, which
// must be an https origin (plain http on localhost only).
func TestAuthURLFor_MCP11(t *testing.T) {
	for _, c := range []struct{ base, given, want string }{
		{"https://daawid.example", "", "https://auth.daawid.example"},
		{"http://localhost:8080", "", "http://localhost:8080"},
		{"https://daawid.example", "https://login.daawid.example/", "https://login.daawid.example"},
	} {
		site, err := render.NewSite(c.base, taxonomy.Default())
		if err != nil {
			t.Fatal(err)
		}
		got, err := server.AuthURLFor(c.given, site)
		if err != nil || got != c.want {
			t.Errorf("%s with %q: %q %v, want %q", c.base, c.given, got, err, c.want)
		}
	}
	site, _ := render.NewSite("https://daawid.example", taxonomy.Default())
	for _, bad := range []string{"http://login.daawid.example", "https://login.daawid.example/path", "not a url"} {
		if _, err := server.AuthURLFor(bad, site); err == nil {
			t.Errorf("--auth-url %q was taken", bad)
		}
	}
}
