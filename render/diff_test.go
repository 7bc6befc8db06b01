package render_test

import (
	"fmt"
	"strings"
)

// lineDiff shows the first differing lines of two texts, enough to find a
// mistake without a diff library.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d\n  want: %q\n  got:  %q\n", i+1, wl, gl)
			if shown++; shown == 8 {
				b.WriteString("  …\n")
				break
			}
		}
	}
	return b.String()
}
