package schemas

// SchemaVersion is the version of the open format this package implements
// (PRIV-01).
const SchemaVersion = "0.1"

// Entry is one revision of a PublicEntry (ENTRY-MODEL §2): what the owner
// declares, or, while unclaimed, what the registry compiled from public
// sources. Field order follows the model; JSON names are the open format's.
type Entry struct {
	SchemaVersion   string         `json:"schemaVersion" jsonschema:"const=0.1"`
	ID              string         `json:"id"`
	Slug            string         `json:"slug"`
	Kind            EntryKind      `json:"kind"`
	Status          EntryStatus    `json:"status"`
	Listed          bool           `json:"listed"`
	DefaultLanguage string         `json:"defaultLanguage"`
	Languages       []string       `json:"languages"`
	Record          Record         `json:"record"`
	Verification    Verification   `json:"verification"`
	DisplayName     string         `json:"displayName"`
	AlternateNames  []string       `json:"alternateNames,omitempty"`
	Summary         Text[Max300]   `json:"summary"`
	Description     Text[Max5000]  `json:"description,omitempty"`
	Categories      []string       `json:"categories"`
	NACECodes       []string       `json:"naceCodes,omitempty"`
	FoundingYear    int            `json:"foundingYear,omitempty"`
	Employees       EmployeesRange `json:"employees,omitempty"`
	LanguagesSpoken []string       `json:"languagesSpoken,omitempty"`
	Domains         []Domain       `json:"domains,omitempty"`
	Profiles        []string       `json:"profiles,omitempty"`

	Locations         []Location   `json:"locations,omitempty"`
	PrimaryLocationID string       `json:"primaryLocationId,omitempty"`
	ServiceArea       *ServiceArea `json:"serviceArea,omitempty"`

	ContactPoints []ContactPoint `json:"contactPoints,omitempty"`
	Routing       []RoutingRule  `json:"routing,omitempty"`
	AgentPolicy   *AgentPolicy   `json:"agentPolicy,omitempty"`

	Offerings   []Offering   `json:"offerings,omitempty"`
	Actions     []Action     `json:"actions,omitempty"`
	Capacity    *Capacity    `json:"capacity,omitempty"`
	Policies    []Policy     `json:"policies,omitempty"`
	Credentials []Credential `json:"credentials,omitempty"`
	FAQs        []FAQ        `json:"faqs,omitempty"`

	Voice *Voice  `json:"voice,omitempty"`
	Media []Media `json:"media,omitempty"`
	Brand *Brand  `json:"brand,omitempty"`

	Operator      *Operator      `json:"operator,omitempty"`
	PrivacyNotice *PrivacyNotice `json:"privacyNotice,omitempty"`

	Provenance []Provenance `json:"provenance"`
}

// Record is the revision metadata.
type Record struct {
	Revision        int    `json:"revision" jsonschema:"minimum=1"`
	CreatedAt       string `json:"createdAt"`
	UpdatedAt       string `json:"updatedAt"`
	LastConfirmedAt string `json:"lastConfirmedAt,omitempty"`
	// OpenReportAt is when the oldest abuse report still open was made; while
	// set, the HTML page of an entry below level domain is noindex (HTTP-24).
	OpenReportAt string `json:"openReportAt,omitempty"`
}

// Verification says what Daawid checked about who runs the entry.
type Verification struct {
	Level              VerificationLevel `json:"level"`
	Domains            []DomainCheck     `json:"domains"`
	ContactConfirmedAt string            `json:"contactConfirmedAt,omitempty"`
	LapsedAt           string            `json:"lapsedAt,omitempty"`
}

// DomainCheck is the state of one website's domain verification.
type DomainCheck struct {
	Host          string       `json:"host"`
	Status        DomainStatus `json:"status"`
	Method        DomainMethod `json:"method"`
	VerifiedAt    string       `json:"verifiedAt,omitempty"`
	LastCheckedAt string       `json:"lastCheckedAt,omitempty"`
	// GraceUntil ends the grace period of a domain whose re-check failed; the
	// entry stays verified until then (decision D7).
	GraceUntil string `json:"graceUntil,omitempty"`
}

// Domain is a website the entry names; verification is recorded separately.
type Domain struct {
	Host    string `json:"host"`
	Primary bool   `json:"primary,omitempty"`
}

