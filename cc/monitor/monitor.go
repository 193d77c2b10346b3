// Package monitor owns the monitor interval of the learned controllers:
// what one flow's ACKs tell over a fixed period (acknowledged and lost
// bytes, RTT samples, the transport's RTT estimators). Periods are cut on
// the clock, not on ACKs: period k covers [Start₀ + k·P, Start₀ +
// (k+1)·P), and one with no ACK at all closes with zero delivery. Orca
// and Astraea read one every 20 ms (cc/orca, cc/astraea); the training
// environment (learn/rlenv) records the same intervals with each
// transition. Nothing here allocates.
//
// Why on the clock: on a LEO path an outage or an RTT step leaves no ACK
// for hundreds of milliseconds, and a period that waits for the next ACK
// to close stretches to the whole gap, so the agent acts once, late, on
// one long average. The cc interface has no timer (cc.Controller gets
// OnSend, OnAck and OnRTO only), so a controller closes every period due
// by the time of its next event (Due, Close), each at its own end: the
// periods of a gap reach the agent late, in a burst, but each as what it
// was — 20 ms with nothing delivered.
package monitor

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// MaxCatchUp bounds the empty periods one event closes. After a longer
// gap (an application-limited flow idle for seconds: during an outage the
// RTO fires, backing off, so its events are at most the RTO's ceiling
// apart) the periods before the last MaxCatchUp are skipped, uncounted,
// so no input makes an event's work unbounded. Ours: 256 periods are
// 5.12 s at 20 ms, many times the 5–10 periods the agents' states
// remember (cc/astraea History, cc/orca History).
const MaxCatchUp = 256

// Interval is one monitor period's measurements.
type Interval struct {
	// Start and End bound the period, End − Start = the monitor's period.
	Start, End time.Duration
	// AckedBytes and LostBytes are newly acknowledged (cumulative plus
	// SACKed) and newly marked lost bytes in the period.
	AckedBytes, LostBytes int64
	// Acks counts the ACKs seen; RTTs the ones with an RTT sample, whose
	// sum is RTTSum.
	Acks, RTTs int
	RTTSum     time.Duration
	// MinRTT and SRTT are the transport's estimators at the period's end
	// (RFC 6298), Inflight the bytes in flight then (all as of the last
	// ACK, in an earlier period when this one had none); CWnd is the
	// window when the period closed.
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

// Monitor cuts a flow's time into periods of a fixed length, from its
// first ACK on, and accounts each ACK in the period it arrives in.
//
// A controller calls, at each event (OnSend, OnAck, OnRTO) before
// anything else, Close while Due — acting on each closed period in turn —
// and then, on an ACK, Add.
type Monitor struct {
	period  time.Duration
	cur     Interval
	last    Interval
	started bool
	closed  int64
	skipped int64
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

// Due reports whether the open period has ended by now (its end ≤ now).
// Before the first ACK nothing is due.
func (m *Monitor) Due(now time.Duration) bool {
	return m.started && now-m.cur.Start >= m.period
}

// Close ends the open period at its end, whatever now is, with the
// window cwnd (the controller's, as it stands), makes it Last and returns
// it; the next period opens where it ended, with the estimators carried
// over and nothing delivered. Call it only while Due(now). When more
// than MaxCatchUp periods would still be due at now, the earlier ones are
// skipped (Skipped counts them) and the next period opens MaxCatchUp
// periods before now's.
func (m *Monitor) Close(now time.Duration, cwnd int) *Interval {
	c := &m.cur
	c.End = c.Start + m.period
	c.CWnd = cwnd
	m.last = *c
	m.closed++
	next := Interval{Start: c.End, MinRTT: c.MinRTT, SRTT: c.SRTT, CWnd: cwnd, Inflight: c.Inflight}
	if due := int64((now - next.Start) / m.period); due > MaxCatchUp {
		skip := due - MaxCatchUp
		next.Start += time.Duration(skip) * m.period
		m.skipped += skip
	}
	m.cur = next
	return &m.last
}

// Add accounts one ACK's rate sample in the open period; the first ACK
// opens the first period at now. Close the due periods first: an ACK
// belongs to the period it arrives in.
func (m *Monitor) Add(now time.Duration, rs *cc.RateSample) {
	if !m.started {
		m.started = true
		m.cur = Interval{Start: now}
	}
	c := &m.cur
	c.AckedBytes += int64(rs.AckedBytes)
	c.LostBytes += int64(rs.LostBytes)
	c.Acks++
	if rs.RTT > 0 {
		c.RTTs++
		c.RTTSum += rs.RTT
	}
	c.MinRTT, c.SRTT, c.Inflight = rs.MinRTT, rs.SRTT, rs.Inflight
}

// Last is the most recently closed period.
func (m *Monitor) Last() *Interval { return &m.last }

// Closed is the number of periods closed; Skipped the number skipped
// after gaps longer than MaxCatchUp periods.
func (m *Monitor) Closed() int64  { return m.closed }
func (m *Monitor) Skipped() int64 { return m.skipped }
