package render

import (
	"bytes"
	"html/template"
	"slices"
	"strings"

	"github.com/daawid/registry/schemas"
)

// The documentation the contract cites as identifiers.md and
// verification.md (DISC-06), the public price list (PRIV-25, DISC-09) and
// the schemas' index (PRIV-02), written from the decisions this engine
// took (docs/decisions.md, cited by number) and with the site's own
// addresses.

// identifiersMarkdown is /docs/identifiers.md.
func identifiersMarkdown(s Site) string {
	b := s.BaseURL
	r := strings.NewReplacer("{base}", b, "{api}", s.APIURL, "{mcp}", s.MCPURL)
	prefixes := "| Prefix | Names |\n|---|---|\n" +
		"| `" + string(schemas.PrefixEntry) + "_` | an entry (a person or an organization) |\n" +
		"| `" + string(schemas.PrefixOffering) + "_` | an offering |\n" +
		"| `" + string(schemas.PrefixAction) + "_` | an action (a request the entry takes) |\n" +
		"| `" + string(schemas.PrefixContact) + "_` | a contact point |\n" +
		"| `" + string(schemas.PrefixLocation) + "_` | a location |\n" +
		"| `" + string(schemas.PrefixCredential) + "_` | a credential |\n" +
		"| `" + string(schemas.PrefixMedia) + "_` | a media item |\n" +
		"| `" + string(schemas.PrefixRun) + "_` | a run of an action (a request being made) |\n"
	return r.Replace(`# Identifiers and addresses

How entries and their parts are named, where each representation lives, what happens when a name changes, and how an owner's own domain points to its entry.

## 1. IDs

Every object has an ID: a prefix, an underscore and a ULID written in 26 lower-case Crockford base-32 characters (pattern `+"`^{prefix}_[0-7][0-9a-hjkmnp-tv-z]{25}$`"+`), for example `+"`ent_01k8r2m5n7p9q3s4t6v8w0x2yz`"+`. IDs never change and are never reused: pass them to tools as they are.

`+prefixes+`
Entries compiled from a register get IDs whose time is the run's and whose randomness is a hash of the register key, so compiling again gives the same IDs; their locations and contact points get IDs derived the same way (D47).

## 2. Slugs

A slug is an entry's name in addresses: lower-case letters and digits in words joined by hyphens (`+"`^[a-z0-9]+(-[a-z0-9]+)*$`"+`), 3 to 63 characters, and never one of the registry's own top-level names (about, admin, api, assets, auth, claim, confirm, console, docs, export, exports, feeds, help, id, llms, login, mcp, media, ns, privacy, robots, schemas, search, sitemap, static, status, terms, v1, well-known, www; D30). A slug is the display name transliterated (ä becomes ae, accents are dropped); on a collision the town is added, then a number (D47).

## 3. Addresses

| Address | What |
|---|---|
| `+"`{base}/{slug}`"+` | The page for people in the default language, or the markdown when Accept prefers `+"`text/markdown`"+` |
| `+"`{base}/{slug}/{lang}`"+` | The page in another language |
| `+"`{base}/{slug}.md`"+` | The markdown document in the default language |
| `+"`{base}/{slug}/{lang}.md`"+` | The markdown in `+"`{lang}`"+`; for the default language it redirects (301) to `+"`{base}/{slug}.md`"+`, and a language the entry lacks is 404 (HTTP-03) |
| `+"`{base}/{slug}/offerings.md`"+` | Every offering, when the markdown lists only the first 25 |
| `+"`{base}/{slug}.json`"+` | The JSON-LD, every language |
| `+"`{base}/id/{entryId}`"+` | The entry's subject IRI: it names the business or person, not a document, and answers 303 See Other to the page (or to the markdown or JSON-LD, by Accept) |
| `+"`{api}/v1/entries/{entryId}`"+` | The native JSON view (also by slug, and by domain at `+"`/v1/entries/by-domain/{host}`"+`) |
| `+"`{base}/{slug}/report`"+` | Report a problem with the entry |
| `+"`{base}/claim/{entryId}`"+` | Claim the entry: where its owner starts |
| `+"`{mcp}`"+` | The MCP server; `+"`get_entry`"+` takes an ID, a slug or a domain |

## 4. When a name changes

Every slug ever given, current or former, stays reserved for its entry. When an entry's slug changes, every address under the old slug answers 301 Moved Permanently to the same address under the new one (`+"`/{old}.md`"+` to `+"`/{new}.md`"+`; D47, D70). IDs never change, so an address by ID always finds the entry. An entry that leaves the registry answers 410 Gone.

## 5. The pointer on an owner's domain

The strongest link between a business and its entry is the business's own domain. An owner proves control of a website in one of three ways (method names as in `+"`verification.domains[].method`"+`): a DNS TXT record (`+"`dns_txt`"+`), a file on the website (`+"`well_known_file`"+`) or a meta tag on its home page (`+"`meta_tag`"+`), each holding the value Daawid gives the owner. Once verified, the domain finds the entry: `+"`{api}/v1/entries/by-domain/{host}`"+` and `+"`get_entry`"+` with a domain (letters in any case, `+"`www.`"+` stripped, international names as written) answer with the entry that verified it, in or out of its grace period (D7).

## 6. Versions

This is version 0.1 of the format. Changes within a version are additive only: readers ignore fields they do not know and treat unknown enum values as unknown. A breaking change would be a new major version, served in parallel.
`) + docsFooter(s)
}

