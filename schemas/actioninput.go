package schemas

import (
	"slices"
	"strings"
)

// The request tools' input (§7.5) as one table: every field of every
// request kind with its shape, bounds, pattern, whether the kind requires
// it or which requireFields value does (ACT-22), the words the markdown
// names it by (MD-63) and the description the tool list gives a model.
// The tool list's input schemas (RequestTools), each action's inputSchema
// in the view (ActionInput.Schema, VIEW-08), the markdown's word lists and
// the server's check of a call (query/actions/check) are all made from
// it, so they cannot drift apart (ACT-24).
//
// The tool list is frugal (MCP-31): it shows a model the fields, their
// types, formats, lengths, enums, how many items and descriptions. The
// patterns of IDs, language tags, postal codes, amounts, currencies and
// question keys, and the server's own limits on addresses and phone
// numbers, stay with the server, which checks every call in full and
// names the field of each mistake.

// InputType is the JSON shape of a request tool's field, and how the
// server reads it.
type InputType string

// The input types.
const (
	// InputText is a string; Min and Max count code points (D3).
	InputText InputType = "text"
	// InputEntryRef is an entry's ID or slug (ACT-02).
	InputEntryRef InputType = "entry"
	// InputID is an identifier of the prefix Pattern says.
	InputID InputType = "id"
	// InputEnum is one of Enum.
	InputEnum InputType = "enum"
	// InputEmail is a bare email address.
	InputEmail InputType = "email"
	// InputLanguage is a BCP 47 language tag (Pattern).
	InputLanguage InputType = "language"
	// InputPhone is a phone number with its country code, as pages show
	// it; the server keeps it in E.164 (D28).
	InputPhone InputType = "phone"
	// InputTime is an RFC 3339 time with an offset; the server adds
	// missing seconds and a colon to the offset (ACT-17) and refuses a
	// time without an offset (ACT-19).
	InputTime InputType = "time"
	// InputMoney is an amount: a number, or a string with up to two
	// decimals, kept with two ("5000" is "5000.00", ACT-18).
	InputMoney InputType = "money"
	// InputCurrency is an ISO 4217 code in any case, kept in capitals
	// (ACT-18).
	InputCurrency InputType = "currency"
	// InputObject is an object of Fields; nothing else is taken.
	InputObject InputType = "object"
	// InputArray is an array of Min to Max objects of Fields.
	InputArray InputType = "array"
	// InputAnswers is the answers record (ACT-04): question keys to a
	// string of at most AnswerMaxLength, a number or a boolean.
	InputAnswers InputType = "answers"
)

// Patterns and bounds of the request tools' own scalars.
const (
	// PostalCodeInputPattern: letters, digits, spaces and hyphens.
	PostalCodeInputPattern = `^[A-Za-z0-9][A-Za-z0-9 \-]*$`
	// MoneyInputPattern is an amount as a call may write it; the number
	// form must read the same.
	MoneyInputPattern = `^\d{1,12}(\.\d{1,2})?$`
	// CurrencyInputPattern is a currency code in any case.
	CurrencyInputPattern = `^[A-Za-z]{3}$`
	// AnswerMaxLength bounds a text answer (D16).
	AnswerMaxLength = 1000
	// EmailMaxLength is the longest address SMTP carries.
	EmailMaxLength = 254
	// PhoneInputMaxLength bounds a phone number as pages write it.
	PhoneInputMaxLength = 32
)

// InputField is one field of a request tool's input.
type InputField struct {
	// Name is the field's JSON name inside its object.
	Name string
	Type InputType
	// Min and Max bound a string's length in code points, or an array's
	// items; 0 is no bound. The tool list shows them for texts and arrays.
	Min, Max int
	// Pattern is what the server holds the string to; the tool list
	// leaves it out (MCP-31).
	Pattern string
	Enum    []string
	// Multiline lets a text hold line breaks; every other string is one
	// line (a name or a subject can't smuggle a header into a mail).
	Multiline bool
	// Fields are an object's members, or an array's items' members, in
	// the order the schema lists them.
	Fields []InputField
	// Required: the kind always requires the field.
	Required bool
	// RequiredBy is the requireFields value that makes the field required
	// (ACT-22); "" none.
	RequiredBy RequireField
	// Description is what the tool list tells a model; the view's
	// inputSchema leaves it out (VIEW-09).
	Description string
	// Words name the field in the markdown's "Required: … · optional: …"
	// line (MD-63).
	Words string
}

// RequestKind is one request tool: its action type, title, description
// and input.
type RequestKind struct {
	Type        ActionType
	Title       string
	Description string
	// Fields are the whole input, in the order the schema lists them.
	Fields []InputField
	// Asks are the paths of the fields the markdown names, in its order
	// (MD-63).
	Asks []string
}

// RequiredFor reports whether an action requires the field: the kind
// always does, or the action's requireFields name it, or the action takes
// requests within its service area only and the field is the postal code
// (ACT-22, ACT-23). A nil action is the kind alone.
func (f *InputField) RequiredFor(a *Action) bool {
	if f.Required {
		return true
	}
	if f.RequiredBy == "" || a == nil {
		return false
	}
	if f.RequiredBy == RequirePostalCode && a.ServiceAreaOnly {
		return true
	}
	return slices.Contains(a.RequireFields, f.RequiredBy)
}

