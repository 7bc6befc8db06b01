package mail

import (
	"errors"
	"fmt"

	gomail "github.com/wneessen/go-mail"
)

// sendError is a failed Send: the step that failed, the server, whether
// sending the same message again can help, and the cause.
type sendError struct {
	// step is one of message, dial, tls, greeting, hello, starttls, auth,
	// mail from, rcpt to, data, or send when go-mail failed otherwise.
	step string
	// addr is the server's host:port, empty when the message never left.
	addr      string
	permanent bool
	err       error
}

func (e *sendError) Error() string {
	if e.addr == "" {
		return fmt.Sprintf("mail %s: %v", e.step, e.err)
	}
	return fmt.Sprintf("smtp %s at %s: %v", e.step, e.addr, e.err)
}

func (e *sendError) Unwrap() error { return e.err }

// Permanent reports whether err, from Send, says that sending the same
// message again cannot succeed, so an outbox should stop retrying it: the
// server answered MAIL FROM, RCPT TO or DATA with a 5xx reply (the address
// or the message is refused), or the message is malformed and never left.
//
// Everything else is temporary: network faults, timeouts, 4xx replies, and
// also failures of TLS, STARTTLS and AUTH. Those last are faults of the
// configuration or of the server, the same for every message, and once they
// are mended the messages waiting in the outbox should still go out.
func Permanent(err error) bool {
	var se *sendError
	return errors.As(err, &se) && se.permanent
}

// refusal turns go-mail's error for MAIL FROM, RCPT TO or DATA into a
// sendError that names the step and knows whether the reply was a 5xx.
func refusal(addr string, err error) *sendError {
	e := &sendError{step: "send", addr: addr, err: err}
	var ge *gomail.SendError
	if !errors.As(err, &ge) {
		return e
	}
	switch ge.Reason {
	case gomail.ErrSMTPMailFrom:
		e.step = "mail from"
	case gomail.ErrSMTPRcptTo:
		e.step = "rcpt to"
	case gomail.ErrSMTPData, gomail.ErrWriteContent, gomail.ErrSMTPDataClose:
		e.step = "data"
	case gomail.ErrGetSender, gomail.ErrGetRcpts, gomail.ErrNoUnencoded:
		// go-mail could not make an envelope of the message; no server
		// will think otherwise.
		e.step = "message"
		e.permanent = true
		return e
	default:
		return e
	}
	code := ge.ErrorCode()
	e.permanent = code >= 500 && code <= 599
	return e
}
