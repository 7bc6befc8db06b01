package places

import "testing"

func TestOSA(t *testing.T) {
	cases := []struct {
		a, b string
		d    int
	}{
		{"frnakfurt", "frankfurt", 1},
		{"frankfurt", "frankfurt", 0},
		{"frankfrt", "frankfurt", 1},
		{"frankfrut am mian", "frankfurt am main", 2},
		{"hmbrg", "hamburg", 2},
		{"abc", "xyz", 3}, // more than the limit: limit+1
	}
	for _, c := range cases {
		if got := osa([]rune(c.a), []rune(c.b), 2); got != min(c.d, 3) {
			t.Errorf("osa(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