// Field finds a field by its dotted path ("requester.phone"), or nil.
func (k *RequestKind) Field(path string) *InputField {
	fields := k.Fields
	for {
		name, rest, more := strings.Cut(path, ".")
		var f *InputField
		for i := range fields {
			if fields[i].Name == name {
				f = &fields[i]
				break
			}
		}
		if f == nil || !more {
			return f
		}
		fields, path = f.Fields, rest
	}
}

// Paths are every field's dotted path, depth first in schema order: the
// fields a RequireField can name are among them.
func (k *RequestKind) Paths() []string {
	var out []string
	var walk func(prefix string, fs []InputField)
	walk = func(prefix string, fs []InputField) {
		for _, f := range fs {
			out = append(out, prefix+f.Name)
			if f.Type == InputObject {
				walk(prefix+f.Name+".", f.Fields)
			}
		}
	}
	walk("", k.Fields)
	return out
}

// RequestKindOf is the kind of an action type, or nil for a type this
// version does not know.
func RequestKindOf(t ActionType) *RequestKind {
	for i := range requestKinds {
		if requestKinds[i].Type == t {
			return &requestKinds[i]
		}
	}
	return nil
}

// RequestKinds are the four request kinds in the order the MCP server
// lists their tools (MCP-53). The table is shared: read it, never change
// it.
func RequestKinds() []RequestKind { return requestKinds }

// requester is ActionCall's requester (ACT-01); callback's requester
// always has a phone number (ACT-07).
func requester(phoneRequired bool) InputField {
	phone := InputField{Name: "phone", Type: InputPhone, Max: PhoneInputMaxLength, RequiredBy: RequirePhone, Words: "phone",
		Description: "with country code"}
	if phoneRequired {
		phone.Required, phone.RequiredBy = true, ""
	}
	return InputField{Name: "requester", Type: InputObject, Required: true,
		Description: "the person asking; Daawid emails them a code to confirm",
		Fields: []InputField{
			{Name: "name", Type: InputText, Min: 2, Max: 120, Required: true, Words: "name"},
			{Name: "email", Type: InputEmail, Max: EmailMaxLength, Required: true, Words: "email"},
			phone,
			{Name: "preferredChannel", Type: InputEnum, Enum: []string{"email", "phone"}},
			{Name: "language", Type: InputLanguage, Max: 35, Pattern: LanguageTagPattern, Description: "the language they write in, like de"},
		}}
}

// actionCall is ActionCall's fields (ACT-02 to ACT-05, ACT-16) followed
// by a kind's own.
func actionCall(phoneRequired bool, own ...InputField) []InputField {
	return append([]InputField{
		{Name: "entry", Type: InputEntryRef, Required: true, Description: "entry ID or slug"},
		{Name: "actionId", Type: InputID, Pattern: IDPattern(PrefixAction),
			Description: "which action; optional when the entry has one of this kind"},
		requester(phoneRequired),
		{Name: "answers", Type: InputAnswers, Description: "answers to the action's questions, by key"},
		{Name: "idempotencyKey", Type: InputText, Min: 8, Max: 64, Description: "the same key within 24 h gives the same request"},
	}, own...)
}

func offeringID() InputField {
	return InputField{Name: "offeringId", Type: InputID, Pattern: IDPattern(PrefixOffering), Description: "which of the entry's offerings"}
}

func postalCode() InputField {
	return InputField{Name: "postalCode", Type: InputText, Min: 3, Max: 10, Pattern: PostalCodeInputPattern,
		RequiredBy: RequirePostalCode, Words: "postal code", Description: "where the work is"}
}

func timeRanges(name string, min, max int, required bool, words, description string) InputField {
	return InputField{Name: name, Type: InputArray, Min: min, Max: max, Required: required, Words: words, Description: description,
		Fields: []InputField{
			{Name: "from", Type: InputTime, Required: true},
			{Name: "to", Type: InputTime, Required: true},
		}}
}

// confirmNote ends every request tool's description: the person
// confirms on Daawid's page (§7.6, ACT-43).
const confirmNote = " Nothing is sent until the user confirms on the page the answer links to."

