package render

// MarkdownBudget is the size an entry's markdown document keeps to
// (MD-34, "≤ ~8k tokens"): 32,000 bytes, 8,000 tokens at the registry's
// estimate of a token per four bytes (D58, the AWP token figures).
const MarkdownBudget = 32000

// budgetedDocument builds the entry document and its markdown within
// MarkdownBudget. The offerings are what makes a document long (up to 25
// inline, each with a description of up to 2,000 characters a language),
// and every one of them is in /{slug}/offerings.md already: so a document
// over the budget lists fewer offerings inline, as many as fit, and
// points to offerings.md for the rest, as it does past 25 (MD-35). The
// page for people is written from the same document, so it lists the
// same offerings. The other sections are bounded by the schema's limits
// and are kept whole; an entry whose document is over the budget with no
// offering inline is served as it is.
func (b *builder) budgetedDocument(filter func(string) bool) (*documentModel, []byte) {
	d := b.document(filter)
	md := writeMarkdown(b, d)
	n := min(b.inline, len(b.e.Offerings))
	if len(md) <= MarkdownBudget || n == 0 {
		return d, md
	}
	// The size grows with the offerings listed: find the most that fit,
	// by halving, so a huge entry is rendered a handful of times.
	lo, hi := 0, n-1 // n offerings do not fit; lo is tried last
	for lo < hi {
		mid := (lo + hi + 1) / 2
		b.inline = mid
		if len(writeMarkdown(b, b.document(filter))) <= MarkdownBudget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	b.inline = lo
	d = b.document(filter)
	return d, writeMarkdown(b, d)
}
