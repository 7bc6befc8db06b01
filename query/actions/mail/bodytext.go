package mail

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
)

// maxMIMEDepth stops a message of multiparts nested in multiparts from
// recursing without end.
const maxMIMEDepth = 8

// decodeText returns the text of a MIME entity whose headers get returns:
// itself when it is text, its first text/plain part when it is multipart.
func decodeText(get func(string) string, body io.Reader, depth int) (string, error) {
	mediaType, params := "text/plain", map[string]string{}
	if ct := get("Content-Type"); ct != "" {
		var err error
		if mediaType, params, err = mime.ParseMediaType(ct); err != nil {
			return "", fmt.Errorf("content-type: %w", err)
		}
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		if depth >= maxMIMEDepth {
			return "", errors.New("multipart nested too deep")
		}
		return firstTextPart(multipart.NewReader(body, params["boundary"]), depth)
	}
	r, err := transferDecoder(get("Content-Transfer-Encoding"), body)
	if err != nil {
		return "", err
	}
	if r, err = charsetReader(params["charset"], r); err != nil {
		return "", err
	}
	return readAll(r)
}

// firstTextPart is the text of the first part that has text/plain in it.
// mime/multipart already undoes quoted-printable in a part.
func firstTextPart(mr *multipart.Reader, depth int) (string, error) {
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("multipart: %w", err)
		}
		ct := p.Header.Get("Content-Type")
		if ct != "" && !strings.HasPrefix(strings.ToLower(ct), "text/plain") && !strings.HasPrefix(strings.ToLower(ct), "multipart/") {
			continue
		}
		text, err := decodeText(p.Header.Get, p, depth+1)
		if err != nil || text != "" {
			return text, err
		}
	}
}

// transferDecoder undoes a Content-Transfer-Encoding.
func transferDecoder(cte string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "", "7bit", "8bit", "binary":
		return r, nil
	case "quoted-printable":
		return quotedprintable.NewReader(r), nil
	case "base64":
		// The decoder skips the line breaks between base64 lines itself.
		return base64.NewDecoder(base64.StdEncoding, r), nil
	default:
		return nil, fmt.Errorf("content-transfer-encoding %q is unknown", cte)
	}
}

// charsetReader turns text in charset into UTF-8; it also serves
// mime.WordDecoder for encoded words.
func charsetReader(charset string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "", "utf-8", "utf8", "us-ascii":
		return r, nil
	}
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, fmt.Errorf("charset %q: %w", charset, err)
	}
	return enc.NewDecoder().Reader(r), nil
}

// readAll is io.ReadAll as a string.
func readAll(r io.Reader) (string, error) {
	b, err := io.ReadAll(r)
	return string(b), err
}
