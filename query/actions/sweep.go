package actions

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Retention (§7.6 step 7).
const (
	// unsentKept: a run never sent is deleted within a day of running out
	// (ACT-57); it stays readable by get_request_status for most of it.
	unsentKept = 23 * time.Hour
	// sentKept: a sent run is deleted after 90 days (ACT-58).
	sentKept = 90 * 24 * time.Hour
	// mailKept: a sent or given-up message leaves the outbox after a day
	// (its words are in the run, or were a code).
	mailKept = 24 * time.Hour
)

// SweepReport says what a sweep did.
type SweepReport struct {
	Expired, DeletedUnsent, DeletedSent, DeletedMail, DeletedKeys, DeletedEvents int64
}

// Sweep ends runs whose hour is over (counting the step), and deletes
// what retention no longer keeps: unsent runs a day after they ran out,
// sent runs after 90 days, old idempotency keys, limit events whose
// window has ended and the outbox's finished messages. Step counts stay
// (ACT-59).
func (s *Service) Sweep(ctx context.Context, now time.Time) (SweepReport, error) {
	var rep SweepReport
	rows, err := s.store.query(ctx, `SELECT id, entry_id, platform, kind FROM runs WHERE status = ? AND expires_at <= ?`, StatusAwaiting, millis(now))
	if err != nil {
		return rep, storeError("sweep", err)
	}
	type ended struct{ id, entry, platform, kind string }
	var ends []ended
	for rows.Next() {
		var e ended
		if err := rows.Scan(&e.id, &e.entry, &e.platform, &e.kind); err != nil {
			rows.Close()
			return rep, storeError("sweep", err)
		}
		ends = append(ends, e)
	}
	rows.Close()
	for _, e := range ends {
		err := s.store.inTx(ctx, []string{"run:" + e.id}, func(t *tx) error {
			res, err := t.exec(ctx, `UPDATE runs SET status = ?, updated_at = expires_at WHERE id = ? AND status = ? AND expires_at <= ?`,
				StatusExpired, e.id, StatusAwaiting, millis(now))
			if err != nil {
				return storeError("expire run", err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				rep.Expired++
				return s.countStep(ctx, t, now, e.entry, e.platform, e.kind, "expired")
			}
			return nil
		})
		if err != nil {
			return rep, err
		}
	}
	for _, d := range []struct {
		n    *int64
		q    string
		args []any
	}{
		{&rep.DeletedUnsent, `DELETE FROM runs WHERE status IN (?, ?, ?) AND expires_at <= ?`,
			[]any{StatusAwaiting, StatusExpired, StatusCancelled, millis(now.Add(-unsentKept))}},
		{&rep.DeletedSent, `DELETE FROM runs WHERE submitted_at IS NOT NULL AND submitted_at <= ?`, []any{millis(now.Add(-sentKept))}},
		{&rep.DeletedKeys, `DELETE FROM idempotency WHERE created_at <= ?`, []any{millis(now.Add(-24 * time.Hour))}},
		{&rep.DeletedEvents, `DELETE FROM limit_events WHERE window_end <= ?`, []any{millis(now)}},
		{&rep.DeletedMail, `DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at <= ?) OR (failed_at IS NOT NULL AND failed_at <= ?)`,
			[]any{millis(now.Add(-mailKept)), millis(now.Add(-mailKept))}},
	} {
		res, err := s.store.exec(ctx, d.q, d.args...)
		if err != nil {
			return rep, storeError("sweep", err)
		}
		*d.n, _ = res.RowsAffected()
	}
	return rep, nil
}

// RunSweeper sweeps every interval until ctx ends.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if rep, err := s.Sweep(ctx, s.cfg.Now().UTC()); err != nil {
			s.cfg.Log.Error("action runs: sweep", "err", err)
		} else if rep != (SweepReport{}) {
			s.cfg.Log.Info("action runs: swept", "expired", rep.Expired, "deletedUnsent", rep.DeletedUnsent, "deletedSent", rep.DeletedSent,
				"deletedMail", rep.DeletedMail)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// StepCount is one row of the step counts (ACT-59).
type StepCount struct {
	Day, EntryID, Platform, Kind, Step string
	N                                  int64
}

// StepCounts lists the step counts, in order.
func (s *Service) StepCounts(ctx context.Context) ([]StepCount, error) {
	rows, err := s.store.query(ctx, `SELECT day, entry_id, platform, kind, step, n FROM step_counts ORDER BY day, entry_id, platform, kind, step`)
	if err != nil {
		return nil, storeError("step counts", err)
	}
	defer rows.Close()
	var out []StepCount
	for rows.Next() {
		var c StepCount
		if err := rows.Scan(&c.Day, &c.EntryID, &c.Platform, &c.Kind, &c.Step, &c.N); err != nil {
			return nil, storeError("step counts", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// LoadSecret reads the HMAC secret from a file; with create, a missing
// file is made with 32 random bytes and mode 0600. A file another user
// can read is refused.
func LoadSecret(path string, create bool) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && create {
		b = make([]byte, 32)
		rand.Read(b)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("secret %s: %w", path, err)
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			return nil, fmt.Errorf("secret %s: %w", path, err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return nil, fmt.Errorf("secret %s: %w", path, err)
		}
		return b, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secret %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("secret %s: readable by others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	if len(b) < 32 {
		return nil, fmt.Errorf("secret %s: %d bytes, at least 32 needed", path, len(b))
	}
	return b, nil
}

// Health is what an operator watches of the runs (the server's metrics):
// mails waiting to go out, the oldest of them, mails given up, and runs
// waiting for their person.
type Health struct {
	OutboxPending, OutboxFailed, RunsWaiting int64
	// OldestPending is when the oldest waiting mail was written (zero:
	// none); a mail server that has been down shows here.
	OldestPending time.Time
}

// Health reads the runs' health from the store.
func (s *Service) Health(ctx context.Context, now time.Time) (Health, error) {
	var h Health
	var oldest sql.NullInt64
	if err := s.store.queryRow(ctx, `SELECT COUNT(*), MIN(created_at) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL`).Scan(&h.OutboxPending, &oldest); err != nil {
		return h, storeError("health", err)
	}
	if oldest.Valid {
		h.OldestPending = fromMillis(oldest.Int64)
	}
	if err := s.store.queryRow(ctx, `SELECT COUNT(*) FROM outbox WHERE failed_at IS NOT NULL`).Scan(&h.OutboxFailed); err != nil {
		return h, storeError("health", err)
	}
	if err := s.store.queryRow(ctx, `SELECT COUNT(*) FROM runs WHERE status = ? AND expires_at > ?`, StatusAwaiting, millis(now)).Scan(&h.RunsWaiting); err != nil {
		return h, storeError("health", err)
	}
	return h, nil
}
