package schemas

// The private parts of an entry (issue 15: a publication holds only public
// data). An entry keeps, for its owner and for the delivery of requests,
// facts no projection shows: its private contact points (VIEW-05), where
// each action's confirmed requests go (D15, D75) and the street of a
// location shown at locality level (PRIV-18, PRIV-19, I15). They live in
// the pipeline's state; what a publication carries of an entry is its
// PublicRevision, and where requests go is written apart from it, to a
// routing file outside the publication's folder.

// PublicRevision returns a copy of the entry without its private parts:
// private contact points are removed, each action's delivery keeps only its
// mode and, for a handoff, the business's URL (which a handoff run gives to
// whoever starts it, ACT-49), and a location shown at locality level loses
// its street, extra line and point. Every projection of the public
// revision is byte for byte the projection of the entry (PRIV-05: the
// projections never show private parts), so the server's time guard can
// re-render a stand-in from it (D66).
//
// The copy is shallow where nothing is removed: it shares with e every part
// it does not change (strings, offerings, hours), and has its own contact
// points, actions and locations. A caller that wants to change it deeply
// clones it first. (Cloning the whole entry through JSON was a fifth of
// rendering an entry at publish, issue 18.)
func (e *Entry) PublicRevision() *Entry {
	p := *e
	p.ContactPoints = nil
	for _, c := range e.ContactPoints {
		if c.Visibility == "public" {
			p.ContactPoints = append(p.ContactPoints, c)
		}
	}
	if e.Actions != nil {
		p.Actions = append([]Action(nil), e.Actions...)
	}
	for i := range p.Actions {
		if d := p.Actions[i].Delivery; d != nil {
			kept := &Delivery{Mode: d.Mode}
			if d.Mode == DeliveryHandoff {
				kept.URL = d.URL
			}
			p.Actions[i].Delivery = kept
		}
	}
	if e.Locations != nil {
		p.Locations = append([]Location(nil), e.Locations...)
	}
	for i := range p.Locations {
		if l := &p.Locations[i]; l.AddressDisplay == DisplayLocalityOnly {
			l.Address.Street, l.Address.Extra, l.Geo = "", "", nil
		}
	}
	return &p
}

// DeliveryAddress is where a confirmed request of an action goes (D75):
// the action's delivery address, else the email of the entry's contact
// point for the kind of request (quotes for a quote, bookings for an
// appointment), else its general one, else the first with an email;
// private contact points count. "" when the entry has not said; a handoff
// action has none (its requests go to the business's own system).
func (e *Entry) DeliveryAddress(a *Action) string {
	if a.Handoff() {
		return ""
	}
	if a.Delivery != nil && a.Delivery.Mode == DeliveryEmail && a.Delivery.Email != "" {
		return a.Delivery.Email
	}
	want := []ContactPurpose{"general"}
	switch a.Type {
	case ActionRequestQuote:
		want = []ContactPurpose{"quotes", "sales", "general"}
	case ActionRequestAppointment:
		want = []ContactPurpose{"bookings", "general"}
	}
	for _, p := range want {
		for _, c := range e.ContactPoints {
			if c.Email == "" {
				continue
			}
			for _, cp := range c.Purposes {
				if cp == p {
					return c.Email
				}
			}
		}
	}
	for _, c := range e.ContactPoints {
		if c.Email != "" {
			return c.Email
		}
	}
	return ""
}

// DeliveryAddresses are where the requests of the entry's enabled actions
// go, by action ID: the routing a publication's private file holds for the
// entry (issue 15). Actions without an address (a handoff, or an entry
// that has not said) are left out; nil when none has one.
func (e *Entry) DeliveryAddresses() map[string]string {
	var out map[string]string
	for i := range e.Actions {
		a := &e.Actions[i]
		if !a.Enabled {
			continue
		}
		if to := e.DeliveryAddress(a); to != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[a.ID] = to
		}
	}
	return out
}