// verificationMarkdown is /docs/verification.md.
func verificationMarkdown(s Site) string {
	r := strings.NewReplacer("{base}", s.BaseURL, "{mcp}", s.MCPURL)
	return r.Replace(`# Verification

What "verified" means on Daawid, and what it does not. Verification is about who runs an entry. Daawid does not check declared facts: prices, capacity, offerings and policies are what the owner says, shown with who said it and when (provenance).

## 1. Levels

An entry's `+"`verification.level`"+` says what Daawid has checked. Each level includes what the ones before it prove.

| Level | What Daawid checked | What it proves | How long it lasts |
|---|---|---|---|
| `+"`none`"+` | Nothing about who runs the entry | Nothing: the entry is unclaimed (compiled from public sources) or declared by someone whose control Daawid has not confirmed | — |
| `+"`contact`"+` | An email address of the entry, by a code sent to it (when claiming: an address at one of the entry's domains) | That someone reading that address declared the entry; not who runs the business | Until the entry is verified at a higher level or suspended; the date is shown (`+"`contactConfirmedAt`"+`) |
| `+"`domain`"+` | Control of a website named in the entry, by a DNS TXT record or a file on the website (section 4) | That whoever runs that website declared the entry | While the domain's re-checks pass. A failed re-check starts a grace period (`+"`graceUntil`"+`) during which the entry stays verified; when it ends with no domain verified, the entry's verification lapses (D7, D49) |
| `+"`business`"+` | The domain, and the business's registration | The above, and that the business exists in its register | As for domain |
| `+"`identity`"+` | The domain, and the person's identity | The above, for a person | As for domain |

## 2. Status

`+"`status`"+` follows from what was checked (D6, D49):

- `+"`unclaimed`"+`: compiled by Daawid from public sources, nobody has claimed it. Its documents say so and link the claim page (`+"`{base}/claim/{entryId}`"+`).
- `+"`published`"+`: claimed and declared by its owner, at level none or contact.
- `+"`verified`"+`: level domain, business or identity with at least one domain verified or in grace.
- `+"`lapsed`"+`: verification ended (`+"`verification.lapsedAt`"+`): information may be outdated.
- `+"`suspended`"+`: Daawid suspended the entry; only a notice is shown.

Every change of level or status is a new revision of the entry, dated, so a document never shows a verification that has ended (D4).

### 2.1 Below level domain

Entries below level domain are shown with care: for their first 30 days, and while an abuse report is open, their pages for people carry `+"`noindex`"+`, and links their owners gave carry `+"`rel=\"ugc nofollow\"`"+`. At most 20 requests a day are sent to them through actions. Anyone can report an entry at `+"`{base}/{slug}/report`"+`; a report keeps the page out of search indexes until moderators close it (D68).

## 3. What it does not mean

"Verified" is never "certified", "trusted", "approved" or "recommended". Present Daawid data with the contract's wording (§2.3): for a verified entry, "Information provided by {displayName}. Daawid confirmed on {date} that this business controls {host}."; at level contact, "On {date}, Daawid confirmed an email address for this entry, not who runs it."; for an unclaimed entry, "Compiled by Daawid from public sources; not confirmed by the business."

Credentials (licences, memberships) are separate: each says whether it is `+"`self_declared`"+` or `+"`verified`"+` by Daawid, and one past its `+"`validUntil`"+` date is no longer shown (D31).

## 4. Claiming an entry

An unclaimed entry links its claim page, `+"`{base}/claim/{entryId}`"+`. Whoever proves control of one of the entry's domains becomes its owner. Only an entry that names a website can be claimed online, since every proof is about a domain, and an entry that has an owner cannot be claimed again.

1. On the claim page, type your email address (you sign in with it later to manage the entry), choose the domain if the entry names several, and one of the three proofs below.
2. Daawid emails a six-digit code to that address. Type it on your claim's page; it works for 15 minutes, and a claim gets 3 codes and 5 tries.
3. For a DNS record or a file, your claim's page shows a value (it starts with `+"`dv1-`"+`). It belongs to that claim alone: keep it to yourself until it is in place. Put it where the table says and press "Check now". A claim waits 7 days for it.

| Proof | What you do | Level it gives |
|---|---|---|
| A code mailed to an address at the domain | Type an address at the domain in step 1 (for `+"`example.com`"+` or `+"`www.example.com`"+`: `+"`someone@example.com`"+`); the code of step 2 is the proof | `+"`contact`"+`: a mailbox at the domain shows that someone reading it claimed the entry, not that they run the website |
| A DNS TXT record | Add a TXT record to the domain itself (the name `+"`@`"+` in most DNS panels) whose text is `+"`daawid-verification={value}`"+`; Daawid looks it up through the resolver | `+"`domain`"+` (method `+"`dns_txt`"+`), status verified |
| A file on the website | Put a plain-text file at `+"`https://{host}/.well-known/daawid-verification.txt`"+` (RFC 8615) whose first line is the value; Daawid fetches it over https from the domain's public address | `+"`domain`"+` (method `+"`well_known_file`"+`), status verified |

When the code and the proof are done, the page says "Claimed.". The claim becomes two things the pipeline merges: the entry as it reads then, now declared by its owner, and the proof's verification event. The next publication carries both, within a minute on the registry's schedule: the entry's documents no longer read as unclaimed, and its status is `+"`published`"+` (level contact) or `+"`verified`"+` (level domain). A wrong or expired code, a record or file that does not hold the value, or a claim that ran out claims nothing (D96).

## 5. Owners

An owner keeps the entry true from the AI app they already use, through the owner tools of Daawid's MCP server (`+"`{mcp}`"+`), which take an OAuth 2.1 access token with the scope `+"`entries:write`"+`; every other tool works without one. When the app first calls an owner tool, it opens Daawid's connect page: the owner signs in there with the address the claim confirmed and a code Daawid emails to it, and allows or denies the app, which the page names by its address.

- `+"`list_my_entries`"+`: the owner's entries, each with its newest revision and any change that waits for the owner's email.
- `+"`set_capacity`"+`: how busy the business is (status, when new work can start, lead time, a note); it is dated when set and expires after `+"`days`"+` (1 to 30, default 30).
- `+"`update_entry`"+`: any of the entry's declared fields, as `+"`get_entry`"+` shows them, sent with the revision the app read. A field left out stays, `+"`null`"+` removes it, a list replaces the whole list, and phone numbers may be written as pages show them.
- `+"`confirm_entry`"+`: the owner says the entry is still true (`+"`lastConfirmedAt`"+`).

A change becomes a new revision at the next publication, within a minute. A change to the name, contact details, addresses or legal details waits: Daawid emails the owner a link to a page that names the entry, and the change goes live only once the owner presses "Confirm the change" there; the link works once, for 24 hours. Signed in on the connect page, the owner can download each of their entries in the open format; private contact points, where requests are delivered and streets shown only by town stay in Daawid's pipeline and are not in the file. Status and verification never come from what an owner declares, only from Daawid's checks (D50).
`) + docsFooter(s)
}

