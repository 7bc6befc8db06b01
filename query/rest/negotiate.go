package rest

import (
	"strconv"
	"strings"
)

// prefersMarkdown decides /{slug}'s representation (HTTP-07..09): markdown
// when Accept lists text/markdown with a q-value at least as high as
// text/html's; HTML otherwise, and when Accept is absent or unreadable.
// text/markdown must be listed by name: */* and text/* do not ask for
// markdown. text/html's q is that of the most specific range matching it
// (text/html, else text/*, else */*), and 0 when none does (D67).
func prefersMarkdown(accept string) bool {
	if strings.TrimSpace(accept) == "" {
		return false // HTTP-08
	}
	mdQ, htmlQ := -1.0, 0.0
	htmlSpec := 0 // 3 text/html, 2 text/*, 1 */*
	for _, part := range strings.Split(accept, ",") {
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		q := 1.0
		for _, p := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0 // an unreadable q counts as not acceptable
				}
				q = f
			}
		}
		switch mt {
		case "text/markdown", "text/x-markdown":
			if q > mdQ {
				mdQ = q
			}
		case "text/html":
			if htmlSpec < 3 || q > htmlQ {
				htmlQ, htmlSpec = q, 3
			}
		case "text/*":
			if htmlSpec < 2 {
				htmlQ, htmlSpec = q, 2
			}
		case "*/*":
			if htmlSpec < 1 {
				htmlQ, htmlSpec = q, 1
			}
		}
	}
	return mdQ > 0 && mdQ >= htmlQ
}
