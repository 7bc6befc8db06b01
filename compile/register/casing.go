package register

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Registers that keep names in capitals (Companies House, SIRENE, some
// German rows) are cased here the way people write the names (issue 16,
// decision D97): legal forms in their usual spelling, initials and clear
// acronyms in capitals, Mc/Mac and O' names, roman numerals, small words in
// lower case inside a name. A name that already has a lower-case letter is
// the company's own spelling and is left alone.

// legalWords are legal forms and their parts, spelled as the law or the
// register's users write them; keys are upper case.
var legalWords = map[string]string{
	"LTD": "Ltd", "LTD.": "Ltd.", "LIMITED": "Limited", "PLC": "PLC", "P.L.C.": "PLC", "LLP": "LLP", "L.L.P.": "LLP",
	"LP": "LP", "CIC": "CIC", "C.I.C.": "CIC", "CIO": "CIO", "CO": "Co", "CO.": "Co.", "INC": "Inc", "INC.": "Inc.",
	"CYF": "Cyf", "CYFYNGEDIG": "Cyfyngedig",
	"GMBH": "GmbH", "GGMBH": "gGmbH", "MBH": "mbH", "UG": "UG", "HAFTUNGSBESCHRÄNKT": "haftungsbeschränkt",
	"KG": "KG", "KGAA": "KGaA", "OHG": "OHG", "AG": "AG", "SE": "SE", "GBR": "GbR", "E.K.": "e.K.", "E.V.": "e.V.",
	"EG": "eG", "PARTG": "PartG", "MBB": "mbB", "I.L.": "i.L.", "E.KFM.": "e.Kfm.", "E.KFR.": "e.Kfr.",
	"SARL": "SARL", "S.A.R.L.": "SARL", "SAS": "SAS", "SASU": "SASU", "SA": "SA", "EURL": "EURL", "SCI": "SCI", "SNC": "SNC", "SCOP": "SCOP", "SELARL": "SELARL",
}

// acronyms stay in capitals. "IT" is here: in a company name it is far
// more often information technology than the pronoun (D97).
var acronyms = map[string]bool{
	"UK": true, "GB": true, "USA": true, "EU": true, "BBC": true, "IT": true, "TV": true, "DIY": true, "HR": true, "MOT": true,
	"BBQ": true, "B&B": true, "PR": true, "NHS": true, "PC": true, "CCTV": true, "HGV": true, "LGV": true, "GP": true, "UPVC": true,
	"PVC": true, "LED": true, "AV": true, "VAT": true, "CNC": true, "HVAC": true, "SEO": true, "CAD": true, "DJ": true, "ICT": true,
	"EDV": true, "GPS": true, "UAE": true, "NYC": true, "AI": true, "EV": true, "PT": true,
	"MRI": true, "CPR": true, "ADHD": true, "SOS": true, "TLC": true, "VIP": true, "XL": true, "XXL": true, "BMW": true,
	"VW": true, "ABC": true, "IFA": true, "UKCS": true,
}

// romanNumerals are kept in capitals; single letters (I, V, X) are
// initials anyway.
var romanNumerals = map[string]bool{"II": true, "III": true, "IV": true, "VI": true, "VII": true, "VIII": true, "IX": true, "XI": true, "XII": true, "XIII": true, "XIV": true, "XV": true, "XX": true}

// capitalised are words a no-vowel rule would take for acronyms but people
// write in normal case.
var capitalised = map[string]string{"MR": "Mr", "MRS": "Mrs", "MS": "Ms", "DR": "Dr", "ST": "St", "KFZ": "Kfz", "BROS": "Bros", "PTY": "Pty", "HNOS": "Hnos", "WWW": "www", "CO-OP": "Co-op", "CO-OPERATIVE": "Co-operative"}

// smallWords stay lower case inside a name, per language; "" is every
// language the register readers meet without saying which (addresses).
var smallWords = map[string]map[string]bool{
	"en": set("and", "of", "the", "for", "in", "on", "at", "by", "to", "a", "an", "or", "upon", "under"),
	"de": set("und", "am", "im", "an", "der", "die", "das", "von", "vom", "zu", "zum", "zur", "für", "mit", "bei", "auf", "in", "des", "dem", "den", "aus", "über", "unter", "ohne"),
	"fr": set("de", "du", "des", "la", "le", "les", "et", "en", "au", "aux", "sur", "sous", "pour", "par", "à"),
	"":   set("and", "of", "the", "for", "in", "on", "at", "by", "de", "la", "le", "du", "des", "von", "und", "et"),
}

// macNames are the Mac surnames cased MacX; other Mac words (Machine,
// Mack, Macro, Mace) are ordinary words.
var macNames = set("MACDONALD", "MACKENZIE", "MACLEOD", "MACGREGOR", "MACLEAN", "MACMILLAN", "MACINTYRE", "MACNEIL", "MACPHERSON",
	"MACARTHUR", "MACAULAY", "MACFARLANE", "MACINNES", "MACKINNON", "MACLACHLAN", "MACRAE", "MACDOUGALL", "MACEWAN", "MACGILLIVRAY",
	"MACNAB", "MACQUARRIE", "MACDUFF", "MACBRIDE", "MACNEILL", "MACLENNAN", "MACALISTER", "MACCALLUM", "MACCORMACK", "MACDONNELL")

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// titleCase cases a name or an address line whose language is not known
// to the caller (SIRENE addresses, UK towns); see caseName.
func titleCase(s string) string { return caseName(s, "") }

// caseName turns an all-capitals register name into the case people write
// it in: `THE "OLD SCHOOL" BAKERY LTD` → `The "Old School" Bakery Ltd`,
// `J.R. SMITH & SONS (UK) LIMITED` → `J.R. Smith & Sons (UK) Limited`.
// A name with any lower-case letter is returned as it is.
func caseName(s, lang string) string {
	if strings.ToUpper(s) != s {
		return s
	}
	small := smallWords[lang]
	if small == nil {
		small = smallWords[""]
	}
	words := strings.Fields(s)
	for i, w := range words {
		lead, core, trail := splitPunct(w)
		if core == "" {
			continue
		}
		// A word that opens a quotation or a bracket, or follows a colon
		// or a dash, begins a phrase and is never a small word.
		// A word after a comma begins an address part ("Unit 2, The
		// Sidings"); a word with a comma after it ends one.
		inside := i > 0 && lead == "" && trail == "" && i < len(words)-1 && !strings.HasSuffix(words[i-1], ":") &&
			!strings.HasSuffix(words[i-1], ",") && words[i-1] != "-" && words[i-1] != "–"
		words[i] = lead + caseWord(core, inside, small, words, i) + trail
	}
	return strings.Join(words, " ")
}

// splitPunct separates a word's opening quotes and brackets and its
// closing ones (and commas) from the word.
func splitPunct(w string) (lead, core, trail string) {
	start := strings.IndexFunc(w, func(r rune) bool { return !strings.ContainsRune(`"'(“‘[«`, r) })
	if start < 0 {
		return w, "", ""
	}
	end := strings.LastIndexFunc(w, func(r rune) bool { return !strings.ContainsRune(`"')”’],;!?»`, r) })
	_, size := utf8.DecodeRuneInString(w[end:])
	return w[:start], w[start : end+size], w[end+size:]
}

// caseWord cases one word without its surrounding punctuation.
func caseWord(w string, inside bool, small map[string]bool, words []string, i int) string {
	if f, ok := legalWords[w]; ok {
		return f
	}
	if c, ok := capitalised[w]; ok {
		return c
	}
	if acronyms[w] || romanNumerals[w] || isInitials(w) {
		return w
	}
	// A lone "A" after a small word is the article ("PIE IN A BOX", "TWO
	// MEN AND A VAN"); anywhere else it is an initial ("DR A PATEL",
	// "J A SMITH", "A & B").
	if w == "A" {
		if inside && small[strings.ToLower(words[i-1])] {
			return "a"
		}
		return w
	}
	lower := strings.ToLower(w)
	if inside && small[lower] {
		return lower
	}
	if isAcronym(w) || isAmpersandPair(w) {
		return w
	}
	if strings.Contains(w, "-") {
		parts := strings.Split(w, "-")
		for j, p := range parts {
			if p != "" {
				parts[j] = caseWord(p, false, small, words, i)
			}
		}
		return strings.Join(parts, "-")
	}
	return capitalizeWord(w)
}

// isInitials is "J.R.", "J.", "A.B.C.": letters each followed by a dot.
func isInitials(w string) bool {
	rs := []rune(w)
	if len(rs) < 2 || len(rs)%2 != 0 {
		return false
	}
	for i := 0; i < len(rs); i += 2 {
		if !unicode.IsUpper(rs[i]) || rs[i+1] != '.' {
			return false
		}
	}
	return true
}

// isAcronym is a word of two to five capitals with no vowel ("BBC",
// "HSBC", "JCB"): no English or German word is spelled so.
func isAcronym(w string) bool {
	n := utf8.RuneCountInString(w)
	if n < 2 || n > 5 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) || strings.ContainsRune("AEIOUYÄÖÜÉÈÀ", r) {
			return false
		}
	}
	return true
}

