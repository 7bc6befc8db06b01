package schemas

// Patterns of the scalar types (ENTRY-MODEL §1.2). They are shared by the
// published JSON Schemas and the Go validator, so both always agree.
const (
	SlugPattern        = `^[a-z0-9]+(-[a-z0-9]+)*$`
	CategoryPattern    = `^[a-z]+(\.[a-z_]+)?$`
	NACEPattern        = `^\d{2}\.\d{1,2}$`
	CountryPattern     = `^[A-Z]{2}$`
	CurrencyPattern    = `^[A-Z]{3}$`
	MoneyPattern       = `^(0|[1-9]\d{0,11})\.\d{2}$`
	PhonePattern       = `^\+[1-9]\d{6,14}$`
	HostPattern        = `^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$`
	HTTPSURLPattern    = `^https://[^\s<>"]+$`
	DateTimePattern    = `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`
	DatePattern        = `^\d{4}-\d{2}-\d{2}$`
	LocalTimePattern   = `^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$`
	DurationPattern    = `^P(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?$`
	HexColorPattern    = `^#[0-9A-F]{6}$`
	PointerPattern     = `^(?:/(?:[^~/]|~[01])*)*$`
	QuestionKeyPattern = `^[a-z][a-z0-9_]{1,39}$`
	FontFamilyPattern  = `^[A-Za-z0-9][A-Za-z0-9 \-]{0,62}$`
	TimeZonePattern    = `^[A-Za-z]+(?:/[A-Za-z0-9_+\-]+)+$|^UTC$`
	LanguageTagPattern = languageTagPattern
)

// patternMessages say in words what a pattern asks for, for validation
// messages that name the mistake (`/offerings/2/price/amount: must have two
// decimals`).
var patternMessages = map[string]string{
	SlugPattern:        "must be lower-case letters and digits separated by single hyphens",
	CategoryPattern:    "must be a category code like trades.carpentry",
	NACEPattern:        "must be a NACE class like 43.32",
	CountryPattern:     "must be an ISO 3166-1 alpha-2 country code in capitals, like DE",
	CurrencyPattern:    "must be an ISO 4217 currency code in capitals, like EUR",
	MoneyPattern:       "must have two decimals, like 15000.00",
	PhonePattern:       "must be a phone number in E.164 form, like +492029999001",
	HostPattern:        "must be a lower-case host name, like example.com",
	HTTPSURLPattern:    "must be an https URL",
	DateTimePattern:    "must be a UTC timestamp with seconds, like 2026-10-28T09:14:03Z",
	DatePattern:        "must be a date, like 2026-12-24",
	LocalTimePattern:   "must be a time of day HH:MM, like 07:30",
	DurationPattern:    "must be an ISO 8601 duration, like P2D or P6W",
	HexColorPattern:    "must be a colour #RRGGBB in capitals, like #2F4B3A",
	PointerPattern:     "must be a JSON pointer, like /operator",
	QuestionKeyPattern: "must be 2 to 40 lower-case letters, digits or underscores, starting with a letter",
	FontFamilyPattern:  "must be a font family name of letters, digits, spaces and hyphens",
	TimeZonePattern:    "must be an IANA time zone, like Europe/Berlin",
	LanguageTagPattern: "must be a BCP 47 language tag, like de or en-GB",
}

// PatternMessage returns the words for a pattern, or "" if none.
func PatternMessage(pattern string) string { return patternMessages[pattern] }
