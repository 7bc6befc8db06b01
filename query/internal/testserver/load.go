package testserver

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// Load runs do(0) … do(n-1) from workers goroutines at once, as that
// many clients would, and gives each call's latency, sorted, and the
// wall time of the whole. The first error fails the benchmark.
func Load(b *testing.B, n, workers int, do func(i int) error) ([]time.Duration, time.Duration) {
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	next := make(chan int)
	errs := make(chan error, workers)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for i := range next {
				t := time.Now()
				if err := do(i); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
				lat[i] = time.Since(t)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	took := time.Since(start)
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	slices.Sort(lat)
	return lat, took
}

// Percentile is a sorted latency list's quantile in milliseconds.
func Percentile(l []time.Duration, q float64) float64 {
	return float64(l[min(len(l)-1, int(q*float64(len(l))))].Microseconds()) / 1000
}
