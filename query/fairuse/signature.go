package fairuse

import "strings"

// categoryOfSignatureAgent returns the category of the first origin in a
// Signature-Agent header that the table names, or "". The header has had
// two shapes in the Web Bot Auth drafts: a structured-field string
// ("https://chatgpt.com") and, since, a dictionary of them
// (sig1="https://chatgpt.com"). Both are read, and an unquoted URL or bare
// host is taken too, since a proxy may have stripped the quotes.
func categoryOfSignatureAgent(h string) string {
	for h != "" {
		var member string
		member, h = nextMember(h)
		if c := categoryOfHost(hostOf(memberValue(member))); c != "" {
			return c
		}
	}
	return ""
}

// nextMember splits off the first comma-separated member of a
// structured-field list or dictionary, leaving commas inside quoted
// strings alone.
func nextMember(h string) (member, rest string) {
	quoted := false
	for i := 0; i < len(h); i++ {
		switch c := h[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			return h[:i], h[i+1:]
		}
	}
	return h, ""
}

// memberValue returns the value of one member: the string of
// key="value" or of "value", unquoted, without parameters (;key=...).
func memberValue(m string) string {
	m = strings.TrimSpace(m)
	if m != "" && m[0] != '"' {
		// A dictionary member's key is a lowercase key token; a
		// bare URL has "://" before any '='.
		if k, v, ok := strings.Cut(m, "="); ok && !strings.Contains(k, "/") {
			m = strings.TrimSpace(v)
		}
	}
	if m != "" && m[0] == '"' {
		if end := strings.IndexByte(m[1:], '"'); end >= 0 {
			return m[1 : 1+end]
		}
		return m[1:]
	}
	m, _, _ = strings.Cut(m, ";")
	return strings.TrimSpace(m)
}

// hostOf returns the lowercase host of an origin URL or bare host name,
// without scheme, user info, port, path or trailing dot.
func hostOf(u string) string {
	if _, after, ok := strings.Cut(u, "://"); ok {
		u = after
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndexByte(u, '@'); i >= 0 {
		u = u[i+1:]
	}
	if i := strings.LastIndexByte(u, ':'); i >= 0 {
		u = u[:i]
	}
	return strings.ToLower(strings.TrimSuffix(u, "."))
}

func categoryOfHost(host string) string {
	if host == "" {
		return ""
	}
	for _, r := range readers {
		for _, h := range r.hosts {
			if host == h || strings.HasSuffix(host, h) && host[len(host)-len(h)-1] == '.' {
				return r.category
			}
		}
	}
	return ""
}
