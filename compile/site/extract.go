package site

import (
	"encoding/json"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/daawid/registry/schemas"
	"golang.org/x/net/html"
)

// Page is what one fetched page yields.
type Page struct {
	URL        string
	Structured []Node // schema.org nodes from JSON-LD and microdata
	Phones     []string
	Emails     []string
	Profiles   []string
	LegalLinks []string // candidate legal-notice links, best first
	Lines      []string // the visible text, one block per line
}

// Node is a schema.org node: its types and properties as strings or
// nested nodes.
type Node struct {
	Types []string
	Props map[string][]any // string or Node
}

func (n Node) str(key string) string {
	for _, v := range n.Props[key] {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func (n Node) strs(key string) []string {
	var out []string
	for _, v := range n.Props[key] {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

func (n Node) node(key string) (Node, bool) {
	for _, v := range n.Props[key] {
		if m, ok := v.(Node); ok {
			return m, true
		}
	}
	return Node{}, false
}

func (n Node) nodes(key string) []Node {
	var out []Node
	for _, v := range n.Props[key] {
		if m, ok := v.(Node); ok {
			out = append(out, m)
		}
	}
	return out
}

// ExtractPage reads a parsed page. base is the page's URL (a <base href>
// in the page overrides it for relative links).
func ExtractPage(pageURL string, doc *goquery.Document) Page {
	p := Page{URL: pageURL}
	base, _ := url.Parse(pageURL)
	if href, ok := doc.Find("base[href]").First().Attr("href"); ok {
		if b, err := base.Parse(strings.TrimSpace(href)); err == nil {
			base = b
		}
	}
	doc.Find(`script[type="application/ld+json"]`).Each(func(_ int, s *goquery.Selection) {
		var v any
		if err := json.Unmarshal([]byte(s.Text()), &v); err != nil {
			return // a broken block is skipped; the page may have a good one
		}
		collectJSONLD(v, &p.Structured, 0)
	})
	doc.Find("[itemscope][itemtype]").Each(func(_ int, s *goquery.Selection) {
		if s.ParentsFiltered("[itemscope]").Length() > 0 {
			return // nested items are read with their parent
		}
		p.Structured = append(p.Structured, microdata(s, base))
	})
	type cand struct {
		url   string
		score int
	}
	var cands []cand
	seen := map[string]bool{}
	doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
		href := strings.TrimSpace(s.AttrOr("href", ""))
		low := strings.ToLower(href)
		switch {
		case strings.HasPrefix(low, "tel:"):
			p.Phones = appendNew(p.Phones, strings.TrimSpace(href[4:]))
			return
		case strings.HasPrefix(low, "mailto:"):
			addr := href[7:]
			if i := strings.IndexByte(addr, '?'); i >= 0 {
				addr = addr[:i]
			}
			if u, err := url.PathUnescape(addr); err == nil {
				addr = u
			}
			p.Emails = appendNew(p.Emails, strings.ToLower(strings.TrimSpace(addr)))
			return
		}
		u, err := base.Parse(href)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return
		}
		u.Fragment = ""
		if prof, ok := socialProfile(u); ok {
			p.Profiles = appendNew(p.Profiles, prof)
			return
		}
		if !sameSite(u, base) || seen[u.String()] {
			return
		}
		if score := legalLinkScore(strings.TrimSpace(s.Text()), u.Path); score > 0 {
			seen[u.String()] = true
			cands = append(cands, cand{u.String(), score})
		}
	})
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	for _, c := range cands {
		p.LegalLinks = append(p.LegalLinks, c.url)
	}
	p.Lines = textLines(doc)
	return p
}

func appendNew(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func sameSite(u, base *url.URL) bool {
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") == strings.TrimPrefix(strings.ToLower(base.Hostname()), "www.")
}

// legalLinkWords score link texts and paths that lead to a legal notice;
// "Kontakt" counts least, since a contact page only sometimes holds it.
var legalLinkWords = []struct {
	word  string
	score int
}{
	{"impressum", 10}, {"imprint", 10}, {"legal notice", 10}, {"legal-notice", 10}, {"mentions légales", 10},
	{"mentions legales", 10}, {"mentions-legales", 10}, {"aviso legal", 10}, {"aviso-legal", 10}, {"künye", 9},
	{"kunye", 9}, {"legal", 6}, {"anbieterkennzeichnung", 10}, {"informations légales", 8}, {"nota legal", 8},
	{"kontakt", 3}, {"contact", 2}, {"contacto", 2}, {"iletişim", 2}, {"iletisim", 2},
}

func legalLinkScore(text, path string) int {
	t := strings.ToLower(text + " " + path)
	best := 0
	for _, w := range legalLinkWords {
		if strings.Contains(t, w.word) && w.score > best {
			best = w.score
		}
	}
	// "Datenschutz", "privacy" pages mention "legal" words too; they are not it.
	if strings.Contains(t, "datenschutz") || strings.Contains(t, "privacy") || strings.Contains(t, "cookie") {
		return 0
	}
	return best
}

// socialHosts are the networks whose profile links count as profiles.
var socialHosts = map[string]bool{
	"instagram.com": true, "facebook.com": true, "linkedin.com": true, "youtube.com": true, "xing.com": true,
	"x.com": true, "twitter.com": true, "tiktok.com": true, "pinterest.com": true, "threads.net": true,
	"mastodon.social": true, "bsky.app": true,
}

// socialProfile recognises a profile link and returns it as https.
func socialProfile(u *url.URL) (string, bool) {
	h := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	h = strings.TrimPrefix(h, "de.")
	if strings.HasPrefix(h, "pinterest.") {
		h = "pinterest.com" // pinterest.de, pinterest.fr, …
	}
	if !socialHosts[h] || strings.Trim(u.Path, "/") == "" {
		return "", false
	}
	p := u.Path
	// share links, intents and single posts are not profiles
	for _, bad := range []string{"/share", "/sharer", "/intent", "/dialog", "/p/", "/reel/", "/watch", "/posts/", "/status/", "/photo", "/video/"} {
		if strings.HasPrefix(p, bad) || strings.Contains(p, "/status/") {
			return "", false
		}
	}
	return "https://" + strings.ToLower(u.Hostname()) + p, true
}

// collectJSONLD walks a JSON-LD value and keeps every node with a type.
func collectJSONLD(v any, out *[]Node, depth int) {
	if depth > 8 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collectJSONLD(e, out, depth+1)
		}
	case map[string]any:
		if g, ok := x["@graph"]; ok {
			collectJSONLD(g, out, depth+1)
		}
		if n, ok := jsonNode(x, depth); ok {
			*out = append(*out, n)
		}
	}
}

