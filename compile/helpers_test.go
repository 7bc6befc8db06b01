package compile_test

import (
	"testing"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

func renderSite(t *testing.T) render.Site {
	s, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s
}