var requestKinds = []RequestKind{
	{Type: ActionRequestQuote, Title: "Request a quote",
		Description: "Ask a business for a quote." + confirmNote,
		Fields: actionCall(false,
			offeringID(),
			InputField{Name: "description", Type: InputText, Min: 10, Max: 4000, Multiline: true, Required: true, Words: "description",
				Description: "the job, in the user's words"},
			postalCode(),
			InputField{Name: "desiredTiming", Type: InputText, Max: 200, RequiredBy: RequireDesiredTiming, Words: "desired timing",
				Description: "when, in the user's words"},
			InputField{Name: "budget", Type: InputObject, RequiredBy: RequireBudget, Words: "budget", Description: "the most the user will spend",
				Fields: []InputField{
					{Name: "max", Type: InputMoney, Pattern: MoneyInputPattern, Required: true, Description: "up to 2 decimals"},
					{Name: "currency", Type: InputCurrency, Pattern: CurrencyInputPattern, Required: true, Description: "ISO 4217, like EUR"},
				}},
		),
		Asks: []string{"description", "requester.name", "requester.email", "requester.phone", "postalCode", "desiredTiming", "budget"}},
	{Type: ActionRequestCallback, Title: "Request a callback",
		Description: "Ask a business to call the user back." + confirmNote,
		Fields: actionCall(true,
			offeringID(),
			InputField{Name: "topic", Type: InputText, Min: 3, Max: 500, Multiline: true, Required: true, Words: "topic",
				Description: "what the call is about"},
			timeRanges("preferredTimes", 0, 3, false, "up to 3 preferred time windows", "when the user can take the call; times with offset"),
		),
		Asks: []string{"requester.name", "requester.email", "requester.phone", "topic", "preferredTimes"}},
	{Type: ActionRequestAppointment, Title: "Request an appointment",
		Description: "Ask a business for an appointment." + confirmNote,
		Fields: actionCall(false,
			offeringID(),
			InputField{Name: "purpose", Type: InputText, Min: 3, Max: 1000, Multiline: true, Required: true, Words: "purpose",
				Description: "what the appointment is for"},
			timeRanges("preferredSlots", 1, 5, true, "1 to 5 preferred time slots", "times that suit the user; with offset"),
			postalCode(),
		),
		Asks: []string{"purpose", "requester.name", "requester.email", "requester.phone", "postalCode", "preferredSlots"}},
	{Type: ActionSendMessage, Title: "Send a message",
		Description: "Send a business a message." + confirmNote,
		Fields: actionCall(false,
			InputField{Name: "subject", Type: InputText, Min: 3, Max: 200, Required: true, Words: "subject"},
			InputField{Name: "message", Type: InputText, Min: 10, Max: 4000, Multiline: true, Required: true, Words: "message"},
		),
		Asks: []string{"subject", "message", "requester.name", "requester.email", "requester.phone"}},
}

// ActionInput is what one action of one entry makes of its kind's input
// (§6, §7.5 input mapping): the entry it names, the action, what the
// action requires, its questions and the offerings it takes. The view's
// inputSchema is made from it (Schema) and the server checks a call by it,
// so the two say the same.
type ActionInput struct {
	Kind *RequestKind
	// Entry are the values entry may take: the entry's ID and slug
	// (VIEW-10).
	Entry []string
	// Action is the action; its requireFields and serviceAreaOnly decide
	// what is required (VIEW-12).
	Action *Action
	// ActionIDRequired: the entry has several enabled actions of the kind
	// (VIEW-11, ACT-26).
	ActionIDRequired bool
	// Questions are the action's questions (VIEW-13).
	Questions []AnswerRule
	// Offerings are the offerings offeringId may name: the action's, or
	// the entry's when it names none (VIEW-14, ACT-21); none leaves
	// offeringId out (VIEW-15).
	Offerings []string
}

// AnswerRule is one question as the input takes its answer (D16).
type AnswerRule struct {
	Key string
	// Title is the question's label in the view's language.
	Title    string
	Type     QuestionType
	Required bool
	// Options are a choice question's option values.
	Options []string
}

// NewActionInput is the input of an action of an entry, its questions'
// titles in lang (else the entry's default language). It returns nil for
// an action type this version does not know.
func NewActionInput(e *Entry, a *Action, lang string) *ActionInput {
	k := RequestKindOf(a.Type)
	if k == nil {
		return nil
	}
	several := 0
	for i := range e.Actions {
		if e.Actions[i].Enabled && e.Actions[i].Type == a.Type {
			several++
		}
	}
	in := &ActionInput{Kind: k, Entry: []string{e.ID, e.Slug}, Action: a, ActionIDRequired: several > 1}
	if k.Field("offeringId") != nil {
		in.Offerings = a.OfferingIDs
		if len(in.Offerings) == 0 {
			for _, o := range e.Offerings {
				in.Offerings = append(in.Offerings, o.ID)
			}
		}
	}
	for _, q := range a.Questions {
		r := AnswerRule{Key: q.Key, Title: q.Label.Resolve(lang, e.DefaultLanguage), Type: q.Type, Required: q.Required}
		for _, o := range q.Options {
			r.Options = append(r.Options, o.Value)
		}
		in.Questions = append(in.Questions, r)
	}
	return in
}

// Required reports whether the action requires the field at a dotted path
// (VIEW-12, ACT-22, ACT-23).
func (in *ActionInput) Required(path string) bool {
	f := in.Kind.Field(path)
	return f != nil && f.RequiredFor(in.Action)
}

// AnswersRequired reports whether any question must be answered.
func (in *ActionInput) AnswersRequired() bool {
	for _, q := range in.Questions {
		if q.Required {
			return true
		}
	}
	return false
}

// Question finds a question by its key, or nil.
func (in *ActionInput) Question(key string) *AnswerRule {
	for i := range in.Questions {
		if in.Questions[i].Key == key {
			return &in.Questions[i]
		}
	}
	return nil
}
