package schemas_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/schemas"
)

// TestOpenAPI_REST13_RedoclyLint: the OpenAPI document passes
// @redocly/cli lint (its recommended rules) with no errors. The two
// warnings it gives are no-ambiguous-paths: /v1/entries/by-domain/{host}
// next to /v1/entries/{entry}/offerings, which the contract's routes are
// (§8); they resolve by the literal segment.
func TestOpenAPI_REST13_RedoclyLint(t *testing.T) {
	tools := citools.Find(t, "node", "node_modules/@redocly/cli/package.json")
	for _, api := range []string{"https://api.daawid.example", "http://localhost:8080"} {
		path := filepath.Join(t.TempDir(), "openapi.json")
		if err := os.WriteFile(path, schemas.OpenAPI(api, strings.Replace(api, "api.", "", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(filepath.Join(tools, "node_modules", ".bin", "redocly"), "lint", "--format=stylish", path).CombinedOutput()
		if err != nil {
			t.Fatalf("redocly lint (%s): %v\n%s", api, err, out)
		}
		if strings.Contains(string(out), "error") && !strings.Contains(string(out), "0 errors") && !strings.Contains(string(out), "is valid") {
			t.Errorf("redocly lint (%s):\n%s", api, out)
		}
	}
}
