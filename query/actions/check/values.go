package check

import (
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daawid/registry/schemas"
	"github.com/nyaruka/phonenumbers"
	"golang.org/x/text/currency"
)

// lineProblem refuses control characters, and line breaks in a field of
// one line: a name or a subject goes into a mail's header.
func lineProblem(s string, multiline bool) string {
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			if !multiline {
				return "must be one line"
			}
		case r == '\t':
		case r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029':
			return "must not hold control characters"
		}
	}
	return ""
}

// text checks a string's length in code points (D3) and its pattern. A
// language tag's first part is kept in lower case ("DE-de" is "de-de").
func text(s string, f *schemas.InputField) (string, string) {
	n := utf8.RuneCountInString(s)
	if f.Min > 0 && n < f.Min {
		return "", fmt.Sprintf("must be at least %d characters", f.Min)
	}
	if f.Max > 0 && n > f.Max {
		return "", fmt.Sprintf("must be at most %d characters", f.Max)
	}
	if f.Pattern == schemas.LanguageTagPattern {
		first, rest, more := strings.Cut(s, "-")
		s = strings.ToLower(first)
		if more {
			s += "-" + rest
		}
	}
	if f.Pattern != "" && !patterns[f.Pattern].MatchString(s) {
		return "", patternProblem(f.Pattern)
	}
	return s, ""
}

var (
	entryID = regexp.MustCompile(schemas.IDPattern(schemas.PrefixEntry))
	slug    = regexp.MustCompile(schemas.SlugPattern)
)

// entryRef is an entry's ID or slug (ACT-02).
func entryRef(s string) (string, string) {
	if len(s) <= 63 && (entryID.MatchString(s) || slug.MatchString(s)) {
		return s, ""
	}
	return "", "must be the entry's ID (ent_…) or its slug (like holzwerk-krause)"
}

// identifier is an ID of the pattern's prefix.
func identifier(s, pattern string) (string, string) {
	if patterns[pattern].MatchString(s) {
		return s, ""
	}
	prefix, _, _ := strings.Cut(strings.TrimPrefix(pattern, "^"), "_")
	return "", fmt.Sprintf("must be an ID like %s_ followed by 26 lower-case letters and digits, as the entry shows it", prefix)
}

// email is a bare address, without a display name or angle brackets,
// whose domain has a dot.
func email(s string, max int) (string, string) {
	const want = "must be an email address, like mara@example.org"
	if len(s) > max {
		return "", fmt.Sprintf("must be at most %d characters", max)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", want
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if !strings.Contains(domain, ".") || strings.HasSuffix(domain, ".") || strings.HasPrefix(domain, "[") {
		return "", want
	}
	return s, ""
}

var phoneE164 = regexp.MustCompile(schemas.PhonePattern)

// Phone is phone for the owner tools (TOOL-31): a number as pages show it
// reduced to E.164, or what is wrong with it ("" when nothing is). The
// requests' rule and the owner tools' are one function, so a number a
// page shows is read the same way by both.
func Phone(s string) (string, string) { return phone(s, 40) }

// phone reduces a number as pages show it ("+49 (0)202 / 999-90 01",
// "0049 202 9999001", "tel:+492029999001") to E.164 (D28). A number
// without its country code is refused: a request names no country to
// read it in.
func phone(s string, max int) (string, string) {
	const want = "must be a phone number with its country code, like +49 202 9999001"
	if utf8.RuneCountInString(s) > max {
		return "", fmt.Sprintf("must be at most %d characters", max)
	}
	s = strings.TrimSpace(strings.TrimPrefix(s, "tel:"))
	s = strings.ReplaceAll(s, "(0)", "")
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '+' && i == 0:
			b.WriteRune(r)
		case r == ' ' || r == '\u00a0' || r == '(' || r == ')' || r == '.' || r == '-' || r == '/':
		default:
			return "", want
		}
	}
	n := b.String()
	if strings.HasPrefix(n, "00") {
		n = "+" + n[2:]
	}
	if !strings.HasPrefix(n, "+") {
		return "", want
	}
	num, err := phonenumbers.Parse(n, "")
	if err != nil || !phonenumbers.IsPossibleNumber(num) {
		return "", "is not a possible phone number; " + want
	}
	e := phonenumbers.Format(num, phonenumbers.E164)
	// A trunk 0 after the country code ("+49 0202 …") is dropped; a number
	// whose rest starts with 0 again would lose another digit each time it
	// is read, so it is no number.
	again, err := phonenumbers.Parse(e, "")
	if !phoneE164.MatchString(e) || err != nil || phonenumbers.Format(again, phonenumbers.E164) != e {
		return "", "is not a possible phone number; " + want
	}
	return e, ""
}

// timeForm is an RFC 3339 time as AI apps write it: seconds and their
// fractions optional, "t", "z" or a space allowed, the offset with or
// without its colon or its minutes.
var timeForm = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(:\d{2})?(?:\.\d{1,9})?([Zz]|[+-]\d{2}(?::?\d{2})?)?$`)

// timestamp keeps a time as RFC 3339 with seconds and an offset
// "+hh:mm" (or Z), the wall time and offset as given and fractions of a
// second dropped (ACT-17); without an offset it is refused (ACT-19).
func timestamp(s string) (string, string) {
	m := timeForm.FindStringSubmatch(s)
	if m == nil {
		return "", "must be a time with its offset, like 2027-02-01T09:00:00+01:00"
	}
	date, hm, sec, off := m[1], m[2], m[3], m[4]
	if off == "" {
		return "", "has no offset, so Daawid can't know whose clock it is: add one, like 2027-02-01T09:00:00+01:00"
	}
	if sec == "" {
		sec = ":00"
	}
	switch {
	case off == "z" || off == "Z":
		off = "Z"
	default:
		digits := strings.ReplaceAll(off[1:], ":", "")
		if len(digits) == 2 {
			digits += "00"
		}
		off = off[:1] + digits[:2] + ":" + digits[2:]
	}
	t, err := time.Parse(time.RFC3339, date+"T"+hm+sec+off)
	if err != nil {
		return "", "is not a time that exists; write one like 2027-02-01T09:00:00+01:00"
	}
	return t.Format(time.RFC3339), ""
}

var moneyForm = regexp.MustCompile(schemas.MoneyInputPattern)

// amount keeps an amount with two decimals and no leading zeros
// ("5000" is "5000.00", "0.5" is "0.50"), as schemas.MoneyPattern
// has it (ACT-18).
func amount(s string) (string, bool) {
	if !moneyForm.MatchString(s) {
		return "", false
	}
	whole, frac, _ := strings.Cut(s, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	frac = (frac + "00")[:2]
	return whole + "." + frac, true
}

var currencyForm = regexp.MustCompile(schemas.CurrencyInputPattern)

// currencyCode is an ISO 4217 code in any case, kept in capitals
// (ACT-18).
func currencyCode(s string) (string, string) {
	if !currencyForm.MatchString(s) {
		return "", "must be a currency code of three letters, like EUR"
	}
	up := strings.ToUpper(s)
	if _, err := currency.ParseISO(up); err != nil {
		return "", "is not an ISO 4217 currency code, like EUR"
	}
	return up, ""
}
