package register

import (
	"os"
	"strings"
	"testing"
	"time"
)

// sireneRead reads a SIRENE fixture whole.
func sireneRead(t *testing.T, name string, retrieved time.Time) (map[int]*Record, map[int]*RowError) {
	t.Helper()
	f, err := os.Open(dir + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewSirene(f, name, retrieved)
	if err != nil {
		t.Fatal(err)
	}
	return readAll(t, r)
}

// TestSirene_Sample reads the head offices of the sample: names,
// addresses written the French way, jurisdiction, language and zone from
// the table's row, the SIREN as key and reference, NAF mapped to NACE,
// closed and withheld companies, and the secondary establishments passed
// over.
func TestSirene_Sample(t *testing.T) {
	retrieved := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	recs, errs := sireneRead(t, "sirene-sample.csv", retrieved)
	if len(errs) != 0 {
		t.Fatalf("row errors in the sample: %v", errs)
	}
	if len(recs) != 14 {
		t.Errorf("%d records, want the 14 head offices", len(recs))
	}
	for _, line := range []int{3, 12} {
		if recs[line] != nil {
			t.Errorf("line %d is a secondary establishment, read as %+v", line, recs[line])
		}
	}
	lib := recs[2]
	if lib == nil {
		t.Fatal("no record for Librairie Les Deux Quais")
	}
	for _, c := range []struct{ what, got, want string }{
		{"key", lib.Key, "fr/999999901"},
		{"source", lib.Source, "sirene"},
		{"name", lib.Name, "Librairie Les Deux Quais"},
		{"legal name", lib.LegalName, "Librairie Les Deux Quais"},
		{"legal form", lib.LegalForm, ""},
		{"street", lib.Address.Street, "27 rue du Quai-Fictif"},
		{"postal code", lib.Address.PostalCode, "75011"},
		{"town", lib.Address.Locality, "Paris"},
		{"country", lib.Address.Country, "FR"},
		{"jurisdiction", lib.Jurisdiction, "FR"},
		{"language", lib.Language, "fr"},
		{"zone", lib.TimeZone, "Europe/Paris"},
		{"register type", lib.Register.Type, "FR:SIREN"},
		{"register number", lib.Register.Number, "999999901"},
		{"reference", lib.Reference(), "SIREN 999999901"},
		{"status", lib.Status, "actif"},
		{"founded", lib.IncorporatedOn, "2009-03-02"},
		{"NACE", strings.Join(lib.NACE, ","), "47.61"},
		{"activities", strings.Join(lib.Activities, ","), "47.61Z"},
	} {
		if c.got != c.want {
			t.Errorf("Librairie Les Deux Quais %s: %q, want %q", c.what, c.got, c.want)
		}
	}
	if !lib.Active || lib.Withheld || !lib.RetrievedAt.Equal(retrieved) || lib.Hash == 0 {
		t.Errorf("Librairie Les Deux Quais: %+v", lib)
	}
	if got := recs[4].Address.Street; got != "12 bis avenue des Tilleuls-Fictifs" {
		t.Errorf("repetition index and street type: %q", got)
	}
	if got := recs[4].Name; got != "Boulangerie du Pont Fictif" {
		t.Errorf("name from denominationUsuelleEtablissement: %q", got)
	}
	if a := recs[7].Address; a.Extra != "Batiment B" || a.Street != "15 allée des Acacias-Fictifs" {
		t.Errorf("address complement: %+v", a)
	}
	if a := recs[8].Address; a.Street != "lieu-dit Les Champs-Fictifs" || a.Locality != "Gevrey-Chambertin" {
		t.Errorf("a lieu-dit without a number: %+v", a)
	}
	if r := recs[13]; r.Address.Locality != "Aix-en-Provence" {
		t.Errorf("a compound town name: %q", r.Address.Locality)
	}
	if r := recs[15]; r.Name != "Fleurs et Jardins de la Cote" || r.Address.Extra != "BP 40123" {
		t.Errorf("the usual name wins over the sign; special distribution: %+v", r)
	}
	if r := recs[17]; r.Name != "Au Bon Coin, Cafe-Tabac" {
		t.Errorf("a quoted name with a comma: %q", r.Name)
	}
	if r := recs[13]; r.Key != "fr/999999911" || r.Address.Street != "40 avenue des Platanes-Fictifs" || !r.Active {
		t.Errorf("the head office after a move: %+v", r)
	}
	// Closed head offices: inactive, closed on the start of their last period.
	if r := recs[11]; r.Active || r.Status != "fermé" || r.DissolvedOn != "2025-12-31" {
		t.Errorf("closed garage: %+v", r)
	}
	if r := recs[14]; r.Active || len(r.NACE) != 0 || r.DissolvedOn != "2006-06-30" {
		t.Errorf("a NAFRev1 code must not map to NACE: %+v", r)
	}
	// D77: withheld companies carry their key and status, nothing INSEE
	// withholds and nothing else about them.
	for _, line := range []int{9, 10} {
		r := recs[line]
		if r == nil || !r.Withheld || r.Active || r.Status != "diffusion partielle" || !strings.HasPrefix(r.Key, "fr/99999990") {
			t.Fatalf("line %d: want a withheld record, got %+v", line, r)
		}
		if r.Name != "" || r.LegalName != "" || r.Address.Street != "" || r.Address.Locality != "" || r.Address.PostalCode != "" ||
			len(r.NACE) != 0 || r.IncorporatedOn != "" || r.DissolvedOn != "" {
			t.Errorf("line %d: a withheld record carries data: %+v", line, r)
		}
	}
}

// TestSirene_BadRows checks every kind of bad row: each is reported with
// its file, line and field, skipped or kept with a warning, and the good
// rows after it are still read.
func TestSirene_BadRows(t *testing.T) {
	recs, errs := sireneRead(t, "sirene-bad.csv", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	checkExpectations(t, expectations(t, "sirene-bad.expect.txt"), recs, errs)
	for line, want := range map[int]string{
		3:  "sirene-bad.csv:3: 53 columns, the header has 54",
		5:  "sirene-bad.csv:5: enseigne1Etablissement: invalid UTF-8",
		11: "sirene-bad.csv:11: siren: \"99999946\" is not a 9-digit SIREN",
		12: "sirene-bad.csv:12: denominationUsuelleEtablissement: no name",
		14: "sirene-bad.csv:14: statutDiffusionEtablissement: \"X\"",
		16: "sirene-bad.csv:16: unterminated quote",
	} {
		if e := errs[line]; e == nil || !strings.HasPrefix(e.Error(), want) {
			t.Errorf("line %d: %v, want %q", line, e, want)
		}
	}
	if r := recs[4]; len(r.Warnings) != 1 || r.Warnings[0].Field != "dateCreationEtablissement" || r.IncorporatedOn != "" {
		t.Errorf("a bad date is dropped with a warning: %+v", r)
	}
	if r := recs[15]; len(r.Warnings) != 1 || r.Warnings[0].Field != "activitePrincipaleEtablissement" || len(r.NACE) != 0 {
		t.Errorf("a bad NAF code is dropped with a warning: %+v", r)
	}
	if r := recs[8]; len(r.Warnings) != 0 || r.Name != "Horlogerie du Dauphine" {
		t.Errorf("CR LF row: %+v", r)
	}
	if got := recs[9].Address.Extra; got != "Batiment A, Escalier 2" {
		t.Errorf("multi-line complement: %q", got)
	}
	if r := recs[13]; !r.Withheld || r.Name != "" {
		t.Errorf("withheld row: %+v", r)
	}
}

// TestSirene_Brief checks that the first pass agrees with Parse: the same
// key, name and town, live only for diffusible open head offices, and no
// identity for a row Parse refuses.
func TestSirene_Brief(t *testing.T) {
	for _, name := range []string{"sirene-sample.csv", "sirene-bad.csv"} {
		f, err := os.Open(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewSirene(f, name, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		for {
			raw, err := r.Frame()
			if err != nil {
				break
			}
			rec, perr := r.Parse(raw)
			b, ok := r.Brief(raw)
			if ok != (perr == nil) {
				t.Errorf("%s:%d: Brief ok %v, Parse error %v", name, raw.Line, ok, perr)
				continue
			}
			if ok && (b.Key != rec.Key || b.Name != rec.Name || b.Locality != rec.Address.Locality || b.Active != rec.Active) {
				t.Errorf("%s:%d: Brief %+v, record %+v", name, raw.Line, b, rec)
			}
			if ok && r.Route(raw) != routeHash([]byte(rec.Register.Number)) {
				t.Errorf("%s:%d: rows of one company must route together", name, raw.Line)
			}
		}
		f.Close()
	}
}

func TestSirene_NotAnEstablishmentHeader(t *testing.T) {
	ul := "siren,statutDiffusionUniteLegale,unitePurgeeUniteLegale,dateCreationUniteLegale,denominationUniteLegale\n"
	_, err := NewSirene(strings.NewReader(ul), "StockUniteLegale_utf8.csv", time.Time{})
	if err == nil || !strings.Contains(err.Error(), "StockUniteLegale_utf8.csv:1: not an INSEE StockEtablissement header: missing nic") ||
		!strings.Contains(err.Error(), "this is StockUniteLegale") {
		t.Errorf("err = %v", err)
	}
}

func TestFrenchAddressParts(t *testing.T) {
	for _, c := range []struct{ num, typ, name, want string }{
		{"27", "RUE", "DU QUAI-FICTIF", "27 rue du Quai-Fictif"},
		{"3", "GR", "DE LA GARE", "3 grande rue de la Gare"},
		{"1", "XYZ", "DES LILAS", "1 xyz des Lilas"},
		{"", "", "LE BOURG", "Le Bourg"},
		{"8", "PL", "", "8 place"},
	} {
		if got := frenchStreet(c.num, c.typ, c.name); got != c.want {
			t.Errorf("frenchStreet(%q, %q, %q) = %q, want %q", c.num, c.typ, c.name, got, c.want)
		}
	}
	for in, want := range map[string]string{"PARIS 11": "Paris", "PARIS 1ER": "Paris", "LYON 3EME": "Lyon", "SAINT-ETIENNE": "Saint-Etienne",
		"PARIS": "Paris", "AIX-EN-PROVENCE": "Aix-en-Provence", "LE PUY-EN-VELAY": "Le Puy-en-Velay", "BOULOGNE-SUR-MER": "Boulogne-sur-Mer"} {
		if got := frenchTown(in); got != want {
			t.Errorf("frenchTown(%q) = %q, want %q", in, got, want)
		}
	}
}
