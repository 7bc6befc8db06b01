package lint

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The matcher never looks at the raw text. It looks at up to four derived
// forms, each with a byte-level map back to the original text so that a
// finding can quote what the owner actually wrote:
//
//   - lines: NFKD-decomposed, combining marks removed (diacritic folding),
//     lower-cased, invisible and format characters removed, confusable
//     Cyrillic/Greek letters inside Latin words folded to Latin, typographic
//     quotes and dashes unified, runs of horizontal white space collapsed to
//     one space and line breaks kept as "\n". Chat-template markers are
//     matched here because they depend on punctuation and line starts.
//   - words: lines reduced to tokens separated by single spaces. Letters and
//     digits are kept; "." stands for a sentence boundary (. ! ? ; or a line
//     break), ":" and "," are kept as their own tokens; every other
//     character separates words. Language rules are matched here.
//   - leet lines / leet words: the same with light leetspeak folding
//     (0→o 1→i 3→e 4→a 5→s 7→t @→a $→s) applied only inside tokens that mix
//     letters with those characters, so "1gn0re" becomes "ignore" while
//     "24/7", "B2B" or prices are untouched. Only built when it differs.

// form is one normalised view of the text; orig[i] is the byte offset in the
// original text of the character that produced form[i].
type form struct {
	b    []byte
	orig []int32
}

func (f *form) reset() {
	f.b = f.b[:0]
	f.orig = f.orig[:0]
}

func (f *form) add(c byte, at int) {
	f.b = append(f.b, c)
	f.orig = append(f.orig, int32(at))
}

