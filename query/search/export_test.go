package search

// SetWeighPath forces how tier 1 is weighed (1: by looking each entry up,
// 2: by reading the postings, 0: by cost), so both ways run the
// relevance set.
func SetWeighPath(p int) { weighPath = p }
