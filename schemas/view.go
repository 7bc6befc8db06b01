package schemas

import "encoding/json"

// EntryView is the native JSON view of an entry in one language (§6):
// every localized text resolved to a string, private data left out, and
// links, per-action tool names and input schemas added. It is what the REST
// mirror and the MCP tools answer. Section fields are omitted when a caller
// asked for other sections (VIEW-06); the identity fields are always there.
type EntryView struct {
	ID                 string           `json:"id"`
	Slug               string           `json:"slug"`
	Kind               EntryKind        `json:"kind"`
	Status             EntryStatus      `json:"status"`
	Language           string           `json:"language"`
	AvailableLanguages []string         `json:"availableLanguages"`
	Record             RecordView       `json:"record"`
	Verification       VerificationView `json:"verification"`
	DisplayName        string           `json:"displayName" jsonschema:"maxLength=120"`
	Summary            string           `json:"summary,omitempty" jsonschema:"maxLength=300"`

	// facts
	AlternateNames    []string         `json:"alternateNames,omitempty"`
	Description       string           `json:"description,omitempty" jsonschema:"maxLength=5000"`
	Categories        []string         `json:"categories,omitempty"`
	NACECodes         []string         `json:"naceCodes,omitempty"`
	FoundingYear      int              `json:"foundingYear,omitempty"`
	Employees         EmployeesRange   `json:"employees,omitempty"`
	LanguagesSpoken   []string         `json:"languagesSpoken,omitempty"`
	Domains           []DomainView     `json:"domains,omitempty"`
	Profiles          []string         `json:"profiles,omitempty"`
	PrimaryLocationID string           `json:"primaryLocationId,omitempty"`
	Locations         []LocationView   `json:"locations,omitempty"`
	ServiceArea       *ServiceAreaView `json:"serviceArea,omitempty"`

	Offerings []OfferingView `json:"offerings,omitempty"`
	// Media are the pictures the offerings refer to.
	Media         []MediaView        `json:"media,omitempty"`
	Capacity      *CapacityView      `json:"capacity,omitempty"`
	ContactPoints []ContactPointView `json:"contactPoints,omitempty"`
	Routing       []RoutingView      `json:"routing,omitempty"`
	AgentPolicy   *AgentPolicy       `json:"agentPolicy,omitempty"`
	Actions       []ActionView       `json:"actions,omitempty"`
	Policies      []PolicyView       `json:"policies,omitempty"`
	Credentials   []CredentialView   `json:"credentials,omitempty"`
	FAQs          []FAQView          `json:"faqs,omitempty"`
	Voice         *VoiceView         `json:"voice,omitempty"`
	Brand         *BrandKitView      `json:"brand,omitempty"`
	// Operator is the legal section, the only place representatives'
	// names appear (PRIV-17).
	Operator *Operator `json:"operator,omitempty"`

	Provenance []Provenance `json:"provenance,omitempty"`
	Links      Links        `json:"links"`
}

// RecordView is the revision metadata of the view.
type RecordView struct {
	Revision        int    `json:"revision"`
	CreatedAt       string `json:"createdAt,omitempty"`
	UpdatedAt       string `json:"updatedAt,omitempty"`
	LastConfirmedAt string `json:"lastConfirmedAt,omitempty"`
}

// VerificationView says what Daawid checked; level is always present.
type VerificationView struct {
	Level              VerificationLevel `json:"level"`
	Domains            []DomainCheck     `json:"domains,omitempty"`
	ContactConfirmedAt string            `json:"contactConfirmedAt,omitempty"`
	LapsedAt           string            `json:"lapsedAt,omitempty"`
}

// DomainView is a website of the entry with its verification state.
type DomainView struct {
	Host     string `json:"host"`
	Primary  bool   `json:"primary,omitempty"`
	Verified bool   `json:"verified"`
}

// LocationView is a location; at locality level it has no street or extra
// and no point (I15).
type LocationView struct {
	ID              string               `json:"id"`
	Name            string               `json:"name,omitempty" jsonschema:"maxLength=80"`
	Address         Address              `json:"address"`
	AddressDisplay  AddressDisplay       `json:"addressDisplay"`
	Geo             *Geo                 `json:"geo,omitempty"`
	TimeZone        string               `json:"timeZone,omitempty"`
	Visits          Visits               `json:"visits,omitempty"`
	Hours           []HoursRule          `json:"hours,omitempty"`
	HoursExceptions []HoursExceptionView `json:"hoursExceptions,omitempty"`
}

