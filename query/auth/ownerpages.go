package auth

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/daawid/registry/schemas"
)

// waitingPage: GET /owner/confirm/{token}, the page the owner's email
// links to (MCP-26). It shows the entry and what waits, and a button; a
// GET changes nothing, so a mail scanner that follows the link confirms
// nothing.
func (s *Server) waitingPage(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	wc, _, err := s.loadWaiting(r.Context(), token, s.cfg.Now())
	if err != nil {
		s.waitingError(w, err)
		return
	}
	s.page(w, http.StatusOK, pageData{Step: "waiting", Token: token, EntryName: wc.EntryName, EntryID: wc.EntryID,
		Sections: wc.Sections(), Expires: wc.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC")})
}

// waitingConfirm: POST /owner/confirm/{token}. The link is spent first
// (one use, in one UPDATE, so two presses cannot both write); then the
// waiting fields are written as an owner edit based on the revision
// published now (D95), and go live with the next delta publication.
func (s *Server) waitingConfirm(w http.ResponseWriter, r *http.Request) {
	now := s.cfg.Now()
	wc, hash, err := s.loadWaiting(r.Context(), r.PathValue("token"), now)
	if err != nil {
		s.waitingError(w, err)
		return
	}
	if s.registry == nil {
		s.errorPage(w, http.StatusServiceUnavailable, "this registry takes no owner changes now; try again later")
		return
	}
	ok, err := s.st.once(r.Context(), "owner_waiting", "token_hash", hash, now)
	if err != nil {
		s.unavailable(w, "spend the link", err)
		return
	}
	if !ok {
		s.waitingError(w, errWaitingGone)
		return
	}
	e, err := s.registry.PublicRevision(wc.EntryID, now)
	if err == nil {
		_, err = s.registry.WriteEdit(&schemas.OwnerEdit{Entry: wc.EntryID, BasedOn: e.Record.Revision,
			DeclaredAt: now.UTC().Format("2006-01-02T15:04:05Z"), Tool: schemas.EditUpdateEntry, Set: wc.Set}, now)
	}
	if err != nil {
		// Nothing was written: the link works again, so the owner can retry.
		s.st.exec(r.Context(), `UPDATE owner_waiting SET used_at = NULL WHERE token_hash = ?`, hash)
		s.unavailable(w, "write the confirmed change", err)
		return
	}
	s.page(w, http.StatusOK, pageData{Step: "confirmed", EntryName: wc.EntryName, EntryID: wc.EntryID, Sections: wc.Sections()})
}

func (s *Server) waitingError(w http.ResponseWriter, err error) {
	if err == errWaitingGone {
		s.errorPage(w, http.StatusGone, err.Error())
		return
	}
	s.unavailable(w, "read the waiting change", err)
}

// download: GET /connect/{token}/entries/{entry}, the signed-in owner's
// download of an entry in the open format (PRIV-29). The server holds
// only the public revision (D94): private contact points and where
// requests are delivered stay in the pipeline, and the connect page says
// so beside the link rather than offer a file that claims to be whole.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	now := s.cfg.Now()
	a, ok := s.signedInRequest(w, r, now)
	if !ok {
		return
	}
	id := strings.TrimSuffix(r.PathValue("entry"), ".json")
	owned, err := s.owners.OfSubject(r.Context(), a.subject, now)
	if err != nil {
		s.unavailable(w, "read owners", err)
		return
	}
	mine := false
	for _, o := range owned {
		mine = mine || o.EntryID == id
	}
	if !mine {
		s.errorPage(w, http.StatusForbidden, "you do not own this entry")
		return
	}
	if s.registry == nil {
		s.errorPage(w, http.StatusServiceUnavailable, "this registry serves no downloads now")
		return
	}
	e, err := s.registry.PublicRevision(id, now)
	if err != nil {
		s.errorPage(w, http.StatusNotFound, "this entry is not in the current publication")
		return
	}
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		s.unavailable(w, "encode the entry", err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Disposition", `attachment; filename="`+e.Slug+`.json"`)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}

// ownedEntries are the signed-in owner's entries for the connect page's
// downloads, named as the current publication names them.
func (s *Server) ownedEntries(r *http.Request, subject string) []pageEntry {
	now := s.cfg.Now()
	owned, err := s.owners.OfSubject(r.Context(), subject, now)
	if err != nil || s.registry == nil {
		return nil
	}
	var out []pageEntry
	for _, o := range owned {
		pe := pageEntry{ID: o.EntryID, Name: o.EntryID}
		if e, err := s.registry.PublicRevision(o.EntryID, now); err == nil {
			pe.Name = e.DisplayName
		}
		out = append(out, pe)
	}
	return out
}