// pricesMarkdown is /docs/prices.md, the one public price list (PRIV-25,
// DISC-09): the same data, freshness and terms for every buyer. The
// prices are published terms, not configuration: they are the same for
// every deployment of this engine until a new engine version says
// otherwise (decision recorded with this page).
func pricesMarkdown(s Site) string {
	r := strings.NewReplacer("{base}", s.BaseURL, "{api}", s.APIURL, "{mcp}", s.MCPURL)
	return r.Replace(`# Price list

Reading entries is free, and always will be: every entry's markdown, JSON-LD, page and API view, search and the MCP tools need no key, for every AI, agent and person alike, under the same fair-use limit of 300 reads a minute (PRIV-23).

Two feeds need a buyer key, because they copy the whole registry at once. They are sold on this one list: the same data, the same freshness and the same terms for every buyer (PRIV-25, DISC-09).

| Feed | Where | What | Freshness | Price |
|---|---|---|---|---|
| Bulk exports | `+"`{api}/v1/exports`"+` | Every listed entry, its offerings and locations as Parquet files, partitioned by country, and the change feed's table | Rebuilt every night | Free during the pilot (0.00 EUR) |
| Change feed | `+"`{api}/v1/changes`"+` | Every change to an entry (created, updated, removed, suspended, unlisted, expired) in order, from any point | Every minute | Free during the pilot (0.00 EUR) |

## Terms, the same for every buyer

1. One price for everyone: no tiers, no volume discounts, no exclusive licences, no early or preferential access.
2. Every key opens the same files at the same freshness. A key is sent as `+"`Authorization: Bearer dwk_…`"+`; it is shown once, when it is made, and Daawid keeps only its hash.
3. The feeds hold only what the public projections show: no private contact points, no street for addresses shown at locality level, no expired capacity.
4. Keep attributing: "according to {displayName} (via Daawid)", and present verification as the [verification](`+"{base}"+`/docs/verification.md) page says.
5. A key is revoked only for a breach of these terms.
6. Prices are published here at least 90 days before they apply, to every buyer at once, and a price never applies to data already delivered.

To get a key, ask the registry's operator; every request gets a key on these terms.
`) + docsFooter(s)
}

