package pipeline

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// chunks is a scan over n chunks of one row each, counting the chunks it
// gave.
func chunks(n int, given *int) func(context.Context, func([]*EntryRow) error) error {
	return func(ctx context.Context, fn func([]*EntryRow) error) error {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			*given++
			if err := fn([]*EntryRow{{EntryID: fmt.Sprint(i)}}); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestOverlapped: every chunk is used once, in order; an error of use or
// of produce is returned and stops the scan within a chunk or two.
func TestOverlapped(t *testing.T) {
	ctx := context.Background()
	produce := func(part []*EntryRow) (string, error) { return part[0].EntryID, nil }
	var got []string
	given := 0
	err := overlapped(ctx, chunks(100, &given), produce, func(v string) error { got = append(got, v); return nil })
	if err != nil || len(got) != 100 || got[0] != "0" || got[99] != "99" {
		t.Fatalf("all chunks: %v, %d used (%v…)", err, len(got), got[:min(3, len(got))])
	}
	for i, v := range got {
		if v != fmt.Sprint(i) {
			t.Fatalf("chunk %d used as %s: out of order", i, v)
		}
	}
	boom := errors.New("boom")
	given, used := 0, 0
	err = overlapped(ctx, chunks(1000, &given), produce, func(v string) error {
		if used++; v == "3" {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || used != 4 || given > 7 {
		t.Errorf("use failing at chunk 3: err %v, used %d, scanned %d (want boom, 4, a few)", err, used, given)
	}
	given, used = 0, 0
	err = overlapped(ctx, chunks(1000, &given), func(part []*EntryRow) (string, error) {
		if part[0].EntryID == "5" {
			return "", boom
		}
		return part[0].EntryID, nil
	}, func(string) error { used++; return nil })
	if !errors.Is(err, boom) || used != 5 || given != 6 {
		t.Errorf("produce failing at chunk 5: err %v, used %d, scanned %d (want boom, 5, 6)", err, used, given)
	}
}
