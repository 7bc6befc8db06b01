package schemas

import (
	"reflect"
	"slices"
)

// Enums are open (PRIV-08/09): each is a string type, any value decodes, and
// Known reports whether this version of the schema defines it. Validate (the
// write-time check) refuses unknown values; renderers skip or show unknown
// values as their raw token, never fail.
var enumValues = map[reflect.Type][]string{}

func enum[T ~string](values ...T) []T {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	enumValues[reflect.TypeFor[T]()] = s
	return values
}

// Known reports whether v is a value this version of the schema defines.
func Known[T ~string](v T) bool {
	return slices.Contains(enumValues[reflect.TypeFor[T]()], string(v))
}

// EnumValues returns the defined values of an enum type, in definition order,
// or nil if t is not an enum type.
func EnumValues(t reflect.Type) []string { return enumValues[t] }

type (
	EntryKind           string
	EntryStatus         string
	VerificationLevel   string
	DomainStatus        string
	DomainMethod        string
	AddressDisplay      string
	Visits              string
	DayOfWeek           string
	ServicePlaceType    string
	ContactVisibility   string
	ContactPurpose      string
	RoutingAudience     string
	RoutingIntent       string
	AgentRequests       string
	UnsolicitedOutreach string
	OfferingKind        string
	Audience            string
	Availability        string
	PriceKind           string
	PriceUnit           string
	ActionType          string
	RequireField        string
	QuestionType        string
	DeliveryMode        string
	CapacityStatus      string
	PolicyType          string
	PaymentMethod       string
	CredentialType      string
	CredentialStatus    string
	EmployeesRange      string
	Formality           string
	Corners             string
	PrivacyMode         string
	ProvenanceSource    string
	ReferenceKind       string
	RepresentativeRole  string
	DisputeResolution   string
	SectionKey          string
)

const (
	KindPerson       EntryKind = "person"
	KindOrganization EntryKind = "organization"

	StatusUnclaimed EntryStatus = "unclaimed"
	StatusPublished EntryStatus = "published"
	StatusVerified  EntryStatus = "verified"
	StatusLapsed    EntryStatus = "lapsed"
	StatusSuspended EntryStatus = "suspended"

	LevelNone     VerificationLevel = "none"
	LevelContact  VerificationLevel = "contact"
	LevelDomain   VerificationLevel = "domain"
	LevelBusiness VerificationLevel = "business"
	LevelIdentity VerificationLevel = "identity"

	DomainVerified DomainStatus = "verified"
	DomainGrace    DomainStatus = "grace"
	DomainLapsed   DomainStatus = "lapsed"
	DomainPending  DomainStatus = "pending"
	DomainFailed   DomainStatus = "failed"

	DisplayFull         AddressDisplay = "full"
	DisplayLocalityOnly AddressDisplay = "locality_only"

	PriceFixed     PriceKind = "fixed"
	PriceFrom      PriceKind = "from"
	PriceRange     PriceKind = "range"
	PriceOnRequest PriceKind = "on_request"

	ActionRequestQuote       ActionType = "request_quote"
	ActionRequestCallback    ActionType = "request_callback"
	ActionRequestAppointment ActionType = "request_appointment"
	ActionSendMessage        ActionType = "send_message"

	RequirePhone         RequireField = "phone"
	RequirePostalCode    RequireField = "postal_code"
	RequireDesiredTiming RequireField = "desired_timing"
	RequireBudget        RequireField = "budget"
	RequirePhotos        RequireField = "photos"

	QuestionBoolean QuestionType = "boolean"
	QuestionText    QuestionType = "text"
	QuestionNumber  QuestionType = "number"
	QuestionChoice  QuestionType = "choice"

	DeliveryEmail   DeliveryMode = "email"
	DeliveryHandoff DeliveryMode = "handoff"

	PolicyPayment      PolicyType = "payment"
	PolicyDeposit      PolicyType = "deposit"
	PolicyEstimates    PolicyType = "estimates"
	PolicyTravelCosts  PolicyType = "travel_costs"
	PolicyWarranty     PolicyType = "warranty"
	PolicyCancellation PolicyType = "cancellation"
	PolicyReturns      PolicyType = "returns"
	PolicyMinimumOrder PolicyType = "minimum_order"

	CredentialMembership CredentialType = "membership"
	CredentialAward      CredentialType = "award"

	PrivacyHosted   PrivacyMode = "hosted"
	PrivacyExternal PrivacyMode = "external"

	SourceRegister ProvenanceSource = "register"
	SourceOwner    ProvenanceSource = "owner"
	SourceWebsite  ProvenanceSource = "website"
	SourceDaawid   ProvenanceSource = "daawid"
)

