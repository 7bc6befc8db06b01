package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/claim"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/render"
)

// AuthConfig is how the server runs the authorization server of the
// owner tools (§7.2). It shares the action runs' store, secret and mail
// server.
type AuthConfig struct {
	// URL is the authorization server's origin (--auth-url); "": the
	// site's origin on a local copy, else auth. beside api. and mcp.
	URL string
	// TestMode lets apps' metadata documents live on plain http on
	// loopback (the demo's); never in production (MCP-12).
	TestMode bool
}

// AuthURLFor is the authorization server's origin: the one given, the
// site's own on a local copy (one origin), else https://auth.HOST
// beside api.HOST and mcp.HOST (MCP-11).
func AuthURLFor(given string, site render.Site) (string, error) {
	if given != "" {
		u, err := url.Parse(given)
		if err != nil || u.Host == "" || (u.Scheme != "https" && !(u.Scheme == "http" && render.IsLocalHost(u.Hostname()))) || (u.Path != "" && u.Path != "/") {
			return "", fmt.Errorf("--auth-url %q: must be an https origin (plain http on localhost only)", given)
		}
		return u.Scheme + "://" + u.Host, nil
	}
	if site.APIURL == site.BaseURL {
		return site.BaseURL, nil
	}
	u, err := url.Parse(site.BaseURL)
	if err != nil {
		return "", err
	}
	return u.Scheme + "://auth." + u.Host, nil
}

// startAuth opens the authorization server's tables in the runs store and
// builds it; stop closes its store.
func startAuth(ctx context.Context, cfg Config, log *slog.Logger) (*auth.Server, func(), error) {
	issuer, err := AuthURLFor(cfg.Auth.URL, cfg.Site)
	if err != nil {
		return nil, nil, err
	}
	secret, err := actions.LoadSecret(cfg.Actions.SecretFile, cfg.Actions.CreateSecret)
	if err != nil {
		return nil, nil, err
	}
	st, err := auth.OpenStore(ctx, cfg.Actions.RunsDB)
	if err != nil {
		return nil, nil, err
	}
	acfg := auth.Config{Store: st, Secret: secret, Issuer: issuer, Resource: cfg.Site.MCPURL, PagesURL: cfg.Site.BaseURL,
		MailFrom: cfg.Actions.MailFrom, TestMode: cfg.Auth.TestMode, Now: time.Now, Log: log}
	if cfg.Actions.SMTP != "" {
		sender, err := mail.NewSender(cfg.Actions.SMTP)
		if err != nil {
			st.Close()
			return nil, nil, fmt.Errorf("--smtp: %w", err)
		}
		acfg.Mailer = sender
	}
	srv, err := auth.New(ctx, acfg)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return srv, func() { st.Close() }, nil
}

// startClaims builds the claim flow (HTTP-34, D96) on the authorization
// server's store and owners, with the action runs' secret and mail
// server; claims go into the owner inbox. The well-known file is fetched
// by the guarded client, which in the demo's test mode may reach loopback.
func startClaims(cfg Config, a *auth.Server, in *inbox.Inbox, log *slog.Logger) (*claim.Service, error) {
	secret, err := actions.LoadSecret(cfg.Actions.SecretFile, false)
	if err != nil {
		return nil, err
	}
	ccfg := claim.Config{Store: a.Store(), Owners: a.Owners(), Inbox: in, Secret: secret, MailFrom: cfg.Actions.MailFrom,
		Fetch: auth.GuardedClient(cfg.Auth.TestMode, 10*time.Second, nil), Log: log}
	if u, err := url.Parse(cfg.Site.BaseURL); err == nil && !render.IsLocalHost(u.Hostname()) {
		ccfg.MailHost = u.Hostname()
	}
	if cfg.Actions.SMTP != "" {
		sender, err := mail.NewSender(cfg.Actions.SMTP)
		if err != nil {
			return nil, fmt.Errorf("--smtp: %w", err)
		}
		ccfg.Mailer = sender
	}
	return claim.New(ccfg)
}