// isAmpersandPair is "B&Q", "M&S", "P&O": two initials joined by "&".
func isAmpersandPair(w string) bool {
	rs := []rune(w)
	return len(rs) == 3 && rs[1] == '&' && unicode.IsUpper(rs[0]) && unicode.IsUpper(rs[2])
}

// capitalizeWord upper-cases the first letter of a word and lower-cases
// the rest, with the name patterns people keep: "O'NEILL" → "O'Neill",
// "D'ARCY" → "D'Arcy", "JOE'S" → "Joe's", "MCDONALD" → "McDonald",
// "MACKENZIE" → "MacKenzie" (a known Mac name only: "MACHINE" →
// "Machine"), "1ST" → "1st", "4X4" → "4x4".
func capitalizeWord(w string) string {
	rs := []rune(strings.ToLower(w))
	start := true
	for i, r := range rs {
		if unicode.IsLetter(r) {
			if start {
				rs[i] = unicode.ToUpper(r)
			}
			start = false
			continue
		}
		// After an apostrophe only a one-letter prefix (O', D', L')
		// starts a new capital; "Joe's" and "Don't" keep theirs small.
		start = (r == '\'' || r == '’') && i == 1 || r == '/' || r == '.' || r == '(' || r == '+'
		if unicode.IsDigit(r) {
			start = false
		}
	}
	up := strings.ToUpper(w)
	switch {
	case strings.HasPrefix(up, "MC") && utf8.RuneCountInString(up) > 3 && isLetters(up[2:]):
		rs[2] = unicode.ToUpper(rs[2])
	case macNames[up]:
		rs[3] = unicode.ToUpper(rs[3])
	}
	return string(rs)
}

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// CaseName cases a register name as people write it (D97) in the
// register's language: what the readers give as legal names, so that
// whoever declares an operator (the synthetic fixtures' owners) can write
// it as the register reads.
func CaseName(s, lang string) string { return caseName(s, lang) }
