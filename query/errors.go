package query

import (
	"errors"
	"fmt"

	"github.com/daawid/registry/schemas"
)

// The error codes of §7.8, an append-only registry. REST and MCP answer
// the same code for the same mistake (REST-01); each face maps it to its
// status (REST-30) or tool error.
const (
	CodeNotFound           = "not_found"
	CodeGone               = "gone"
	CodeInvalidInput       = "invalid_input"
	CodeActionUnavailable  = "action_unavailable"
	CodeOutsideServiceArea = "outside_service_area"
	CodeDeclinedByBusiness = "declined_by_business"
	CodeRateLimited        = "rate_limited"
	CodeConfirmationExpire = "confirmation_expired"
	CodeSignInRequired     = "sign_in_required"
	CodeChangedSince       = "changed_since"
	CodeNotLive            = "not_live"
	CodeNotAllowed         = "not_allowed"
	CodeUnavailable        = "unavailable"
)

// Error is a read's answer when there is no entry to give: a contract
// code, a message for the caller that names the field, and for
// invalid_input each mistake by its field (REST-29).
type Error struct {
	Code              string
	Message           string
	Issues            []Issue
	RetryAfterSeconds int
}

// Issue is one mistake in an input: the field (or REST parameter) and
// what is wrong with it.
type Issue = schemas.FieldIssue

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// AsError finds the *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func notFound(format string, args ...any) *Error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf(format, args...)}
}

// invalid collects the mistakes of one input; err is nil when there are
// none. The message names every field.
type invalid []Issue

func (v *invalid) add(field, format string, args ...any) {
	*v = append(*v, Issue{Field: field, Message: fmt.Sprintf(format, args...)})
}

// InvalidInput is the invalid_input error of these mistakes, its message
// naming every field (nil when there are none).
func InvalidInput(issues []Issue) error { return invalid(issues).err() }

func (v invalid) err() error {
	if len(v) == 0 {
		return nil
	}
	msg := ""
	for i, is := range v {
		if i > 0 {
			msg += "; "
		}
		msg += is.Field + ": " + is.Message
	}
	return &Error{Code: CodeInvalidInput, Message: msg, Issues: v}
}
