package schemas

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// SchemaBaseURL is where the published schemas live (PRIV-02).
const SchemaBaseURL = "https://daawid.example/schemas/0.1/"

// fieldRule adds keywords to one property of one type's schema.
type fieldRule func(*jsonschema.Schema)

func pattern(p string) fieldRule  { return func(s *jsonschema.Schema) { s.Pattern = p } }
func items(r fieldRule) fieldRule { return func(s *jsonschema.Schema) { r(s.Items) } }
func idOf(p IDPrefix) fieldRule   { return pattern(IDPattern(p)) }
func maxLen(n uint64) fieldRule {
	return func(s *jsonschema.Schema) { one := uint64(1); s.MinLength = &one; s.MaxLength = &n }
}
func all(rs ...fieldRule) fieldRule {
	return func(s *jsonschema.Schema) {
		for _, r := range rs {
			r(s)
		}
	}
}
func minItems(n uint64) fieldRule { return func(s *jsonschema.Schema) { s.MinItems = &n } }

var routePattern = `^(?:act|cp)_` + idBody + `$`

// fieldRules give the scalar types their formats, keyed by "Type.field"
// (Go type name, JSON field name). The same rules apply to the entry and to
// the views, so the published shapes agree.
var fieldRules = map[string]fieldRule{
	"SearchHit.id":                    idOf(PrefixEntry),
	"SearchHit.slug":                  pattern(SlugPattern),
	"SearchHit.categories":            items(pattern(CategoryPattern)),
	"SearchHit.sponsored":             func(s *jsonschema.Schema) { s.Const = false },
	"Entry.id":                        idOf(PrefixEntry),
	"Entry.slug":                      all(pattern(SlugPattern), func(s *jsonschema.Schema) { a, b := uint64(3), uint64(63); s.MinLength, s.MaxLength = &a, &b }),
	"Entry.defaultLanguage":           pattern(LanguageTagPattern),
	"Entry.languages":                 all(minItems(1), items(pattern(LanguageTagPattern))),
	"Entry.displayName":               maxLen(120),
	"Entry.alternateNames":            items(maxLen(120)),
	"Entry.categories":                all(minItems(1), items(pattern(CategoryPattern))),
	"Entry.naceCodes":                 items(pattern(NACEPattern)),
	"Entry.languagesSpoken":           items(pattern(LanguageTagPattern)),
	"Entry.profiles":                  items(pattern(HTTPSURLPattern)),
	"Entry.primaryLocationId":         idOf(PrefixLocation),
	"Entry.provenance":                minItems(1),
	"EntryView.id":                    idOf(PrefixEntry),
	"EntryView.slug":                  pattern(SlugPattern),
	"EntryView.language":              pattern(LanguageTagPattern),
	"Record.createdAt":                pattern(DateTimePattern),
	"Record.updatedAt":                pattern(DateTimePattern),
	"Record.lastConfirmedAt":          pattern(DateTimePattern),
	"Record.openReportAt":             pattern(DateTimePattern),
	"Verification.contactConfirmedAt": pattern(DateTimePattern),
	"Verification.lapsedAt":           pattern(DateTimePattern),
	"DomainCheck.host":                pattern(HostPattern),
	"DomainCheck.verifiedAt":          pattern(DateTimePattern),
	"DomainCheck.lastCheckedAt":       pattern(DateTimePattern),
	"DomainCheck.graceUntil":          pattern(DateTimePattern),
	"Domain.host":                     pattern(HostPattern),
	"Location.id":                     idOf(PrefixLocation),
	"Location.name":                   maxLen(80),
	"Location.timeZone":               pattern(TimeZonePattern),
	"LocationView.id":                 idOf(PrefixLocation),
	"Address.country":                 pattern(CountryPattern),
	"Address.locality":                maxLen(100),
	"Address.street":                  maxLen(200),
	"Address.extra":                   maxLen(200),
	"Address.postalCode":              maxLen(12),
	"HoursRule.days":                  minItems(1),
	"HoursRule.opens":                 pattern(LocalTimePattern),
	"HoursRule.closes":                pattern(LocalTimePattern),
	"HoursException.from":             pattern(DatePattern),
	"HoursException.to":               pattern(DatePattern),
	"HoursException.opens":            pattern(LocalTimePattern),
	"HoursException.closes":           pattern(LocalTimePattern),
	"RadiusCenter.locationId":         idOf(PrefixLocation),
	"ServicePlace.country":            pattern(CountryPattern),
	"ServicePlace.name":               maxLen(100),
	"ContactPoint.id":                 idOf(PrefixContact),
	"ContactPoint.name":               maxLen(80),
	"ContactPoint.phone":              pattern(PhonePattern),
	"ContactPoint.email":              func(s *jsonschema.Schema) { s.Format = "email" },
	"ContactPoint.languages":          items(pattern(LanguageTagPattern)),
	"ContactPoint.responseTime":       pattern(DurationPattern),
	"ContactPointView.id":             idOf(PrefixContact),
	"RoutingRule.routeTo":             pattern(routePattern),
	"Offering.id":                     idOf(PrefixOffering),
	"Offering.category":               pattern(CategoryPattern),
	"Offering.mediaIds":               items(idOf(PrefixMedia)),
	"OfferingView.id":                 idOf(PrefixOffering),
	"Price.amount":                    pattern(MoneyPattern),
	"Price.min":                       pattern(MoneyPattern),
	"Price.max":                       pattern(MoneyPattern),
	"Price.currency":                  pattern(CurrencyPattern),
	"PriceView.amount":                pattern(MoneyPattern),
	"PriceView.min":                   pattern(MoneyPattern),
	"PriceView.max":                   pattern(MoneyPattern),
	"PriceView.currency":              pattern(CurrencyPattern),
	"DurationRange.min":               pattern(DurationPattern),
	"DurationRange.max":               pattern(DurationPattern),
	"Action.id":                       idOf(PrefixAction),
	"Action.offeringIds":              items(idOf(PrefixOffering)),
	"Action.expectedResponse":         pattern(DurationPattern),
	"ActionView.id":                   idOf(PrefixAction),
	"Delivery.email":                  func(s *jsonschema.Schema) { s.Format = "email" },
	"Delivery.url":                    pattern(HTTPSURLPattern),
	"Question.key":                    pattern(QuestionKeyPattern),
	"Capacity.nextAvailableFrom":      pattern(DatePattern),
	"Capacity.asOf":                   pattern(DateTimePattern),
	"Capacity.expiresAt":              pattern(DateTimePattern),
	"Policy.currencies":               items(pattern(CurrencyPattern)),
	"Credential.id":                   idOf(PrefixCredential),
	"Credential.name":                 maxLen(200),
	"Credential.validFrom":            pattern(DatePattern),
	"Credential.validUntil":           pattern(DatePattern),
	"Organization.url":                pattern(HTTPSURLPattern),
	"Media.id":                        idOf(PrefixMedia),
	"Media.url":                       pattern(HTTPSURLPattern),
	"MediaView.id":                    idOf(PrefixMedia),
	"Brand.logo":                      idOf(PrefixMedia),
	"Brand.imagery":                   items(idOf(PrefixMedia)),
	"BrandColors.primary":             pattern(HexColorPattern),
	"BrandColors.onPrimary":           pattern(HexColorPattern),
	"BrandColors.accent":              pattern(HexColorPattern),
	"BrandColors.surface":             pattern(HexColorPattern),
	"BrandColors.text":                pattern(HexColorPattern),
	"FontRef.family":                  pattern(FontFamilyPattern),
	"Operator.legalName":              maxLen(200),
	"Operator.vatId":                  maxLen(20),
	"OperatorContact.email":           func(s *jsonschema.Schema) { s.Format = "email" },
	"OperatorContact.phone":           pattern(PhonePattern),
	"Profession.awardedIn":            pattern(CountryPattern),
	"PrivacyNotice.url":               pattern(HTTPSURLPattern),
	"Provenance.path":                 pattern(PointerPattern),
	"Provenance.observedAt":           pattern(DateTimePattern),
}

func reflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{
		BaseSchemaID: SchemaBaseURL,
		// Localized text types are named by their limit: Localized300.
		Namer: func(t reflect.Type) string {
			if m, ok := reflect.New(t).Elem().Interface().(interface{ Max() int }); ok && strings.HasPrefix(t.Name(), "Text[") {
				return "Localized" + strconv.Itoa(m.Max())
			}
			return t.Name()
		},
		// Enums are their own types; they publish their defined values.
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if vals := EnumValues(t); vals != nil {
				e := make([]any, len(vals))
				for i, v := range vals {
					e[i] = v
				}
				return &jsonschema.Schema{Type: "string", Enum: e}
			}
			return nil
		},
	}
}

// SchemaFiles are the published JSON Schemas under /schemas/0.1/, by file
// name. They are generated from the Go types; a test regenerates them and
// fails on any difference with the checked-in copies.
func SchemaFiles() map[string][]byte {
	out := map[string][]byte{}
	gen := func(name, title string, v any, strict bool) {
		r := reflector()
		// The entry is what owners write: checked strictly. The views are what
		// consumers read: they must ignore unknown fields (PRIV-08), so the view
		// schemas allow additional properties.
		r.AllowAdditionalProperties = !strict
		s := r.Reflect(v)
		s.ID = jsonschema.ID(SchemaBaseURL + name)
		s.Title = title
		for defName, def := range s.Definitions {
			applyFieldRules(defName, def)
		}
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			panic("schemas: " + name + ": " + err.Error())
		}
		b = bytes.ReplaceAll(b, []byte(`\u003c`), []byte("<"))
		b = bytes.ReplaceAll(b, []byte(`\u003e`), []byte(">"))
		b = bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
		out[name] = append(b, '\n')
	}
	gen("entry.json", "Daawid PublicEntry 0.1", &Entry{}, true)
	gen("entry-view.json", "Daawid EntryView 0.1", &EntryView{}, false)
	gen("offering-view.json", "Daawid OfferingView 0.1", &OfferingView{}, false)
	gen("brand-kit-view.json", "Daawid BrandKitView 0.1", &BrandKitView{}, false)
	out["openapi.json"] = OpenAPI("https://api.daawid.example", "https://daawid.example")
	return out
}

func applyFieldRules(defName string, def *jsonschema.Schema) {
	if def.Properties == nil {
		return
	}
	for pair := def.Properties.Oldest(); pair != nil; pair = pair.Next() {
		if r, ok := fieldRules[defName+"."+pair.Key]; ok {
			target := pair.Value
			if target.Ref != "" || (target.Type == "" && len(target.AnyOf) > 0) {
				continue
			}
			r(target)
		}
	}
	// A view field that holds localized text says its limit in the Go tag;
	// nothing to do here. Trim descriptions that invopop leaves empty.
	def.Description = strings.TrimSpace(def.Description)
}
