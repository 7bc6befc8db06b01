package mail

import (
	"errors"
	"fmt"
	netmail "net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	"golang.org/x/text/language"
)

// Message is one email to send. MessageID is set by the caller and kept as
// is, so a message sent again after a crash keeps its Message-ID and the
// receiving side can tell it is the same message.
type Message struct {
	// MessageID is without angle brackets, e.g.
	// "run_01k....delivery@daawid.example".
	MessageID string
	// From is "Daawid <noreply@daawid.example>" or a bare address; it is
	// also the envelope sender.
	From string
	// To is one address, also the one envelope recipient.
	To string
	// ReplyTo is optional.
	ReplyTo string
	Subject string
	// Text is the body, sent as text/plain; charset=utf-8.
	Text string
	// Language is optional, a BCP 47 tag for the Content-Language header.
	Language string
	// Date is required: the time is passed in (ARCHITECTURE 4), never read
	// from the clock here.
	Date time.Time
}

// compose checks m and builds the go-mail message that Send writes. Every
// error here is about the message itself, so sending it again cannot help.
func (m Message) compose() (*gomail.Msg, error) {
	if err := checkMessageID(m.MessageID); err != nil {
		return nil, err
	}
	if m.Date.IsZero() {
		return nil, errors.New("date is missing")
	}
	for _, f := range []struct{ name, value string }{
		{"from", m.From}, {"to", m.To}, {"reply-to", m.ReplyTo}, {"subject", m.Subject}, {"language", m.Language},
	} {
		// A line break in a header value would start a header of its own.
		if strings.ContainsAny(f.value, "\r\n") {
			return nil, fmt.Errorf("%s holds a line break", f.name)
		}
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetDateWithValue(m.Date)
	if err := setAddress(msg.From, "from", m.From); err != nil {
		return nil, err
	}
	if err := setAddress(func(v string) error { return msg.To(v) }, "to", m.To); err != nil {
		return nil, err
	}
	if m.ReplyTo != "" {
		if err := setAddress(msg.ReplyTo, "reply-to", m.ReplyTo); err != nil {
			return nil, err
		}
	}
	msg.Subject(m.Subject)
	if m.Language != "" {
		tag, err := language.Parse(m.Language)
		if err != nil {
			return nil, fmt.Errorf("language %q: %w", m.Language, err)
		}
		msg.SetGenHeader(gomail.HeaderContentLang, tag.String())
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	return msg, nil
}

// setAddress parses one address first with net/mail, so that a list of
// several, which go-mail would accept, is refused: Message has one of each.
func setAddress(set func(string) error, name, value string) error {
	if value == "" {
		return fmt.Errorf("%s is missing", name)
	}
	if _, err := netmail.ParseAddress(value); err != nil {
		return fmt.Errorf("%s %q: %w", name, value, err)
	}
	if err := set(value); err != nil {
		return fmt.Errorf("%s %q: %w", name, value, err)
	}
	return nil
}

// checkMessageID wants the id-left@id-right form of RFC 5322 without the
// angle brackets, which go-mail adds.
func checkMessageID(id string) error {
	if id == "" {
		return errors.New("message id is missing")
	}
	for _, r := range id {
		if r <= ' ' || r >= 0x7f || r == '<' || r == '>' {
			return fmt.Errorf("message id %q: only printable ASCII without spaces or angle brackets", id)
		}
	}
	left, right, ok := strings.Cut(id, "@")
	if !ok || left == "" || right == "" || strings.Contains(right, "@") {
		return fmt.Errorf("message id %q: the form is left@right", id)
	}
	return nil
}