// Location is a place where the entry can be found.
type Location struct {
	ID              string           `json:"id"`
	Name            string           `json:"name,omitempty"`
	Address         Address          `json:"address"`
	AddressDisplay  AddressDisplay   `json:"addressDisplay"`
	Geo             *Geo             `json:"geo,omitempty"`
	TimeZone        string           `json:"timeZone,omitempty"`
	Visits          Visits           `json:"visits,omitempty"`
	Hours           []HoursRule      `json:"hours,omitempty"`
	HoursExceptions []HoursException `json:"hoursExceptions,omitempty"`
}

// Address is a postal address; Street and Extra are never shown when the
// location is shown at locality level (I15).
type Address struct {
	Street     string `json:"street,omitempty"`
	Extra      string `json:"extra,omitempty"`
	PostalCode string `json:"postalCode,omitempty"`
	Locality   string `json:"locality"`
	Region     string `json:"region,omitempty"`
	Country    string `json:"country"`
}

// Geo is a WGS 84 point.
type Geo struct {
	Lat float64 `json:"lat" jsonschema:"minimum=-90,maximum=90"`
	Lng float64 `json:"lng" jsonschema:"minimum=-180,maximum=180"`
}

// HoursRule is one line of opening hours: the days it covers, and either
// opens/closes or closed. Closes before opens means the range ends the next
// day (decision D9); split shifts are two rules with the same days.
type HoursRule struct {
	Days   []DayOfWeek `json:"days"`
	Opens  string      `json:"opens,omitempty"`
	Closes string      `json:"closes,omitempty"`
	Closed bool        `json:"closed,omitempty"`
}

// HoursException changes the hours for a range of dates (inclusive).
type HoursException struct {
	From   string       `json:"from"`
	To     string       `json:"to"`
	Closed bool         `json:"closed,omitempty"`
	Opens  string       `json:"opens,omitempty"`
	Closes string       `json:"closes,omitempty"`
	Note   Text[Max120] `json:"note,omitempty"`
}

// ServiceArea is where the entry works besides its locations.
type ServiceArea struct {
	Radius   *ServiceRadius `json:"radius,omitempty"`
	Places   []ServicePlace `json:"places,omitempty"`
	Anywhere bool           `json:"anywhere,omitempty"`
}

// ServiceRadius is a circle around a location or a named point.
type ServiceRadius struct {
	Km     float64      `json:"km" jsonschema:"minimum=1,maximum=500"`
	Center RadiusCenter `json:"center"`
}

// RadiusCenter is either a location of the entry or a named point.
type RadiusCenter struct {
	LocationID string `json:"locationId,omitempty"`
	Place      string `json:"place,omitempty"`
	Geo        *Geo   `json:"geo,omitempty"`
}

// ServicePlace is a named place served.
type ServicePlace struct {
	Type       ServicePlaceType `json:"type"`
	Name       string           `json:"name"`
	Country    string           `json:"country,omitempty"`
	GeonamesID int              `json:"geonamesId,omitempty"`
}

// ContactPoint is a way to reach the entry. Private contact points are kept
// for the owner and never projected (VIEW-05).
type ContactPoint struct {
	ID           string            `json:"id"`
	Name         string            `json:"name"`
	Visibility   ContactVisibility `json:"visibility"`
	Purposes     []ContactPurpose  `json:"purposes,omitempty"`
	Phone        string            `json:"phone,omitempty"`
	Email        string            `json:"email,omitempty"`
	Languages    []string          `json:"languages,omitempty"`
	Hours        []HoursRule       `json:"hours,omitempty"`
	ResponseTime string            `json:"responseTime,omitempty"`
}

// RoutingRule says where a kind of request should go; exactly one of
// RouteTo and Decline.
type RoutingRule struct {
	Audience RoutingAudience `json:"audience"`
	Intent   RoutingIntent   `json:"intent"`
	RouteTo  string          `json:"routeTo,omitempty"`
	Decline  bool            `json:"decline,omitempty"`
	Note     Text[Max200]    `json:"note,omitempty"`
}

// AgentPolicy states how AI agents should approach the entry.
type AgentPolicy struct {
	AgentRequests       AgentRequests       `json:"agentRequests"`
	UnsolicitedOutreach UnsolicitedOutreach `json:"unsolicitedOutreach"`
	AgentsMustDisclose  bool                `json:"agentsMustDisclose"`
}

