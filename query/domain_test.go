package query

import "testing"

// TestNormalizeHost_TOOL07: a domain as AI apps write it.
func TestNormalizeHost_TOOL07(t *testing.T) {
	cases := map[string]string{
		"holzwerk-krause.de":                     "holzwerk-krause.de",
		"HOLZWERK-Krause.DE":                     "holzwerk-krause.de",
		"https://www.holzwerk-krause.de/kontakt": "www.holzwerk-krause.de",
		"http://user@holzwerk-krause.de:8443/x":  "holzwerk-krause.de",
		"holzwerk-krause.de.":                    "holzwerk-krause.de",
		"holzwerk-krause.de/impressum":           "holzwerk-krause.de",
		"bücher.de":                              "xn--bcher-kva.de",
		"https://BÜCHER.de":                      "xn--bcher-kva.de",
		"xn--bcher-kva.de":                       "xn--bcher-kva.de",
		"  www.bücher.de  ":                      "www.xn--bcher-kva.de",
	}
	for in, want := range cases {
		got, err := normalizeHost(in)
		if err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "localhost", "not a host", "http://", "a..b"} {
		if h, err := normalizeHost(bad); err == nil {
			t.Errorf("%q was read as %q", bad, h)
		}
	}
	if c := hostCandidates("www.bücher.de"); c[1] != "bücher.de" {
		t.Errorf("candidates %v", c)
	}
	if c := hostCandidates("x.de"); c[1] != "www.x.de" {
		t.Errorf("candidates %v", c)
	}
}

// FuzzNormalizeHost: no input makes the host reader panic, and what it
// accepts is lower-case ASCII with a dot.
func FuzzNormalizeHost(f *testing.F) {
	for _, s := range []string{"bücher.de", "https://www.x.de/a?b#c", "[::1]:80", "a@b@c.de", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := normalizeHost(s)
		if err != nil {
			return
		}
		for _, r := range h {
			if r > 127 || (r >= 'A' && r <= 'Z') {
				t.Fatalf("%q → %q", s, h)
			}
		}
	})
}
