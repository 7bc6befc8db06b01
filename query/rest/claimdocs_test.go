package rest_test

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/claim"
	"github.com/daawid/registry/schemas"
)

// TestClaimDocs_HTTP34_VerificationDocSaysWhatTheClaimDoes: the served
// verification doc, markdown and page, describes claiming as the claim
// flow runs it (D96) and the owner tools as the MCP server lists them,
// so the doc and the code cannot drift apart: the claim page's address
// (HTTP-34), the TXT record's text, the file's path, the level each proof
// gives, the lifetimes and limits of codes, claims and the owner's
// confirmation link (MCP-26), all taken from the code's own constants,
// and every owner tool by name (TOOL-21, TOOL-22, TOOL-24, TOOL-30).
func TestClaimDocs_HTTP34_VerificationDocSaysWhatTheClaimDoes(t *testing.T) {
	ts := newServer(t)
	wants := []string{
		reg.Site.BaseURL + "/claim/{entryId}",
		claim.TXTPrefix + "{value}",
		"https://{host}" + claim.FilePath,
		"(method `" + claim.MethodDNS + "`)",
		"(method `" + claim.MethodFile + "`)",
		"`contact`: a mailbox at the domain",
		fmt.Sprintf("it works for %d minutes, and a claim gets %d codes and %d tries", int(claim.CodeTTL.Minutes()), claim.CodesPerClaim, claim.TriesPerClaim),
		fmt.Sprintf("A claim waits %d days for it.", int(claim.ClaimTTL.Hours()/24)),
		fmt.Sprintf("the link works once, for %d hours", int(auth.WaitingTTL.Hours())),
		"`" + reg.Site.MCPURL + "`",
		"scope `" + auth.ScopeEntriesWrite + "`",
	}
	for _, tool := range schemas.OwnerTools() {
		wants = append(wants, "- `"+tool.Name+"`: ")
	}
	for _, path := range []string{"/docs/verification.md", "/docs/verification"} {
		resp, body := ts.get(t, path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		text := string(body)
		if strings.HasSuffix(path, ".md") {
			for _, want := range wants {
				if !strings.Contains(text, want) {
					t.Errorf("%s does not say %q", path, want)
				}
			}
			continue
		}
		// The page for people carries the same words, as HTML.
		text = html.UnescapeString(text)
		for _, want := range []string{"Claiming an entry", claim.TXTPrefix + "{value}", "https://{host}" + claim.FilePath, "Confirm the change"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not say %q", path, want)
			}
		}
	}
}
