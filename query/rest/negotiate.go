package rest

import (
	"strconv"
	"strings"

	"github.com/daawid/registry/export/publication"
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

// chooseEncoding decides a document's content coding from the request's
// Accept-Encoding fields (RFC 9110 §12.5.3) and the encoding its pack
// stores it in: the stored one when the client accepts it (q > 0, by
// name or by "*") at least as much as identity, else "" (identity,
// decoded). Nothing is recompressed, so no other coding is offered
// (issue 18). Codings are compared without regard to case; an unreadable
// q counts as 0. Without the field a client gets identity, as RFC 9110
// lets a server choose and as clients that never decode expect.
func chooseEncoding(fields []string, stored string) string {
	// A frame made with one of the engine's dictionaries is no content
	// coding a client could decode (D120): it is always decoded.
	if !publication.ServedAsStored(stored) || len(fields) == 0 {
		return ""
	}
	storedQ, identityQ, anyQ := -1.0, -1.0, -1.0
	for _, field := range fields {
		for _, part := range strings.Split(field, ",") {
			name, params, _ := strings.Cut(part, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
					if err != nil || f < 0 || f > 1 {
						f = 0
					}
					q = f
				}
			}
			switch name {
			case stored:
				storedQ = max(storedQ, q)
			case "identity":
				identityQ = max(identityQ, q)
			case "*":
				anyQ = max(anyQ, q)
			}
		}
	}
	if storedQ < 0 {
		storedQ = anyQ // "*" stands for every coding not listed
	}
	if identityQ < 0 {
		identityQ = 1 // identity is acceptable unless refused by name (or by "*;q=0")
		if anyQ == 0 {
			identityQ = 0
		}
	}
	if storedQ > 0 && storedQ >= identityQ {
		return stored
	}
	return ""
}
