package render

import "testing"

// TestDurations_MD29 checks the humanized durations of §3.4.
func TestDurations_MD29(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"P1D", "1 day"}, {"P2D", "2 days"}, {"P8W", "8 weeks"}, {"PT4H", "4 hours"},
		{"P1DT12H", "1 day 12 hours"}, {"P1Y2M", "1 year 2 months"}, {"PT30M", "30 minutes"},
		{"P", "P"}, {"PT", "PT"}, {"P2X", "P2X"}, {"P1D2W", "P1D2W"}, {"1D", "1D"}, {"P1", "P1"},
	} {
		if got := humanDuration(tc.in); got != tc.want {
			t.Errorf("humanDuration(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
