// Package places is the gazetteer behind search's near (§7.5 "Search",
// "Places"): it finds the town a user names, by any of its names in any
// language or script, or a postal code with its country, and says which
// place it found, as the answer's SearchPlace does.
//
// The data is GeoNames': the towns of cities500 (every populated place
// of 500 people or more, with its names in many languages, its region,
// its point, its population and its time zone) and the English names of
// the regions, bundled and loaded by Default, together with the postal
// codes of Germany (OpenStreetMap) and France (INSEE and DGFiP). An
// operator may load the full world instead, into a gazetteer of their
// own, from GeoNames' dumps: LoadCities reads any of GeoNames' city files
// or allCountries, LoadAdmin1 the region names, LoadAlternateNames
// alternateNamesV2, and LoadPostal GeoNames' postal code files.
// data/README.md has the sources and licences.
//
// Names are compared folded (terms.Fold): compatibility-decomposed, without
// marks, case-folded, with punctuation as spaces, so "MÜNCHEN",
// "München" and "munchen" are one name, and so are "إسطنبول" and
// "اسطنبول". A German ue is also read as ü and the other way round
// ("Muenchen"). When a name fits several towns, the most populous wins,
// unless what follows a comma narrows it: a country, a region, a town
// nearby, or a word of the town's own name ("Paris, Texas", "Paris, TX",
// "Frankfurt, Oder", "Barmen, Wuppertal"). Find's documentation has the
// rules.
//
// A name nobody knows may be read as a misspelling of a big town's:
// one edit away for names of five to seven letters and towns of 20,000
// people or more, two for longer names and towns of 100,000 or more,
// never for shorter names, never when the name is known as it is, and
// never when the caller's own data (the search index's entries) names
// that place. A deletion index over the big towns' names finds the
// candidates without comparing every name.
//
// Postal codes are found by the whole code or its first part (the
// outward code: "SW1A" for "SW1A 1AA"), the country required; a code
// stands at its town, or at its own point when the data gives one.
//
// A Gazetteer is loaded first and read after: Find and FindPostal are
// safe for concurrent use, loaders are not. Default's gazetteer is
// shared and must not be loaded into.
package places
