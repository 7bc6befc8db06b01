package mcp_test

import (
	"os"
	"testing"

	"github.com/daawid/registry/query/internal/testserver"
)

// The MCP endpoint is tested mounted on the REST server, as daawid serve
// mounts it, over the test registry (query/internal/testserver).
var reg *testserver.Registry

// hkID is Holzwerk Krause's ID.
const hkID = testserver.HKID

func TestMain(m *testing.M) { os.Exit(testserver.Run(m, &reg)) }
