package feeds

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// IndexNow tells search engines which URLs changed (indexnow.org): one
// JSON POST of up to 10 000 URLs of one host. Without an endpoint the
// notices go to an outbox file, one JSON line each, for an operator or a
// later sender; a notice the endpoint refuses goes there too, so none is
// lost.
type IndexNow struct {
	Endpoint string // e.g. https://api.indexnow.org/indexnow; "" writes the outbox only
	Key      string // the site's IndexNow key
	Outbox   string // JSON-lines file
	Client   *http.Client
}

// Notice is one IndexNow request body.
type Notice struct {
	Host        string   `json:"host"`
	Key         string   `json:"key,omitempty"`
	KeyLocation string   `json:"keyLocation,omitempty"`
	URLList     []string `json:"urlList"`
}

const indexNowMax = 10_000

// Notify sends (or files) the changed URLs of a host.
func (n IndexNow) Notify(ctx context.Context, host string, urls []string) error {
	for len(urls) > 0 {
		part := urls[:min(indexNowMax, len(urls))]
		urls = urls[len(part):]
		notice := Notice{Host: host, Key: n.Key, URLList: part}
		if n.Endpoint != "" {
			err := n.post(ctx, notice)
			if err == nil {
				continue
			}
			if oerr := n.file(notice); oerr != nil {
				return fmt.Errorf("indexnow: %v; outbox: %w", err, oerr)
			}
			return fmt.Errorf("indexnow: %w (filed in the outbox)", err)
		}
		if err := n.file(notice); err != nil {
			return err
		}
	}
	return nil
}

func (n IndexNow) post(ctx context.Context, notice Notice) error {
	body, _ := json.Marshal(notice)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.Endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	client := n.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("%s answered %s", n.Endpoint, resp.Status)
	}
	return nil
}

func (n IndexNow) file(notice Notice) error {
	if n.Outbox == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(n.Outbox), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(n.Outbox, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	line, _ := json.Marshal(notice)
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
