package vivace

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

// Utility function constants (Vivace §3, the "latency-aware" utility
// u(x) = x^t − b·x·dRTT/dT − c·x·L with x in Mbit/s and L the loss rate).
const (
	utilityExponent = 0.9   // t
	rttCoefficient  = 900   // b
	lossCoefficient = 11.35 // c
	// rttGradientFilter zeroes |dRTT/dT| below this, filtering RTT noise
	// (PCC-Uspace pcc_vivace_ucalc.cpp kRTTFilter = 0.02).
	rttGradientFilter = 0.02
	// bitsPerMbit converts rates: Mbit/s are 10^6 bit/s.
	bitsPerMbit = 1e6
)

// monitor is one monitor interval (MI, §3): a period during which the
// sender holds one rate, and what came back for the data sent in it. The
// transport gives no sequence numbers to controllers, so an MI is a range
// of the cumulative bytes sent, [startOff, endOff); an ACK belongs to the
// MI holding the first byte it newly resolves (acknowledges or declares
// lost), counting resolved bytes in order, as TCP's cumulative ACK does.
type monitor struct {
	rate       float64       // bytes/s held during the MI
	start, end time.Duration // when sending began and when it is to end
	startOff   int64         // cumulative bytes sent when it began
	endOff     int64         // ... when it ended; −1 while sending
	acked      int64         // bytes acknowledged
	lost       int64         // bytes declared lost

	// least-squares sums for the RTT slope over ACK times (s since start)
	n, st, sr, stt, str float64
}

// begin starts the MI at now with rate for dur, at cumulative offset off.
func (m *monitor) begin(rate float64, now, dur time.Duration, off int64) {
	*m = monitor{rate: rate, start: now, end: now + dur, startOff: off, endOff: -1}
}

// holds reports whether the byte at offset off was sent in this MI (a
// zero monitor, not yet begun, holds nothing).
func (m *monitor) holds(off int64) bool {
	return m.rate > 0 && off >= m.startOff && (m.endOff < 0 || off < m.endOff)
}

// add accounts one ACK.
func (m *monitor) add(now time.Duration, rs *cc.RateSample) {
	m.acked += int64(rs.AckedBytes)
	m.lost += int64(rs.LostBytes)
	if rs.RTT > 0 {
		x, y := (now - m.start).Seconds(), rs.RTT.Seconds()
		m.n++
		m.st += x
		m.sr += y
		m.stt += x * x
		m.str += x * y
	}
}

// resolved reports the bytes acknowledged or lost.
func (m *monitor) resolved() int64 { return m.acked + m.lost }

// rttGradient is dRTT/dT, the least-squares slope of RTT over time (§3),
// 0 with fewer than two samples or when below the noise filter.
func (m *monitor) rttGradient() float64 {
	den := m.n*m.stt - m.st*m.st
	if m.n < 2 || den <= 0 {
		return 0
	}
	g := (m.n*m.str - m.st*m.sr) / den
	if math.Abs(g) < rttGradientFilter {
		return 0
	}
	return g
}

// lossRate is the fraction of the MI's resolved bytes that were lost.
func (m *monitor) lossRate() float64 {
	if m.resolved() == 0 {
		return 0
	}
	return float64(m.lost) / float64(m.resolved())
}

// utility is the MI's Vivace utility.
func (m *monitor) utility() float64 {
	return utility(m.rate*8/bitsPerMbit, m.rttGradient(), m.lossRate())
}

// utility is u(x) = x^0.9 − 900·x·dRTT/dT − 11.35·x·L, x in Mbit/s.
func utility(x, rttGradient, loss float64) float64 {
	return math.Pow(x, utilityExponent) - rttCoefficient*x*rttGradient - lossCoefficient*x*loss
}
