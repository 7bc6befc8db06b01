// Package terms is how search compares words (§7.5 "Words are compared
// across spellings and languages"): the one analyzer used when a
// publication writes an entry's search record and when the server reads a
// query, so that both sides always agree.
//
//   - Fold folds case, diacritics and compatibility forms ("MÜNCHEN",
//     "München" and "munchen" are one word; Fold's documentation has the
//     rules). ContractGerman gives the second reading of a German ue.
//   - Words splits a text into folded words.
//   - Stop reports a stop word of a language ("für", "the", "pour");
//     stop words say nothing about what is looked for.
//   - Stem reduces a folded word to its Snowball stem in a language
//     (Stemmers lists them: the major European languages, Arabic and
//     Turkish); a language without a stemmer keeps its words whole.
//   - Index gives an entry's words in one language as the search record
//     stores them: each folded word and its stem, once.
//
// Words of a text are stemmed in the text's language only, and a query
// in the language the user writes in, or in every stemmer's language
// when that isn't known: a query word matches when any of its readings
// is one of the entry's words.
package terms
