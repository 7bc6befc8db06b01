package render

import (
	"strings"

	"github.com/daawid/registry/schemas"
)

// paymentLabels name payment methods in the languages the JSON-LD's
// paymentAccepted is written in (LD-46: the example uses the entry's
// default language, "Überweisung, Rechnung, girocard, Bargeld").
var paymentLabels = map[string]map[schemas.PaymentMethod]string{
	"de": {"cash": "Bargeld", "bank_transfer": "Überweisung", "invoice": "Rechnung", "girocard": "girocard",
		"card": "Karte", "credit_card": "Kreditkarte", "debit_card": "Debitkarte", "paypal": "PayPal",
		"sepa_direct_debit": "SEPA-Lastschrift", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "cheque": "Scheck"},
	"fr": {"cash": "espèces", "bank_transfer": "virement", "invoice": "facture", "girocard": "girocard",
		"card": "carte", "credit_card": "carte de crédit", "debit_card": "carte de débit", "paypal": "PayPal",
		"sepa_direct_debit": "prélèvement SEPA", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "cheque": "chèque"},
	"es": {"cash": "efectivo", "bank_transfer": "transferencia", "invoice": "factura", "girocard": "girocard",
		"card": "tarjeta", "credit_card": "tarjeta de crédito", "debit_card": "tarjeta de débito", "paypal": "PayPal",
		"sepa_direct_debit": "domiciliación SEPA", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "cheque": "cheque"},
	"tr": {"cash": "nakit", "bank_transfer": "havale", "invoice": "fatura", "girocard": "girocard",
		"card": "kart", "credit_card": "kredi kartı", "debit_card": "banka kartı", "paypal": "PayPal",
		"sepa_direct_debit": "SEPA otomatik ödeme", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "cheque": "çek"},
	"nl": {"cash": "contant", "bank_transfer": "overschrijving", "invoice": "factuur", "girocard": "girocard",
		"card": "pinpas", "credit_card": "creditcard", "debit_card": "debetkaart", "paypal": "PayPal",
		"sepa_direct_debit": "SEPA-incasso", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "cheque": "cheque"},
	"it": {"cash": "contanti", "bank_transfer": "bonifico", "invoice": "fattura", "girocard": "girocard",
		"card": "carta", "credit_card": "carta di credito", "debit_card": "carta di debito", "paypal": "PayPal",
		"sepa_direct_debit": "addebito SEPA", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "cheque": "assegno"},
}

// paymentWordsIn names the methods in lang, falling back to the English
// tokens of the markdown.
func paymentWordsIn(methods []schemas.PaymentMethod, lang string) string {
	table := paymentLabels[baseLang(lang)]
	ws := make([]string, 0, len(methods))
	for _, m := range methods {
		w, ok := table[m]
		if !ok {
			w, ok = paymentWords[m]
		}
		if ok {
			ws = append(ws, w)
		}
	}
	return strings.Join(ws, ", ")
}
