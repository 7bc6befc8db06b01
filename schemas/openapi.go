package schemas

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// The REST mirror as data (§8): every route with its parameters, answer
// type, caching and errors. OpenAPI 3.1 (REST-13) and the /docs/api page
// are generated from this table and the answer types, the same Go types
// the server marshals, so the description cannot drift from the answers.

// APIParam is one parameter of a route.
type APIParam struct {
	Name, In, Description string
	Required              bool
	Schema                map[string]any
	// Explode: a list given by repeating the parameter or comma-separated.
	List bool
}

// APIRoute is one route of the REST mirror.
type APIRoute struct {
	Method, Path, OperationID, Summary, Description string
	Tool                                            string // the MCP tool it mirrors, "" none
	Params                                          []APIParam
	Answer                                          any // the 200 answer's Go type
	AnswerMedia                                     string
	Cache                                           string // Cache-Control of a 200
	Buyer                                           bool   // needs a buyer key
	Errors                                          []string
	Conditional                                     bool // ETag, 304
	// Body is the request body's JSON Schema (nil: none); Created says a
	// new resource answers 201 with Location.
	Body    any
	Created bool
	Tag     string // "" the route area's: entries, or buyers
}

func pstr(pattern string) map[string]any { return map[string]any{"type": "string", "pattern": pattern} }

