package lint

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Finding is one reason a text was refused.
type Finding struct {
	Rule    string // stable rule ID, e.g. "I14-override"
	Lang    string // language of the matched pattern: "en","de","fr","es","tr" or "any"
	Excerpt string // the matched part of the text (at most ~80 chars), for the error message
	Message string // English, one sentence, safe to show to the owner
}

// maxExcerpt is the longest excerpt, in runes, before it is shortened.
const maxExcerpt = 80

// Check returns the findings for one text; nil when the text is fine.
//
// Check is pure and deterministic and safe for concurrent use. All patterns
// are compiled once, at package initialisation. Findings are ordered by the
// position of the match in the text, then by rule ID and language; a rule
// reports at most one finding per language.
func Check(text string) []Finding {
	return checkWith(text, true)
}

// checkWith is Check with the anchor prefilter switchable, so tests can
// prove that anchors never hide a match.
func checkWith(text string, prefilter bool) []Finding {
	fs := check(text, true, prefilter)
	if len(fs) == 0 {
		return nil
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].pos != fs[j].pos {
			return fs[i].pos < fs[j].pos
		}
		if fs[i].Rule != fs[j].Rule {
			return fs[i].Rule < fs[j].Rule
		}
		return fs[i].Lang < fs[j].Lang
	})
	out := make([]Finding, len(fs))
	for i := range fs {
		out[i] = fs[i].Finding
	}
	return out
}

// finding is a Finding plus the byte offset used for ordering.
type finding struct {
	Finding
	pos int
}

func check(text string, top, prefilter bool) []finding {
	var fs []finding
	if top {
		fs = hiddenFindings(text, fs)
	}
	s := scratchPool.Get().(*scratch)
	buildLines(text, &s.lines)
	buildWords(text, &s.lines, &s.words)
	fs = matchRules(text, &s.lines, &s.words, s, fs, false, prefilter)
	if buildLeet(&s.lines, &s.leetLines) {
		buildWords(text, &s.leetLines, &s.leetWords)
		fs = matchRules(text, &s.leetLines, &s.leetWords, s, fs, true, prefilter)
	}
	if cap(s.lines.b) <= 1<<16 {
		scratchPool.Put(s)
	}
	if top {
		fs = encodedFindings(text, fs, prefilter)
	}
	return fs
}

// matchRules runs the rules over one pair of forms. Words-form rules run
// per sentence (the words form split at "." tokens) and only when their
// anchors occur in that sentence; lines-form rules run per line when their
// anchors occur anywhere in the text. Short windows keep the regexp engine
// on its fast paths and keep matches inside one sentence.
func matchRules(src string, lines, words *form, s *scratch, fs []finding, leet, prefilter bool) []finding {
	if cap(s.cand) < nGroups {
		s.cand = make([]bool, nGroups)
	}
	hit := s.cand[:nGroups]
	clear(hit)
	s.touched = s.touched[:0]

	// words form, sentence by sentence
	b := words.b
	for start := 0; start < len(b); {
		end := bytes.Index(b[start:], []byte(" ."))
		next := len(b)
		if end < 0 {
			end = len(b)
		} else {
			end += start
			next = end + 2
			if next < len(b) && b[next] == ' ' {
				next++
			}
		}
		if end > start {
			fs = matchSentence(src, lines, words, s, hit, fs, start, end, prefilter)
		}
		start = next
	}

	if leet {
		return fs // markers are never written in leetspeak
	}
	if prefilter {
		markLineAnchors(lines.b, hit)
	}
	var cands []*rule
	for _, r := range lineRules {
		if !prefilter || r.candidate(hit) {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		return fs
	}
	b = lines.b
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		for _, r := range cands {
			fs = runRule(r, src, lines, lines, lineWindow(start, end), fs)
		}
		start = end + 1
	}
	return fs
}

// Long sentences are matched in overlapping windows so that the cost per
// regexp run stays bounded. A window that does not start (end) at the
// sentence boundary is widened by the neighbouring space and one character,
// so "^" and "$" cannot match at the cut, and matches reaching into that
// margin are dropped; they are found in the neighbouring window, which
// overlaps by more than any pattern is long.
const (
	maxWindow     = 640
	windowOverlap = 256
)

func matchSentence(src string, lines, words *form, s *scratch, hit []bool, fs []finding, start, end int, prefilter bool) []finding {
	b := words.b
	for ws := start; ; {
		we := end
		if we-ws > maxWindow {
			we = ws + maxWindow
			for we > ws && b[we] != ' ' {
				we--
			}
			if we == ws { // one very long token: take all of it
				we = ws + maxWindow
				for we < end && b[we] != ' ' {
					we++
				}
			}
		}
		w := window{start: ws, end: we, lo: ws, hi: we}
		if ws > start {
			w.lo = ws - 2 // last character of the previous token and the space
		}
		if we < end {
			w.hi = we + 2 // the space and the first character of the next token
		}
		if !prefilter {
			for _, r := range wordRules {
				fs = runRule(r, src, words, lines, w, fs)
			}
		} else {
			s.touched = markWordAnchors(b[ws:we], hit, s.touched)
			// candidate rules: those whose every anchor group was hit, run
			// in declaration order
			s.ruleIdx = s.ruleIdx[:0]
			for _, g := range s.touched {
				ri := groupRule[g]
				if ri >= 0 && !slices.Contains(s.ruleIdx, ri) && wordRules[ri].candidate(hit) {
					s.ruleIdx = append(s.ruleIdx, ri)
				}
			}
			slices.Sort(s.ruleIdx)
			for _, ri := range s.ruleIdx {
				fs = runRule(wordRules[ri], src, words, lines, w, fs)
			}
			for _, g := range s.touched {
				hit[g] = false
			}
			s.touched = s.touched[:0]
		}
		if we == end {
			return fs
		}
		// b[we] is a space; restart at a token boundary inside the overlap
		next := max(we-windowOverlap, ws)
		for next < we && b[next] != ' ' {
			next++
		}
		ws = next + 1
	}
}

