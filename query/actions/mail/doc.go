// Package mail is the mail side of action runs: a person confirms a request
// with a code sent by email, and the confirmed request is then delivered by
// email to the business.
//
// Sender is the client half. It takes one Message, with a Message-ID chosen
// by the caller so that a message sent again after a crash is recognisably the
// same message, and delivers it to the SMTP server named by an smtp://,
// smtp+starttls:// or smtps:// URL. Its errors say which step failed (dial,
// tls, greeting, hello, starttls, auth, mail from, rcpt to, data), never carry
// the password, and Permanent tells an outbox which failures are worth
// retrying: only a 5xx reply that refuses this message, or a message that
// cannot be sent at all, is permanent.
//
// Catcher is the server half, for the demo and the tests: an SMTP server on a
// loopback address that accepts every message and files it, byte for byte as
// received, into a Maildir. ReadMaildir and WaitFor read such a Maildir back.
//
// The SMTP protocol itself is library code on both sides: go-mail composes
// and sends, go-smtp and go-sasl receive. This package chooses, checks and
// names; it does not speak SMTP by hand.
package mail