var (
	langParam     = APIParam{Name: "lang", In: "query", Description: "The language of the answer (BCP 47). The entry's default language when it does not have it.", Schema: pstr(LanguageTagPattern)}
	sectionsParam = APIParam{Name: "sections", In: "query", List: true, Description: "Only these sections (with the identity and provenance), comma-separated or repeated. With it, the answer is get_entry_sections'.",
		Schema: map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": sectionKeyStrings()}, "minItems": 1, "maxItems": 12}}
	entryErrors = []string{"invalid_input", "not_found", "gone", "rate_limited", "unavailable"}
)

func sectionKeyStrings() []any {
	out := make([]any, len(SectionKeys))
	for i, k := range SectionKeys {
		out[i] = string(k)
	}
	return out
}

// APIRoutes are the REST mirror's routes, in the order /docs/api lists
// them.
func APIRoutes() []APIRoute {
	entryRef := APIParam{Name: "entry", In: "path", Required: true, Description: "The entry's ID or slug.",
		Schema: map[string]any{"type": "string", "maxLength": 100}}
	return []APIRoute{
		{Method: "GET", Path: "/v1/entries/{id}", OperationID: "getEntry", Tool: "get_entry / get_entry_sections", Summary: "An entry by its ID",
			Description: "The entry's EntryView in one language (§6), whole or with only the sections asked for.",
			Params:      []APIParam{{Name: "id", In: "path", Required: true, Description: "The entry's ID.", Schema: pstr(IDPattern(PrefixEntry))}, langParam, sectionsParam},
			Answer:      EntryView{}, AnswerMedia: "application/json", Cache: "public, max-age=300, stale-while-revalidate=86400", Errors: entryErrors, Conditional: true},
		{Method: "GET", Path: "/v1/entries/by-slug/{slug}", OperationID: "getEntryBySlug", Tool: "get_entry / get_entry_sections", Summary: "An entry by its slug",
			Description: "As getEntry; a slug the entry had before finds it too.",
			Params:      []APIParam{{Name: "slug", In: "path", Required: true, Description: "The entry's slug.", Schema: pstr(SlugPattern)}, langParam, sectionsParam},
			Answer:      EntryView{}, AnswerMedia: "application/json", Cache: "public, max-age=300, stale-while-revalidate=86400", Errors: entryErrors, Conditional: true},
		{Method: "GET", Path: "/v1/entries/by-domain/{host}", OperationID: "getEntryByDomain", Tool: "get_entry({domain}) / get_entry_sections", Summary: "The verified entry of a website",
			Description: "The entry that has verified the domain, in or out of its grace period. The host may be an address, in capitals, an IDN, with or without www. No verified entry: not_found.",
			Params:      []APIParam{{Name: "host", In: "path", Required: true, Description: "A domain or an address with one (percent-encode slashes).", Schema: map[string]any{"type": "string", "maxLength": 2048}}, langParam, sectionsParam},
			Answer:      EntryView{}, AnswerMedia: "application/json", Cache: "public, max-age=300, stale-while-revalidate=86400", Errors: entryErrors, Conditional: true},
		{Method: "GET", Path: "/v1/entries/{entry}/offerings", OperationID: "getOfferings", Tool: "get_offerings", Summary: "An entry's offerings and prices",
			Description: "The offerings that fit: an offering needs half of the query's words, never more than two, and those with more come first. An audience keeps the offerings for it and those for everyone.",
			Params: []APIParam{entryRef,
				{Name: "q", In: "query", Description: "Words looked for in each offering's own text.", Schema: map[string]any{"type": "string", "maxLength": 200}},
				{Name: "category", In: "query", Description: "A category code, or a sector's code.", Schema: pstr(CategoryPattern)},
				{Name: "audience", In: "query", Schema: map[string]any{"type": "string", "enum": []any{"consumer", "business"}}},
				langParam,
				{Name: "limit", In: "query", Schema: map[string]any{"type": "integer", "minimum": 1, "maximum": 50, "default": 25}},
				{Name: "cursor", In: "query", Description: "nextCursor of the previous page.", Schema: map[string]any{"type": "string", "maxLength": 500}}},
			Answer: OfferingsAnswer{}, AnswerMedia: "application/json", Cache: "public, max-age=300, stale-while-revalidate=86400", Errors: entryErrors, Conditional: true},
		{Method: "GET", Path: "/v1/entries/{entry}/brand-kit", OperationID: "getBrandKit", Tool: "get_brand_kit", Summary: "An entry's brand kit",
			Description: "Logo and pictures as media views, colours, fonts with their self-hosted style sheets, corners: each only when the owner gave it.",
			Params:      []APIParam{entryRef, langParam},
			Answer:      BrandKitAnswer{}, AnswerMedia: "application/json", Cache: "public, max-age=300, stale-while-revalidate=86400", Errors: entryErrors, Conditional: true},
		{Method: "GET", Path: "/v1/search", OperationID: "search", Tool: "search", Summary: "Search entries",
			Description: "Entries that fit the words, in or serving the place, in the order the ranking policy (/docs/ranking) says. The same for every caller; no hit is sponsored.",
			Params: []APIParam{
				{Name: "q", In: "query", Required: true, Description: "The user's need in their words.", Schema: map[string]any{"type": "string", "minLength": 1, "maxLength": 200}},
				{Name: "outcome", In: "query", Description: "What the user wants to achieve: it helps the best fits come up and leaves nobody out; it isn't kept.", Schema: map[string]any{"type": "string", "maxLength": 500}},
				{Name: "place", In: "query", Description: "A town by any of its names, narrowed by what follows a comma (Paris, Texas). Not with postalCode.", Schema: map[string]any{"type": "string", "minLength": 2, "maxLength": 100}},
				{Name: "postalCode", In: "query", Description: "A postal code, whole or its first part; needs country.", Schema: map[string]any{"type": "string", "minLength": 3, "maxLength": 10}},
				{Name: "country", In: "query", Description: "The postal code's country (ISO 3166-1 alpha-2); no default.", Schema: pstr(`^[A-Za-z]{2}$`)},
				{Name: "radiusKm", In: "query", Description: "A limit on the distance, only when the user names one; needs a place.", Schema: map[string]any{"type": "number", "minimum": 1, "maximum": 200}},
				{Name: "category", In: "query", Description: "A category code, or a sector's code.", Schema: pstr(CategoryPattern)},
				{Name: "kind", In: "query", Schema: map[string]any{"type": "string", "enum": []any{"organization", "person"}}},
				{Name: "openAt", In: "query", Description: "Only entries open then, by each location's hours in its own time zone (RFC 3339).", Schema: map[string]any{"type": "string", "format": "date-time"}},
				{Name: "acceptingWork", In: "query", Description: "Only entries whose unexpired capacity is accepting or limited.", Schema: map[string]any{"type": "boolean"}},
				{Name: "verifiedOnly", In: "query", Description: "Only verified entries.", Schema: map[string]any{"type": "boolean", "default": false}},
				{Name: "lang", In: "query", Description: "The language the user writes in (BCP 47): words are stemmed in it, and hits show their texts in it when they have it.", Schema: pstr(LanguageTagPattern)},
				{Name: "limit", In: "query", Schema: map[string]any{"type": "integer", "minimum": 1, "maximum": 20, "default": 10}},
				{Name: "cursor", In: "query", Description: "nextCursor of the previous page.", Schema: map[string]any{"type": "string", "maxLength": 500}}},
			Answer: SearchOutput{}, AnswerMedia: "application/json", Cache: "public, max-age=60", Errors: []string{"invalid_input", "rate_limited", "unavailable"}},
		{Method: "POST", Path: "/v1/actions/{actionId}/runs", OperationID: "startRun", Tool: "request_quote / request_callback / request_appointment / send_message", Tag: "requests",
			Summary: "Start a request to a business",
			Description: "The action in the address says the kind; the body is that kind's input (the tool's, actionId may be left out), with the entry in entry. " +
				"Nothing is sent until the person confirms on Daawid's page, confirmUrl, with a code Daawid emails them. A new request answers 201 with Location; the same Idempotency-Key with the same body again within 24 hours answers 200 with the same request and a new link, which replaces the old one; the same key with another body is invalid_input. A handoff answers 200 with the business's URL.",
			Params: []APIParam{{Name: "actionId", In: "path", Required: true, Description: "The action's ID, from the entry's actions.", Schema: pstr(IDPattern(PrefixAction))},
				{Name: "Idempotency-Key", In: "header", Description: "8 to 64 characters; the same request with the same key within 24 hours is the same run. May be idempotencyKey in the body instead.", Schema: map[string]any{"type": "string", "minLength": 8, "maxLength": 64}}},
			Body: requestBody(), Created: true,
			Answer: ActionResult{}, AnswerMedia: "application/json", Cache: "no-store",
			Errors: []string{"invalid_input", "not_found", "gone", "action_unavailable", "outside_service_area", "confirmation_expired", "rate_limited", "unavailable"}},
		{Method: "GET", Path: "/v1/runs/{runId}", OperationID: "getRun", Tool: "get_request_status", Tag: "requests", Summary: "A request's status",
			Description: "The state of a request and when it changed, never what it says or who sent it. A request never sent is kept a day after it ran out, a sent one 90 days; a handoff is not kept.",
			Params:      []APIParam{{Name: "runId", In: "path", Required: true, Description: "The request's runId.", Schema: pstr(RunIDPattern)}},
			Answer:      RequestStatus{}, AnswerMedia: "application/json", Cache: "no-store", Errors: []string{"invalid_input", "not_found", "rate_limited", "unavailable"}},
		{Method: "GET", Path: "/v1/changes", OperationID: "getChanges", Summary: "The change feed (buyers)",
			Description: "Every change to a public projection, in sequence order, a page at a time. Needs a buyer key.",
			Params: []APIParam{{Name: "cursor", In: "query", Description: "nextCursor of the previous page; none: from the start.", Schema: map[string]any{"type": "string", "pattern": `^\d+$`}},
				{Name: "limit", In: "query", Schema: map[string]any{"type": "integer", "minimum": 1, "maximum": 10000, "default": 1000}}},
			Answer: ChangesAnswer{}, AnswerMedia: "application/json", Cache: "private, no-store", Buyer: true, Errors: []string{"invalid_input", "sign_in_required"}},
		{Method: "GET", Path: "/v1/exports", OperationID: "getExportsManifest", Summary: "The bulk exports' manifest (buyers)",
			Description: "Every export file of the current publication with its table, row count and SHA-256. Needs a buyer key.",
			AnswerMedia: "application/json", Cache: "private, no-store", Buyer: true, Errors: []string{"sign_in_required", "not_found"}},
		{Method: "GET", Path: "/v1/exports/{file}", OperationID: "getExportFile", Summary: "One export file (buyers)",
			Description: "A Parquet or JSON file the manifest names, with Range requests. Needs a buyer key.",
			Params:      []APIParam{{Name: "file", In: "path", Required: true, Description: "The file's path as the manifest gives it.", Schema: map[string]any{"type": "string"}}},
			AnswerMedia: "application/vnd.apache.parquet", Cache: "private, no-store", Buyer: true, Errors: []string{"sign_in_required", "not_found"}},
	}
}

// ErrorCodes are the §7.8 codes with the HTTP status the REST mirror
// answers each with (REST-30, D67) and what each means.
var ErrorCodes = []struct {
	Code    string
	Status  int
	Meaning string
}{
	{"not_found", 404, "No entry (or file) answers to what was asked."},
	{"gone", 410, "The entry was removed from the registry."},
	{"invalid_input", 422, "A parameter or field is wrong; issues names each mistake."},
	{"action_unavailable", 409, "The entry does not take this kind of request."},
	{"outside_service_area", 422, "The request is for a place the entry does not serve."},
	{"declined_by_business", 409, "The business declined the request."},
	{"rate_limited", 429, "More than 300 reads this minute from one address for one kind of reader; Retry-After says when to try again."},
	{"confirmation_expired", 410, "The confirmation link of a request ran out."},
	{"sign_in_required", 401, "The route needs a key or a sign-in."},
	{"changed_since", 409, "The entry changed after the revision the caller read."},
	{"not_live", 409, "The entry is not live."},
	{"not_allowed", 403, "The caller may not do this."},
	{"unavailable", 503, "The registry cannot answer now; try again."},
}

// OpenAPI is the REST mirror's OpenAPI 3.1 document for an API origin
// (REST-13), under Apache 2.0 like every published schema.
func OpenAPI(apiURL, baseURL string) []byte {
	r := reflector()
	r.AllowAdditionalProperties = true
	components := map[string]any{}
	ref := func(v any) map[string]any {
		s := r.Reflect(v)
		name := reflect.TypeOf(v).Name()
		for defName, def := range s.Definitions {
			applyFieldRules(defName, def)
			components[defName] = def
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	problem := ref(Problem{})
	statusOf := map[string]int{}
	for _, e := range ErrorCodes {
		statusOf[e.Code] = e.Status
	}
	paths := map[string]any{}
	for _, rt := range APIRoutes() {
		var params []any
		for _, p := range rt.Params {
			m := map[string]any{"name": p.Name, "in": p.In, "required": p.Required, "schema": p.Schema}
			if p.Description != "" {
				m["description"] = p.Description
			}
			if p.List {
				m["style"], m["explode"] = "form", true
			}
			params = append(params, m)
		}
		headers := map[string]any{"Cache-Control": map[string]any{"schema": map[string]any{"type": "string", "example": rt.Cache}}}
		if rt.Conditional {
			headers["ETag"] = map[string]any{"description": "Strong validator of this representation.", "schema": map[string]any{"type": "string"}}
			headers["Content-Language"] = map[string]any{"schema": map[string]any{"type": "string"}}
		}
		ok := map[string]any{"description": rt.Summary, "headers": headers}
		if rt.Answer != nil {
			ok["content"] = map[string]any{rt.AnswerMedia: map[string]any{"schema": ref(rt.Answer)}}
		} else {
			ok["content"] = map[string]any{rt.AnswerMedia: map[string]any{"schema": map[string]any{}}}
		}
		responses := map[string]any{"200": ok}
		if rt.Created {
			created := map[string]any{"description": "A new request.", "content": ok["content"],
				"headers": map[string]any{"Location": map[string]any{"description": "The request's status: /v1/runs/{runId}.", "schema": map[string]any{"type": "string"}},
					"Cache-Control": headers["Cache-Control"]}}
			responses["201"] = created
			headers["Location"] = map[string]any{"description": "With the same Idempotency-Key again: the request's status.", "schema": map[string]any{"type": "string"}}
		}
		if rt.Conditional {
			responses["304"] = map[string]any{"description": "Not modified: the If-None-Match matched."}
		}
		for _, code := range rt.Errors {
			st := strconv.Itoa(statusOf[code])
			if _, done := responses[st]; done {
				continue
			}
			resp := map[string]any{"description": code, "content": map[string]any{"application/problem+json": map[string]any{"schema": problem}}}
			if code == "rate_limited" {
				resp["headers"] = map[string]any{"Retry-After": map[string]any{"description": "Seconds to the next minute.", "schema": map[string]any{"type": "integer"}}}
			}
			responses[st] = resp
		}
		op := map[string]any{"operationId": rt.OperationID, "summary": rt.Summary, "description": rt.Description,
			"responses": responses, "tags": []string{tagOf(rt)}}
		if len(params) > 0 {
			op["parameters"] = params
		}
		if rt.Body != nil {
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": rt.Body}}}
		}
		if rt.Buyer {
			op["security"] = []any{map[string]any{"buyerKey": []any{}}}
		} else {
			op["security"] = []any{}
		}
		if rt.Tool != "" {
			op["x-mcp-tool"] = rt.Tool
		}
		paths[rt.Path] = map[string]any{strings.ToLower(rt.Method): op}
	}
	doc := map[string]any{
		"openapi": "3.1.1",
		"info": map[string]any{"title": "Daawid registry REST API", "version": SchemaVersion,
			"summary":     "The registry's reads and requests to businesses: the same data, inputs and error codes as its MCP server.",
			"description": "Reads are public and free for everyone, 300 a minute per kind of reader and address. Requests to a business wait until the person confirms them on Daawid's page with an emailed code. Errors are RFC 9457 problems. See " + baseURL + "/docs/api.",
			"license":     map[string]any{"name": "Apache 2.0", "identifier": "Apache-2.0"}},
		"servers":    []any{map[string]any{"url": apiURL}},
		"tags":       []any{map[string]any{"name": "entries", "description": "Entries, their offerings and brand kits."}, map[string]any{"name": "requests", "description": "Requests to businesses, confirmed by a person on Daawid's page."}, map[string]any{"name": "buyers", "description": "Bulk exports and the change feed, with a buyer key."}},
		"paths":      paths,
		"components": map[string]any{"schemas": components, "securitySchemes": map[string]any{"buyerKey": map[string]any{"type": "http", "scheme": "bearer", "description": "A buyer key (dwk_…)."}}},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("schemas: openapi: " + err.Error())
	}
	b = bytes.ReplaceAll(b, []byte(`#/$defs/`), []byte(`#/components/schemas/`))
	b = bytes.ReplaceAll(b, []byte(`\u003c`), []byte("<"))
	b = bytes.ReplaceAll(b, []byte(`\u003e`), []byte(">"))
	b = bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
	return append(b, '\n')
}

// requestBody is the body of startRun: one of the request tools' inputs
// (§8: the type's input, with actionId optional).
func requestBody() any {
	var kinds []any
	for _, t := range RequestTools() {
		if t.Name == "get_request_status" {
			continue
		}
		var in map[string]any
		if err := json.Unmarshal(t.Input, &in); err != nil {
			panic("schemas: request tool input: " + err.Error())
		}
		delete(in, "$schema")
		in["title"] = t.Name
		kinds = append(kinds, in)
	}
	return map[string]any{"oneOf": kinds, "description": "The input of the action's kind, as the MCP tool of that kind takes it."}
}

func tagOf(rt APIRoute) string {
	if rt.Tag != "" {
		return rt.Tag
	}
	if rt.Buyer {
		return "buyers"
	}
	return "entries"
}
