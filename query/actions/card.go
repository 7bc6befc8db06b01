package actions

// Card is the confirmation card of MCP Apps (§7.7, MCP-68, MCP-71), made
// with the request: the waiting request as Daawid's page shows it, the
// person's words labelled as theirs, in Daawid's look (no owner colours,
// no logo), and one link: Daawid's page.
type Card struct {
	Type     string `json:"type"` // "action-confirm"
	Title    string `json:"title"`
	Business string `json:"business"`
	// WordsLabel labels Fields as the customer's words.
	WordsLabel string      `json:"wordsLabel"`
	Fields     []CardField `json:"fields"`
	Status     string      `json:"status"`
	ExpiresAt  string      `json:"expiresAt"`
	Note       string      `json:"note"`
	ConfirmURL string      `json:"confirmUrl"`
	Button     string      `json:"button"`
}

// CardField is one thing the request sends.
type CardField struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

func (s *Service) card(pd PageData, r *Result) *Card {
	fields := make([]CardField, len(pd.Fields))
	for i, f := range pd.Fields {
		fields[i] = CardField(f)
	}
	c := &Card{Type: "action-confirm", Title: pd.Title + " — " + pd.Business, Business: pd.Business,
		WordsLabel: "Your request, in your words", Fields: fields, Status: r.Status, ExpiresAt: r.ExpiresAt,
		Note: "Nothing is sent until you confirm on Daawid's page with a code Daawid emails you.", ConfirmURL: r.ConfirmURL,
		Button: "Open Daawid's page to confirm"}
	if pd.Lang == "de" {
		c.WordsLabel = "Ihre Anfrage, in Ihren Worten"
		c.Note = "Nichts wird gesendet, bis Sie auf der Seite von Daawid mit einem Code bestätigen, den Daawid Ihnen mailt."
		c.Button = "Seite von Daawid zum Bestätigen öffnen"
	}
	return c
}
