package mail

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
)

// tlsMode says how the connection to the SMTP server is encrypted.
type tlsMode int

const (
	// tlsOpportunistic (smtp://) upgrades with STARTTLS when the server
	// offers it and goes on in plain text when it does not.
	tlsOpportunistic tlsMode = iota
	// tlsRequired (smtp+starttls://) fails unless STARTTLS succeeds.
	tlsRequired
	// tlsImplicit (smtps://) speaks TLS from the first byte.
	tlsImplicit
)

// endpoint is what an SMTP URL says: where to connect, how to encrypt and
// whom to log in as.
type endpoint struct {
	mode     tlsMode
	host     string // without brackets, also the TLS server name
	port     int
	user     string
	password string
	// insecure skips certificate verification; it exists for loopback tests
	// with a certificate made on the spot.
	insecure bool
}

func (e endpoint) addr() string { return net.JoinHostPort(e.host, strconv.Itoa(e.port)) }

// parseSMTPURL reads smtp://[user[:pass]@]host:port[?insecure=1] and its
// smtp+starttls:// and smtps:// siblings.
//
// No error quotes any part of the URL after the scheme. A password that holds
// an unescaped "/", "?", "#" or "@" shifts the URL's parts, so that what the
// parser takes for a port, a path or a query key can be a piece of the
// password; naming the faulty part without showing it keeps the password out
// of logs.
func parseSMTPURL(raw string) (endpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return endpoint{}, fmt.Errorf("smtp url: %s (a user or password holding / ? # @ : or %% must be percent-encoded)", parseFault(err))
	}
	var e endpoint
	switch u.Scheme {
	case "smtp":
		e.mode = tlsOpportunistic
	case "smtp+starttls":
		e.mode = tlsRequired
	case "smtps":
		e.mode = tlsImplicit
	default:
		return endpoint{}, fmt.Errorf("smtp url: scheme %q is not smtp, smtp+starttls or smtps", u.Scheme)
	}
	if u.Opaque != "" {
		return endpoint{}, errors.New("smtp url: host is missing (the form is scheme://host:port)")
	}
	if e.host = u.Hostname(); e.host == "" {
		return endpoint{}, errors.New("smtp url: host is missing")
	}
	port := u.Port()
	if port == "" {
		return endpoint{}, errors.New("smtp url: port is missing")
	}
	if e.port, err = strconv.Atoi(port); err != nil || e.port < 1 || e.port > 65535 {
		return endpoint{}, errors.New("smtp url: port is not a number from 1 to 65535")
	}
	if u.User != nil {
		e.user = u.User.Username()
		e.password, _ = u.User.Password()
		if e.user == "" {
			return endpoint{}, errors.New("smtp url: user is empty")
		}
	}
	if u.Path != "" && u.Path != "/" {
		return endpoint{}, errors.New("smtp url: a path is not allowed")
	}
	if u.Fragment != "" {
		return endpoint{}, errors.New("smtp url: a fragment is not allowed")
	}
	if e.insecure, err = parseQuery(u.RawQuery); err != nil {
		return endpoint{}, err
	}
	return e, nil
}

// parseQuery reads the one query parameter there is, insecure.
func parseQuery(raw string) (insecure bool, err error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return false, fmt.Errorf("smtp url: query: %s", parseFault(err))
	}
	for key, values := range q {
		if key != "insecure" {
			return false, errors.New("smtp url: unknown query parameter (insecure is the only one)")
		}
		if len(values) != 1 {
			return false, errors.New("smtp url: insecure is given more than once")
		}
		if insecure, err = strconv.ParseBool(values[0]); err != nil {
			return false, errors.New("smtp url: insecure must be 0, 1, true or false")
		}
	}
	return insecure, nil
}

// parseFault is a url or query parse error without the piece of input it
// quotes (see parseSMTPURL for why).
func parseFault(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // url.Error repeats the whole URL, password included
	}
	quoted := regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	return quoted.ReplaceAllString(err.Error(), "(hidden)")
}
