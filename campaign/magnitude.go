package campaign

import (
	"fmt"
	"math"
	"slices"
)

// Magnitude bands of issue 17's fidelity targets: a simulated cell agrees
// with the real one when its throughput is within ±25 %, its
// retransmissions per GB within a factor of 2 and its RTT inflation within
// ±15 %. The bands are about the run-to-run spread of the real data: the
// loss-based CCAs vary ±15–30 % between runs, retransmission counts by up to
// 2× (../shared/data/README.md), RTT inflation by a few per cent.
const (
	ThroughputBand = 0.25
	RetransFactor  = 2.0
	InflationBand  = 0.15
)

// Magnitude is how well one (kind, direction) matches the real data cell
// by cell, over the cells that have both a simulated and a real value
// (ccp excluded: its deployment was broken).
type Magnitude struct {
	Kind, Direction string
	Cells           int // cells compared
	// Within counts the cells inside each band.
	ThroughputWithin, RetransWithin, InflationWithin int
	// MedianAbsLog is the median |log(sim/real)| of throughput (0.22 is
	// a 25 % error).
	MedianAbsLog float64
	Rho          float64 // Spearman of per-CCA mean throughput (NaN if < 3 CCAs)
}

// Magnitudes scores every (kind, direction) present in rows.
func Magnitudes(rows []Row) []Magnitude {
	rho := map[[2]string]float64{}
	for _, f := range Spearman(rows) {
		rho[[2]string{f.Kind, f.Direction}] = f.Rho
	}
	var out []Magnitude
	for _, p := range pairs(rows) {
		m := Magnitude{Kind: p[0], Direction: p[1], Rho: math.NaN()}
		if r, ok := rho[p]; ok {
			m.Rho = r
		}
		var logs []float64
		for _, r := range rows {
			if r.Kind != m.Kind || r.Direction != m.Direction || !Comparable(r) {
				continue
			}
			m.Cells++
			l := math.Log(r.Sim.ThroughputMbps / r.Real.ThroughputMbps)
			logs = append(logs, math.Abs(l))
			if math.Abs(r.Sim.ThroughputMbps/r.Real.ThroughputMbps-1) <= ThroughputBand {
				m.ThroughputWithin++
			}
			if withinFactor(r.Sim.RetransPerGB, r.Real.RetransPerGB, RetransFactor) {
				m.RetransWithin++
			}
			if math.Abs(r.Sim.RTTInflation/r.Real.RTTInflation-1) <= InflationBand {
				m.InflationWithin++
			}
		}
		m.MedianAbsLog = median(logs)
		if m.Cells > 0 {
			out = append(out, m)
		}
	}
	return out
}

// Comparable reports whether r has a simulated and a real value to compare
// (and is not ccp).
func Comparable(r Row) bool {
	return r.CCA != excludedFromFidelity && r.Sim.N > 0 && r.Real.N > 0 &&
		r.Sim.ThroughputMbps > 0 && r.Real.ThroughputMbps > 0 &&
		!math.IsNaN(r.Sim.ThroughputMbps+r.Real.ThroughputMbps)
}

// withinFactor reports a/b in [1/f, f]; two zeros agree.
func withinFactor(a, b, f float64) bool {
	if a == 0 && b == 0 {
		return true
	}
	if a <= 0 || b <= 0 {
		return false
	}
	q := a / b
	return q <= f && q >= 1/f
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// String is one line, e.g. "downlink dedicated: 31/40 throughput within
// ±25 %, 29/40 retrans within 2×, 35/40 RTT inflation within ±15 %,
// median |log ratio| 0.12, Spearman 0.95".
func (m Magnitude) String() string {
	return fmt.Sprintf("%s %s: %d/%d throughput within ±%.0f%%, %d/%d retrans/GB within %.0f×, "+
		"%d/%d RTT inflation within ±%.0f%%, median |log ratio| %.2f, Spearman %.2f",
		m.Direction, m.Kind, m.ThroughputWithin, m.Cells, 100*ThroughputBand, m.RetransWithin, m.Cells,
		RetransFactor, m.InflationWithin, m.Cells, 100*InflationBand, m.MedianAbsLog, m.Rho)
}
