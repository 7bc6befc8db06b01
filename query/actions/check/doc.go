// Package check is the one place a request tool's call is checked (§7.5,
// §7.6 step 1): request_quote, request_callback, request_appointment and
// send_message, whether they come through MCP, the REST mirror or the
// human web form.
//
// Decode reads a call's arguments by the one table of the request kinds
// (schemas.RequestKinds), the same table the tool list's and the view's
// input schemas are made from, refuses what the table does not hold, and
// keeps times, amounts, currencies and phone numbers in one form however
// an AI app wrote them (ACT-17, ACT-18). Every mistake is an issue that
// names its field, and all of them come back at once.
//
// Resolve applies the entry's rules to a decoded request: it finds the
// action (ACT-25 to ACT-27), applies its requireFields, questions and
// offerings (ACT-21 to ACT-23), checks the times against the request's
// instant (ACT-20) and the service area against the gazetteer (ACT-31,
// ACT-32). Summary and Fields say what the request sends, for the model
// and for the confirmation page and the delivery mail.
//
// Nothing here reads the clock or does I/O: the instant, the gazetteer
// and the site come in an Env.
package check
