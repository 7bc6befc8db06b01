package auth

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"syscall"
	"time"
)

// ClientMetadata is what Daawid reads of a Client ID Metadata Document
// (MCP-12): the app names itself by the URL of this document.
type ClientMetadata struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	ClientURI               string   `json:"client_uri,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
}

// The limits of fetching a metadata document: a document is a few
// hundred bytes, and a slow or huge one is an attack on the server.
const (
	maxClientDocument = 5 << 10
	clientFetchTime   = 5 * time.Second
)

// clientFetcher fetches metadata documents, guarded (MCP-12): https only,
// and never to a private, loopback, link-local or otherwise internal
// address, checked on the address actually dialled (after DNS), so a name
// that resolves inside cannot reach in. TestMode allows plain http to
// 127.0.0.1 and loopback addresses, for tests and the demo.
type clientFetcher struct {
	client   *http.Client
	testMode bool
}

func newClientFetcher(testMode bool) *clientFetcher {
	c := GuardedClient(testMode, clientFetchTime, nil)
	// A redirect would let the document's URL differ from the one
	// fetched; the document must be at its client_id.
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &clientFetcher{testMode: testMode, client: c}
}

// GuardedClient is an HTTP client for fetching what an outsider names (a
// client's metadata document, MCP-12; a claim's well-known file, D96): it
// never connects to a private, loopback, link-local or otherwise internal
// address, checked on the address actually dialled (after DNS), so a name
// that resolves inside cannot reach in, and every step is bounded by
// timeout. It follows no redirect. testMode allows loopback addresses
// (tests and the demo); tlsConf, when set, is the TLS configuration (a
// test's own certificate authority).
func GuardedClient(testMode bool, timeout time.Duration, tlsConf *tls.Config) *http.Client {
	d := &net.Dialer{Timeout: timeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("dial %s: not an IP address", address)
		}
		if testMode && ip.IsLoopback() {
			return nil
		}
		if !publicAddr(ip) {
			return fmt.Errorf("dial %s: a private, loopback or link-local address is refused", address)
		}
		return nil
	}}
	tr := &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout,
		MaxResponseHeaderBytes: 8 << 10, DisableKeepAlives: true, Proxy: nil, TLSClientConfig: tlsConf}
	return &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// publicAddr is an address on the public internet.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() &&
		!netip.MustParsePrefix("100.64.0.0/10").Contains(ip) && !netip.MustParsePrefix("fc00::/7").Contains(ip)
}

// checkClientID refuses a client_id that cannot be a metadata document's
// URL: https with a path (MCP-12), or in test mode http on loopback.
func (f *clientFetcher) checkClientID(clientID string) (*url.URL, error) {
	u, err := url.Parse(clientID)
	if err != nil || u.Host == "" || u.Fragment != "" || u.User != nil {
		return nil, errors.New("client_id: must be the https URL of the app's Client ID Metadata Document")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && f.testMode:
		if ip, err := netip.ParseAddr(u.Hostname()); err != nil || !ip.IsLoopback() {
			return nil, errors.New("client_id: plain http is allowed for a loopback address in test mode only")
		}
	default:
		return nil, errors.New("client_id: must be an https URL")
	}
	if u.Path == "" || u.Path == "/" {
		return nil, errors.New("client_id: must name a document by its path, not a bare origin")
	}
	return u, nil
}

// fetch reads and checks the metadata document at clientID.
func (f *clientFetcher) fetch(ctx context.Context, clientID string) (*ClientMetadata, error) {
	if _, err := f.checkClientID(clientID); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, clientFetchTime)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, clientID, nil)
	if err != nil {
		return nil, fmt.Errorf("client_id: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client_id: the metadata document could not be fetched: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("client_id: the metadata document answered %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxClientDocument+1))
	if err != nil {
		return nil, fmt.Errorf("client_id: reading the metadata document: %w", err)
	}
	if len(body) > maxClientDocument {
		return nil, fmt.Errorf("client_id: the metadata document is over %d bytes", maxClientDocument)
	}
	var md ClientMetadata
	if err := json.Unmarshal(body, &md); err != nil {
		return nil, fmt.Errorf("client_id: the metadata document is not JSON of the right shape: %w", err)
	}
	return &md, md.check(clientID)
}

// check holds a document to the rules of MCP-12 and MCP-14.
func (md *ClientMetadata) check(clientID string) error {
	switch {
	case md.ClientID != clientID:
		return errors.New("client_id: the metadata document's client_id is not its own URL")
	case md.ClientName == "":
		return errors.New("client_name: the metadata document names no app")
	case len(md.RedirectURIs) == 0:
		return errors.New("redirect_uris: the metadata document lists none")
	case md.TokenEndpointAuthMethod != "" && md.TokenEndpointAuthMethod != "none":
		return errors.New("token_endpoint_auth_method: only public clients (none) are taken")
	}
	return nil
}

// allows reports whether the document lists redirectURI exactly.
func (md *ClientMetadata) allows(redirectURI string) bool {
	return slices.Contains(md.RedirectURIs, redirectURI)
}
