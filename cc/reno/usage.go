package reno

import "github.com/leolab/leolab/cc"

// Usage tracks whether the flow is using its window, the condition under
// which Linux lets it grow (tcp_is_cwnd_limited and tcp_cwnd_validate in
// include/net/tcp.h and net/ipv4/tcp_output.c; RFC 7661's concern). It
// remembers, for the current window of data, whether a send found the window
// full and the largest flight seen; the window of data ends when everything
// sent at its start has been delivered or declared lost.
//
// The zero value reports "limited" until the first send, so a controller
// driven by ACKs alone grows as if the window were always full.
type Usage struct {
	seen        bool
	limited     bool  // a send in this window found cwnd full (is_cwnd_limited)
	maxInflight int   // largest bytes in flight in this window (max_packets_out)
	sent        int64 // bytes sent so far, the stand-in for snd_nxt
	mark        int64 // sent when this window began (cwnd_usage_seq)
	done        int64 // bytes delivered or lost so far, the stand-in for snd_una
}

// OnSend records one transmission under window cwnd (bytes).
func (u *Usage) OnSend(s cc.SentInfo, cwnd, mss int) {
	u.seen = true
	u.sent += int64(s.Bytes)
	full := s.Inflight+mss > cwnd // no room left for another full segment
	if u.done >= u.mark || full || (!u.limited && s.Inflight > u.maxInflight) {
		u.limited = full
		u.maxInflight = s.Inflight
		u.mark = u.sent
	}
}

// OnAck records the connection's progress.
func (u *Usage) OnAck(rs *cc.RateSample) {
	u.done = rs.TotalDelivered + rs.TotalLost
}

// Limited tells whether growth is allowed: the window was full in this
// window of data, or, in slow start, it is less than twice the largest
// flight (so slow start keeps up with a sender that is catching up).
func (u *Usage) Limited(cwnd int, slowStart bool) bool {
	if !u.seen || u.limited {
		return true
	}
	return slowStart && cwnd < 2*u.maxInflight
}