func (f *form) addRune(r rune, at int) {
	if r < utf8.RuneSelf {
		f.add(byte(r), at)
		return
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for i := 0; i < n; i++ {
		f.add(buf[i], at)
	}
}

// scratch holds the per-call buffers; it is pooled so Check allocates little.
type scratch struct {
	lines, words, leetLines, leetWords form
	cand                               []bool
	touched                            []int
	ruleIdx                            []int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// lineBuilder appends normalised characters to a lines form, collapsing
// white space.
type lineBuilder struct {
	f         *form
	pendSpace bool
	pendNL    bool
	pendAt    int
}

func (lb *lineBuilder) space(at int, newline bool) {
	if !lb.pendSpace && !lb.pendNL {
		lb.pendAt = at
	}
	if newline {
		lb.pendNL = true
	} else {
		lb.pendSpace = true
	}
}

func (lb *lineBuilder) flush() {
	if len(lb.f.b) > 0 {
		if lb.pendNL {
			lb.f.add('\n', lb.pendAt)
		} else if lb.pendSpace {
			lb.f.add(' ', lb.pendAt)
		}
	}
	lb.pendSpace, lb.pendNL = false, false
}

func (lb *lineBuilder) char(c byte, at int) {
	lb.flush()
	lb.f.add(c, at)
}

func (lb *lineBuilder) rune(r rune, at int) {
	lb.flush()
	lb.f.addRune(r, at)
}

// buildLines fills dst with the lines form of src.
func buildLines(src string, dst *form) {
	dst.reset()
	lb := lineBuilder{f: dst}
	mixedUntil := -1 // byte offset up to which the current word is mixed-script
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'A' && c <= 'Z':
				lb.char(c+('a'-'A'), i)
			case c == '\n' || c == '\r' || c == '\v' || c == '\f':
				lb.space(i, true)
			case c == ' ' || c == '\t' || c < 0x20 || c == 0x7f:
				lb.space(i, false)
			case c == '`':
				lb.char('\'', i)
			default:
				lb.char(c, i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		at := i
		i += size
		if isStripped(r) {
			continue
		}
		switch r {
		case 0x85, 0x2028, 0x2029:
			lb.space(at, true)
			continue
		}
		if unicode.IsSpace(r) || r == 0x2800 || (r >= 0x80 && r < 0xa0) {
			lb.space(at, false)
			continue
		}
		if lat, ok := confusable(r); ok {
			if at >= mixedUntil && unicode.IsLetter(r) {
				mixedUntil = mixedWordEnd(src, at)
			}
			if at < mixedUntil {
				lb.char(lat, at)
				continue
			}
		}
		p := norm.NFKD.PropertiesString(src[at:])
		if d := p.Decomposition(); d != nil {
			for j := 0; j < len(d); {
				dr, n := utf8.DecodeRune(d[j:])
				j += n
				foldRune(&lb, dr, at)
			}
			continue
		}
		foldRune(&lb, r, at)
	}
}

// foldRune case-folds one (already decomposed) rune and appends it.
func foldRune(lb *lineBuilder, r rune, at int) {
	if r < utf8.RuneSelf {
		switch {
		case r >= 'A' && r <= 'Z':
			lb.char(byte(r)+('a'-'A'), at)
		case r == ' ':
			lb.space(at, false)
		default:
			lb.char(byte(r), at)
		}
		return
	}
	if unicode.In(r, unicode.Mn, unicode.Me) || isStripped(r) {
		return // diacritics and other combining marks
	}
	switch r {
	case 'ß', 'ẞ':
		lb.char('s', at)
		lb.char('s', at)
		return
	case 'ı':
		lb.char('i', at)
		return
	case 'œ', 'Œ':
		lb.char('o', at)
		lb.char('e', at)
		return
	case 'æ', 'Æ':
		lb.char('a', at)
		lb.char('e', at)
		return
	case 'ø', 'Ø':
		lb.char('o', at)
		return
	case 'ł', 'Ł':
		lb.char('l', at)
		return
	case 'đ', 'Đ':
		lb.char('d', at)
		return
	case '\u2018', '\u2019', '\u201a', '\u201b', '\u02bc', '\u2032', '\u00b4', '\u02b9':
		lb.char('\'', at)
		return
	case '\u201c', '\u201d', '\u201e', '\u201f', '\u00ab', '\u00bb', '\u2033', '\u2039', '\u203a':
		lb.char('"', at)
		return
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\u2043', '\ufe58', '\ufe63':
		lb.char('-', at)
		return
	case '\u2044', '\u2215':
		lb.char('/', at)
		return
	}
	if unicode.IsSpace(r) {
		lb.space(at, false)
		return
	}
	lb.rune(unicode.ToLower(r), at)
}

// isStripped reports characters that are removed before matching: format
// characters (zero-width, bidi controls, tag characters, soft hyphen, ...),
// variation selectors and invisible fillers. Whether their presence is a
// finding of its own is decided in hidden.go.
func isStripped(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r == 0xad, r == 0x34f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0:
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// confusables maps Cyrillic and Greek letters that look like Latin letters.
// It is applied only inside words that also contain ASCII letters, so Greek
// or Russian text is left alone while "іgnоre" (Cyrillic і and о) is caught.
var confusables = map[rune]byte{
	// Cyrillic lower case
	'а': 'a', 'в': 'b', 'е': 'e', 'ѕ': 's', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k',
	'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x',
	'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ɡ': 'g',
	// Cyrillic upper case
	'А': 'a', 'В': 'b', 'Е': 'e', 'Ѕ': 's', 'І': 'i', 'Ј': 'j', 'К': 'k', 'М': 'm',
	'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'У': 'y', 'Х': 'x', 'Ԛ': 'q',
	'Ԝ': 'w', 'Ӏ': 'l',
	// Greek
	'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't',
	'υ': 'u', 'χ': 'x', 'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i',
	'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x',
}

func confusable(r rune) (byte, bool) {
	if r < 0x370 {
		if r == 'ɡ' {
			return 'g', true
		}
		return 0, false
	}
	b, ok := confusables[r]
	return b, ok
}

// mixedWordEnd looks at the word that contains src[at] and returns its end
// offset if the word mixes ASCII letters with confusable letters, else at.
func mixedWordEnd(src string, at int) int {
	start := at
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(src[:start])
		if !inWord(r) {
			break
		}
		start -= n
	}
	end := at
	ascii := false
	for end < len(src) {
		r, n := utf8.DecodeRuneInString(src[end:])
		if !inWord(r) {
			break
		}
		end += n
	}
	for _, r := range src[start:end] {
		if r < utf8.RuneSelf && (r|0x20) >= 'a' && (r|0x20) <= 'z' {
			ascii = true
			break
		}
	}
	if !ascii {
		return at
	}
	return end
}

func inWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || isStripped(r)
}

// leetMap folds the few characters used in light leetspeak.
var leetMap = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}

