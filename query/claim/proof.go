// Package claim lets a person prove control of an entry's domain and
// become its owner (HTTP-34): by a code mailed to an address at the
// domain, by a DNS TXT record, or by a file at a well-known path of the
// domain's website (decision D96).
package claim

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// The places a proof is looked for. The TXT record sits on the domain
// itself, as the big verifiers put theirs, so an owner adds one record
// beside those; the file sits under /.well-known/ (RFC 8615).
const (
	TXTPrefix = "daawid-verification="
	FilePath  = "/.well-known/daawid-verification.txt"
	// maxFile is more than a file holding a token needs; a bigger answer
	// is not read.
	maxFile = 4 << 10
)

// ErrNotFound says the proof was not where it was looked for.
var ErrNotFound = errors.New("the proof was not found")

// CheckDNS looks for the token in the TXT records of host, through the
// resolver given (nil: the system's).
func CheckDNS(ctx context.Context, r *net.Resolver, host, token string) error {
	if r == nil {
		r = net.DefaultResolver
	}
	txts, err := r.LookupTXT(ctx, host)
	if err != nil {
		var de *net.DNSError
		if errors.As(err, &de) && de.IsNotFound {
			return fmt.Errorf("%w: %s has no TXT record", ErrNotFound, host)
		}
		return fmt.Errorf("DNS lookup of %s: %w", host, err)
	}
	for _, t := range txts {
		if v, ok := strings.CutPrefix(strings.TrimSpace(t), TXTPrefix); ok && same(v, token) {
			return nil
		}
	}
	return fmt.Errorf("%w: no TXT record of %s says %s…", ErrNotFound, host, TXTPrefix)
}

// CheckFile fetches https://{host}/.well-known/daawid-verification.txt
// with the client given, which must guard where it connects (no private
// addresses in production) and bound the time; the file's first line must
// be the token.
func CheckFile(ctx context.Context, c *http.Client, scheme, host, token string) error {
	if scheme == "" {
		scheme = "https"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, scheme+"://"+host+FilePath, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("fetching %s%s: %w", host, FilePath, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s%s answered %d", ErrNotFound, host, FilePath, resp.StatusCode)
	}
	line, err := bufio.NewReader(io.LimitReader(resp.Body, maxFile)).ReadString('\n')
	if err != nil && err != io.EOF {
		return fmt.Errorf("reading %s%s: %w", host, FilePath, err)
	}
	if !same(strings.TrimSpace(strings.TrimPrefix(line, "\ufeff")), token) {
		return fmt.Errorf("%w: %s%s does not hold the value for this claim", ErrNotFound, host, FilePath)
	}
	return nil
}

// same compares in constant time: a token is a secret until it is placed.
func same(a, b string) bool {
	return len(b) > 0 && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
