// Package field owns the `net` engine's probe tools for a real network (a
// real Starlink dish): a server (`leolab net serve`) on a host beyond the
// link and a client (`leolab net probe`) behind it, which run endpoint's
// CBR probe across the network in either direction and write the result
// schema (engine "net") with every packet's send time and one-way delay,
// for `leolab probe` and `leolab analyze`.
//
// Control runs over one TCP connection per probe, as JSON lines of bounded
// length (wire.go); the probe itself is UDP. The server hands the client a
// session token; the client's hello datagrams carry it from the client's
// probe socket and the server answers each with a challenge the client
// must echo from the same address before the server sends to it or
// accepts its probe (handshake.go: return routability, no amplification).
// The hellos also make a NAT on the path (Starlink puts terminals behind
// carrier-grade NAT) map the server's packets back to the client — the
// hole-punching irtt and iperf3's reverse mode rely on. A server caps its
// sessions, bytes per client address and trace sizes (limits.go, caps.go)
// and may require requests signed with a shared secret (auth.go).
//
// One-way delays are receive stamps on the receiver's clock minus send
// stamps on the sender's: an offset between the hosts' clocks adds a
// constant to every delay. The prober's inference (outages, schedule,
// frame, shifts between intervals) uses delay differences and is
// unaffected; absolute delays are only as good as the clocks' sync.
package field
