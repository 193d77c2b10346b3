package iperf

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/result"
)

// bytesPerGB: retransmissions per GB use decimal gigabytes (10^9 bytes), as
// seed 000's Fig. 9/10 axis "retransmissions per GB".
const bytesPerGB = 1e9

// p95: the percentile of per-interval smoothed RTT reported as p95_rtt_ms
// (DESIGN.md "Results"; Pantheon's 95th-percentile delay).
const p95 = 0.95

// Flows converts the run to one result.Flow per stream, so logs and leolab
// results are analysed alike. Totals come from the end summary when present
// (sender side first, receiver side for receiver logs), else from the
// intervals; RTTs from the kernel's end-summary figures when logged, else
// from the per-interval srtt. Interval times are seconds since the test
// start (the flow's epoch).
func (r *Run) Flows() []result.Flow {
	n := r.NumStreams()
	flows := make([]result.Flow, n)
	for i := range n {
		flows[i] = r.flow(i)
	}
	return flows
}

func (r *Run) flow(i int) result.Flow {
	f := result.Flow{ID: i, CCA: strings.ToLower(r.SenderCC), EndS: r.Duration().Seconds()}
	var sumBytes, sumRetr int64
	var rtts []float64
	for _, iv := range r.Intervals {
		if i >= len(iv.Streams) {
			continue
		}
		s := iv.Streams[i]
		sumBytes += s.Bytes
		sumRetr += s.Retransmits
		out := result.Interval{T: iv.End.Seconds(), Bytes: s.Bytes, Retransmits: s.Retransmits}
		if s.TCPInfo {
			out.CWndBytes = int(min(s.SndCwnd, math.MaxInt32))
			out.RWndBytes = s.SndWnd
			out.SRTTMs, out.RTTVarMs = ms(s.RTT), ms(s.RTTVar)
			rtts = append(rtts, out.SRTTMs)
		}
		f.Intervals = append(f.Intervals, out)
	}
	f.BytesAcked, f.Retransmits = sumBytes, sumRetr
	secs := f.EndS
	if i < len(r.End.Streams) {
		e := r.End.Streams[i]
		t := e.Sender
		if t.Bytes == 0 {
			t = e.Receiver
		}
		if t.Bytes > 0 {
			f.BytesAcked = t.Bytes
		}
		if t.Bytes > 0 && t.Seconds > 0 {
			secs = t.Seconds
		}
		if e.Sender.Retransmits >= 0 && e.Sender.Bytes > 0 {
			f.Retransmits = e.Sender.Retransmits
		}
		if e.TCPInfo {
			f.MinRTTMs, f.MeanRTTMs = ms(e.MinRTT), ms(e.MeanRTT)
		}
	}
	if f.MinRTTMs == 0 && len(rtts) > 0 {
		f.MinRTTMs, f.MeanRTTMs = slices.Min(rtts), mean(rtts)
	}
	f.P95RTTMs = nearestRank(rtts, p95)
	if f.MinRTTMs > 0 {
		f.RTTInflation = f.MeanRTTMs / f.MinRTTMs
	}
	if secs > 0 {
		f.ThroughputMbps = float64(f.BytesAcked) * 8 / secs / 1e6
	}
	if f.BytesAcked > 0 {
		f.RetransPerGB = float64(f.Retransmits) / (float64(f.BytesAcked) / bytesPerGB)
	}
	return f
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// nearestRank is the nearest-rank percentile (the smallest value with at
// least a fraction q of the samples at or below it); 0 for no samples.
func nearestRank(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(k, 0)]
}
