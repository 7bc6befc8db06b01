package mail

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// testTLS makes a self-signed certificate for 127.0.0.1, ::1 and localhost
// with the standard library, and returns the catcher's TLS settings and the
// pool a Sender trusts it with.
func testTLS(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "catcher test"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	server := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}},
		MinVersion:   tls.VersionTLS12,
	}
	return server, roots
}

// startCatcher starts a catcher on loopback into a fresh Maildir and closes
// it when the test ends.
func startCatcher(t *testing.T, opt CatcherOptions) *Catcher {
	t.Helper()
	c, err := StartCatcher("127.0.0.1:0", filepath.Join(t.TempDir(), "Maildir"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// newSender is NewSender that fails the test on error.
func newSender(t *testing.T, url string, opts ...SenderOption) *Sender {
	t.Helper()
	s, err := NewSender(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testMessage is a confirmation mail with umlauts in every place they can be.
func testMessage(id string) Message {
	return Message{
		MessageID: id,
		From:      "Daawid <noreply@daawid.example>",
		To:        "Bäckerei Müller <info@mueller.example>",
		ReplyTo:   "Jörg Schmidt <joerg@example.org>",
		Subject:   "Rückruf für Müller",
		Text:      "Rückruf für Müller\n\nIhr Code: 493 201 – gültig für 15 Minuten.\n",
		Language:  "de",
		Date:      time.Date(2026, 12, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600)),
	}
}

// readAllMail reads the Maildir and fails the test on error.
func readAllMail(t *testing.T, dir string) []Received {
	t.Helper()
	msgs, err := ReadMaildir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}
