// Package taxonomy is the category taxonomy of Daawid, the open registry of businesses and people.
//
// Every entry of the registry names what it does with one or more category codes. The codes are
// stable identifiers read by AI agents, search engines and the registry's own pipeline, so they
// are plain ASCII and never translated; people see the labels instead.
//
// # Sectors and codes
//
// Categories are grouped in sectors. A sector code is a lower-case word ("trades", "food",
// "health"); a category code is the sector, a dot and a lower-case name that may contain
// underscores ("trades.carpentry", "food.bakery", "services.hairdresser"). Sector codes are valid
// codes too: Lookup and Label accept them, so that a user interface can show a sector heading the
// same way as a category. The taxonomy aims at what small businesses and self-employed people in
// Europe do, from crafts and shops to clinics, clubs and religious communities; a category is a
// kind of business as people search for it, which is why e.g. a joinery (Tischlerei) and a timber
// framer (Zimmerei) are separate even though OpenStreetMap and English blur them.
//
// # Labels
//
// Each code has a label, the name of such a business, in at least German, English, French,
// Spanish, Turkish, Italian, Dutch and Polish ("trades.carpentry" is "Tischlerei" in German).
// Label falls back from a regional tag to its language ("de-AT" to "de"), then to English, so
// that callers never have to handle a missing translation.
//
// # schema.org
//
// Each category names the most specific schema.org type that fits and that exists in schema.org:
// Plumber, Dentist, Bakery and HairSalon exist, a carpenter does not and falls back to its parent
// HomeAndConstructionBusiness. Only subtypes of Organization (including LocalBusiness) are used,
// because the registry describes organizations: a place-only type such as Museum or Church would
// drop properties like legalName or founder from the published JSON-LD. Hence museums and zoos are
// EntertainmentBusiness, religious communities Organization. Doctors' practices are Physician
// whatever their specialty, because schema.org models the specialty as a property
// (medicalSpecialty) rather than as a business type. SchemaTypeFor picks the type for an
// organization with several categories: the first category, in the caller's order, decides, and
// LocalBusiness is the default when none names a type.
//
// # NACE
//
// Each category lists the NACE Rev. 2 classes (four digits, written "43.32") of the activity,
// the classification used by the business registers of the European Union. A category may list
// several classes, because a trade often spans manufacture, installation and retail (a joinery is
// 43.32, 16.23, 31.02 and 31.09), and several categories may share a class. ByNACE maps a
// register's activity code to candidate categories.
//
// # OpenStreetMap presets and search words
//
// Each category lists the OpenStreetMap iD editor presets ("craft/joiner", "shop/bakery") that
// tag such a business, which links the registry to map data. The presets also bring everyday
// words: their names, search terms and aliases in some ninety locales, which Terms returns for
// search. A few categories have no preset because OpenStreetMap has none (a building contractor,
// a publisher); they simply have no search words.
//
// # Data files
//
// categories.tsv is the hand-curated part: one row per sector or category with its schema.org
// type, NACE classes, presets and labels, kept as tab-separated text so that changes are easy to
// review. osm-presets.tsv and osm-terms.tsv.gz are generated from the upstream OpenStreetMap data
// by internal/gen and must not be edited by hand; run
//
//	go run ./schemas/taxonomy/internal/gen
//
// from the module root after changing the presets of a category. The generator is the only code
// that reads the upstream copies; builds and tests use the embedded files alone.
//
// The data is parsed once, on the first call of Default. Search words are parsed later, on the
// first call of Terms or Locales, because they are a hundred times larger than the rest and a
// server that only resolves codes should not wait for them at start-up.
//
// # Attribution
//
// The OpenStreetMap preset IDs, tags and translations come from openstreetmap/id-tagging-schema
// 7.2.0, Copyright (c) 2017, iD Contributors, under the ISC licence; see LICENSE-osm-presets.txt
// in this directory, which must travel with the data.
package taxonomy
