package learn

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/result"
)

// Sample is the per-interval state tuple of paper 003 (§III.A, Algorithm 1
// line 1): {t, b, τ, cwnd, rwnd, RTT, RTTvar}. The location and stream flags
// L_j, S_k of the state live in the Trace's Source.
type Sample struct {
	T           time.Duration // end of the interval since the flow's epoch
	Throughput  float64       // b: bits/s delivered in the interval
	Retransmits int64         // τ: segments retransmitted in the interval
	CWnd        int           // bytes; 0 when not logged
	RWnd        int           // receiver-advertised window, bytes; 0 when unknown
	RTT         time.Duration // smoothed RTT at the interval's end; 0 when not logged
	RTTVar      time.Duration // its variance estimate; 0 when not logged
}

// Source identifies where a trace was measured: the paper's location flag
// L_j (the server city) and stream flag S_k (direction and scenario kind,
// e.g. "downlink-sequential", as the dataset's directory groups), plus the
// flow's own name so rows of different traces stay apart.
type Source struct {
	Location string
	Stream   string
	Flow     string
}

// Trace is one flow's series of states.
type Trace struct {
	Source  Source
	Samples []Sample
}

// FromFlow builds a trace from a flow's intervals (a leolab result, or an
// iperf3 log or dataset trace read by package iperf). Throughput is the
// interval's bytes over its length; the first interval starts at the
// flow's start. RWnd is the interval's rwnd_bytes (iperf3's snd_wnd; 0 when
// the source did not log it). Interval ends must increase.
func FromFlow(src Source, f result.Flow) (Trace, error) {
	tr := Trace{Source: src, Samples: make([]Sample, 0, len(f.Intervals))}
	prev := f.StartS
	for i, iv := range f.Intervals {
		dt := iv.T - prev
		if i == 0 && dt <= 0 {
			// A flow whose first interval ends at or before its start_s
			// counts its times from its own start, not the run's epoch.
			prev, dt = 0, iv.T
		}
		if !(dt > 0) || math.IsInf(iv.T, 0) {
			return Trace{}, fmt.Errorf("learn: %s: interval %d ends at %gs, not after %gs", src.Flow, i, iv.T, prev)
		}
		tr.Samples = append(tr.Samples, Sample{
			T:           seconds(iv.T),
			Throughput:  float64(iv.Bytes) * 8 / dt,
			Retransmits: iv.Retransmits,
			CWnd:        iv.CWndBytes,
			RWnd:        int(iv.RWndBytes),
			RTT:         millis(iv.SRTTMs),
			RTTVar:      millis(iv.RTTVarMs),
		})
		prev = iv.T
	}
	return tr, nil
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
func millis(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}