// HoursExceptionView is a dated exception with its note resolved.
type HoursExceptionView struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Closed bool   `json:"closed,omitempty"`
	Opens  string `json:"opens,omitempty"`
	Closes string `json:"closes,omitempty"`
	Note   string `json:"note,omitempty" jsonschema:"maxLength=120"`
}

// ServiceAreaView is the service area with the radius centre resolved.
type ServiceAreaView struct {
	Radius   *ServiceRadius `json:"radius,omitempty"`
	Places   []ServicePlace `json:"places,omitempty"`
	Anywhere bool           `json:"anywhere,omitempty"`
}

// OfferingView is an offering in one language (VIEW-27).
type OfferingView struct {
	ID           string           `json:"id"`
	Kind         OfferingKind     `json:"kind"`
	Name         string           `json:"name" jsonschema:"maxLength=120"`
	ShortName    string           `json:"shortName,omitempty" jsonschema:"maxLength=60"`
	Description  string           `json:"description,omitempty" jsonschema:"maxLength=2000"`
	Category     string           `json:"category,omitempty"`
	Audience     Audience         `json:"audience"`
	Price        *PriceView       `json:"price,omitempty"`
	LeadTime     *DurationRange   `json:"leadTime,omitempty"`
	Availability Availability     `json:"availability,omitempty"`
	ServiceArea  *ServiceAreaView `json:"serviceArea,omitempty"`
	MediaIDs     []string         `json:"mediaIds,omitempty"`
	ActionIDs    []string         `json:"actionIds,omitempty"`
}

// PriceView is a price with its note resolved.
type PriceView struct {
	Kind        PriceKind `json:"kind"`
	Amount      string    `json:"amount,omitempty"`
	Min         string    `json:"min,omitempty"`
	Max         string    `json:"max,omitempty"`
	Currency    string    `json:"currency,omitempty"`
	Unit        PriceUnit `json:"unit,omitempty"`
	VATIncluded *bool     `json:"vatIncluded,omitempty"`
	Note        string    `json:"note,omitempty" jsonschema:"maxLength=200"`
}

// CapacityView is capacity that has not expired (VIEW-04).
type CapacityView struct {
	Status            CapacityStatus `json:"status"`
	NextAvailableFrom string         `json:"nextAvailableFrom,omitempty"`
	LeadTime          *DurationRange `json:"leadTime,omitempty"`
	Note              string         `json:"note,omitempty" jsonschema:"maxLength=280"`
	AsOf              string         `json:"asOf"`
	ExpiresAt         string         `json:"expiresAt"`
}

// ContactPointView is a public contact point (VIEW-05).
type ContactPointView struct {
	ID           string           `json:"id"`
	Name         string           `json:"name" jsonschema:"maxLength=80"`
	Purposes     []ContactPurpose `json:"purposes,omitempty"`
	Phone        string           `json:"phone,omitempty"`
	Email        string           `json:"email,omitempty"`
	Languages    []string         `json:"languages,omitempty"`
	Hours        []HoursRule      `json:"hours,omitempty"`
	ResponseTime string           `json:"responseTime,omitempty"`
}

// RoutingView is a routing rule with its note resolved.
type RoutingView struct {
	Audience RoutingAudience `json:"audience"`
	Intent   RoutingIntent   `json:"intent"`
	RouteTo  string          `json:"routeTo,omitempty"`
	Decline  bool            `json:"decline,omitempty"`
	Note     string          `json:"note,omitempty" jsonschema:"maxLength=200"`
}

// ActionView is an enabled action with what a caller needs to start it
// (VIEW-07..VIEW-17).
type ActionView struct {
	ID               string         `json:"id"`
	Type             ActionType     `json:"type"`
	Name             string         `json:"name" jsonschema:"maxLength=80"`
	OfferingIDs      []string       `json:"offeringIds,omitempty"`
	RequireFields    []RequireField `json:"requireFields,omitempty"`
	Questions        []QuestionView `json:"questions,omitempty"`
	ServiceAreaOnly  bool           `json:"serviceAreaOnly,omitempty"`
	ExpectedResponse string         `json:"expectedResponse,omitempty"`
	// Handoff is true when the action hands over to the business's own
	// system (§7.6 step 5).
	Handoff bool `json:"handoff,omitempty"`
	// Tool is the MCP tool that starts the action.
	Tool string `json:"tool"`
	// InputSchema is the tool's input for this action, JSON Schema 2020-12.
	InputSchema json.RawMessage `json:"inputSchema"`
	// Rest is where a run is started by REST.
	Rest string `json:"rest"`
	// Form is the human web form, when the action has one.
	Form string `json:"form,omitempty"`
}

