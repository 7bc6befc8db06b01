package mail

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	netmail "net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Received is one message read back from a Maildir.
type Received struct {
	// File is the message's path.
	File string
	// Header is every header as written, encoded words and all.
	Header netmail.Header
	// Body is the text, decoded from its transfer encoding and charset into
	// UTF-8, with CRLF line ends turned into LF. For a multipart message it
	// is the first text/plain part.
	Body string
	// MessageID is without angle brackets, as Message has it.
	MessageID string
	// From, To, ReplyTo and Subject are the headers with encoded words
	// (RFC 2047) decoded.
	From, To, ReplyTo, Subject string
}

// ReadMaildir reads every message in the Maildir at dir, in new and cur,
// oldest first. A Maildir whose new or cur folder is missing is read as
// empty, but dir itself must exist.
func ReadMaildir(dir string) ([]Received, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("read maildir: %w", err)
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, sub := range []string{"new", "cur"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read maildir: %w", err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			info, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				continue // moved from new to cur while we looked
			}
			if err != nil {
				return nil, fmt.Errorf("read maildir: %w", err)
			}
			files = append(files, file{filepath.Join(dir, sub, e.Name()), info.ModTime()})
		}
	}
	// A file's time is when it was written; the name breaks ties, and
	// Maildir names begin with the delivery time too.
	slices.SortFunc(files, func(a, b file) int {
		return cmp.Or(a.mod.Compare(b.mod), cmp.Compare(filepath.Base(a.path), filepath.Base(b.path)))
	})
	out := make([]Received, 0, len(files))
	for _, f := range files {
		raw, err := os.ReadFile(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read maildir: %w", err)
		}
		r, err := parseReceived(raw)
		if err != nil {
			return nil, fmt.Errorf("read maildir: %s: %w", f.path, err)
		}
		r.File = f.path
		out = append(out, r)
	}
	return out, nil
}

// parseReceived parses one message as filed.
func parseReceived(raw []byte) (Received, error) {
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Received{}, err
	}
	body, err := decodeText(msg.Header.Get, msg.Body, 0)
	if err != nil {
		return Received{}, fmt.Errorf("body: %w", err)
	}
	words := mime.WordDecoder{CharsetReader: charsetReader}
	decoded := func(name string) string {
		v := msg.Header.Get(name)
		if d, err := words.DecodeHeader(v); err == nil {
			return d
		}
		return v // a malformed encoded word is shown as it came
	}
	id := strings.TrimSpace(msg.Header.Get("Message-Id"))
	return Received{
		Header:    msg.Header,
		Body:      strings.ReplaceAll(body, "\r\n", "\n"),
		MessageID: strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">"),
		From:      decoded("From"),
		To:        decoded("To"),
		ReplyTo:   decoded("Reply-To"),
		Subject:   decoded("Subject"),
	}, nil
}

// WaitFor reads the Maildir at dir again and again until a message matches,
// or ctx ends. It is for tests and the demo's end-to-end test, where the
// message is on its way in another goroutine or process.
func WaitFor(ctx context.Context, dir string, match func(Received) bool) (Received, error) {
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		msgs, err := ReadMaildir(dir)
		if err != nil {
			return Received{}, fmt.Errorf("wait for mail: %w", err)
		}
		for _, m := range msgs {
			if match(m) {
				return m, nil
			}
		}
		select {
		case <-ctx.Done():
			return Received{}, fmt.Errorf("wait for mail in %s (%d messages, none matched): %w", dir, len(msgs), context.Cause(ctx))
		case <-tick.C:
		}
	}
}
