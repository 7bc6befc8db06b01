package search

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/daawid/registry/schemas"
)

// Text is a search answer as text, in the markdown contract's style: the
// place found, then the hits as a numbered list, each with its page and
// markdown document, JSON-LD document and REST view (the links an agent
// follows next, issue 15), its town and categories by name, then how to
// page on and the ranking policy (§7.4: "search's is a numbered list").
func Text(out *schemas.SearchOutput) []byte {
	var b strings.Builder
	if p := out.Place; p != nil {
		b.WriteString("Place: ")
		if p.PostalCode != "" {
			b.WriteString(p.PostalCode + " ")
		}
		b.WriteString(p.Name)
		if p.Region != "" {
			b.WriteString(", " + p.Region)
		}
		b.WriteString(", " + p.Country)
		if p.CorrectedFrom != "" {
			fmt.Fprintf(&b, " (read from %q)", p.CorrectedFrom)
		}
		b.WriteString("\n\n")
	}
	if len(out.Hits) == 0 {
		b.WriteString("No entries found.\n")
	}
	for i, h := range out.Hits {
		fmt.Fprintf(&b, "%d. **%s**", i+1, oneLine(h.DisplayName))
		var facts []string
		if h.Locality != "" {
			facts = append(facts, h.Locality)
		}
		if h.DistanceKm != nil {
			facts = append(facts, strconv.FormatFloat(*h.DistanceKm, 'f', 1, 64)+" km")
		}
		if h.ServesQueryLocation != nil && *h.ServesQueryLocation {
			facts = append(facts, "serves this place")
		}
		if len(h.CategoryNames) > 0 {
			facts = append(facts, strings.Join(h.CategoryNames, ", "))
		} else if len(h.Categories) > 0 {
			facts = append(facts, strings.Join(h.Categories, ", "))
		}
		facts = append(facts, string(h.Status)+", verification "+string(h.VerificationLevel))
		if h.CapacityStatus != "" {
			facts = append(facts, "capacity "+strings.ReplaceAll(string(h.CapacityStatus), "_", " "))
		}
		if h.OpenNow != nil {
			if *h.OpenNow {
				facts = append(facts, "open now")
			} else {
				facts = append(facts, "closed now")
			}
		}
		b.WriteString(" (" + strings.Join(facts, " · ") + ")")
		if h.Summary != "" {
			b.WriteString(": " + oneLine(h.Summary))
		}
		fmt.Fprintf(&b, "\n   page %s · markdown %s · JSON-LD %s · API %s · id %s\n", h.URL, h.MarkdownURL, h.JSONLDURL, h.APIURL, h.ID)
	}
	if out.NextCursor != "" {
		fmt.Fprintf(&b, "\nMore: ask again with cursor %s\n", out.NextCursor)
	}
	fmt.Fprintf(&b, "\nRanking policy: %s (no hit is sponsored)\n", out.RankingPolicy)
	return []byte(b.String())
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
