package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/render"
	"github.com/prometheus/client_golang/prometheus"
)

// ActionsConfig is how the server runs the requests (§7.6).
type ActionsConfig struct {
	// RunsDB is the runs store: a SQLite file, or postgres://… when
	// several server processes share it.
	RunsDB string
	// SecretFile holds the HMAC key; CreateSecret makes it when missing.
	SecretFile   string
	CreateSecret bool
	// SMTP is the mail server's URL ("" holds mails in the outbox until
	// one is configured); MailFrom Daawid's address.
	SMTP, MailFrom string
}

// startActions opens the runs store and starts the outbox's sender and
// the sweeper; stop ends them and closes the store.
func startActions(ctx context.Context, cfg ActionsConfig, site render.Site, log *slog.Logger) (*actions.Service, func(), error) {
	secret, err := actions.LoadSecret(cfg.SecretFile, cfg.CreateSecret)
	if err != nil {
		return nil, nil, err
	}
	store, err := actions.OpenStore(ctx, cfg.RunsDB)
	if err != nil {
		return nil, nil, err
	}
	gaz, err := places.Default()
	if err != nil {
		store.Close()
		return nil, nil, fmt.Errorf("gazetteer: %w", err)
	}
	wake := make(chan struct{}, 1)
	svc, err := actions.New(actions.Config{Store: store, Secret: secret, Site: site, Places: gaz, MailFrom: cfg.MailFrom, Log: log,
		Wake: func() {
			select {
			case wake <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, 2)
	if cfg.SMTP != "" {
		sender, err := mail.NewSender(cfg.SMTP)
		if err != nil {
			cancel()
			store.Close()
			return nil, nil, fmt.Errorf("--smtp: %w", err)
		}
		go func() { svc.RunOutbox(runCtx, sender, wake, 5*time.Second); done <- struct{}{} }()
	} else {
		log.Warn("no --smtp: codes and requests wait in the outbox until a mail server is configured")
		done <- struct{}{}
	}
	go func() { svc.RunSweeper(runCtx, 10*time.Minute); done <- struct{}{} }()
	stop := func() {
		cancel()
		<-done
		<-done
		store.Close()
	}
	return svc, stop, nil
}

// runsMetrics export the runs' health (D75) from one reading of the store
// a scrape: mails waiting in the outbox and the age of the oldest, mails
// given up, runs waiting for their person.
type runsMetrics struct {
	svc                                  *actions.Service
	pending, oldest, failed, waiting, up *prometheus.Desc
}

func newRunsMetrics(svc *actions.Service) *runsMetrics {
	return &runsMetrics{svc: svc,
		pending: prometheus.NewDesc("daawid_outbox_pending", "Mails in the outbox not yet taken by the mail server.", nil, nil),
		oldest:  prometheus.NewDesc("daawid_outbox_oldest_pending_seconds", "Age of the oldest mail the mail server has not taken yet (0: none).", nil, nil),
		failed:  prometheus.NewDesc("daawid_outbox_failed", "Mails the outbox gave up (refused for good, or not taken for 72 hours).", nil, nil),
		waiting: prometheus.NewDesc("daawid_runs_waiting", "Requests waiting for their person's confirmation.", nil, nil),
		up:      prometheus.NewDesc("daawid_runs_store_up", "1 when the runs store answered this scrape.", nil, nil)}
}

func (m *runsMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.pending, m.oldest, m.failed, m.waiting, m.up} {
		ch <- d
	}
}

func (m *runsMetrics) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	now := time.Now()
	h, err := m.svc.Health(ctx, now)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(m.up, prometheus.GaugeValue, 0)
		return
	}
	age := 0.0
	if !h.OldestPending.IsZero() {
		age = now.Sub(h.OldestPending).Seconds()
	}
	ch <- prometheus.MustNewConstMetric(m.up, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(m.pending, prometheus.GaugeValue, float64(h.OutboxPending))
	ch <- prometheus.MustNewConstMetric(m.oldest, prometheus.GaugeValue, age)
	ch <- prometheus.MustNewConstMetric(m.failed, prometheus.GaugeValue, float64(h.OutboxFailed))
	ch <- prometheus.MustNewConstMetric(m.waiting, prometheus.GaugeValue, float64(h.RunsWaiting))
}
