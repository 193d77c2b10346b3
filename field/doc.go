// Package field owns the `net` engine's probe tools for a real network (a
// real Starlink dish): a server (`leolab net serve`) on a host beyond the
// link and a client (`leolab net probe`) behind it, which run endpoint's
// CBR probe across the network in either direction and write the result
// schema (engine "net") with every packet's send time and one-way delay,
// for `leolab probe` and `leolab analyze`.
//
// Control runs over one TCP connection per probe, as JSON lines; the probe
// itself is UDP. For the downlink the client first sends hello datagrams
// from its receiving socket to the server's, so a NAT on the path (Starlink
// puts terminals behind carrier-grade NAT) maps the server's packets back
// to it — the same hole-punching irtt and iperf3's reverse mode rely on.
//
// One-way delays are receive stamps on the receiver's clock minus send
// stamps on the sender's: an offset between the hosts' clocks adds a
// constant to every delay. The prober's inference (outages, schedule,
// frame, shifts between intervals) uses delay differences and is
// unaffected; absolute delays are only as good as the clocks' sync.
package field
