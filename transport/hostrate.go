package transport

import (
	"time"
)

// MinHostBurst is the smallest (and the default) depth of the sending
// host's egress token bucket: one GSO burst (gsoMaxBytes, 64 KiB), the most
// the kernel hands the device at once, so that a TSO burst the pacer allows
// is not split by the limit.
const MinHostBurst = gsoMaxBytes

// hostRate is a limit on the rate at which the sending host puts packets on
// the wire (a NIC or hypervisor shaper, such as a cloud instance's network
// bandwidth allowance), in wire bytes including headers. The shaper holds
// packets inside the host rather than dropping them, and Linux's TCP Small
// Queues (tcp_small_queue_check) keep only about a millisecond of data
// below the socket, so the flow sees neither loss nor queueing delay from
// it: data stays in the send queue, not in flight, and a packet's send time
// is when it leaves the host. That is a token bucket gating transmissions.
// A deep bucket is a burst credit, as a cloud instance's network credits:
// the flow leaves at whatever the path takes until the credit is spent,
// then at the rate; the bucket starts full.
type hostRate struct {
	rate   float64       // bytes per second; 0: no limit
	depth  float64       // bytes
	tokens float64       // bytes; may go below zero by one packet (deficit)
	at     time.Duration // when tokens was last brought up to date
}

// newHostRate makes a limit of bps bits/s whose bucket holds burst bytes
// (at least MinHostBurst).
func newHostRate(bps float64, burst int) hostRate {
	d := float64(max(burst, MinHostBurst))
	return hostRate{rate: bps / 8, depth: d, tokens: d}
}

// refill brings the bucket up to now.
func (h *hostRate) refill(now time.Duration) {
	if now > h.at {
		h.tokens = min(h.tokens+h.rate*(now-h.at).Seconds(), h.depth)
		h.at = now
	}
}

// allows reports whether a packet may leave at now: the bucket is not in
// deficit. A limit of zero always allows.
func (h *hostRate) allows(now time.Duration) bool {
	if h.rate <= 0 {
		return true
	}
	h.refill(now)
	return h.tokens >= 0
}

// charge takes a packet of size wire bytes from the bucket.
func (h *hostRate) charge(now time.Duration, size int) {
	if h.rate <= 0 {
		return
	}
	h.refill(now)
	h.tokens -= float64(size)
}

// readyAt is the earliest time at which allows holds, given the bucket's
// state at or before now.
func (h *hostRate) readyAt(now time.Duration) time.Duration {
	if h.rate <= 0 || h.tokens >= 0 {
		return now
	}
	wait := time.Duration(-h.tokens / h.rate * float64(time.Second))
	return max(now, h.at+wait+1) // +1 ns: the refill at that instant must reach zero despite rounding
}