// SectionKeys lists the view sections in markdown order (MD-17, TOOL
// SectionKey).
var SectionKeys = enum[SectionKey]("facts", "offerings", "capacity", "hours", "contact", "actions",
	"policies", "credentials", "faqs", "voice", "brand", "legal")

var (
	_ = enum(KindPerson, KindOrganization)
	_ = enum(StatusUnclaimed, StatusPublished, StatusVerified, StatusLapsed, StatusSuspended)
	_ = enum(LevelNone, LevelContact, LevelDomain, LevelBusiness, LevelIdentity)
	_ = enum(DomainVerified, DomainGrace, DomainLapsed, DomainPending, DomainFailed)
	_ = enum[DomainMethod]("dns_txt", "well_known_file", "meta_tag")
	_ = enum(DisplayFull, DisplayLocalityOnly)
	_ = enum[Visits]("walk_in", "appointment_only", "no_visits")
	// DaysOfWeek in calendar order from Monday (ISO 8601).
	DaysOfWeek = enum[DayOfWeek]("mon", "tue", "wed", "thu", "fri", "sat", "sun")
	_          = enum[ServicePlaceType]("city", "administrative_area", "country")
	_          = enum[ContactVisibility]("public", "private")
	_          = enum[ContactPurpose]("general", "quotes", "complaints", "jobs", "support", "sales", "billing", "press", "bookings")
	_          = enum[RoutingAudience]("consumer", "business", "job_seeker", "supplier", "press", "partner", "any")
	_          = enum[RoutingIntent]("quote", "question", "booking", "support", "billing", "complaint", "job", "press", "partnership", "sales_pitch")
	_          = enum[AgentRequests]("allowed", "via_actions_only", "not_allowed")
	_          = enum[UnsolicitedOutreach]("allowed", "no_sales", "none")
	_          = enum[OfferingKind]("service", "product")
	_          = enum[Audience]("all", "consumer", "business")
	_          = enum[Availability]("in_stock")
	_          = enum(PriceFixed, PriceFrom, PriceRange, PriceOnRequest)
	_          = enum[PriceUnit]("hour", "day", "piece", "metre", "square_metre", "cubic_metre", "kilogram", "kilometre", "month")
	// ActionTypes in the order the MCP server lists their tools (§7.5).
	ActionTypes = enum(ActionRequestQuote, ActionRequestCallback, ActionRequestAppointment, ActionSendMessage)
	_           = enum(RequirePhone, RequirePostalCode, RequireDesiredTiming, RequireBudget, RequirePhotos)
	_           = enum(QuestionBoolean, QuestionText, QuestionNumber, QuestionChoice)
	_           = enum(DeliveryEmail, DeliveryHandoff)
	_           = enum[CapacityStatus]("accepting", "limited", "waitlist", "not_accepting")
	_           = enum(PolicyPayment, PolicyDeposit, PolicyEstimates, PolicyTravelCosts, PolicyWarranty, PolicyCancellation, PolicyReturns, PolicyMinimumOrder)
	_           = enum[PaymentMethod]("cash", "bank_transfer", "invoice", "girocard", "card", "credit_card", "debit_card", "paypal", "sepa_direct_debit", "apple_pay", "google_pay", "cheque")
	_           = enum[CredentialType]("master_craftsman", "certification", "license", "trade_registration", CredentialMembership, CredentialAward)
	_           = enum[CredentialStatus]("self_declared", "verified")
	_           = enum[EmployeesRange]("1", "2-9", "10-49", "50-249", "250-999", "1000+")
	_           = enum[Formality]("formal", "informal")
	_           = enum[Corners]("square", "soft", "round")
	_           = enum(PrivacyHosted, PrivacyExternal)
	_           = enum(SourceRegister, SourceOwner, SourceWebsite, SourceDaawid)
	_           = enum[ReferenceKind]("impressum")
	_           = enum[RepresentativeRole]("managing_director", "owner", "board_member", "partner", "authorised_officer")
	_           = enum[DisputeResolution]("not_willing_not_obliged", "willing", "obliged")
)
