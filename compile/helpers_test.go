package compile_test

import (
	"encoding/json"
	"testing"

	"github.com/daawid/registry/schemas"
)

func mustJSON(t *testing.T, e *schemas.Entry) []byte {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
