package leocc

import "time"

// aggregation estimates how much more data ACK bursts deliver than the
// bandwidth estimate predicts ("extra acked"; leocc_update_ack_aggregation
// as Linux tcp_bbr.c since 4.20), so cwnd keeps the pipe full through ACK
// silences such as Starlink's 1.333 ms frames.
type aggregation struct {
	epochStart time.Duration // start of the current ACK epoch
	epochAcked int           // bytes acknowledged in it
	extra      [2]int        // max extra bytes per sub-window
	cur        int           // current sub-window
	rounds     int           // rounds in the current sub-window
}

// update feeds one ACK of acked bytes; bw is the model bandwidth (bytes/s)
// and cwnd (bytes) caps one sample.
func (a *aggregation) update(now time.Duration, acked int, bw float64, roundStart bool, cwnd, mss int) {
	if roundStart {
		a.rounds = min(a.rounds+1, 31)
		if a.rounds >= extraAckedWinRounds {
			a.rounds = 0
			a.cur ^= 1
			a.extra[a.cur] = 0
		}
	}
	expected := int(bw * (now - a.epochStart).Seconds())
	if a.epochAcked <= expected || a.epochAcked+acked >= ackEpochResetPkts*mss {
		a.epochStart, a.epochAcked, expected = now, 0, 0
	}
	a.epochAcked += acked
	a.extra[a.cur] = max(a.extra[a.cur], min(a.epochAcked-expected, cwnd))
}

// restart begins a new epoch (idle restart).
func (a *aggregation) restart(now time.Duration) { a.epochStart, a.epochAcked = now, 0 }

// get is the extra acked bytes over the last one or two sub-windows.
func (a *aggregation) get() int { return max(a.extra[0], a.extra[1]) }

// cwnd is the window allowance: extra acked, at most 100 ms at bw
// (leocc_ack_aggregation_cwnd, gain 1).
func (a *aggregation) cwnd(bw float64) int {
	return min(a.get(), int(bw*extraAckedMax.Seconds()))
}
