package lint

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hidden-text rules (language-independent). Invisible characters are
// removed before the language rules run, so "ig\u200bnore" still matches;
// their mere presence is reported here because they let a text say one
// thing to a human reviewer and another to a model.
//
// Legitimate uses are allowed: ZWJ inside emoji sequences, ZWJ/ZWNJ between
// letters of scripts that need them (Arabic, Indic, ...), a byte-order mark
// at the very start, single variation selectors (emoji presentation, CJK
// ideographic variants), tag characters inside an emoji flag sequence
// (🏴 + tags + cancel tag), and the soft hyphen. LRM/RLM marks are removed
// for matching but not reported.

type hiddenKind int

const (
	hidInvisible hiddenKind = iota
	hidBidi
	hidTag
	hidControl
	hidKinds
)

var hiddenRule = [hidKinds]string{ruleHiddenInvisible, ruleHiddenBidi, ruleHiddenTag, ruleHiddenControl}

type hiddenAcc struct {
	pos   int
	cps   []rune
	count int
}

func (a *hiddenAcc) add(r rune, pos int) {
	if a.count == 0 {
		a.pos = pos
	}
	a.count++
	for _, c := range a.cps {
		if c == r {
			return
		}
	}
	if len(a.cps) < 3 {
		a.cps = append(a.cps, r)
	}
}

func hiddenFindings(text string, fs []finding) []finding {
	// fast path: plain ASCII without control characters
	ascii := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf || (c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7f {
			ascii = false
			break
		}
	}
	if ascii {
		return fs
	}
	var acc [hidKinds]hiddenAcc
	var tagText strings.Builder
	prev := rune(-1)
	for i := 0; i < len(text); {
		if c := text[i]; c >= 0x20 && c < 0x7f {
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		at := i
		i += n
		switch {
		case r == '\n' || r == '\r' || r == '\t':
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			acc[hidControl].add(r, at)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			acc[hidBidi].add(r, at)
		case r >= 0xe0000 && r <= 0xe007f:
			// a valid flag sequence is 🏴 followed by tags ending in U+E007F
			start := at
			j := at
			for j < len(text) {
				t, m := utf8.DecodeRuneInString(text[j:])
				if t < 0xe0000 || t > 0xe007f {
					break
				}
				j += m
			}
			seq := text[start:j]
			last, _ := utf8.DecodeLastRuneInString(seq)
			if prev == 0x1f3f4 && last == 0xe007f && utf8.RuneCountInString(seq) <= 8 {
				i = j
				prev = last
				continue
			}
			for _, t := range seq {
				acc[hidTag].add(t, start)
				if t >= 0xe0020 && t <= 0xe007e {
					tagText.WriteRune(t - 0xe0000)
				}
			}
			i = j
			prev = last
			continue
		case r == 0x200d || r == 0x200c:
			next, _ := utf8.DecodeRuneInString(text[i:])
			if (r == 0x200d && isEmoji(prev) && isEmoji(next)) || (joiningScript(prev) && joiningScript(next)) {
				break
			}
			acc[hidInvisible].add(r, at)
		case r == 0xfeff:
			if at != 0 {
				acc[hidInvisible].add(r, at)
			}
		case r == 0x200b, r == 0x2060, r == 0x180e, r >= 0x2061 && r <= 0x2064,
			r >= 0x206a && r <= 0x206f, r >= 0xfff9 && r <= 0xfffb,
			r >= 0x1d173 && r <= 0x1d17a, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0:
			acc[hidInvisible].add(r, at)
		case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
			// one selector after a base character is normal; runs of them
			// can smuggle data, and supplement selectors only follow Han
			if isVariationSelector(prev) || (r >= 0xe0100 && !unicode.Is(unicode.Han, prev)) {
				acc[hidInvisible].add(r, at)
			}
		}
		prev = r
	}
	for k := hiddenKind(0); k < hidKinds; k++ {
		a := &acc[k]
		if a.count == 0 {
			continue
		}
		var ex, msg string
		cps := codePoints(a.cps, a.count)
		switch k {
		case hidInvisible:
			ex = cps
			msg = fmt.Sprintf("contains invisible characters (%s) that can hide text from human readers", ex)
		case hidBidi:
			ex = cps
			msg = fmt.Sprintf("contains bidirectional control characters (%s) that can change the order in which text is displayed", ex)
		case hidControl:
			ex = cps
			msg = fmt.Sprintf("contains control characters (%s) that do not belong in business text", ex)
		case hidTag:
			hidden := excerpt(tagText.String())
			if hidden == "" {
				ex = cps
				msg = fmt.Sprintf("contains invisible Unicode tag characters (%s) that can hide text", ex)
			} else {
				ex = hidden
				msg = fmt.Sprintf(`contains invisible Unicode tag characters that hide the text "%s"`, ex)
			}
		}
		fs = append(fs, finding{Finding: Finding{Rule: hiddenRule[k], Lang: "any", Excerpt: ex, Message: msg}, pos: a.pos})
	}
	return fs
}

func codePoints(cps []rune, count int) string {
	var b strings.Builder
	for i, r := range cps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "U+%04X", r)
	}
	if count > len(cps) && len(cps) == 3 {
		b.WriteString(", …")
	}
	return b.String()
}

func isVariationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef)
}

func isEmoji(r rune) bool {
	return r >= 0x1f000 || (r >= 0x2600 && r <= 0x27bf) || (r >= 0x2b00 && r <= 0x2bff) ||
		r == 0xfe0f || r == 0x2640 || r == 0x2642 || r == 0x2695 || r == 0x2696 || r == 0x2708 ||
		r == 0x2764 || (r >= 0x1f3fb && r <= 0x1f3ff) || r == 0x20e3
}

// joiningScript reports letters of scripts in which ZWJ/ZWNJ are part of
// normal spelling (everything except Latin, Greek, Cyrillic and Han).
func joiningScript(r rune) bool {
	if r < 0x370 || !(unicode.IsLetter(r) || unicode.Is(unicode.M, r)) {
		return false
	}
	return !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Han)
}

// ---- encoded text ----

// encodedFindings decodes base64 runs and reports them when the decoded
// text itself triggers a language or marker rule (I14-encoded). Only runs
// of at least 24 characters are tried; ordinary IDs and IBANs decode to
// binary noise and are ignored.
func encodedFindings(text string, fs []finding, prefilter bool) []finding {
	for i := 0; i < len(text); {
		if !isB64(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isB64(text[j]) {
			j++
		}
		run := text[i:j]
		i = j
		if len(run) < 24 {
			continue
		}
		dec, ok := decodeB64(run)
		if !ok {
			continue
		}
		inner := check(dec, false, prefilter)
		if len(inner) == 0 {
			continue
		}
		ex := run
		if len(ex) > 40 {
			ex = ex[:40] + "…"
		}
		fs = append(fs, finding{Finding: Finding{
			Rule:    ruleEncoded,
			Lang:    "any",
			Excerpt: ex,
			Message: fmt.Sprintf(`contains encoded text ("%s") that decodes to an instruction to AI models ("%s")`, ex, inner[0].Excerpt),
		}, pos: i - len(run)})
		if hasFinding(fs[:len(fs)-1], ruleEncoded, "any") {
			fs = fs[:len(fs)-1]
		}
	}
	return fs
}

func isB64(c byte) bool {
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
}

func decodeB64(s string) (string, bool) {
	s = strings.TrimRight(s, "=")
	var b []byte
	var err error
	if strings.ContainsAny(s, "-_") {
		b, err = base64.RawURLEncoding.DecodeString(s)
	} else {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	printable, spaces := 0, 0
	for _, r := range string(b) {
		if r == ' ' {
			spaces++
		}
		if unicode.IsPrint(r) || r == '\n' {
			printable++
		}
	}
	n := utf8.RuneCount(b)
	if n == 0 || printable*10 < n*9 || spaces < 2 {
		return "", false
	}
	return string(b), true
}
