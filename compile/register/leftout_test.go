package register_test

import (
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/compile/register"
)

// TestLeftOut_D93: companies in liquidation or receivership and dormant
// companies are not trading businesses; their records are inactive (the
// compile leaves them out as it does dissolved ones) with the reason in
// Status, and the first pass's Brief agrees. Companies in administration
// or with a proposal to strike off stay.
func TestLeftOut_D93(t *testing.T) {
	for _, tc := range []struct {
		name       string
		set        map[string]string
		active     bool
		wantStatus string
	}{
		{"trading", map[string]string{}, true, "Active"},
		{"liquidation", map[string]string{"CompanyStatus": "Liquidation"}, false, "Liquidation"},
		{"receivership", map[string]string{"CompanyStatus": "Receivership Action"}, false, "Receivership Action"},
		{"administration stays", map[string]string{"CompanyStatus": "In Administration"}, true, "In Administration"},
		{"strike-off proposal stays", map[string]string{"CompanyStatus": "Active - Proposal to Strike off"}, true, "Active - Proposal to Strike off"},
		{"SIC 99999", map[string]string{"SICCode.SicText_1": "99999 - Dormant Company", "SICCode.SicText_2": ""}, false, "Dormant (SIC 99999 - Dormant Company)"},
		{"SIC 74990", map[string]string{"SICCode.SicText_1": "74990 - Non-trading company", "SICCode.SicText_2": ""}, false, "Dormant (SIC 74990 - Non-trading company)"},
		{"accounts DORMANT", map[string]string{"Accounts.AccountCategory": "DORMANT"}, false, "Dormant (accounts category DORMANT)"},
	} {
		text := chRowWith(t, tc.set)
		c, err := register.NewCompaniesHouse(strings.NewReader(text), "x.csv", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := c.Frame()
		if err != nil {
			t.Fatal(err)
		}
		rec, err := c.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, _ := c.Brief(raw)
		if rec.Active != tc.active || b.Active != tc.active || rec.Status != tc.wantStatus {
			t.Errorf("%s: Active %v (Brief %v), Status %q; want %v, %q", tc.name, rec.Active, b.Active, rec.Status, tc.active, tc.wantStatus)
		}
	}
	for _, tc := range []struct {
		name, display string
		active        bool
	}{
		{"Altstadt Gastro GmbH i.L.", "Altstadt Gastro", false},
		{"Altstadt Gastro GmbH i. L.", "Altstadt Gastro", false},
		{"Altstadt Gastro GmbH in Liquidation", "Altstadt Gastro", false},
		{"Altstadt Gastro GmbH in Abwicklung", "Altstadt Gastro", false},
		{"Altstadt Gastro GmbH", "Altstadt Gastro", true},
		{"Liquidationsberatung Kern GmbH", "Liquidationsberatung Kern", true},
	} {
		rd := register.NewOffeneRegister(strings.NewReader(deRow(t, tc.name)), "x.jsonl")
		raw, err := rd.Frame()
		if err != nil {
			t.Fatal(err)
		}
		rec, err := rd.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, _ := rd.Brief(raw)
		if rec.Name != tc.display || rec.Active != tc.active || b.Active != tc.active || b.Name != tc.display {
			t.Errorf("%q: name %q, Active %v (Brief %q, %v); want %q, %v", tc.name, rec.Name, rec.Active, b.Name, b.Active, tc.display, tc.active)
		}
		if !tc.active && rec.Status != "in Liquidation" {
			t.Errorf("%q: Status %q, want \"in Liquidation\"", tc.name, rec.Status)
		}
	}
}
