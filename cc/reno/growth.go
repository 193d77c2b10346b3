package reno

// SlowStart is Linux's tcp_slow_start (net/ipv4/tcp_cong.c) in bytes: the
// window grows by every acknowledged byte (a stretch ACK of N segments counts
// N, as Linux does; RFC 5681 §3.1 would cap it at one SMSS) but not beyond
// ssthresh. It returns the new window and the acknowledged bytes left over
// once ssthresh is reached, which the caller spends in congestion avoidance.
func SlowStart(cwnd, ssthresh, acked int) (newCWnd, left int) {
	n := min(cwnd+acked, ssthresh)
	if n < cwnd { // already above ssthresh: nothing to do here
		return cwnd, acked
	}
	return n, acked - (n - cwnd)
}

// AI is Linux's additive increase, tcp_cong_avoid_ai, counted in bytes: the
// window grows by one MSS each time w bytes have been acknowledged. With w
// equal to the window this is RFC 5681 §3.1's one segment per round trip
// (and RFC 3465 byte counting); CUBIC passes w = cnt·MSS. When every segment
// is a full MSS it grows exactly like Linux's per-segment snd_cwnd_cnt.
//
// The zero value is ready to use.
type AI struct {
	acked int // bytes acknowledged since the last increase (snd_cwnd_cnt)
}

// Grow credits acked bytes against a window cwnd (bytes) that grows by mss
// every w bytes, and returns the new window.
func (a *AI) Grow(cwnd, w, acked, mss int) int {
	w = max(w, 1)
	// Credits accumulated at a larger w are applied gently, as Linux does.
	if a.acked >= w {
		a.acked = 0
		cwnd += mss
	}
	a.acked += acked
	if a.acked >= w {
		d := a.acked / w
		a.acked -= d * w
		cwnd += d * mss
	}
	return cwnd
}

// Reset forgets the partial credit (Linux clears snd_cwnd_cnt on every
// window reduction and on RTO).
func (a *AI) Reset() { a.acked = 0 }

// Credit returns the bytes acknowledged since the last increase.
func (a *AI) Credit() int { return a.acked }