// Offering is a service or product.
type Offering struct {
	ID           string         `json:"id"`
	Kind         OfferingKind   `json:"kind"`
	Name         Text[Max120]   `json:"name"`
	ShortName    Text[Max60]    `json:"shortName,omitempty"`
	Description  Text[Max2000]  `json:"description,omitempty"`
	Category     string         `json:"category,omitempty"`
	Audience     Audience       `json:"audience"`
	Price        *Price         `json:"price,omitempty"`
	LeadTime     *DurationRange `json:"leadTime,omitempty"`
	Availability Availability   `json:"availability,omitempty"`
	ServiceArea  *ServiceArea   `json:"serviceArea,omitempty"`
	MediaIDs     []string       `json:"mediaIds,omitempty"`
}

// Price is an amount of money with its kind, currency, tax and unit.
type Price struct {
	Kind        PriceKind    `json:"kind"`
	Amount      string       `json:"amount,omitempty"`
	Min         string       `json:"min,omitempty"`
	Max         string       `json:"max,omitempty"`
	Currency    string       `json:"currency,omitempty"`
	Unit        PriceUnit    `json:"unit,omitempty"`
	VATIncluded *bool        `json:"vatIncluded,omitempty"`
	Note        Text[Max200] `json:"note,omitempty"`
}

// DurationRange is a range of ISO 8601 durations; Max is optional.
type DurationRange struct {
	Min string `json:"min"`
	Max string `json:"max,omitempty"`
}

// Action is a request the entry takes through Daawid.
type Action struct {
	ID               string         `json:"id"`
	Type             ActionType     `json:"type"`
	Name             Text[Max80]    `json:"name"`
	Enabled          bool           `json:"enabled"`
	OfferingIDs      []string       `json:"offeringIds,omitempty"`
	RequireFields    []RequireField `json:"requireFields,omitempty"`
	Questions        []Question     `json:"questions,omitempty"`
	ServiceAreaOnly  bool           `json:"serviceAreaOnly,omitempty"`
	ExpectedResponse string         `json:"expectedResponse,omitempty"`
	WebForm          bool           `json:"webForm,omitempty"`
	// Delivery is private: where a confirmed request goes. It is never
	// projected (decision D15).
	Delivery *Delivery `json:"delivery,omitempty"`
}

// Handoff reports whether the action hands the person over to the
// business's own system instead of holding a request (§7.6 step 5).
func (a Action) Handoff() bool { return a.Delivery != nil && a.Delivery.Mode == DeliveryHandoff }

// Delivery says where a confirmed request goes.
type Delivery struct {
	Mode  DeliveryMode `json:"mode"`
	Email string       `json:"email,omitempty"`
	URL   string       `json:"url,omitempty"`
}

// Question is a custom question of an action.
type Question struct {
	Key      string           `json:"key" jsonschema:"pattern=^[a-z][a-z0-9_]{1\\,39}$"`
	Label    Text[Max200]     `json:"label"`
	Type     QuestionType     `json:"type"`
	Required bool             `json:"required"`
	Options  []QuestionOption `json:"options,omitempty"`
}

// QuestionOption is one choice of a choice question.
type QuestionOption struct {
	Value string      `json:"value"`
	Label Text[Max80] `json:"label"`
}

// Capacity is the volatile statement of how much work the entry takes on.
// It expires at ExpiresAt (I7) and is then removed from every projection.
type Capacity struct {
	Status            CapacityStatus `json:"status"`
	NextAvailableFrom string         `json:"nextAvailableFrom,omitempty"`
	LeadTime          *DurationRange `json:"leadTime,omitempty"`
	Note              Text[Max280]   `json:"note,omitempty"`
	AsOf              string         `json:"asOf"`
	ExpiresAt         string         `json:"expiresAt"`
}

// Policy is one business policy; which fields apply depends on Type.
type Policy struct {
	Type         PolicyType      `json:"type"`
	Methods      []PaymentMethod `json:"methods,omitempty"`
	Currencies   []string        `json:"currencies,omitempty"`
	Percent      *float64        `json:"percent,omitempty"`
	Free         *bool           `json:"free,omitempty"`
	FreeWithinKm *float64        `json:"freeWithinKm,omitempty"`
	Days         int             `json:"days,omitempty"`
	Price        *Price          `json:"price,omitempty"`
	Summary      Text[Max500]    `json:"summary,omitempty"`
}

// Credential is a qualification, licence, membership or award.
type Credential struct {
	ID         string           `json:"id"`
	Type       CredentialType   `json:"type"`
	Name       string           `json:"name"`
	Issuer     *Organization    `json:"issuer,omitempty"`
	Status     CredentialStatus `json:"status"`
	ValidFrom  string           `json:"validFrom,omitempty"`
	ValidUntil string           `json:"validUntil,omitempty"`
}

