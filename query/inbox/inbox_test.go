package inbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/schemas"
)

// TestWriteEdit_ReadByTheCompile checks that an edit written here is one
// the compile's reader takes (schemas.ParseOwnerEdit), that its file
// names sort by time, and that no temporary file is left.
func TestWriteEdit_ReadByTheCompile(t *testing.T) {
	dir := t.TempDir()
	b := &Inbox{Dir: dir, Events: filepath.Join(dir, "events.jsonl")}
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	n1, err := b.WriteEdit(&schemas.OwnerEdit{Entry: "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", BasedOn: 3, DeclaredAt: schemas.FormatTime(at), Tool: schemas.EditConfirmEntry}, at)
	if err != nil {
		t.Fatal(err)
	}
	n2, err := b.WriteEdit(&schemas.OwnerEdit{Entry: "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", BasedOn: 3, DeclaredAt: schemas.FormatTime(at), Tool: schemas.EditConfirmEntry}, at.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if n1 >= n2 {
		t.Errorf("names do not sort by time: %s, %s", n1, n2)
	}
	data, err := os.ReadFile(filepath.Join(dir, n1))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, issues := schemas.ParseOwnerEdit(data); !ok || len(issues) > 0 {
		t.Errorf("the compile does not take it: %v %v", ok, issues)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 {
		t.Errorf("files left: %v", files)
	}
	if err := b.AppendEvent(Event{Entry: "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", Type: "domain_verified", At: schemas.FormatTime(at), Host: "example.de", Method: "dns_txt"}); err != nil {
		t.Fatal(err)
	}
	ev, _ := os.ReadFile(b.Events)
	if !strings.Contains(string(ev), `"method":"dns_txt"`) || !strings.HasSuffix(string(ev), "\n") {
		t.Errorf("events: %s", ev)
	}
	if _, err := (&Inbox{}).WriteEdit(&schemas.OwnerEdit{}, at); err != ErrClosed {
		t.Errorf("no folder: %v", err)
	}
}
