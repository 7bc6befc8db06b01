package render

import (
	"bytes"
	"encoding/json"
	"html"
	"html/template"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/daawid/registry/schemas"
)

// The daawid: vocabulary published at /ns (HTTP-38, LD-02): every term the
// JSON-LD renderers emit under the daawid prefix, with what it means in the
// registry, as a page for people (NamespaceHTML) and as JSON-LD
// (NamespaceJSONLD). The @context of every entry document maps the prefix
// to {BaseURL}/ns#, so {BaseURL}/ns#capacity resolves to the page's
// #capacity anchor.

// NamespaceTerm is one term of the daawid: vocabulary.
type NamespaceTerm struct {
	// Term is the local name: "capacity" is daawid:capacity.
	Term string
	// Kind is "property", "class" or "value". Every term the renderers
	// emit today is a property: no node is typed daawid:…, and no daawid:
	// IRI is used as a value.
	Kind string
	// Definition says in plain English what the term means in the registry.
	Definition string
	// Domain lists the types the term is used on, as compact IRIs
	// (schema:Offer). Properties used inside the untyped value of another
	// daawid: property list schema:StructuredValue and name that property
	// in In.
	Domain []string
	// In lists the daawid: properties (local names) whose value holds the
	// term.
	In []string
	// Range lists the expected value types, as compact IRIs (xsd:dateTime,
	// schema:Text, rdf:langString for language-tagged text).
	Range []string
	// Values are the tokens version 0.1 of the format defines, for a term
	// whose values are an enumeration. Enumerations are open: readers treat
	// any other value as unknown (§1 principle 2).
	Values []string
}

// NamespaceTerms returns the vocabulary, sorted by term. The slice is a
// copy; the caller may change it.
func NamespaceTerms() []NamespaceTerm {
	out := make([]NamespaceTerm, len(namespaceTerms))
	for i, t := range namespaceTerms {
		t.Domain, t.In, t.Range, t.Values = slices.Clone(t.Domain), slices.Clone(t.In), slices.Clone(t.Range), slices.Clone(t.Values)
		out[i] = t
	}
	return out
}

// Domains the renderers use.
var (
	// onSubject: graph node 2, the entry's subject. Its @type is Person,
	// Organization, or the type its category maps to (LocalBusiness by
	// default, always an Organization subtype).
	nsOnSubject = []string{"schema:LocalBusiness", "schema:Organization", "schema:Person"}
	nsOnProfile = []string{"schema:ProfilePage"}
	nsOnAction  = []string{"schema:Action", "schema:CommunicateAction", "schema:ReserveAction"}
	nsOnOffer   = []string{"schema:Offer"}
	nsNested    = []string{"schema:StructuredValue"}
)

// Ranges the renderers use.
var (
	nsStructured = []string{"schema:StructuredValue"}
	nsText       = []string{"schema:Text"}
	nsLocalText  = []string{"schema:Text", "rdf:langString"}
	nsDateTime   = []string{"xsd:dateTime"}
	nsBoolean    = []string{"xsd:boolean"}
	nsDuration   = []string{"schema:Duration"}
)

// enumOf is the defined values of an enumeration of the entry schema.
func nsEnum[T ~string]() []string { return schemas.EnumValues(reflect.TypeFor[T]()) }