// SchemaIndexPath is the index of the published schemas (PRIV-02).
const SchemaIndexPath = "/schemas/0.1/"

// SchemaIndexPage is /schemas/0.1/: every published schema file, with
// what it describes and its licence (PRIV-02: the reference schemas are
// Apache 2.0).
func SchemaIndexPage(s Site) []byte {
	what := map[string]string{
		"entry.json":          "An entry as owners write it (JSON Schema 2020-12): refuses unknown fields.",
		"entry-view.json":     "The native JSON view of an entry, as the API and MCP answer it.",
		"offering-view.json":  "One offering, as the offerings answers list it.",
		"brand-kit-view.json": "An entry's brand kit, as the API answers it.",
		"openapi.json":        "The REST API (OpenAPI 3.1).",
	}
	type file struct{ Name, What string }
	var files []file
	for name := range schemas.SchemaFiles() {
		files = append(files, file{name, what[name]})
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.Name, b.Name) })
	var b bytes.Buffer
	if err := schemaIndexHTML.Execute(&b, map[string]any{"Base": s.BaseURL, "Files": files}); err != nil {
		panic("render: schema index: " + err.Error())
	}
	return b.Bytes()
}

var schemaIndexHTML = template.Must(template.New("schemas").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Published schemas 0.1 · Daawid</title>
<style>
` + docStyle + `
</style>
</head>
<body>
<header><a href="{{.Base}}/">Daawid</a></header>
<main>
<h1>Published schemas, version 0.1</h1>
<p>The reference schemas of Daawid's open format, licensed under the <a href="https://www.apache.org/licenses/LICENSE-2.0">Apache License 2.0</a>. What each field means: <a href="{{.Base}}/docs/entry-schema">the entry schema</a>. The data contract they belong to is CC BY 4.0: <a href="{{.Base}}/docs/data-contract">the data contract</a>.</p>
<ul>
{{range .Files}}<li><a href="{{$.Base}}/schemas/0.1/{{.Name}}"><code>{{.Name}}</code></a>: {{.What}}</li>
{{end}}</ul>
</main>
<footer><a href="{{.Base}}/docs/api">API</a> · <a href="{{.Base}}/docs/prices">Prices</a> · <a href="{{.Base}}/privacy">Privacy</a></footer>
</body>
</html>
`))