// buildLeet writes the leet-folded copy of src (a lines form) into dst and
// reports whether anything changed.
func buildLeet(src, dst *form) bool {
	changed := false
	dst.b = append(dst.b[:0], src.b...)
	dst.orig = append(dst.orig[:0], src.orig...)
	b := dst.b
	for i := 0; i < len(b); {
		if !isLeetTok(b[i]) {
			i++
			continue
		}
		j := i
		letters, leet := false, false
		for j < len(b) && isLeetTok(b[j]) {
			if b[j] >= 'a' && b[j] <= 'z' {
				letters = true
			} else if leetMap[b[j]] != 0 {
				leet = true
			}
			j++
		}
		if letters && leet {
			for k := i; k < j; k++ {
				if m := leetMap[b[k]]; m != 0 {
					b[k] = m
					changed = true
				}
			}
		}
		i = j
	}
	return changed
}

func isLeetTok(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '@' || c == '$'
}

// buildWords derives the words form from a lines form. A line break is a
// sentence boundary unless the next line starts with a lower-case letter in
// the original text (a wrapped sentence); text is the original text.
func buildWords(text string, src, dst *form) {
	dst.reset()
	b := src.b
	var marker byte // strongest punctuation token seen in the current gap
	markerAt := 0
	gap := false
	for i := 0; i < len(b); {
		c := b[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(b[i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mc, r) {
				if !gap && len(dst.b) > 0 && dst.b[len(dst.b)-1] < utf8.RuneSelf {
					// ASCII followed by another script: a token boundary,
					// as for the regexp engine's \b
					gap, markerAt = true, int(src.orig[i])
				}
				emitGap(dst, &gap, &marker, markerAt)
				for k := 0; k < n; k++ {
					dst.add(b[i+k], int(src.orig[i+k]))
				}
			} else {
				if !gap {
					markerAt = int(src.orig[i])
				}
				gap = true
			}
			i += n
			continue
		}
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			if !gap && len(dst.b) > 0 && dst.b[len(dst.b)-1] >= utf8.RuneSelf {
				gap, markerAt = true, int(src.orig[i])
			}
			emitGap(dst, &gap, &marker, markerAt)
			dst.add(c, int(src.orig[i]))
			i++
			continue
		}
		// separator
		var m byte
		switch c {
		case '\n':
			m = '.'
			if i+1 < len(b) {
				r, _ := utf8.DecodeRuneInString(text[src.orig[i+1]:])
				if unicode.IsLower(r) {
					m = 0
				}
			}
		case '!', '?', ';':
			m = '.'
		case '.', ':', ',':
			if i+1 == len(b) || b[i+1] == ' ' || b[i+1] == '\n' || b[i+1] == '"' || b[i+1] == '\'' || b[i+1] == ')' {
				m = c
			}
		}
		if m != 0 && rank(m) > rank(marker) {
			marker = m
			markerAt = int(src.orig[i])
		}
		if !gap && m == 0 {
			markerAt = int(src.orig[i])
		}
		gap = true
		i++
	}
	if marker != 0 && len(dst.b) > 0 {
		dst.add(' ', markerAt)
		dst.add(marker, markerAt)
	}
}

func rank(m byte) int {
	switch m {
	case '.':
		return 3
	case ':':
		return 2
	case ',':
		return 1
	}
	return 0
}

func emitGap(dst *form, gap *bool, marker *byte, at int) {
	if *gap && len(dst.b) > 0 {
		dst.add(' ', at)
		if *marker != 0 {
			dst.add(*marker, at)
			dst.add(' ', at)
		}
	}
	*gap = false
	*marker = 0
}