// Organization is a named organization with an optional website.
type Organization struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// FAQ is a question and its answer.
type FAQ struct {
	Question Text[Max300]  `json:"question"`
	Answer   Text[Max2000] `json:"answer"`
}

// Voice holds the owner's stated preferences for how the entry is
// described; they are data, never instructions (PRIV-12).
type Voice struct {
	PreferredName string         `json:"preferredName,omitempty"`
	AvoidNames    []string       `json:"avoidNames,omitempty"`
	Formality     Formality      `json:"formality,omitempty"`
	Tone          []string       `json:"tone,omitempty"`
	Tagline       Text[Max120]   `json:"tagline,omitempty"`
	Emphasis      []Text[Max120] `json:"emphasis,omitempty"`
}

// Media is an image hosted by Daawid.
type Media struct {
	ID             string       `json:"id"`
	URL            string       `json:"url"`
	EncodingFormat string       `json:"encodingFormat"`
	Width          int          `json:"width,omitempty"`
	Height         int          `json:"height,omitempty"`
	Caption        Text[Max300] `json:"caption,omitempty"`
	Alt            Text[Max300] `json:"alt,omitempty"`
}

// Brand is the entry's visual identity.
type Brand struct {
	Logo    string       `json:"logo,omitempty"`
	Imagery []string     `json:"imagery,omitempty"`
	Colors  *BrandColors `json:"colors,omitempty"`
	Fonts   *BrandFonts  `json:"fonts,omitempty"`
	Corners Corners      `json:"corners,omitempty"`
}

// BrandColors are hex colours #RRGGBB.
type BrandColors struct {
	Primary   string `json:"primary,omitempty"`
	OnPrimary string `json:"onPrimary,omitempty"`
	Accent    string `json:"accent,omitempty"`
	Surface   string `json:"surface,omitempty"`
	Text      string `json:"text,omitempty"`
}

// BrandFonts names the font families for headings and body text.
type BrandFonts struct {
	Headings *FontRef `json:"headings,omitempty"`
	Body     *FontRef `json:"body,omitempty"`
}

// FontRef names a font family Daawid hosts.
type FontRef struct {
	Family string `json:"family"`
}

// Operator is the legal operator block (entry-schema §4.3): who is legally
// responsible. Its presence makes the entry "commercial" and renders the
// legal section (MD-36).
type Operator struct {
	LegalName                 string            `json:"legalName"`
	LegalForm                 string            `json:"legalForm,omitempty"`
	Address                   Address           `json:"address"`
	Register                  *Register         `json:"register,omitempty"`
	VATID                     string            `json:"vatId,omitempty"`
	EconomicID                string            `json:"economicId,omitempty"`
	Representatives           []Representative  `json:"representatives,omitempty"`
	Contact                   *OperatorContact  `json:"contact,omitempty"`
	Profession                *Profession       `json:"profession,omitempty"`
	ConsumerDisputeResolution DisputeResolution `json:"consumerDisputeResolution,omitempty"`
}

// Register is an entry in a public company register.
type Register struct {
	Type    string `json:"type"`
	Court   string `json:"court,omitempty"`
	Section string `json:"section,omitempty"`
	Number  string `json:"number"`
}

// Representative is a person who legally represents the operator.
type Representative struct {
	Name  string             `json:"name"`
	Role  RepresentativeRole `json:"role"`
	Title string             `json:"title,omitempty"`
}

// OperatorContact is the legal contact of the operator.
type OperatorContact struct {
	Email string `json:"email,omitempty"`
	Phone string `json:"phone,omitempty"`
}

// Profession is a regulated profession (§5 DDG).
type Profession struct {
	Title     string         `json:"title"`
	AwardedIn string         `json:"awardedIn"`
	Chamber   *Organization  `json:"chamber,omitempty"`
	Rules     []Organization `json:"rules,omitempty"`
}

// PrivacyNotice is hosted by Daawid or on the owner's site.
type PrivacyNotice struct {
	Mode PrivacyMode    `json:"mode"`
	URL  string         `json:"url,omitempty"`
	Text Text[Max50000] `json:"text,omitempty"`
}

// Provenance says who asserted the facts under Path, and when.
type Provenance struct {
	Path          string           `json:"path"`
	Source        ProvenanceSource `json:"source"`
	ObservedAt    string           `json:"observedAt"`
	Reference     string           `json:"reference,omitempty"`
	ReferenceKind ReferenceKind    `json:"referenceKind,omitempty"`
}
