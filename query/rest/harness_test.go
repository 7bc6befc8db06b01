package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// The test registry and the server over it are the serving side's test
// rig (query/internal/testserver), shared with query/mcp's tests.
var reg *testserver.Registry

const (
	hkID   = testserver.HKID
	hkSlug = testserver.HKSlug
)

func TestMain(m *testing.M) { os.Exit(testserver.Run(m, &reg)) }

// testServer is a real server on loopback over the test registry.
type testServer struct{ *testserver.Server }

type serverOption = testserver.Option

func newServer(t testing.TB, opts ...serverOption) *testServer {
	t.Helper()
	return &testServer{testserver.New(t, reg, opts...)}
}

// do sends a request with headers ("Name: value") and reads the answer.
func (ts *testServer) do(t *testing.T, method, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return ts.Do(t, method, path, headers...)
}

func (ts *testServer) get(t *testing.T, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return ts.Do(t, http.MethodGet, path, headers...)
}

// problem decodes a problem answer and checks its media type.
func problemOf(t *testing.T, resp *http.Response, body []byte) schemas.Problem {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%d answer is %s, not a problem: %s", resp.StatusCode, ct, body)
	}
	var p schemas.Problem
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != resp.StatusCode {
		t.Errorf("problem status %d, HTTP status %d", p.Status, resp.StatusCode)
	}
	return p
}

// copyTree copies a state or publications folder as it is (symlinks and
// all), so a test can run the pipeline on without touching the shared
// registry.
func copyTree(src, dst string) error {
	out, err := exec.Command("cp", "-a", src, dst).CombinedOutput()
	if err != nil {
		return fmt.Errorf("cp -a %s %s: %v: %s", src, dst, err, out)
	}
	return nil
}

// publishAt runs the pipeline on a copy: expiry and a delta publication at
// now. It returns the new current publication.
func publishAt(t *testing.T, state, out string, now time.Time) string {
	t.Helper()
	_, err := pipeline.Run(context.Background(), pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Now: now},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: out, Site: reg.Site, Delta: true},
	}, "test")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

func openPub(t *testing.T, pub string) *query.Snapshot {
	t.Helper()
	sn, err := query.OpenSnapshot(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

// readDoc reads a document of a publication by path.
func readDoc(t *testing.T, pub, path string) []byte {
	t.Helper()
	sn := openPub(t, pub)
	d, ok := sn.Doc(path)
	if !ok {
		t.Fatalf("%s has no %s", pub, path)
	}
	b, err := sn.Bytes(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func docETag(t *testing.T, pub, path string) string {
	t.Helper()
	d, ok := openPub(t, pub).Doc(path)
	if !ok {
		t.Fatalf("%s has no %s", pub, path)
	}
	return d.ETag
}

// newEmptyServer serves a folder with no publication yet.
func newEmptyServer(t *testing.T) *testServer {
	t.Helper()
	return &testServer{testserver.NewEmpty(t, reg)}
}
