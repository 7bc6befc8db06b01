package check

import (
	"time"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// Request is a request tool's input, decoded and normalised. Its JSON
// names are the contract's, so the flow stores it as JSON and Decode reads
// that JSON back to the same Request.
type Request struct {
	Kind           schemas.ActionType `json:"-"`
	Entry          string             `json:"entry,omitempty"`
	ActionID       string             `json:"actionId,omitempty"`
	Requester      Requester          `json:"requester,omitzero"`
	Answers        map[string]any     `json:"answers,omitempty"`
	IdempotencyKey string             `json:"idempotencyKey,omitempty"`
	OfferingID     string             `json:"offeringId,omitempty"`
	Description    string             `json:"description,omitempty"`
	PostalCode     string             `json:"postalCode,omitempty"`
	DesiredTiming  string             `json:"desiredTiming,omitempty"`
	Budget         *Budget            `json:"budget,omitempty"`
	Topic          string             `json:"topic,omitempty"`
	PreferredTimes []TimeRange        `json:"preferredTimes,omitempty"`
	Purpose        string             `json:"purpose,omitempty"`
	PreferredSlots []TimeRange        `json:"preferredSlots,omitempty"`
	Subject        string             `json:"subject,omitempty"`
	Message        string             `json:"message,omitempty"`
}

// Requester is the person asking (ACT-01): the phone number in E.164.
type Requester struct {
	Name             string `json:"name,omitempty"`
	Email            string `json:"email,omitempty"`
	Phone            string `json:"phone,omitempty"`
	PreferredChannel string `json:"preferredChannel,omitempty"`
	Language         string `json:"language,omitempty"`
}

// Budget is the most the person will spend: Max with two decimals, the
// currency in capitals (ACT-18).
type Budget struct {
	Max      string `json:"max,omitempty"`
	Currency string `json:"currency,omitempty"`
}

// TimeRange is a window of time, both ends RFC 3339 with seconds and an
// offset (ACT-17).
type TimeRange struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// Env is what Resolve and Summary need besides the entry and the request.
type Env struct {
	// Now is the request's instant; times must not be over at it (ACT-20).
	Now time.Time
	// Places finds postal codes and towns; nil knows no place, so every
	// service area check goes through (ACT-32).
	Places *places.Gazetteer
	// Site makes the links the answers name (the privacy notice, the
	// entry's page).
	Site render.Site
}