// QuestionView is a custom question with its label resolved.
type QuestionView struct {
	Key      string               `json:"key"`
	Label    string               `json:"label" jsonschema:"maxLength=200"`
	Type     QuestionType         `json:"type"`
	Required bool                 `json:"required"`
	Options  []QuestionOptionView `json:"options,omitempty"`
}

// QuestionOptionView is one choice with its label resolved.
type QuestionOptionView struct {
	Value string `json:"value"`
	Label string `json:"label" jsonschema:"maxLength=80"`
}

// PolicyView is a policy with its summary resolved.
type PolicyView struct {
	Type         PolicyType      `json:"type"`
	Methods      []PaymentMethod `json:"methods,omitempty"`
	Currencies   []string        `json:"currencies,omitempty"`
	Percent      *float64        `json:"percent,omitempty"`
	Free         *bool           `json:"free,omitempty"`
	FreeWithinKm *float64        `json:"freeWithinKm,omitempty"`
	Days         int             `json:"days,omitempty"`
	Price        *PriceView      `json:"price,omitempty"`
	Summary      string          `json:"summary,omitempty" jsonschema:"maxLength=500"`
}

// CredentialView is a credential.
type CredentialView struct {
	ID         string           `json:"id"`
	Type       CredentialType   `json:"type"`
	Name       string           `json:"name" jsonschema:"maxLength=200"`
	Issuer     *Organization    `json:"issuer,omitempty"`
	Status     CredentialStatus `json:"status"`
	ValidFrom  string           `json:"validFrom,omitempty"`
	ValidUntil string           `json:"validUntil,omitempty"`
}

// FAQView is a question and answer in one language.
type FAQView struct {
	Question string `json:"question" jsonschema:"maxLength=300"`
	Answer   string `json:"answer" jsonschema:"maxLength=2000"`
}

// VoiceView is the voice preferences in one language.
type VoiceView struct {
	PreferredName string    `json:"preferredName,omitempty"`
	AvoidNames    []string  `json:"avoidNames,omitempty"`
	Formality     Formality `json:"formality,omitempty"`
	Tone          []string  `json:"tone,omitempty"`
	Tagline       string    `json:"tagline,omitempty" jsonschema:"maxLength=120"`
	Emphasis      []string  `json:"emphasis,omitempty"`
}

// MediaView is an image with its texts resolved.
type MediaView struct {
	ID             string `json:"id"`
	URL            string `json:"url"`
	EncodingFormat string `json:"encodingFormat"`
	Width          int    `json:"width,omitempty"`
	Height         int    `json:"height,omitempty"`
	Caption        string `json:"caption,omitempty" jsonschema:"maxLength=300"`
	Alt            string `json:"alt,omitempty" jsonschema:"maxLength=300"`
}

// BrandKitView is the brand kit: logo and pictures as media views, fonts
// with their CSS stack and self-hosted style sheet (VIEW-28..VIEW-31).
// Each part is there only when the owner gave it.
type BrandKitView struct {
	Logo    *MediaView      `json:"logo,omitempty"`
	Imagery []MediaView     `json:"imagery,omitempty"`
	Colors  *BrandColors    `json:"colors,omitempty"`
	Fonts   *BrandFontsView `json:"fonts,omitempty"`
	Corners Corners         `json:"corners,omitempty"`
}

// BrandFontsView names the fonts for headings and body.
type BrandFontsView struct {
	Headings *FontView `json:"headings,omitempty"`
	Body     *FontView `json:"body,omitempty"`
}

// FontView is a font: its family, a CSS font stack, and the style sheet
// with its @font-face rules on the registry.
type FontView struct {
	Family string `json:"family"`
	Stack  string `json:"stack"`
	CSSURL string `json:"cssUrl"`
}

// Links are the entry's addresses (VIEW-18, VIEW-19).
type Links struct {
	HTML     string `json:"html"`
	Markdown string `json:"markdown,omitempty"`
	JSONLD   string `json:"jsonLd,omitempty"`
	Legal    string `json:"legal,omitempty"`
	Privacy  string `json:"privacy,omitempty"`
}
