package fairuse_test

import (
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daawid/registry/query/fairuse"
)

// benchClients is the load the Limiter is sized for: about 10,000
// distinct clients a minute, half IPv4 and half IPv6.
const benchClients = 10_000

func benchAddrs() []netip.Addr {
	addrs := make([]netip.Addr, benchClients)
	for i := range addrs {
		if i%2 == 0 {
			addrs[i] = netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		} else {
			addrs[i] = netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, byte(i >> 8), byte(i), 15: 1})
		}
	}
	return addrs
}

// BenchmarkAllow measures one read's counting over 10,000 clients, on one
// goroutine and on all cores. now advances a second every 10,000 reads so
// minutes turn and the sweep is in the cost.
func BenchmarkAllow(b *testing.B) {
	cats := fairuse.Categories()
	addrs := benchAddrs()
	b.Run("serial", func(b *testing.B) {
		l := fairuse.NewLimiter(300)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			l.Allow(cats[i%len(cats)], addrs[i%len(addrs)], noon.Add(time.Duration(i/benchClients)*time.Second))
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		l := fairuse.NewLimiter(300)
		var next atomic.Int64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1_000_003)) // each goroutine starts elsewhere in the clients
			for pb.Next() {
				l.Allow(cats[i%len(cats)], addrs[i%len(addrs)], noon.Add(time.Duration(i/benchClients)*time.Second))
				i++
			}
		})
	})
}

// BenchmarkCategoryOf measures classifying the common User-Agents: a
// browser (the longest path: no token matches) and a bot.
func BenchmarkCategoryOf(b *testing.B) {
	for _, c := range []struct{ name, ua, sig string }{
		{"chrome", uaChrome, ""},
		{"chatgpt-user", uaChatGPTUser, ""},
		{"signed", uaChromeMac, `sig1="https://chatgpt.com"`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				fairuse.CategoryOf(c.ua, c.sig)
			}
		})
	}
}
