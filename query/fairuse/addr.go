package fairuse

import "net/netip"

// AddrKey returns the address a read is counted by. An IPv4 address counts
// as itself, also when it arrives IPv4-mapped (::ffff:1.2.3.4), so one
// client is not counted twice by a dual-stack listener. An IPv6 address
// counts by its /64, the block one subscriber or host is usually given, so
// stepping through addresses in it buys no new allowance. Zones are
// dropped. The zero Addr, an address the server could not parse, is its
// own key: every such read shares one allowance.
func AddrKey(addr netip.Addr) netip.Addr {
	addr = addr.Unmap()
	if addr.Is4() {
		return addr
	}
	if addr.Is6() {
		p, _ := addr.Prefix(64) // cannot fail for an IPv6 address and 64 bits
		return p.Addr()
	}
	return netip.Addr{}
}