// window is the span [lo,hi) of a form that a rule runs on; only matches
// inside [start,end) count.
type window struct {
	start, end int
	lo, hi     int
}

func lineWindow(start, end int) window { return window{start, end, start, end} }

// runRule applies one rule to a window and appends at most one finding per
// rule ID and language.
func runRule(r *rule, src string, f, lines *form, w window, fs []finding) []finding {
	if hasFinding(fs, r.id, r.lang) {
		return fs
	}
	for _, m := range r.re.FindAllSubmatchIndex(f.b[w.lo:w.hi], -1) {
		for i := range m {
			if m[i] >= 0 {
				m[i] += w.lo
			}
		}
		if m[0] < w.start || m[1] > w.end {
			continue
		}
		if r.guard != nil && !r.guard(&matchCtx{src: src, f: f, lines: lines, m: m}) {
			continue
		}
		ms, me := m[0], m[1]
		for me > ms && (f.b[me-1] == ' ' || f.b[me-1] == '\n') {
			me--
		}
		for ms < me && (f.b[ms] == ' ' || f.b[ms] == '\n') {
			ms++
		}
		if ms == me {
			continue
		}
		os, oe := origSpan(src, f, ms, me)
		ex := excerpt(src[os:oe])
		if ex == "" {
			continue
		}
		return append(fs, finding{Finding: Finding{
			Rule:    r.id,
			Lang:    r.lang,
			Excerpt: ex,
			Message: message(r.id, ex),
		}, pos: os})
	}
	return fs
}

func hasFinding(fs []finding, id, lang string) bool {
	for i := range fs {
		if fs[i].Rule == id && fs[i].Lang == lang {
			return true
		}
	}
	return false
}

// origSpan maps the form span [start,end) back to a byte span of src.
func origSpan(src string, f *form, start, end int) (int, int) {
	os := int(f.orig[start])
	last := int(f.orig[end-1])
	_, n := utf8.DecodeRuneInString(src[last:])
	oe := last + n
	if oe < os {
		oe = os
	}
	return os, oe
}

// excerpt makes a span of the original text safe and short enough to show:
// invisible and control characters are dropped, white space is collapsed,
// and text longer than maxExcerpt runes is cut at a word boundary.
func excerpt(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case isStripped(r) || r == utf8.RuneError:
			continue
		case unicode.IsSpace(r) || unicode.IsControl(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if utf8.RuneCountInString(out) <= maxExcerpt {
		return out
	}
	n, cut, lastSpace := 0, len(out), -1
	for i, r := range out {
		if n == maxExcerpt {
			cut = i
			break
		}
		if r == ' ' {
			lastSpace = i
		}
		n++
	}
	if lastSpace > maxExcerpt/2 {
		cut = lastSpace
	}
	return strings.TrimRight(out[:cut], " ") + "…"
}

// messages holds the owner-facing sentence for every rule ID; %s is the
// quoted excerpt.
var messages = map[string]string{
	ruleOverride: "reads as an instruction to AI models to set aside their instructions (%s)",
	ruleAddress:  "addresses AI models directly with an instruction (%s)",
	rulePersona:  "tries to give AI models a new role or persona (%s)",
	ruleTemplate: "contains a chat-template or system-prompt marker (%s)",
	rulePromote:  "instructs AI models how to rank, recommend or judge businesses (%s)",
	ruleExfil:    "asks AI models to reveal or send out hidden or private data (%s)",
	ruleTool:     "instructs AI models to use tools or follow external content (%s)",
	ruleConceal:  "asks AI models to hide something from the people they talk to (%s)",
	ruleOutput:   "instructs AI models how to word or format their answers (%s)",
}

func message(id, ex string) string {
	return strings.Replace(messages[id], "%s", `"`+ex+`"`, 1)
}

// matchCtx is what a guard sees of a match.
type matchCtx struct {
	src   string
	f     *form // the form the rule matched on
	lines *form // the lines form of the same text
	m     []int // submatch indices into f.b
}

// prevToken returns the token just before the match.
func (c *matchCtx) prevToken() []byte {
	b := c.f.b[:c.m[0]]
	b = bytes.TrimRight(b, " \n")
	i := bytes.LastIndexAny(b, " \n")
	return b[i+1:]
}

// nextToken returns the token just after the match.
func (c *matchCtx) nextToken() []byte {
	b := bytes.TrimLeft(c.f.b[c.m[1]:], " \n")
	if i := bytes.IndexAny(b, " \n"); i >= 0 {
		b = b[:i]
	}
	return b
}
