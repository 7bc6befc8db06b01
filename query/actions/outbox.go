package actions

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/daawid/registry/query/actions/mail"
)

// outMail is a message the outbox keeps until it is sent.
type outMail struct {
	MessageID, RunID, Purpose, To, ReplyTo, Subject, Body, Lang string
}

// enqueue writes a message into the outbox inside the transaction that
// decided to send it: it is sent after the commit, or not at all when
// the transaction fails.
func (s *Service) enqueue(ctx context.Context, t *tx, m outMail, now time.Time) error {
	if _, err := t.exec(ctx, `INSERT INTO outbox (id, message_id, run_id, purpose, to_addr, reply_to, subject, body, lang, created_at, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.MessageID, m.MessageID, m.RunID, m.Purpose, m.To, m.ReplyTo, m.Subject, m.Body, m.Lang, millis(now), millis(now)); err != nil {
		return storeError("queue mail", err)
	}
	return nil
}

// Mailer sends one message (mail.Sender over SMTP).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// lease is how long a sender holds a message it is sending: a sender
// that dies meanwhile (a crash, SIGKILL) leaves the message to be sent
// again after it, with the same Message-ID.
const lease = time.Minute

// backoff is the wait before the next try of a message that failed n
// times: 5 s, 10 s, 20 s … up to 10 minutes.
func backoff(n int) time.Duration {
	d := 5 * time.Second << min(n-1, 10)
	return min(d, 10*time.Minute)
}

// giveUpAfter is how long the outbox tries a message before it stops and
// logs an error for the operator.
const giveUpAfter = 72 * time.Hour

// SendDue sends the outbox's messages that are due, at most limit, and
// says how many it sent. Each message is claimed first (a lease), so
// several server processes sharing the store never send one message at
// the same time. A delivery mail the SMTP server accepted makes its run
// delivered (ACT-45).
func (s *Service) SendDue(ctx context.Context, m Mailer, limit int) (int, error) {
	now := s.cfg.Now().UTC()
	rows, err := s.store.query(ctx, `SELECT id FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ? AND lease_until <= ?
		ORDER BY next_attempt_at LIMIT ?`, millis(now), millis(now), limit)
	if err != nil {
		return 0, storeError("read outbox", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, storeError("read outbox", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	sent := 0
	for _, id := range ids {
		ok, err := s.sendOne(ctx, m, id)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

func (s *Service) sendOne(ctx context.Context, mailer Mailer, id string) (bool, error) {
	now := s.cfg.Now().UTC()
	res, err := s.store.exec(ctx, `UPDATE outbox SET lease_until = ? WHERE id = ? AND sent_at IS NULL AND failed_at IS NULL AND lease_until <= ?`,
		millis(now.Add(lease)), id, millis(now))
	if err != nil {
		return false, storeError("claim mail", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return false, nil // another sender has it
	}
	var m outMail
	var attempts int
	var created int64
	if err := s.store.queryRow(ctx, `SELECT message_id, run_id, purpose, to_addr, reply_to, subject, body, lang, attempts, created_at FROM outbox WHERE id = ?`, id).
		Scan(&m.MessageID, &m.RunID, &m.Purpose, &m.To, &m.ReplyTo, &m.Subject, &m.Body, &m.Lang, &attempts, &created); err != nil {
		return false, storeError("read mail", err)
	}
	sendErr := mailer.Send(ctx, mail.Message{MessageID: m.MessageID, From: s.cfg.MailFrom, To: m.To, ReplyTo: m.ReplyTo,
		Subject: m.Subject, Text: m.Body, Language: m.Lang, Date: now})
	done := s.cfg.Now().UTC()
	if sendErr != nil {
		attempts++
		failed := sql.NullInt64{}
		if mail.Permanent(sendErr) || done.Sub(fromMillis(created)) > giveUpAfter {
			failed = sql.NullInt64{Int64: millis(done), Valid: true}
			s.cfg.Log.Error("action runs: mail given up", "message", m.MessageID, "run", m.RunID, "purpose", m.Purpose, "attempts", attempts, "err", sendErr)
		} else {
			s.cfg.Log.Warn("action runs: mail not sent, will try again", "message", m.MessageID, "attempts", attempts, "err", sendErr)
		}
		if _, err := s.store.exec(ctx, `UPDATE outbox SET attempts = ?, next_attempt_at = ?, lease_until = 0, failed_at = ?, last_error = ? WHERE id = ?`,
			attempts, millis(done.Add(backoff(attempts))), failed, truncate(sendErr.Error(), 500), id); err != nil {
			return false, storeError("record mail failure", err)
		}
		return false, nil
	}
	err = s.store.inTx(ctx, []string{"run:" + m.RunID}, func(t *tx) error {
		if _, err := t.exec(ctx, `UPDATE outbox SET sent_at = ?, attempts = attempts + 1, lease_until = 0, last_error = '' WHERE id = ?`, millis(done), id); err != nil {
			return storeError("mark mail sent", err)
		}
		if m.Purpose != "delivery" {
			return nil
		}
		r, err := s.loadRun(ctx, t, "id", m.RunID)
		if err != nil || r == nil || r.Status != StatusSubmitted {
			return err
		}
		if _, err := t.exec(ctx, `UPDATE runs SET status = ?, updated_at = ? WHERE id = ?`, StatusDelivered, millis(done), r.ID); err != nil {
			return storeError("mark delivered", err)
		}
		return s.countStep(ctx, t, done, r.EntryID, r.Platform, r.Kind, "delivered")
	})
	if err != nil {
		return true, fmt.Errorf("mail %s was sent but not marked: %w", m.MessageID, err)
	}
	return true, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// RunOutbox sends due messages until ctx ends: at once when woken (a new
// message), else every poll interval, which also picks up messages
// whose backoff has passed and those a crashed sender left.
func (s *Service) RunOutbox(ctx context.Context, m Mailer, wake <-chan struct{}, poll time.Duration) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		for {
			n, err := s.SendDue(ctx, m, 20)
			if err != nil {
				s.cfg.Log.Error("action runs: outbox", "err", err)
				break
			}
			if n < 20 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-t.C:
		}
	}
}
