package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// The abuse limits at their boundaries (§7.6 step 6): for each, 50
// goroutines race across the boundary, and exactly the allowed number
// pass, on SQLite and on PostgreSQL.

const racers = 50

// race runs fn from 50 goroutines at once and counts the calls that
// passed and those refused with the code.
func race(t *testing.T, code string, fn func(i int) error) (passed int) {
	t.Helper()
	var ok, refused atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			err := fn(i)
			if err == nil {
				ok.Add(1)
				return
			}
			if qe, isQ := query.AsError(err); isQ && qe.Code == code {
				refused.Add(1)
				return
			}
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("an unexpected answer: %v", err)
	}
	if int(ok.Load()+refused.Load()) != racers {
		t.Fatalf("%d passed and %d refused with %s of %d", ok.Load(), refused.Load(), code, racers)
	}
	return int(ok.Load())
}

// startRun starts a run through the service, as the tools do.
func (rg *runsRig) startRun(t testing.TB, kind schemas.ActionType, args map[string]any) (*actions.Result, error) {
	t.Helper()
	rd, err := rg.Service.Begin(rg.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.End()
	return rg.acts.Start(context.Background(), rd, kind, mustJSON(args), actions.Call{Platform: "other"})
}

// messageTo is a send_message call to Sanne de Vries (level contact,
// below domain: ACT-50 applies).
func messageTo(email string) map[string]any {
	return map[string]any{"entry": "person-sanne-de-vries", "subject": "Eine Frage", "message": "Haben Sie im Mai noch Termine frei?",
		"requester": map[string]any{"name": "Racer", "email": email}}
}

func ip(i int) netip.Addr { return netip.AddrFrom4([4]byte{198, 51, 100, byte(i + 1)}) }

func TestRuns_Limits(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind, func(t *testing.T) {
			// ACT-51: at most 100 runs started a day for an entry.
			t.Run("ACT-51 started per day", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				for i := range 80 {
					if _, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom(fmt.Sprintf("pre%d@example.org", i))); err != nil {
						t.Fatal(err)
					}
				}
				n := race(t, query.CodeRateLimited, func(i int) error {
					_, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom(fmt.Sprintf("r%d@example.org", i)))
					return err
				})
				if n != 20 {
					t.Errorf("%d runs started past 80, want 20 (ACT-51)", n)
				}
			})
			// ACT-52: at most 3 waiting runs per requester address and entry.
			t.Run("ACT-52 waiting per requester", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				n := race(t, query.CodeRateLimited, func(i int) error {
					_, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("same@example.org"))
					return err
				})
				if n != 3 {
					t.Errorf("%d waiting runs from one address, want 3 (ACT-52)", n)
				}
			})
			// ACT-53: at most 5 code emails an hour to one address.
			t.Run("ACT-53 codes per address", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				var tokens []string
				for _, entry := range []string{"holzwerk-krause", "thornbury-hale-joinery"} {
					for range 3 {
						res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteTo(entry, "one@example.org"))
						if err != nil {
							t.Fatal(err)
						}
						tokens = append(tokens, tokenOf(t, res.ConfirmURL))
					}
				}
				n := race(t, query.CodeRateLimited, func(i int) error {
					err := rg.acts.SendCode(context.Background(), tokens[i%len(tokens)], ip(i), rg.Now)
					if qe, ok := query.AsError(err); ok && qe.Code == query.CodeNotAllowed {
						return &query.Error{Code: query.CodeRateLimited} // a run's own 3 codes, never reached here
					}
					return err
				})
				if n != 5 {
					t.Errorf("%d code emails to one address in an hour, want 5 (ACT-53)", n)
				}
			})
			// ACT-54: at most 10 code emails an hour from one browser address.
			t.Run("ACT-54 codes per browser", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				tokens := make([]string, racers)
				for i := range racers {
					res, err := rg.startRun(t, schemas.ActionSendMessage, messageTo(fmt.Sprintf("b%d@example.org", i)))
					if err != nil {
						t.Fatal(err)
					}
					tokens[i] = tokenOf(t, res.ConfirmURL)
				}
				browser := netip.MustParseAddr("2001:db8::1")
				n := race(t, query.CodeRateLimited, func(i int) error {
					// Another address in the same /64 is the same browser.
					a := browser
					if i%2 == 1 {
						a = netip.MustParseAddr(fmt.Sprintf("2001:db8::%x", i+2))
					}
					return rg.acts.SendCode(context.Background(), tokens[i], a, rg.Now)
				})
				if n != 10 {
					t.Errorf("%d code emails from one browser in an hour, want 10 (ACT-54)", n)
				}
			})
			// ACT-39: a run sends at most 3 codes.
			t.Run("ACT-39 codes per run", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("codes@example.org"))
				if err != nil {
					t.Fatal(err)
				}
				n := race(t, query.CodeNotAllowed, func(i int) error {
					return rg.acts.SendCode(context.Background(), tokenOf(t, res.ConfirmURL), ip(i), rg.Now)
				})
				if n != 3 {
					t.Errorf("%d codes for one run, want 3 (ACT-39)", n)
				}
			})
			// ACT-39: a run allows 5 wrong codes; the fifth locks it.
			t.Run("ACT-39 tries per run", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("tries@example.org"))
				if err != nil {
					t.Fatal(err)
				}
				token := tokenOf(t, res.ConfirmURL)
				if err := rg.acts.SendCode(context.Background(), token, ip(0), rg.Now); err != nil {
					t.Fatal(err)
				}
				code := rg.codeFor(t, "tries@example.org")
				wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1_000_000)
				var counted atomic.Int32
				race(t, "refused", func(i int) error {
					err := rg.acts.Confirm(context.Background(), token, wrong, rg.Now)
					if qe, ok := query.AsError(err); ok && (qe.Code == query.CodeInvalidInput || qe.Code == query.CodeNotAllowed && qe.Message[0] == '5') {
						counted.Add(1)
					}
					return &query.Error{Code: "refused"}
				})
				if counted.Load() != 5 {
					t.Errorf("%d wrong codes counted, want 5 (ACT-39)", counted.Load())
				}
				if err := rg.acts.Confirm(context.Background(), token, code, rg.Now); err == nil {
					t.Error("the right code sent a locked run (ACT-39)")
				}
				if st, _ := rg.acts.Status(context.Background(), res.RunID, rg.Now); st.Status != "expired" {
					t.Errorf("a locked run is %s, want expired", st.Status)
				}
			})
			// ACT-50: at most 20 requests sent a day to an entry below level
			// domain.
			t.Run("ACT-50 sent per day below domain", func(t *testing.T) {
				rg := newRunsRig(t, kind, nil)
				tokens, codes := make([]string, racers), make([]string, racers)
				for i := range racers {
					email := fmt.Sprintf("s%d@example.org", i)
					res, err := rg.startRun(t, schemas.ActionSendMessage, messageTo(email))
					if err != nil {
						t.Fatal(err)
					}
					tokens[i] = tokenOf(t, res.ConfirmURL)
					if err := rg.acts.SendCode(context.Background(), tokens[i], ip(i), rg.Now); err != nil {
						t.Fatal(err)
					}
				}
				rg.drain(t)
				for i := range racers {
					codes[i] = rg.codeFor(t, fmt.Sprintf("s%d@example.org", i))
				}
				n := race(t, query.CodeRateLimited, func(i int) error {
					return rg.acts.Confirm(context.Background(), tokens[i], codes[i], rg.Now)
				})
				if n != 20 {
					t.Errorf("%d requests sent to an entry below level domain in a day, want 20 (ACT-50)", n)
				}
			})
			// ACT-28: the monthly cap, here set to 7 (D75).
			t.Run("ACT-28 sent per month", func(t *testing.T) {
				l := actions.DefaultLimits
				l.SentPerMonth = 7
				rg := newRunsRig(t, kind, &l)
				tokens, codes := make([]string, racers), make([]string, racers)
				for i := range racers {
					email := fmt.Sprintf("m%d@example.org", i)
					res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom(email))
					if err != nil {
						t.Fatal(err)
					}
					tokens[i] = tokenOf(t, res.ConfirmURL)
					if err := rg.acts.SendCode(context.Background(), tokens[i], ip(i), rg.Now); err != nil {
						t.Fatal(err)
					}
				}
				for i := range racers {
					codes[i] = rg.codeFor(t, fmt.Sprintf("m%d@example.org", i))
				}
				n := race(t, query.CodeActionUnavailable, func(i int) error {
					return rg.acts.Confirm(context.Background(), tokens[i], codes[i], rg.Now)
				})
				if n != 7 {
					t.Errorf("%d requests sent in the month, want 7 (ACT-28)", n)
				}
				if _, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("late@example.org")); err == nil {
					t.Error("a request started after the month's cap (ACT-28)")
				} else if qe, _ := query.AsError(err); qe.Code != query.CodeActionUnavailable || !strings.Contains(qe.Message, "info@holzwerk-krause.example") {
					t.Errorf("after the cap: %v, want action_unavailable with the ways to reach the business (ACT-27)", err)
				}
			})
		})
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
