package lint

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Rule IDs. They are stable: the registry stores and reports them.
const (
	ruleOverride        = "I14-override"
	ruleAddress         = "I14-address"
	rulePersona         = "I14-persona"
	ruleTemplate        = "I14-template"
	rulePromote         = "I14-promote"
	ruleExfil           = "I14-exfil"
	ruleTool            = "I14-tool"
	ruleConceal         = "I14-conceal"
	ruleOutput          = "I14-output"
	ruleEncoded         = "I14-encoded"
	ruleHiddenInvisible = "I14-hidden-invisible"
	ruleHiddenBidi      = "I14-hidden-bidi"
	ruleHiddenTag       = "I14-hidden-tag"
	ruleHiddenControl   = "I14-hidden-control"
)

// rule is one compiled pattern. Several rules share an ID and language; a
// text gets at most one finding per (ID, language).
type rule struct {
	id, lang string
	re       *regexp.Regexp
	guard    func(*matchCtx) bool
	groups   []int // anchor groups that must all be present
}

func (r *rule) candidate(hit []bool) bool {
	for _, g := range r.groups {
		if !hit[g] {
			return false
		}
	}
	return true
}

// spec is the source form of a rule.
//
// For words-form rules, anchors lists tokens of the words form; "stem*"
// matches any token starting with stem; " & " separates groups that must
// all be present. For lines-form rules anchors are plain substrings of the
// lines form. Anchors only decide whether the regexp runs at all: they must
// never be stricter than the pattern (TestAnchorsDoNotHideMatches checks
// this on the corpora).
type spec struct {
	id, lang string
	anchors  string
	pat      string
	lines    bool
	guard    func(*matchCtx) bool
}

var (
	wordRules []*rule
	lineRules []*rule
	nGroups   int   // number of anchor groups over all rules
	groupRule []int // anchor group -> index of its rule in wordRules (-1 for line rules)

	exactAnchors  = map[string][]int{}       // token -> group indices
	prefixAnchors = map[string][]prefixAnc{} // first 3 bytes of stem -> stems
	substrAnchors []substrAnc                // lines-form substrings
)

type prefixAnc struct {
	stem  string
	group int
}

type substrAnc struct {
	s     string
	group int
}

// macros are expanded in words-form patterns: {NAME} is replaced by the
// macro text; "~" is one word followed by a space; "_" is a space that may
// carry a comma or colon token.
var macros = map[string]string{
	// sentence start and end in the words form
	"S": `(?:^|[.:,] )`,
	"E": `(?: [.:,]|$)`,
}

func addMacros(m map[string]string) {
	for k, v := range m {
		if _, dup := macros[k]; dup {
			panic("lint: duplicate macro " + k)
		}
		macros[k] = v
	}
}

var macroRE = regexp.MustCompile(`\{[A-Z][A-Z0-9_]*\}`)

func expand(p string) string {
	for i := 0; i < 10 && macroRE.MatchString(p); i++ {
		p = macroRE.ReplaceAllStringFunc(p, func(m string) string {
			v, ok := macros[m[1:len(m)-1]]
			if !ok {
				panic("lint: unknown macro " + m)
			}
			return v
		})
	}
	p = strings.ReplaceAll(p, "~", `(?:[\pL\pN]+ )`)
	p = strings.ReplaceAll(p, "_", ` (?:[,:] )?`)
	return p
}

// register compiles specs; it panics on a bad pattern so that a broken rule
// fails every test run.
func register(specs ...spec) {
	for _, s := range specs {
		r := &rule{id: s.id, lang: s.lang, guard: s.guard}
		pat := s.pat
		if !s.lines {
			pat = expand(pat)
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			panic(fmt.Sprintf("lint: rule %s/%s: %v\n%s", s.id, s.lang, err, pat))
		}
		r.re = re
		for _, grp := range strings.Split(s.anchors, "&") {
			g := nGroups
			nGroups++
			if s.lines {
				groupRule = append(groupRule, -1)
			} else {
				groupRule = append(groupRule, len(wordRules))
			}
			r.groups = append(r.groups, g)
			toks := strings.Fields(grp)
			if s.lines {
				toks = strings.Split(strings.TrimSpace(grp), "|")
			}
			if len(toks) == 0 {
				panic(fmt.Sprintf("lint: rule %s/%s has an empty anchor group", s.id, s.lang))
			}
			for _, t := range toks {
				switch {
				case s.lines:
					substrAnchors = append(substrAnchors, substrAnc{t, g})
				case strings.HasSuffix(t, "*"):
					stem := strings.TrimSuffix(t, "*")
					if len(stem) < 3 {
						panic("lint: prefix anchor too short: " + t)
					}
					prefixAnchors[stem[:3]] = append(prefixAnchors[stem[:3]], prefixAnc{stem, g})
				default:
					exactAnchors[t] = append(exactAnchors[t], g)
				}
			}
		}
		if s.lines {
			lineRules = append(lineRules, r)
		} else {
			wordRules = append(wordRules, r)
		}
	}
}

