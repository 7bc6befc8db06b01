package schemas

import (
	"bytes"
	"testing"
	"time"
)

func TestIDs_PrefixedULIDs(t *testing.T) {
	for _, tc := range []struct {
		p    IDPrefix
		id   string
		want bool
	}{
		{PrefixEntry, "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", true},
		{PrefixRun, "run_01k8x9p2aa1b2c3d4e5f6g7h8j", true},
		{PrefixEntry, "ent_81k8r2m5n7p9q3s4t6v8w0x2yz", false}, // first char 0-7
		{PrefixEntry, "ent_01k8r2m5n7p9q3s4t6v8w0x2yi", false}, // no i l o u
		{PrefixEntry, "ent_01K8R2M5N7P9Q3S4T6V8W0X2YZ", false}, // lower case
		{PrefixEntry, "off_01k8r2m5n7p9q3s4t6v8w0x2yz", false}, // wrong prefix
		{PrefixEntry, "ent_01k8r2m5n7p9q3s4t6v8w0x2y", false},  // 25 chars
	} {
		if got := ValidID(tc.p, tc.id); got != tc.want {
			t.Errorf("ValidID(%s, %s) = %v", tc.p, tc.id, got)
		}
	}
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	a, err := NewID(PrefixOffering, at, bytes.NewReader(make([]byte, 16)))
	if err != nil || !ValidID(PrefixOffering, a) || PrefixOf(a) != PrefixOffering {
		t.Fatalf("NewID = %q, %v", a, err)
	}
	b, _ := NewID(PrefixOffering, at, bytes.NewReader(make([]byte, 16)))
	if a != b {
		t.Error("NewID is not deterministic for the same time and entropy")
	}
}

func TestEnums_PRIV09_UnknownIsUnknown(t *testing.T) {
	if !Known(StatusVerified) || Known(EntryStatus("archived")) {
		t.Error("Known on entry statuses")
	}
	var e Entry
	if err := e.UnmarshalJSONForTest([]byte(`{"status":"archived","kind":"robot","unknownField":1}`)); err != nil {
		t.Fatalf("an unknown value or field must decode (PRIV-08, PRIV-09): %v", err)
	}
	if e.Status != "archived" || Known(e.Status) || Known(e.Kind) {
		t.Errorf("decoded %q/%q", e.Status, e.Kind)
	}
}