func jsonNode(m map[string]any, depth int) (Node, bool) {
	n := Node{Props: map[string][]any{}}
	switch t := m["@type"].(type) {
	case string:
		n.Types = []string{localName(t)}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				n.Types = append(n.Types, localName(s))
			}
		}
	}
	if len(n.Types) == 0 {
		return n, false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "@") {
			continue
		}
		var vals []any
		add := func(v any) {
			switch y := v.(type) {
			case string:
				vals = append(vals, y)
			case float64:
				vals = append(vals, strconv.FormatFloat(y, 'f', -1, 64))
			case map[string]any:
				if depth < 8 {
					if sub, ok := jsonNode(y, depth+1); ok {
						vals = append(vals, sub)
					} else if s, ok := y["@value"].(string); ok {
						vals = append(vals, s)
					}
				}
			}
		}
		if arr, ok := m[k].([]any); ok {
			for _, e := range arr {
				add(e)
			}
		} else {
			add(m[k])
		}
		if len(vals) > 0 {
			n.Props[localName(k)] = vals
		}
	}
	return n, true
}

// localName drops a schema.org prefix: "https://schema.org/Bakery",
// "schema:Bakery" → "Bakery".
func localName(s string) string {
	if i := strings.LastIndexAny(s, "/:#"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// microdata reads an itemscope element and its itemprops.
func microdata(s *goquery.Selection, base *url.URL) Node {
	n := Node{Props: map[string][]any{}}
	for _, t := range strings.Fields(s.AttrOr("itemtype", "")) {
		n.Types = append(n.Types, localName(t))
	}
	s.Find("[itemprop]").Each(func(_ int, p *goquery.Selection) {
		// only the props of this item, not of nested items
		if owner := p.ParentsFiltered("[itemscope]").First(); owner.Length() > 0 && !owner.IsSelection(s) {
			return
		}
		for _, name := range strings.Fields(p.AttrOr("itemprop", "")) {
			var v any
			if _, ok := p.Attr("itemscope"); ok {
				v = microdata(p, base)
			} else {
				v = itempropValue(p, base)
			}
			n.Props[name] = append(n.Props[name], v)
		}
	})
	return n
}

func itempropValue(p *goquery.Selection, base *url.URL) string {
	if c, ok := p.Attr("content"); ok {
		return strings.TrimSpace(c)
	}
	for _, attr := range []string{"href", "src"} {
		if v, ok := p.Attr(attr); ok {
			if u, err := base.Parse(strings.TrimSpace(v)); err == nil {
				return u.String()
			}
		}
	}
	if v, ok := p.Attr("datetime"); ok {
		return v
	}
	return strings.Join(strings.Fields(p.Text()), " ")
}

// blockTags end a line of text.
var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "address": true, "section": true, "article": true, "footer": true, "header": true,
	"dt": true, "dd": true, "table": true, "ul": true, "ol": true, "dl": true, "main": true, "aside": true,
	"blockquote": true, "hr": true, "td": true, "th": true, "nav": true, "form": true,
}

// textLines is the page's visible text, a line per block or <br>.
func textLines(doc *goquery.Document) []string {
	var lines []string
	var cur strings.Builder
	flush := func() {
		if s := strings.Join(strings.Fields(cur.String()), " "); s != "" {
			lines = append(lines, s)
		}
		cur.Reset()
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			cur.WriteString(n.Data)
			return
		case html.ElementNode:
			switch n.Data {
			case "script", "style", "noscript", "template", "svg", "head":
				return
			}
			if blockTags[n.Data] {
				flush()
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockTags[n.Data] {
			flush()
		}
	}
	for _, n := range doc.Nodes {
		walk(n)
	}
	flush()
	return lines
}

// structuredFacts reads the business facts from schema.org nodes: the
// first node that is a business, organization or person.
func structuredFacts(f *Facts, nodes []Node, region string) {
	for _, n := range nodes {
		if !isBusinessType(n.Types) {
			continue
		}
		if f.Name == "" {
			f.Name = n.str("name")
		}
		f.Types = appendAll(f.Types, n.Types)
		if f.Telephone == "" {
			if p, ok := E164(n.str("telephone"), region); ok {
				f.Telephone = p
			}
		}
		if f.Email == "" {
			f.Email = cleanEmail(n.str("email"))
		}
		if f.Address == nil {
			if a, ok := n.node("address"); ok {
				f.Address = postalAddress(a, region)
			}
		}
		if f.Geo == nil {
			if g, ok := n.node("geo"); ok {
				lat, e1 := strconv.ParseFloat(g.str("latitude"), 64)
				lng, e2 := strconv.ParseFloat(g.str("longitude"), 64)
				if e1 == nil && e2 == nil && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && (lat != 0 || lng != 0) {
					f.Geo = &schemas.Geo{Lat: lat, Lng: lng}
				}
			}
		}
		if f.Hours == nil {
			f.Hours = openingHours(n)
		}
		// The site's own sameAs names its profiles, on whatever host.
		for _, s := range n.strs("sameAs") {
			if u, err := url.Parse(s); err == nil && u.Host != "" && (u.Scheme == "https" || u.Scheme == "http") {
				u.Scheme = "https"
				f.SameAs = appendNew(f.SameAs, u.String())
			}
		}
	}
}

func appendAll(list, add []string) []string {
	for _, s := range add {
		list = appendNew(list, s)
	}
	return list
}

// isBusinessType is true for the schema.org types a business describes
// itself with (Organization, LocalBusiness and their subtypes, Person).
func isBusinessType(types []string) bool {
	for _, t := range types {
		switch t {
		case "WebSite", "WebPage", "BreadcrumbList", "ListItem", "SiteNavigationElement", "ImageObject",
			"PostalAddress", "GeoCoordinates", "OpeningHoursSpecification", "Offer", "Product", "FAQPage",
			"Question", "Answer", "Article", "BlogPosting", "Event", "Review", "AggregateRating", "ContactPoint":
			continue
		}
		return true
	}
	return false
}

func postalAddress(a Node, region string) *schemas.Address {
	addr := &schemas.Address{
		Street:     a.str("streetAddress"),
		PostalCode: a.str("postalCode"),
		Locality:   a.str("addressLocality"),
		Region:     a.str("addressRegion"),
		Country:    strings.ToUpper(a.str("addressCountry")),
	}
	if c, ok := a.node("addressCountry"); ok {
		addr.Country = strings.ToUpper(c.str("name"))
	}
	if len(addr.Country) != 2 {
		addr.Country = region
	}
	if addr.Locality == "" {
		return nil
	}
	return addr
}

var dayTokens = map[string]schemas.DayOfWeek{
	"monday": "mon", "tuesday": "tue", "wednesday": "wed", "thursday": "thu", "friday": "fri", "saturday": "sat", "sunday": "sun",
	"mo": "mon", "tu": "tue", "we": "wed", "th": "thu", "fr": "fri", "sa": "sat", "su": "sun",
}

var hhmm = regexp.MustCompile(`^([01]?\d|2[0-4]):([0-5]\d)`)

func normTime(s string) (string, bool) {
	m := hhmm.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", false
	}
	h := m[1]
	if len(h) == 1 {
		h = "0" + h
	}
	return h + ":" + m[2], true
}

// openingHours reads openingHoursSpecification nodes and openingHours
// strings ("Mo-Fr 08:00-17:00").
func openingHours(n Node) []schemas.HoursRule {
	var rules []schemas.HoursRule
	for _, s := range n.nodes("openingHoursSpecification") {
		opens, ok1 := normTime(s.str("opens"))
		closes, ok2 := normTime(s.str("closes"))
		if !ok1 || !ok2 || s.str("validFrom") != "" {
			continue
		}
		var days []schemas.DayOfWeek
		for _, d := range s.strs("dayOfWeek") {
			if day, ok := dayTokens[strings.ToLower(localName(d))]; ok {
				days = append(days, day)
			}
		}
		if len(days) > 0 {
			rules = append(rules, schemas.HoursRule{Days: days, Opens: opens, Closes: closes})
		}
	}
	for _, s := range n.strs("openingHours") {
		for _, part := range strings.Split(s, ",") {
			f := strings.Fields(part)
			if len(f) != 2 {
				continue
			}
			days := dayRange(f[0])
			a, b, ok := strings.Cut(f[1], "-")
			if !ok {
				continue
			}
			opens, ok1 := normTime(a)
			closes, ok2 := normTime(b)
			if len(days) > 0 && ok1 && ok2 {
				rules = append(rules, schemas.HoursRule{Days: days, Opens: opens, Closes: closes})
			}
		}
	}
	return rules
}

// dayRange reads "Mo-Fr" or "Sa".
func dayRange(s string) []schemas.DayOfWeek {
	a, b, isRange := strings.Cut(strings.ToLower(s), "-")
	da, ok := dayTokens[a]
	if !ok {
		return nil
	}
	if !isRange {
		return []schemas.DayOfWeek{da}
	}
	db, ok := dayTokens[b]
	if !ok {
		return nil
	}
	var out []schemas.DayOfWeek
	in := false
	for _, d := range schemas.DaysOfWeek {
		if d == da {
			in = true
		}
		if in {
			out = append(out, d)
		}
		if d == db && in {
			break
		}
	}
	return out
}
