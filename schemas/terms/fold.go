package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold folds a name or a text the way search compares words (§7.5
// "Words are compared across spellings and languages"; "Places": a town
// by any of its names, diacritics and case folded):
//
//   - compatibility decomposition (NFKD), then every nonspacing and
//     enclosing mark is dropped: "München" → "munchen", "إسطنبول" →
//     "اسطنبول", "İstanbul" → "istanbul";
//   - case folding, and a few letters that have no decomposition are
//     spelled the way their ASCII names spell them: ß → ss, ı → i,
//     ł → l, ø → o, đ and ð → d, æ → ae, œ → oe, þ → th, ħ → h;
//     Arabic ى → ي and ة → ه, and the tatweel is dropped;
//   - everything that is neither a letter nor a digit (spaces,
//     punctuation, apostrophes, brackets) separates words, and words are
//     joined by one space: "Frankfurt (Oder)" → "frankfurt oder".
//
// German transliteration (ü written ue) is not part of the fold: the
// gazetteer and search try it as a second reading (ContractGerman).
func Fold(s string) string {
	var buf [64]byte
	b := AppendFold(buf[:0], s, false)
	if len(b) == len(s) && string(b) == s {
		return s
	}
	return string(b)
}

// AppendFold appends the fold of s to dst. With german, a, o and u with a
// diaeresis are spelled ae, oe and ue ("Düsseldorf" → "duesseldorf").
func AppendFold(dst []byte, s string, german bool) []byte {
	f := folder{dst: dst, start: len(dst), german: german}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			f.ascii(c)
			continue
		}
		p := norm.NFKD.PropertiesString(s[i:])
		d := p.Decomposition()
		if d == nil {
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			if r == utf8.RuneError && n <= 1 {
				f.space = true
				continue
			}
			f.rune(r, 0)
			continue
		}
		size := p.Size()
		if size <= 0 {
			size = 1
		}
		var prev rune
		for j := 0; j < len(d); {
			r, n := utf8.DecodeRune(d[j:])
			j += n
			f.rune(r, prev)
			prev = r
		}
		i += size
	}
	return f.dst
}

// folder collects a folded name: words joined by one space.
type folder struct {
	dst    []byte
	start  int
	space  bool // a separator is pending
	german bool
}

func (f *folder) emit(r rune) {
	if f.space {
		if len(f.dst) > f.start {
			f.dst = append(f.dst, ' ')
		}
		f.space = false
	}
	if r < utf8.RuneSelf {
		f.dst = append(f.dst, byte(r))
	} else {
		f.dst = utf8.AppendRune(f.dst, r)
	}
}

func (f *folder) ascii(c byte) {
	switch {
	case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		f.emit(rune(c))
	case 'A' <= c && c <= 'Z':
		f.emit(rune(c + 'a' - 'A'))
	default:
		f.space = true
	}
}

// rune folds one rune of a decomposition; prev is the rune before it in
// the same decomposition (for the German ue).
func (f *folder) rune(r rune, prev rune) {
	if r < utf8.RuneSelf {
		f.ascii(byte(r))
		return
	}
	switch r {
	case 0x0308: // combining diaeresis: ä, ö, ü spelled ae, oe, ue
		if f.german && (prev == 'a' || prev == 'o' || prev == 'u' || prev == 'A' || prev == 'O' || prev == 'U') {
			f.emit('e')
		}
		return
	case 'ß', 'ẞ':
		f.emit('s')
		f.emit('s')
		return
	case 'ı':
		f.emit('i')
		return
	case 'ł', 'Ł':
		f.emit('l')
		return
	case 'ø', 'Ø':
		f.emit('o')
		return
	case 'đ', 'Đ', 'ð', 'Ð':
		f.emit('d')
		return
	case 'æ', 'Æ':
		f.emit('a')
		f.emit('e')
		return
	case 'œ', 'Œ':
		f.emit('o')
		f.emit('e')
		return
	case 'þ', 'Þ':
		f.emit('t')
		f.emit('h')
		return
	case 'ħ', 'Ħ':
		f.emit('h')
		return
	case 'ς':
		f.emit('σ')
		return
	case 'ى': // alef maksura read as yeh
		f.emit('ي')
		return
	case 'ة': // teh marbuta read as heh
		f.emit('ه')
		return
	case 'ـ': // tatweel
		return
	case '\u2019', '\u02bc', '\u02bb', '\u2018', '\u00b4', '\u02b9':
		f.space = true
		return
	}
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return
	}
	if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mc, r) {
		f.emit(unicode.ToLower(r))
		return
	}
	f.space = true
}

// ContractGerman reads a folded name's ae, oe and ue as the umlauts they
// may stand for ("muenchen" → "munchen"); it answers "" when there are none.
func ContractGerman(s string) string {
	if !strings.Contains(s, "ae") && !strings.Contains(s, "oe") && !strings.Contains(s, "ue") {
		return ""
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		b = append(b, c)
		if (c == 'a' || c == 'o' || c == 'u') && i+1 < len(s) && s[i+1] == 'e' {
			i++
		}
	}
	return string(b)
}

// HasUmlaut reports whether s may hold a German umlaut, so that its
// ae/oe/ue spelling is worth trying.
func HasUmlaut(s string) bool {
	return strings.ContainsAny(s, "äöüÄÖÜ\u0308")
}
