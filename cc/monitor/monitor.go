// Package monitor owns the monitor interval of the learned controllers:
// what one flow's ACKs tell over a fixed period (acknowledged and lost
// bytes, RTT samples, the transport's RTT estimators), closed by the
// first ACK once the period has elapsed. Orca and Astraea read one every
// 20 ms (cc/orca, cc/astraea); the training environment (learn/rlenv)
// records the same intervals with each transition. The normalisations
// their features share are here too: Peak (throughput over its running
// maximum), Interval.CWndBDP, QueueDelay and LossFraction, and
// DelayFactor. Nothing here allocates.
//
// Tried, not applied: periods on the clock (period k covering [Start₀ +
// k·P, Start₀ + (k+1)·P), the ones without an ACK closed empty at the
// next event), so that an outage or an RTT step does not stretch one
// period over the whole gap. With the embedded actors they gave orca
// 0.066 and astraea 0.005 utilisation after paper002's 50 → 200 ms RTT
// step (Fig. 4; ACK-closed periods: 0.111 and 0.004), and a default
// Astraea retrain with them filled only 0.583 of the two-flow link,
// failing its acceptance test. The embedded weights (cc/orca/actor.json,
// cc/astraea/actor.json) were trained on ACK-closed periods and `leolab
// learn train-cca` must rebuild them byte for byte, so ACK-closed
// periods stay with the weights trained on them.
package monitor

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// Interval is one monitor period's measurements.
type Interval struct {
	Start, End time.Duration
	// AckedBytes and LostBytes are newly acknowledged (cumulative plus
	// SACKed) and newly marked lost bytes in the period.
	AckedBytes, LostBytes int64
	// Acks counts the ACKs seen; RTTs the ones with an RTT sample, whose
	// sum is RTTSum.
	Acks, RTTs int
	RTTSum     time.Duration
	// MinRTT and SRTT are the transport's estimators at the period's end
	// (RFC 6298); CWnd and Inflight the window and bytes in flight then.
	MinRTT, SRTT   time.Duration
	CWnd, Inflight int
}

// Duration is the period's length.
func (iv *Interval) Duration() time.Duration { return iv.End - iv.Start }

// Throughput is the acknowledged bytes per second over the period.
func (iv *Interval) Throughput() float64 {
	if d := iv.Duration(); d > 0 {
		return float64(iv.AckedBytes) / d.Seconds()
	}
	return 0
}

// LossRate is the bytes marked lost per second over the period (Orca's
// lost_bytes/time_delta).
func (iv *Interval) LossRate() float64 {
	if d := iv.Duration(); d > 0 {
		return float64(iv.LostBytes) / d.Seconds()
	}
	return 0
}

// AvgRTT is the mean of the period's RTT samples, or SRTT without any.
func (iv *Interval) AvgRTT() time.Duration {
	if iv.RTTs == 0 {
		return iv.SRTT
	}
	return iv.RTTSum / time.Duration(iv.RTTs)
}

// LossFraction is the share of the period's bytes marked lost,
// lost/(acked + lost), or 0 when it saw none.
func (iv *Interval) LossFraction() float64 {
	if t := iv.AckedBytes + iv.LostBytes; t > 0 {
		return float64(iv.LostBytes) / float64(t)
	}
	return 0
}

// QueueDelay is the period's queueing delay relative to the base RTT,
// (avg_rtt − min_rtt)/min_rtt, or 0 when the mean RTT is not above
// min_rtt or either is unknown.
func (iv *Interval) QueueDelay() float64 {
	avg, minRTT := iv.AvgRTT(), iv.MinRTT
	if minRTT > 0 && avg > minRTT {
		return float64(avg-minRTT) / float64(minRTT)
	}
	return 0
}

// CWndBDP is the window at the period's end over the BDP estimate
// bw·min_rtt (bw in bytes/s: the learned controllers use the flow's
// largest period throughput, Peak), or 0 when either is unknown.
func (iv *Interval) CWndBDP(bw float64) float64 {
	if bw > 0 && iv.MinRTT > 0 {
		return float64(iv.CWnd) / (bw * iv.MinRTT.Seconds())
	}
	return 0
}

// DelayFactor is 1 while rtt ≤ margin·min_rtt and margin·min_rtt/rtt
// above (Orca's delay metric, Soheil-ab/Orca envwrapper.py, with its
// delay_margin_coef as margin), or 1 without a min_rtt.
func DelayFactor(margin float64, minRTT, rtt time.Duration) float64 {
	if m := margin * float64(minRTT); minRTT > 0 && float64(rtt) > m {
		return m / float64(rtt)
	}
	return 1
}

// Peak is a flow's largest period throughput so far, the normaliser of
// the learned controllers' throughput features (Orca's max_bw, Sage's
// max_thr). The zero value has seen nothing.
type Peak struct{ max float64 }

// Observe folds period iv in and returns its throughput (bytes/s) and
// that throughput over the largest so far, iv's included (0 while every
// period was empty).
func (p *Peak) Observe(iv *Interval) (thr, ratio float64) {
	thr = iv.Throughput()
	p.max = max(p.max, thr)
	if p.max > 0 {
		ratio = thr / p.max
	}
	return thr, ratio
}

// Max is the largest period throughput seen, bytes/s (0 before any).
func (p *Peak) Max() float64 { return p.max }

// Monitor cuts a flow's ACKs into periods of a fixed length.
type Monitor struct {
	period  time.Duration
	cur     Interval
	last    Interval
	started bool
}

// New returns a monitor of period (> 0).
func New(period time.Duration) *Monitor {
	if period <= 0 {
		panic("leolab BUG: monitor period must be > 0")
	}
	return &Monitor{period: period}
}

// Period is the monitor period.
func (m *Monitor) Period() time.Duration { return m.period }

// OnAck adds one ACK's rate sample (cwnd: the window after the
// controller processed it). It reports true when the ACK closed a period
// of at least Period, which Last then holds; the next period starts at
// now. The first ACK only starts the first period.
func (m *Monitor) OnAck(now time.Duration, rs *cc.RateSample, cwnd int) bool {
	if !m.started {
		m.started = true
		m.cur = Interval{Start: now}
		return false
	}
	c := &m.cur
	c.AckedBytes += int64(rs.AckedBytes)
	c.LostBytes += int64(rs.LostBytes)
	c.Acks++
	if rs.RTT > 0 {
		c.RTTs++
		c.RTTSum += rs.RTT
	}
	c.MinRTT, c.SRTT, c.CWnd, c.Inflight = rs.MinRTT, rs.SRTT, cwnd, rs.Inflight
	if now-c.Start < m.period {
		return false
	}
	c.End = now
	m.last = *c
	m.cur = Interval{Start: now}
	return true
}

// Last is the most recently closed period.
func (m *Monitor) Last() *Interval { return &m.last }
