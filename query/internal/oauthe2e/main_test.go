package oauthe2e

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/daawid/registry/query/internal/testserver"
)

var reg *testserver.Registry

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "daawid-oauthe2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := trustHTTPTestCertificate(dir); err != nil {
		fmt.Fprintln(os.Stderr, "trusting httptest's certificate:", err)
		return 1
	}
	return testserver.Run(m, &reg)
}

// trustHTTPTestCertificate makes the certificate every httptest TLS
// server presents the only extra root of this test binary, so the
// authorization server's guarded fetch of a Client ID Metadata Document
// (MCP-12), which uses the default roots as in production, reads one
// served over https on loopback. Go reads SSL_CERT_FILE once, at the first
// verification, which has not happened yet when TestMain runs.
func trustHTTPTestCertificate(dir string) error {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	cert := srv.Certificate()
	srv.Close()
	path := filepath.Join(dir, "httptest-root.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o600); err != nil {
		return err
	}
	return os.Setenv("SSL_CERT_FILE", path)
}