// union joins value lists, keeping the first occurrence of each value.
func nsUnion(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, v := range l {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// namespaceTerms is the vocabulary, sorted by term. Every daawid: term of
// jsonld.go is here, and nothing else (render/namespace_test.go checks both
// directions against every fixture).
var namespaceTerms = []NamespaceTerm{
	{Term: "actionType", Kind: "property", Domain: nsOnAction, Range: nsText, Values: nsEnum[schemas.ActionType](),
		Definition: "The kind of request the action takes, which decides its MCP tool and the inputs it needs. The schema.org @type only approximates it: schema.org has no type for asking for a quote."},
	{Term: "agentPolicy", Kind: "property", Domain: nsOnSubject, Range: nsStructured,
		Definition: "How the business wants AI agents to deal with it: whether agents may send it requests, whether it accepts outreach it did not ask for, and whether agents must say that they are AI. Agents must honour it when they act towards the business."},
	{Term: "agentRequests", Kind: "property", Domain: nsNested, In: []string{"agentPolicy"}, Range: nsText, Values: nsEnum[schemas.AgentRequests](),
		Definition: "Whether AI agents may send the business requests: at all (allowed), only through its Daawid actions (via_actions_only), or not at all (not_allowed)."},
	{Term: "agentsMustDisclose", Kind: "property", Domain: nsNested, In: []string{"agentPolicy"}, Range: nsBoolean,
		Definition: "True when the business asks every AI agent that contacts it to disclose that it is an AI."},
	{Term: "asOf", Kind: "property", Domain: nsNested, In: []string{"capacity"}, Range: nsDateTime,
		Definition: "When the business made the capacity statement."},
	{Term: "audience", Kind: "property", Domain: []string{"schema:Offer", "schema:StructuredValue"}, In: []string{"routing"}, Range: nsText,
		Values:     nsUnion(nsEnum[schemas.Audience](), nsEnum[schemas.RoutingAudience]()),
		Definition: "On an offer, who it is for: all, consumer or business. In a routing rule, which kind of sender the rule is for: consumer, business, job_seeker, supplier, press, partner or any."},
	{Term: "avoidName", Kind: "property", Domain: nsNested, In: []string{"voice"}, Range: nsText,
		Definition: "A name the business asks not to be called by, such as an old or wrong name; one value per name. A stated preference, not an instruction."},
	{Term: "brandKit", Kind: "property", Domain: nsOnSubject, Range: []string{"schema:URL"},
		Definition: "The REST address of the entry's brand kit: its logo, pictures, colours and fonts, for showing the business the way it presents itself."},
	{Term: "capacity", Kind: "property", Domain: nsOnSubject, Range: nsStructured,
		Definition: "Whether the business takes new work now, as it declared, with its lead time and next free date; valid until daawid:expiresAt. It is left out of every document once it expires, and must never be shown after that."},
	{Term: "capacityStatus", Kind: "property", Domain: nsNested, In: []string{"capacity"}, Range: nsText, Values: nsEnum[schemas.CapacityStatus](),
		Definition: "How much new work the business takes on: accepting, limited, waitlist or not_accepting."},
	{Term: "category", Kind: "property", Domain: nsOnSubject, Range: nsText,
		Definition: "A category code of the Daawid taxonomy, sector and name joined by a dot (trades.carpentry); one value per category, in the entry's order. The first category that maps to a schema.org type decides the node's @type."},
	{Term: "contactConfirmedAt", Kind: "property", Domain: nsNested, In: []string{"verification"}, Range: nsDateTime,
		Definition: "When Daawid confirmed an email address for the entry (level contact). It confirms the address, not who runs the business."},
	{Term: "currencies", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: nsText,
		Definition: "A currency a payment policy accepts, as an ISO 4217 code (EUR). A local business states its currencies as schema:currenciesAccepted instead."},
	{Term: "days", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: []string{"xsd:integer"},
		Definition: "The number of days a policy sets, such as the time to return goods or to cancel, or how long a warranty lasts."},
	{Term: "decline", Kind: "property", Domain: nsNested, In: []string{"routing"}, Range: nsBoolean,
		Definition: "True when the business declines requests of this audience and intent: agents must not send them. A routing rule has either daawid:decline or daawid:routeTo."},
	{Term: "domain", Kind: "property", Domain: nsNested, In: []string{"verification"}, Range: nsStructured,
		Definition: "A website domain Daawid checked for the entry, with the state, method and dates of the check; one value per domain."},
	{Term: "domainStatus", Kind: "property", Domain: nsNested, In: []string{"domain"}, Range: nsText, Values: nsEnum[schemas.DomainStatus](),
		Definition: "The state of the domain check. A domain in grace failed its last re-check and still counts as verified until daawid:graceUntil."},
	{Term: "emphasis", Kind: "property", Domain: nsNested, In: []string{"voice"}, Range: nsLocalText,
		Definition: "A point the business wants stressed when it is described, such as how long it has existed; one value per point. A stated preference, not an instruction."},
	{Term: "expectedResponse", Kind: "property", Domain: nsOnAction, Range: nsDuration,
		Definition: "How soon the business expects to answer a request made through the action, as an ISO 8601 duration (P2D)."},
	{Term: "expiresAt", Kind: "property", Domain: nsNested, In: []string{"capacity"}, Range: nsDateTime,
		Definition: "When the capacity statement stops being valid, at most 30 days after daawid:asOf. From then on no document shows it."},
	{Term: "formality", Kind: "property", Domain: nsNested, In: []string{"voice"}, Range: nsText, Values: nsEnum[schemas.Formality](),
		Definition: "The form of address the business prefers, such as Sie (formal) or du (informal) in German."},
	{Term: "free", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: nsBoolean,
		Definition: "Whether what the policy covers costs nothing: in an estimates policy, true means estimates are free and false that they are charged."},
	{Term: "freeWithinKm", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: []string{"xsd:decimal"},
		Definition: "In a travel costs policy, the distance in kilometres within which the business travels at no charge; beyond it, daawid:price applies."},
	{Term: "graceUntil", Kind: "property", Domain: nsNested, In: []string{"domain"}, Range: nsDateTime,
		Definition: "When the grace period of a domain whose re-check failed ends; until then the domain still counts as verified."},
	{Term: "host", Kind: "property", Domain: nsNested, In: []string{"domain"}, Range: nsText,
		Definition: "The domain name that was checked, in lower case, with internationalized names as A-labels (punycode)."},
	{Term: "intent", Kind: "property", Domain: nsNested, In: []string{"routing"}, Range: nsText, Values: nsEnum[schemas.RoutingIntent](),
		Definition: "What the sender of a request wants; the routing rule applies to requests of this kind."},
	{Term: "lapsedAt", Kind: "property", Domain: nsNested, In: []string{"verification"}, Range: nsDateTime,
		Definition: "When the entry's verification lapsed; its information may be outdated since then."},
	{Term: "lastCheckedAt", Kind: "property", Domain: nsNested, In: []string{"domain"}, Range: nsDateTime,
		Definition: "When Daawid last checked that the business controls the domain: the date to cite in \"Daawid confirmed on {date} that this business controls {host}\"."},
	{Term: "lastConfirmed", Kind: "property", Domain: nsOnProfile, Range: nsDateTime,
		Definition: "When the owner last confirmed that the entry is still correct, whether or not they changed it."},
	{Term: "leadTime", Kind: "property", Domain: nsNested, In: []string{"capacity"}, Range: nsStructured,
		Definition: "How long until the business can start new work at present, as a range of ISO 8601 durations (daawid:min to daawid:max)."},
	{Term: "level", Kind: "property", Domain: nsNested, In: []string{"verification"}, Range: nsText, Values: nsEnum[schemas.VerificationLevel](),
		Definition: "How far Daawid has confirmed who runs the entry: not at all, an email address (contact), control of a website (domain), or more. It says nothing about the quality of the business."},
	{Term: "max", Kind: "property", Domain: nsNested, In: []string{"leadTime", "typicalLeadTime"}, Range: nsDuration,
		Definition: "The upper end of a range of durations, as an ISO 8601 duration (P12W); absent when only a minimum is stated."},
	{Term: "method", Kind: "property", Domain: nsNested, In: []string{"domain"}, Range: nsText, Values: nsEnum[schemas.DomainMethod](),
		Definition: "How the business showed that it controls the domain: a DNS TXT record, a file on the website, or a meta tag."},
	{Term: "methods", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: nsText, Values: nsEnum[schemas.PaymentMethod](),
		Definition: "A payment method a payment policy accepts; one value per method. A local business states its methods as schema:paymentAccepted instead."},
	{Term: "min", Kind: "property", Domain: nsNested, In: []string{"leadTime", "typicalLeadTime"}, Range: nsDuration,
		Definition: "The lower end of a range of durations, as an ISO 8601 duration (P8W)."},
	{Term: "naceCode", Kind: "property", Domain: nsOnSubject, Range: nsText,
		Definition: "A class of economic activity in NACE Rev. 2 (43.32) that the entry declares; one value per class."},
	{Term: "nextAvailableFrom", Kind: "property", Domain: nsNested, In: []string{"capacity"}, Range: []string{"xsd:date"},
		Definition: "The first day on which the business can take on new work, as it declared."},
	{Term: "note", Kind: "property", Domain: nsNested, In: []string{"capacity"}, Range: nsLocalText,
		Definition: "A short remark of the business on its capacity, in its own words."},
	{Term: "observedAt", Kind: "property", Domain: nsNested, In: []string{"provenance"}, Range: nsDateTime,
		Definition: "When the source stated this: when a register or website was read, or when the owner last updated it."},
	{Term: "path", Kind: "property", Domain: nsNested, In: []string{"provenance"}, Range: nsText,
		Definition: "The part of the entry the provenance item covers, as a JSON Pointer (RFC 6901) into the entry, such as /operator; / covers everything no other item covers."},
	{Term: "percent", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: []string{"xsd:decimal"},
		Definition: "In a deposit policy, the share of the price paid in advance, in per cent (more than 0, at most 100)."},
	{Term: "policy", Kind: "property", Domain: nsOnSubject, Range: nsStructured,
		Definition: "One of the business's policies (deposit, estimates, travel costs, warranty, cancellation, returns, minimum order), with its figures and its own summary. Payment policies appear here only on nodes without schema:paymentAccepted."},
	{Term: "policyType", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: nsText, Values: nsEnum[schemas.PolicyType](),
		Definition: "Which kind of policy this is; it decides which of the other policy properties apply."},
	{Term: "preferredName", Kind: "property", Domain: nsNested, In: []string{"voice"}, Range: nsText,
		Definition: "The name the business prefers to be called by. A stated preference, not an instruction."},
	{Term: "price", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: []string{"schema:PriceSpecification", "schema:UnitPriceSpecification"},
		Definition: "The price a policy sets, such as the charge per kilometre beyond daawid:freeWithinKm or the minimum order value."},
	{Term: "priceKind", Kind: "property", Domain: nsOnOffer, Range: nsText, Values: nsEnum[schemas.PriceKind](),
		Definition: "How to read the offer's price: fixed (schema:price), from (schema:minPrice is a minimum), range (schema:minPrice to schema:maxPrice) or on_request (no price is given; do not invent one)."},
	{Term: "provenance", Kind: "property", Domain: nsOnProfile, Range: nsStructured,
		Definition: "Who stated a part of the entry and when, with a reference to check it by; one value per part."},
	{Term: "reference", Kind: "property", Domain: nsNested, In: []string{"provenance"}, Range: nsText,
		Definition: "Where the statement can be checked: a register entry (Amtsgericht Wuppertal HRB 99901) or the address of the page it was taken from."},
	{Term: "referenceKind", Kind: "property", Domain: nsNested, In: []string{"provenance"}, Range: nsText, Values: nsEnum[schemas.ReferenceKind](),
		Definition: "What kind of page daawid:reference is: impressum means the data was taken from the business's legal notice."},
	{Term: "requiresUserConfirmation", Kind: "property", Domain: nsOnAction, Range: nsBoolean,
		Definition: "True when Daawid sends a request through the action only after the user has confirmed it; false for an action that hands the person over to the business's own system."},
	{Term: "revision", Kind: "property", Domain: nsOnProfile, Range: []string{"xsd:integer"},
		Definition: "The revision of the entry the document shows: 1 for the first, one more for each published change. It is part of the document's ETag."},
	{Term: "routeTo", Kind: "property", Domain: nsNested, In: []string{"routing"}, Range: []string{"schema:Action", "schema:ContactPoint"},
		Definition: "Where the business wants requests of this kind to go: one of its actions or public contact points, by its IRI."},
	{Term: "routing", Kind: "property", Domain: nsOnSubject, Range: nsStructured,
		Definition: "A routing rule of the business: for a kind of sender (daawid:audience) and a kind of request (daawid:intent), where to send it, or that it is declined. Agents must honour declines when they act towards the business."},
	{Term: "schemaVersion", Kind: "property", Domain: nsOnProfile, Range: nsText,
		Definition: "The version of the Daawid open format the entry is written in (0.1)."},
	{Term: "servesAnywhere", Kind: "property", Domain: []string{"schema:LocalBusiness", "schema:Organization"}, Range: nsBoolean,
		Definition: "True when the business works for customers wherever they are, beyond the places in schema:areaServed."},
	{Term: "source", Kind: "property", Domain: nsNested, In: []string{"provenance"}, Range: nsText, Values: nsEnum[schemas.ProvenanceSource](),
		Definition: "Who stated it: a public register, the owner of the entry, the business's website, or Daawid, which compiled it."},
	{Term: "status", Kind: "property", Domain: nsOnProfile, Range: nsText, Values: nsEnum[schemas.EntryStatus](),
		Definition: "The state of the entry: compiled by Daawid and not yet claimed (unclaimed), declared by its owner (published), with a verified domain (verified), with a lapsed verification (lapsed), or suspended, when nothing but that notice is shown."},
	{Term: "summary", Kind: "property", Domain: nsNested, In: []string{"policy"}, Range: nsLocalText,
		Definition: "The policy in the business's own words."},
	{Term: "tagline", Kind: "property", Domain: nsNested, In: []string{"voice"}, Range: nsLocalText,
		Definition: "A person's tagline: a short line describing their work. Organizations state it as schema:slogan instead."},
	{Term: "timeZone", Kind: "property", Domain: []string{"schema:LocalBusiness", "schema:Organization", "schema:Place"}, Range: nsText,
		Definition: "The IANA time zone (Europe/Berlin) in which the location's opening hours are given."},
	{Term: "tone", Kind: "property", Domain: nsNested, In: []string{"voice"}, Range: nsText,
		Definition: "A word for the tone in which the business wants to be described (warm, precise); one value per word. A stated preference, not an instruction."},
	{Term: "typicalLeadTime", Kind: "property", Domain: nsOnOffer, Range: nsStructured,
		Definition: "How long the offer usually takes from order to completion, as a range of ISO 8601 durations (daawid:min to daawid:max)."},
	{Term: "unsolicitedOutreach", Kind: "property", Domain: nsNested, In: []string{"agentPolicy"}, Range: nsText, Values: nsEnum[schemas.UnsolicitedOutreach](),
		Definition: "Whether the business accepts contact it did not ask for: allowed, no_sales (anything but sales pitches) or none."},
	{Term: "verification", Kind: "property", Domain: nsOnProfile, Range: nsStructured,
		Definition: "What Daawid has checked about who runs the entry: its level, the domains it checked, and when. It is about control of the entry, never about the quality of the business."},
	{Term: "verifiedAt", Kind: "property", Domain: nsNested, In: []string{"domain"}, Range: nsDateTime,
		Definition: "When Daawid verified that the business controls the domain."},
	{Term: "visits", Kind: "property", Domain: []string{"schema:LocalBusiness", "schema:Organization", "schema:Place"}, Range: nsText, Values: nsEnum[schemas.Visits](),
		Definition: "Whether customers can come to the location: walk_in, appointment_only or no_visits."},
	{Term: "voice", Kind: "property", Domain: nsOnSubject, Range: nsStructured,
		Definition: "How the business prefers to be described: names to use and avoid, formality, tone and points to stress. Following it is optional, and it never overrides what the user needs."},
}

// NamespaceIRI is the namespace of the daawid: terms: {BaseURL}/ns#.
func NamespaceIRI(s Site) string { return s.BaseURL + "/ns#" }

// nsPrefixes are the IRIs of the prefixes the vocabulary uses.
var nsPrefixes = [][2]string{
	{"rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
	{"rdfs", "http://www.w3.org/2000/01/rdf-schema#"},
	{"xsd", "http://www.w3.org/2001/XMLSchema#"},
	{"owl", "http://www.w3.org/2002/07/owl#"},
	{"schema", "https://schema.org/"},
}

const (
	nsTitle      = "The daawid: vocabulary"
	nsLicenseURL = "https://www.apache.org/licenses/LICENSE-2.0"
)

func nsIntro(s Site) string {
	return "Terms the Daawid registry uses in its JSON-LD where schema.org has none. The namespace IRI is " +
		NamespaceIRI(s) + "; the vocabulary extends schema.org and is published under the Apache License 2.0, like the registry's other schemas."
}

// NamespaceJSONLD is the vocabulary as JSON-LD (HTTP-38): one rdf:Property
// node per term with its label, definition, schema:domainIncludes and
// schema:rangeIncludes; an enumeration's values are an owl:oneOf datatype.
// Indented by two spaces, ending with a newline.
func NamespaceJSONLD(s Site) []byte {
	type ref struct {
		ID string `json:"@id"`
	}
	type list struct {
		List []string `json:"@list"`
	}
	type oneOf struct {
		Type  string `json:"@type"`
		OneOf list   `json:"owl:oneOf"`
	}
	type node struct {
		ID      string `json:"@id"`
		Type    string `json:"@type"`
		Label   string `json:"rdfs:label"`
		Comment string `json:"rdfs:comment"`
		Domain  []any  `json:"schema:domainIncludes,omitempty"`
		Range   []any  `json:"schema:rangeIncludes,omitempty"`
	}
	type doc struct {
		Context nsObject `json:"@context"`
		ID      string   `json:"@id"`
		Type    string   `json:"@type"`
		Label   string   `json:"rdfs:label"`
		Comment string   `json:"rdfs:comment"`
		License ref      `json:"schema:license"`
		Graph   []node   `json:"@graph"`
	}
	refs := func(curies []string) []any {
		out := make([]any, 0, len(curies))
		for _, c := range curies {
			out = append(out, ref{c})
		}
		return out
	}
	ctx := make(nsObject, 0, len(nsPrefixes)+1)
	for _, p := range nsPrefixes {
		ctx = append(ctx, [2]string{p[0], p[1]})
	}
	ctx = append(ctx, [2]string{"daawid", NamespaceIRI(s)})
	d := doc{Context: ctx, ID: s.BaseURL + "/ns", Type: "owl:Ontology", Label: nsTitle, Comment: nsIntro(s), License: ref{nsLicenseURL}}
	for _, t := range namespaceTerms {
		n := node{ID: "daawid:" + t.Term, Type: nsKindType(t.Kind), Label: t.Term, Comment: t.Definition, Domain: refs(t.Domain)}
		n.Range = refs(t.Range)
		if len(t.Values) > 0 {
			n.Range = append(n.Range, oneOf{Type: "rdfs:Datatype", OneOf: list{t.Values}})
		}
		d.Graph = append(d.Graph, n)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		panic("render: namespace json-ld: " + err.Error())
	}
	return b.Bytes()
}

// nsObject is a JSON object of strings whose members keep their order.
type nsObject [][2]string

func (m nsObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv[0])
		v, _ := json.Marshal(kv[1])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func nsKindType(kind string) string {
	switch kind {
	case "property":
		return "rdf:Property"
	case "class":
		return "rdfs:Class"
	}
	return "rdfs:Resource"
}

// NamespaceHTML is the vocabulary's page for people at /ns (HTTP-38):
// semantic HTML without script, one entry per term whose id is the term,
// so that {BaseURL}/ns#capacity lands on daawid:capacity.
func NamespaceHTML(s Site) []byte {
	type term struct {
		ID, Kind                 string
		Definition, Used, Values template.HTML
	}
	terms := make([]term, 0, len(namespaceTerms))
	for _, t := range namespaceTerms {
		var on, in []string
		for _, d := range t.Domain {
			if d == "schema:StructuredValue" && len(t.In) > 0 {
				continue // said by "in the value of daawid:…"
			}
			on = append(on, nsCurieHTML(d))
		}
		for _, p := range t.In {
			in = append(in, nsCurieHTML("daawid:"+p))
		}
		var used []string
		if len(on) > 0 {
			used = append(used, "used on "+strings.Join(on, ", "))
		}
		if len(in) > 0 {
			used = append(used, "used in the value of "+strings.Join(in, " and "))
		}
		var vals []string
		for _, r := range t.Range {
			vals = append(vals, nsCurieHTML(r))
		}
		values := strings.Join(vals, ", ")
		if len(t.Values) > 0 {
			var tokens []string
			for _, v := range t.Values {
				tokens = append(tokens, "<code>"+html.EscapeString(v)+"</code>")
			}
			values += "; one of " + strings.Join(tokens, ", ")
		}
		terms = append(terms, term{ID: t.Term, Kind: t.Kind, Definition: nsDefinitionHTML(t.Definition),
			Used: template.HTML(strings.Join(used, " and ")), Values: template.HTML(values)})
	}
	var b bytes.Buffer
	err := namespacePage.Execute(&b, map[string]any{"Base": s.BaseURL, "NS": NamespaceIRI(s), "Title": nsTitle,
		"License": nsLicenseURL, "Terms": terms})
	if err != nil {
		panic("render: namespace page: " + err.Error())
	}
	return b.Bytes()
}

// curieHTML writes a compact IRI as code, linked to its definition for
// schema: and daawid: terms.
func nsCurieHTML(c string) string {
	code := "<code>" + html.EscapeString(c) + "</code>"
	switch {
	case strings.HasPrefix(c, "schema:"):
		return `<a href="https://schema.org/` + html.EscapeString(strings.TrimPrefix(c, "schema:")) + `">` + code + "</a>"
	case strings.HasPrefix(c, "daawid:"):
		return `<a href="#` + html.EscapeString(strings.TrimPrefix(c, "daawid:")) + `">` + code + "</a>"
	}
	return code
}

var nsCurieInText = regexp.MustCompile(`\b(?:daawid|schema):[A-Za-z]+`)

// definitionHTML escapes a definition and links the compact IRIs in it.
func nsDefinitionHTML(def string) template.HTML {
	return template.HTML(nsCurieInText.ReplaceAllStringFunc(html.EscapeString(def), nsCurieHTML))
}

var namespacePage = template.Must(template.New("ns").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="alternate" type="application/ld+json" href="{{.Base}}/ns.jsonld">
<style>
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1b1b1b}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
dt{margin-top:1.25rem;font-weight:600}dd{margin-left:1.5rem}dd p{margin:.25rem 0}
.meta{color:#555;font-size:.9em}
</style>
</head>
<body>
<header><a href="{{.Base}}/">Daawid</a></header>
<main>
<h1>{{.Title}}</h1>
<p>These are the terms the Daawid registry uses in its JSON-LD where schema.org has none. Their namespace IRI is <code>{{.NS}}</code>: the term <code>daawid:capacity</code> is <code>{{.NS}}capacity</code>, which leads to its entry below. The vocabulary extends <a href="https://schema.org/">schema.org</a>: every entry document uses schema.org wherever it can, and defines the <code>daawid</code> prefix inline in its <code>@context</code>, so nobody has to fetch a remote context. Like the registry's other published schemas, the vocabulary is licensed under the <a href="{{.License}}">Apache License 2.0</a>. It is also available as <a href="{{.Base}}/ns.jsonld">JSON-LD</a>.</p>
<p>The values listed for a term are those version 0.1 of the format defines; treat any other value as unknown. Dates and times are ISO 8601 (RFC 3339) strings and durations are ISO 8601 durations (<code>P2D</code>, <code>P8W</code>). Localized text is language-tagged in the standalone <code>/{slug}.json</code> and a plain string in the page's language in the JSON-LD embedded in pages.</p>
<dl>
{{range .Terms}}<dt id="{{.ID}}"><code>daawid:{{.ID}}</code></dt>
<dd>
<p>{{.Definition}}</p>
<p class="meta">A {{.Kind}}{{if .Used}}, {{.Used}}{{end}}. {{if .Values}}Values: {{.Values}}.{{end}}</p>
</dd>
{{end}}</dl>
</main>
</body>
</html>
`))
