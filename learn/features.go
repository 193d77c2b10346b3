package learn

import (
	"math"
	"slices"
	"time"

	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/internal/group"
)

// Offline stand-ins for BBR's online filters, so a pool row's features
// are computed as the controller computes them (lmbbr.Features).
const (
	// RateWindow: BBR's max-bw filter keeps the last two ProbeBW cycles
	// (bw_hi[2]), each 2–3 s long (bbr_bw_probe_base_us = 2 s +
	// bbr_bw_probe_rand_us ≤ 1 s), so about 5 s of delivery rates.
	RateWindow = 5 * time.Second
	// MinRTTWindow: BBR's min_rtt window (bbr_min_rtt_win_sec = 10).
	MinRTTWindow = 10 * time.Second
	// SegmentBytes converts retransmitted segments to bytes: the
	// simulator's and Linux's default MSS over Ethernet (cc.Config's 1448).
	SegmentBytes = 1448
)

// Example is one training or evaluation example: a pool row's features
// (computed causally from its trace, as the controller would online), its
// phase and its eq. 3 label.
type Example struct {
	Source Source
	Index  int
	Phase  Phase
	X      lmbbr.Vector
	Label  float64 // Row.Mapped
}

// RowInputs computes the feature inputs of every row, trace by trace
// (rows of one Source, in Index order, as Pool.Add appends them):
//
//   - Rate: the interval's throughput; MaxRate: the largest throughput of
//     the trace's intervals ending within RateWindow up to and including
//     this one (BBR's max-bw filter);
//   - RTT: the interval's smoothed RTT; MinRTT: the smallest logged RTT
//     within MinRTTWindow up to this one (BBR's min_rtt);
//   - LossRate: retransmitted bytes over sent bytes in the interval.
//
// Only the past is used, as online. The result is in the order of rows.
func RowInputs(rows []Row) []lmbbr.Inputs {
	out := make([]lmbbr.Inputs, len(rows))
	for _, idx := range traces(rows) {
		prevT := time.Duration(0)
		for n, i := range idx {
			r := rows[i]
			in := lmbbr.Inputs{Rate: r.Throughput, RTT: r.RTT}
			for m := n; m >= 0; m-- {
				p := rows[idx[m]]
				if r.T-p.T >= RateWindow && m != n {
					break
				}
				in.MaxRate = max(in.MaxRate, p.Throughput)
			}
			for m := n; m >= 0; m-- {
				p := rows[idx[m]]
				if r.T-p.T >= MinRTTWindow && m != n {
					break
				}
				if p.RTT > 0 && (in.MinRTT == 0 || p.RTT < in.MinRTT) {
					in.MinRTT = p.RTT
				}
			}
			dt := (r.T - prevT).Seconds()
			if n == 0 {
				dt = r.T.Seconds()
			}
			sent := r.Throughput * dt / 8
			lost := float64(r.Retransmits) * SegmentBytes
			if sent+lost > 0 && !math.IsInf(sent, 0) {
				in.LossRate = lost / (sent + lost)
			}
			out[i] = in
			prevT = r.T
		}
	}
	return out
}

// traces groups row indices by Source in first-seen order, each group in
// Index order.
func traces(rows []Row) [][]int {
	out := group.ByFirstSeen(rows, func(r Row) Source { return r.Source })
	for _, idx := range out {
		slices.SortStableFunc(idx, func(a, b int) int { return rows[a].Index - rows[b].Index })
	}
	return out
}

// Examples returns the UP and DOWN rows as examples (CRUISE has a single
// gain, so nothing to learn), in row order.
func Examples(rows []Row) []Example {
	ins := RowInputs(rows)
	var out []Example
	for i, r := range rows {
		if r.Phase == Cruise {
			continue
		}
		out = append(out, Example{Source: r.Source, Index: r.Index, Phase: r.Phase, X: lmbbr.Features(ins[i]), Label: r.Mapped})
	}
	return out
}
