package bbrfilter

import "time"

// ACK-aggregation ("extra acked") estimator (Linux tcp_bbr.c
// bbr_update_ack_aggregation, since 4.20).
const (
	// ExtraAckedWinRounds: the max filter spans 5–10 round trips, two
	// sub-windows of this many rounds (bbr_extra_acked_win_rtts).
	ExtraAckedWinRounds = 5
	// extraAckedMax caps the aggregation allowance at 100 ms of data at
	// the estimated bandwidth (bbr_extra_acked_max_us).
	extraAckedMax = 100 * time.Millisecond
	// ackEpochResetPkts resets an epoch that accumulated this many packets
	// (bbr_ack_epoch_acked_reset_thresh = 1<<20).
	ackEpochResetPkts = 1 << 20
	// maxSubwinRounds saturates the sub-window's round counter, a 5-bit
	// field in Linux (extra_acked_win_rtts:5).
	maxSubwinRounds = 31
)

// ExtraAcked estimates how much more data arrives in ACK bursts than the
// bandwidth estimate predicts (Starlink's 1.333 ms frames make ACKs
// arrive in clumps), so cwnd can keep sending through ACK silences. The
// zero value is ready with an epoch starting at 0.
type ExtraAcked struct {
	epochStart time.Duration // start of the current ACK epoch
	epochAcked int           // bytes acked in the epoch
	extra      [2]int        // max extra acked bytes per sub-window
	idx        int           // current sub-window
	winRounds  int           // rounds in the current sub-window
}

// Update feeds one ACK of acked bytes. winRounds is the sub-window length
// (ExtraAckedWinRounds, or 1 in BBRv2/v3 STARTUP); bw the current estimate
// in bytes/s; cwnd in bytes caps one sample; mss scales the epoch reset
// threshold.
func (a *ExtraAcked) Update(now time.Duration, acked int, bw float64, roundStart bool, winRounds, cwnd, mss int) {
	if roundStart {
		a.winRounds = min(a.winRounds+1, maxSubwinRounds)
		if a.winRounds >= winRounds {
			a.winRounds = 0
			a.idx ^= 1
			a.extra[a.idx] = 0
		}
	}
	expected := int(bw * (now - a.epochStart).Seconds())
	if a.epochAcked <= expected || a.epochAcked+acked >= ackEpochResetPkts*mss {
		a.epochAcked = 0
		a.epochStart = now
		expected = 0
	}
	a.epochAcked += acked
	extra := min(a.epochAcked-expected, cwnd)
	if extra > a.extra[a.idx] {
		a.extra[a.idx] = extra
	}
}

// Restart begins a new epoch (on idle restart, bbr_cwnd_event).
func (a *ExtraAcked) Restart(now time.Duration) {
	a.epochStart = now
	a.epochAcked = 0
}

// Get is the max extra acked over the last 1–2 sub-windows, in bytes.
func (a *ExtraAcked) Get() int { return max(a.extra[0], a.extra[1]) }

// CWnd is the window allowance for aggregation: gain · extra acked,
// capped at 100 ms of data at bw bytes/s (bbr_ack_aggregation_cwnd).
func (a *ExtraAcked) CWnd(bw, gain float64) int {
	return min(int(gain*float64(a.Get())), int(bw*extraAckedMax.Seconds()))
}
