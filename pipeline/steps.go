package pipeline

import "time"

// steps times a publication's steps for its report: each mark closes the
// step that ran since the one before (the first since the publication
// began), so that an operator sees where a slow publication spent its
// time (PublishReport.Steps).
type steps struct {
	last    time.Time
	seconds map[string]float64
}

func newSteps() *steps { return &steps{last: time.Now(), seconds: map[string]float64{}} }

// mark ends a step; a step marked twice adds up.
func (s *steps) mark(name string) {
	now := time.Now()
	s.seconds[name] += now.Sub(s.last).Seconds()
	s.last = now
}
