package render

import (
	"strings"

	"github.com/daawid/registry/schemas"
)

// provGroup is the provenance items that share source, reference and time:
// one markdown line (MD-74, MD-75; decision D20).
type provGroup struct {
	p     schemas.Provenance
	paths []string
}

func (b *builder) provenanceGroups() []provGroup {
	var gs []provGroup
	for _, p := range b.e.Provenance {
		found := false
		for i := range gs {
			g := &gs[i]
			if g.p.Source == p.Source && g.p.Reference == p.Reference && g.p.ObservedAt == p.ObservedAt && g.p.ReferenceKind == p.ReferenceKind {
				g.paths = append(g.paths, p.Path)
				found = true
				break
			}
		}
		if !found {
			gs = append(gs, provGroup{p: p, paths: []string{p.Path}})
		}
	}
	return gs
}

// provenanceLabels name the path sets the contract's examples name.
var provenanceLabels = map[string]string{
	"/operator":                         "Legal name, form, register and address",
	"/displayName /operator /locations": "Name, form, register, address",
}

var pathNouns = map[string]string{
	"/displayName": "name", "/alternateNames": "other names", "/summary": "summary", "/description": "description",
	"/categories": "category", "/naceCodes": "economic activity codes", "/foundingYear": "founding year",
	"/employees": "employees", "/languagesSpoken": "languages", "/domains": "website", "/profiles": "profiles",
	"/locations": "address", "/serviceArea": "service area", "/contactPoints": "contact details",
	"/routing": "routing", "/offerings": "offerings", "/actions": "actions", "/capacity": "capacity",
	"/policies": "policies", "/credentials": "credentials", "/faqs": "FAQ", "/voice": "voice",
	"/media": "pictures", "/brand": "brand", "/operator": "legal details", "/privacyNotice": "privacy notice",
}

// pathNoun names what a path holds; a contact-point path names what the
// public contact points carry ("phone", "email" or "contact details").
func (b *builder) pathNoun(path string) string {
	top := path
	if i := strings.IndexByte(path[1:], '/'); i >= 0 {
		top = path[:i+1]
	}
	switch top {
	case "/contactPoints":
		phone, email := false, false
		for _, c := range b.publicContactPoints() {
			phone = phone || c.Phone != ""
			email = email || c.Email != ""
		}
		switch {
		case phone && !email:
			return "phone"
		case email && !phone:
			return "email"
		}
	case "/categories":
		if len(b.e.Categories) > 1 {
			return "categories"
		}
	}
	if n, ok := pathNouns[top]; ok {
		return n
	}
	return strings.TrimPrefix(top, "/")
}

func (b *builder) provenanceLabel(paths []string, others bool) string {
	if l, ok := provenanceLabels[strings.Join(paths, " ")]; ok {
		return l
	}
	var nouns []string
	for _, p := range paths {
		if p == "/" || p == "" {
			if others {
				nouns = append(nouns, "everything else")
			} else {
				nouns = append(nouns, "everything")
			}
			continue
		}
		nouns = append(nouns, b.pathNoun(p))
	}
	return capitalize(joinAnd(nouns))
}

func (b *builder) provenance() []group {
	gs := b.provenanceGroups()
	var ls []line
	for _, g := range gs {
		label := b.provenanceLabel(g.paths, len(gs) > 1)
		l := line{text(label), fixed(": ")}
		p := g.p
		switch p.Source {
		case schemas.SourceRegister:
			// The reference may already name the register ("Companies House
			// 09999991"); a court reference doesn't ("Amtsgericht Wuppertal HRB
			// 99901").
			s := b.registerName()
			switch {
			case p.Reference == "":
			case strings.HasPrefix(p.Reference, s):
				s = p.Reference
			default:
				s += ", " + p.Reference
			}
			l = append(l, text(s), fixed(", retrieved "+dateOf(p.ObservedAt)))
		case schemas.SourceWebsite:
			if p.Reference != "" {
				l = append(l, ownerLink(p.Reference), fixed(", "))
			} else {
				l = append(l, fixed("the "+b.subject()+"'s website, "))
			}
			l = append(l, fixed("observed "+dateOf(p.ObservedAt)))
		case schemas.SourceDaawid:
			l = append(l, fixed("compiled by Daawid, "+dateOf(p.ObservedAt)))
		case schemas.SourceOwner:
			l = append(l, fixed(b.ownerWords()+", updated "+dateOf(p.ObservedAt)))
			if c := b.e.Record.LastConfirmedAt; c != "" {
				l = append(l, fixed(", confirmed "+dateOf(c)))
			}
		default:
			l = append(l, text(string(p.Source)), fixed(", "+dateOf(p.ObservedAt)))
		}
		ls = append(ls, l)
	}
	if len(ls) == 0 {
		return nil
	}
	return []group{{list(ls...)}}
}

// ownerWords says who declared the owner's facts, by status.
func (b *builder) ownerWords() string {
	switch b.e.Status {
	case schemas.StatusVerified:
		return "declared by the " + b.subject() + " (verified owner)"
	case schemas.StatusLapsed:
		return "declared by the " + b.subject() + " (verification lapsed)"
	}
	return "declared by the entry's owner"
}
