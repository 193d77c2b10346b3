package metrics

import (
	"math"
	"slices"
	"time"

	"github.com/leolab/leolab/result"
)

// Units and percentiles of the per-flow metrics (DESIGN.md "Metrics").
const (
	// bytesPerGB: "retransmissions per GB" uses decimal gigabytes, 10^9
	// bytes (seed 000, Fig. 9/10 axes).
	bytesPerGB = 1e9
	// rttPercentile is the delay percentile of Pantheon's throughput-delay
	// plots (Yan et al., USENIX ATC 2018, §3), reported as p95 RTT.
	rttPercentile = 0.95
)

// Sample is one interval of a flow's series.
type Sample struct {
	T             time.Duration // end of the interval since the flow's epoch
	Dur           time.Duration // interval length
	Bytes         int64
	ThroughputBps float64 // bits/s over the interval
	Retransmits   int64
	CWnd          int // bytes
	SRTT          time.Duration
	RTTVar        time.Duration
}

// Series turns a flow's intervals into samples; an interval starts where the
// previous one ended, the first at the flow's start.
func Series(f result.Flow) []Sample {
	out := make([]Sample, 0, len(f.Intervals))
	prev := f.StartS
	for _, iv := range f.Intervals {
		s := Sample{
			T: secs(iv.T), Dur: secs(iv.T - prev), Bytes: iv.Bytes, Retransmits: iv.Retransmits,
			CWnd: iv.CWndBytes, SRTT: msDur(iv.SRTTMs), RTTVar: msDur(iv.RTTVarMs),
		}
		if s.Dur > 0 {
			s.ThroughputBps = float64(iv.Bytes) * 8 / s.Dur.Seconds()
		}
		out = append(out, s)
		prev = iv.T
	}
	return out
}

// FlowStats are a flow's summary figures computed from its intervals.
type FlowStats struct {
	Bytes         int64
	Retransmits   int64
	Duration      time.Duration
	ThroughputBps float64 // mean: Bytes·8 / Duration
	MinRTT        time.Duration
	MeanRTT       time.Duration // mean of per-interval srtt
	P95RTT        time.Duration // nearest-rank 95th percentile of srtt
	RTTInflation  float64       // MeanRTT / MinRTT (seed 000 Fig. 9)
	RetransPerGB  float64       // Retransmits / (Bytes / 10^9)
}

// Stats summarises a flow from its intervals. Intervals without an RTT
// (srtt 0: receiver-side logs, no sample yet) are left out of the RTT
// figures.
func Stats(f result.Flow) FlowStats {
	var st FlowStats
	var rtts []float64
	for _, s := range Series(f) {
		st.Bytes += s.Bytes
		st.Retransmits += s.Retransmits
		st.Duration += s.Dur
		if s.SRTT > 0 {
			rtts = append(rtts, float64(s.SRTT))
		}
	}
	if st.Duration > 0 {
		st.ThroughputBps = float64(st.Bytes) * 8 / st.Duration.Seconds()
	}
	if st.Bytes > 0 {
		st.RetransPerGB = float64(st.Retransmits) / (float64(st.Bytes) / bytesPerGB)
	}
	if len(rtts) > 0 {
		st.MinRTT = time.Duration(slices.Min(rtts))
		st.MeanRTT = time.Duration(math.Round(Mean(rtts)))
		st.P95RTT = time.Duration(Percentile(rtts, rttPercentile))
		st.RTTInflation = float64(st.MeanRTT) / float64(st.MinRTT)
	}
	return st
}

// Mean is the arithmetic mean; 0 for no values.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Percentile is the nearest-rank percentile (the smallest value with at
// least a fraction q of the values at or below it; Hyndman & Fan 1996,
// definition 1); 0 for no values.
func Percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)]
}

func secs(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
func msDur(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}