// markWordAnchors sets hit[g] for every anchor group present in one
// sentence of the words form and returns touched with the groups it set.
func markWordAnchors(words []byte, hit []bool, touched []int) []int {
	for len(words) > 0 {
		i := bytes.IndexByte(words, ' ')
		var tok []byte
		if i < 0 {
			tok, words = words, nil
		} else {
			tok, words = words[:i], words[i+1:]
		}
		for _, g := range exactAnchors[string(tok)] {
			if !hit[g] {
				hit[g] = true
				touched = append(touched, g)
			}
		}
		if len(tok) >= 3 {
			for _, p := range prefixAnchors[string(tok[:3])] {
				if !hit[p.group] && bytes.HasPrefix(tok, []byte(p.stem)) {
					hit[p.group] = true
					touched = append(touched, p.group)
				}
			}
		}
	}
	return touched
}

// markLineAnchors sets hit[g] for the substring anchors of lines-form rules.
func markLineAnchors(lines []byte, hit []bool) {
	for _, a := range substrAnchors {
		if !hit[a.group] && bytes.Contains(lines, []byte(a.s)) {
			hit[a.group] = true
		}
	}
}

// ---- guards ----

// selfRE holds, per language, words that make a sentence about AI models a
// demand on behalf of this business: self-reference, ranking words or
// competitors.
var selfRE = map[string]*regexp.Regexp{}

// nearSelf accepts a match when a self-reference occurs inside it or within
// a few words after it, in the same clause (up to the next "." or ",").
func nearSelf(lang string) func(*matchCtx) bool {
	return func(c *matchCtx) bool {
		re := selfRE[lang]
		end := c.m[1] + 48
		if end > len(c.f.b) {
			end = len(c.f.b)
		}
		tail := c.f.b[c.m[1]:end]
		if i := bytes.IndexAny(tail, ".,"); i >= 0 {
			end = c.m[1] + i
		}
		return re.Match(c.f.b[c.m[0]:end])
	}
}

// notAfter rejects a match whose preceding token is one of words; it keeps
// descriptions ("we never send user data to ...") apart from commands.
func notAfter(words ...string) func(*matchCtx) bool {
	set := map[string]bool{}
	for _, w := range words {
		set[w] = true
	}
	return func(c *matchCtx) bool {
		return !set[string(c.prevToken())]
	}
}

// subjects precede verbs used descriptively rather than as commands.
var subjects = []string{
	"we", "i", "they", "he", "she", "it", "who", "which", "that", "will", "would", "can",
	"could", "may", "might", "never", "not", "t", "don", "won", "cannot", "app", "software",
	"system", "platform", "staff", "team", "our", "customers", "clients", "guests", "people",
	"users", "everyone", "visitors", "patients", "reviewers", "also", "usually", "often",
	"gladly", "happily", "does", "do", "did", "always",
}

// urlNear accepts a match that contains or is followed (within 120 bytes of
// the original text) by something that looks like a URL. E-mail addresses do not count: "forward
// the conversation to support@..." is an ordinary routing preference.
func urlNear(c *matchCtx) bool {
	os, oe := origSpan(c.src, c.f, c.m[0], c.m[1])
	end := oe + 120
	if end > len(c.src) {
		end = len(c.src)
	}
	w := strings.ToLower(c.src[os:end])
	return strings.Contains(w, "http") || strings.Contains(w, "www.") ||
		strings.Contains(w, "webhook") || strings.Contains(w, "://")
}

// addressNear is urlNear that also accepts an e-mail address: used where a
// spelled-out destination turns "send the chat history to ..." into
// exfiltration.
func addressNear(c *matchCtx) bool {
	if urlNear(c) {
		return true
	}
	os, oe := origSpan(c.src, c.f, c.m[0], c.m[1])
	end := oe + 120
	if end > len(c.src) {
		end = len(c.src)
	}
	w := c.src[os:end]
	at := strings.IndexByte(w, '@')
	return at > 0 && at < len(w)-1 && w[at-1] != ' ' && w[at+1] != ' '
}

// notBefore rejects a match whose following token is one of words
// ("tell the user" but not "tell the user interface team").
func notBefore(words ...string) func(*matchCtx) bool {
	set := map[string]bool{}
	for _, w := range words {
		set[w] = true
	}
	return func(c *matchCtx) bool {
		return !set[string(c.nextToken())]
	}
}

func all(gs ...func(*matchCtx) bool) func(*matchCtx) bool {
	return func(c *matchCtx) bool {
		for _, g := range gs {
			if !g(c) {
				return false
			}
		}
		return true
	}
}

// noEarlierS accepts "</s>" only when the text has no "<s>" before it, so
// HTML strike-through ("<s>99 €</s> 79 €") is not taken for an
// end-of-sequence token.
func noEarlierS(c *matchCtx) bool {
	return !bytes.Contains(c.f.b[:c.m[0]], []byte("<s>"))
}

var userLineRE = regexp.MustCompile(`(?m)^(?:user|human|nutzer|benutzer|utilisateur|usuario|kullanici)\s*:`)

// hasUserLine accepts an assistant turn only when the text also contains a
// user turn, i.e. it imitates a chat transcript.
func hasUserLine(c *matchCtx) bool {
	return userLineRE.Match(c.lines.b)
}
