package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/render"
)

// actionsConfig is how the server runs the requests (§7.6).
type actionsConfig struct {
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
func startActions(ctx context.Context, cfg actionsConfig, site render.Site, log *slog.Logger) (*actions.Service, func(), error) {
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
