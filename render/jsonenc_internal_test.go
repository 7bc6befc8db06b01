package render

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzJSONString checks the JSON string writer against encoding/json: what
// it writes decodes to the same string (invalid UTF-8 becomes U+FFFD, as
// encoding/json does), and inside HTML it never writes <, > or &, nor a
// raw U+2028/U+2029 (LD-15, HTTP-18).
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "Holzwerk Krause GmbH & Co.", "</script><script>", "a\u2028b\u2029c", "\x00\x1f\"\\", "\xff\xfe", "Ü€😀", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{false, true} {
			w := jsonWriter{html: html}
			w.str(s)
			var got string
			if err := json.Unmarshal(w.buf, &got); err != nil {
				t.Fatalf("%q wrote %q, which does not decode: %v", s, w.buf, err)
			}
			want := strings.ToValidUTF8(s, "\uFFFD")
			if !utf8.ValidString(s) {
				// encoding/json replaces each invalid byte; compare with it.
				b, _ := json.Marshal(s)
				_ = json.Unmarshal(b, &want)
			}
			if got != want {
				t.Fatalf("%q round-trips to %q, want %q", s, got, want)
			}
			if html && strings.ContainsAny(string(w.buf), "<>&\u2028\u2029") {
				t.Fatalf("%q wrote %q: not safe inside <script>", s, w.buf)
			}
		}
	})
}

// FuzzMarkdownText checks that owner text, escaped for markdown, stays one
// inline run: in a list item it is one line, and no HTML, link, image,
// heading or code span comes from it.
func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{"# Legal", "a\n## b", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "| a | b |", "`code`", "**b**", "1. one", "&amp; &#60;", "\\", "---", "a\u2028- b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendMarkdownText(nil, s, true)
		if strings.ContainsAny(string(out), "\n\r") {
			t.Fatalf("%q wrote a line break: %q", s, out)
		}
		checkInlineMarkdown(t, s, out)
	})
}
