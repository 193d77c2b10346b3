package transport

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// rateState is the connection-level state of delivery-rate estimation
// (draft-cheng-iccrg-delivery-rate-estimation §3.1; Linux tcp_rate.c).
type rateState struct {
	delivered     int64         // C.delivered, payload bytes
	deliveredTime time.Duration // C.delivered_time
	firstSent     time.Duration // C.first_sent_time
	appLimited    int64         // C.app_limited: 0, or delivered mark ending the app-limited phase
	lost          int64         // C.lost, payload bytes marked lost

	// Per-ACK sample under construction (rs.*).
	hasPrior      bool
	priorDeliv    int64
	priorTime     time.Duration
	sampleXmit    time.Duration // send time of the newest delivered segment
	sampleEnd     uint64
	sendElapsed   time.Duration
	ackElapsed    time.Duration
	sampleAppLim  bool
	sampleInFl    int
	sampleLostSnd int64
}

// onSend snapshots the connection state into s (draft-cheng §3.2
// "Transmitting a data packet"). idle tells that nothing was outstanding
// (Linux: packets_out == 0); pipeAfter is the inflight including s.
func (r *rateState) onSend(now time.Duration, s *seg, idle bool, pipeAfter int) {
	if idle {
		r.firstSent, r.deliveredTime = now, now
	}
	s.firstSent = r.firstSent
	s.deliveredTime = r.deliveredTime
	s.delivered = r.delivered
	s.appLimited = r.appLimited != 0
	s.txInFlight = pipeAfter
	s.lostAtSend = r.lost
}

// onDelivered accounts one newly delivered (cum-ACKed or SACKed) segment
// (draft-cheng §3.3 "Upon receiving ACK", per packet; Linux
// tcp_rate_skb_delivered). The newest-sent segment defines the sample.
func (r *rateState) onDelivered(now time.Duration, s *seg) {
	r.delivered += int64(s.len())
	r.deliveredTime = now
	if r.hasPrior && !sentAfter(s.xmit, s.end, r.sampleXmit, r.sampleEnd) {
		return
	}
	r.hasPrior = true
	r.priorDeliv = s.delivered
	r.priorTime = s.deliveredTime
	r.sampleAppLim = s.appLimited
	r.sampleInFl = s.txInFlight
	r.sampleLostSnd = s.lostAtSend
	r.sampleXmit, r.sampleEnd = s.xmit, s.end
	r.sendElapsed = s.xmit - s.firstSent
	r.ackElapsed = r.deliveredTime - s.deliveredTime
	// Later segments of this flight measure from this one's send time.
	r.firstSent = s.xmit
}

// sentAfter orders transmissions by time, then by end sequence (Linux
// tcp_skb_sent_after).
func sentAfter(t1 time.Duration, e1 uint64, t2 time.Duration, e2 uint64) bool {
	return t1 > t2 || (t1 == t2 && e1 > e2)
}

// generate completes the sample into rs (draft-cheng §3.3 "Upon receiving
// ACK", Linux tcp_rate_gen) and resets the per-ACK state. minRTT is the
// transport's current minimum RTT.
func (r *rateState) generate(rs *cc.RateSample, minRTT time.Duration) {
	if r.appLimited != 0 && r.delivered > r.appLimited {
		r.appLimited = 0 // the app-limited bubble has been ACKed
	}
	rs.TotalDelivered = r.delivered
	rs.TotalLost = r.lost
	if !r.hasPrior {
		return
	}
	r.hasPrior = false
	rs.PriorDelivered = r.priorDeliv
	rs.Delivered = r.delivered - r.priorDeliv
	rs.IsAppLimited = r.sampleAppLim
	rs.TxInFlight = r.sampleInFl
	rs.Lost = r.lost - r.sampleLostSnd
	// Use the longer of the send and ACK phases so that ACK compression
	// cannot inflate the rate (draft-cheng §3.3).
	interval := max(r.sendElapsed, r.ackElapsed)
	if interval <= 0 || interval < minRTT {
		// Too short to be trusted: a sample over less than one min RTT
		// (draft-cheng §3.3; Linux tcp_rate_gen) is discarded.
		return
	}
	rs.Interval = interval
	rs.DeliveryRate = float64(rs.Delivered) / interval.Seconds()
}

// markAppLimited starts an application-limited phase: samples whose segments
// are sent before C.delivered passes the mark are flagged (draft-cheng §3.4,
// Linux tcp_rate_check_app_limited).
func (r *rateState) markAppLimited(pipe int) {
	r.appLimited = max(r.delivered+int64(pipe), 1)
}
