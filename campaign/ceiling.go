package campaign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/leolab/leolab/iperf"
)

// The noise ceiling: how many cells of issue 17's magnitude bands a model
// that is exact in the mean would fill, given that both the real target
// and the simulated value are means of a few noisy runs. The real data's
// runs of one cell differ a lot (downlink concurrent bbr Sydney: 5.6 to
// 25.9 Mbit/s over five runs), so a band of ±25 % around a one-run target
// is missed by a perfect model in a large share of cells. Without this
// figure a count of 24/40 cannot be told apart from a wrong model.
//
// Assumptions, stated in the output: a faithful model has the real
// run-to-run spread (a simulated seed varies as a real run does), the log of
// each metric is normal across runs, and cells of one (kind, direction,
// CCA) share one spread whatever the city.

// SpreadKey names one (kind, direction, CCA) whose runs share a spread.
type SpreadKey struct{ Kind, Direction, CCA string }

// Spread is the run-to-run standard deviation of the log of each metric
// between runs of one cell, pooled over the cities that have two or more
// runs (root mean square of the per-city sample deviations).
type Spread struct {
	Throughput, Retrans, Inflation float64
	Cities                         int // cities with ≥ 2 runs behind the figures
}

// summaryKey is the key of one summary, as RealMeans files it.
func summaryKey(s iperf.Summary) Key {
	kind := Dedicated
	if s.Concurrent {
		kind = Concurrent
	}
	return Key{Kind: kind, Direction: s.Direction, City: strings.ToLower(s.City), CCA: s.CCA}
}

// summaryMetrics is one run's throughput (Mbit/s), retransmissions per GB
// and RTT inflation, NaN where the run lacks the field (the seed 000
// definitions, as RealMeans).
func summaryMetrics(s iperf.Summary) [3]float64 {
	m := [3]float64{s.SenderBps / 1e6, math.NaN(), math.NaN()}
	if s.SenderBytes > 0 {
		m[1] = float64(s.Retransmits) / (float64(s.SenderBytes) / 1e9)
	}
	if s.MinRTT > 0 {
		m[2] = float64(s.MeanRTT) / float64(s.MinRTT)
	}
	return m
}

// RealSpreads measures the spreads of every (kind, direction, CCA) in runs
// (each (scenario, city, CCA, run) counted once). A metric without a city
// of two or more positive values is NaN.
func RealSpreads(runs []iperf.Summary) map[SpreadKey]Spread {
	type runID struct {
		Key
		run int
	}
	seen := map[runID]bool{}
	logs := map[Key]*[3][]float64{}
	var order []Key
	for _, s := range runs {
		k := summaryKey(s)
		if seen[runID{k, s.Run}] {
			continue
		}
		seen[runID{k, s.Run}] = true
		l, ok := logs[k]
		if !ok {
			l = &[3][]float64{}
			logs[k] = l
			order = append(order, k)
		}
		for i, v := range summaryMetrics(s) {
			if v > 0 {
				l[i] = append(l[i], math.Log(v))
			}
		}
	}
	type acc struct {
		ss     [3]float64
		n      [3]int
		cities int
	}
	sums := map[SpreadKey]*acc{}
	for _, k := range order {
		sk := SpreadKey{k.Kind, k.Direction, k.CCA}
		a, ok := sums[sk]
		if !ok {
			a = &acc{}
			sums[sk] = a
		}
		multi := false
		for i, xs := range logs[k] {
			if len(xs) < 2 {
				continue
			}
			multi = true
			v := sampleVar(xs)
			a.ss[i] += v
			a.n[i]++
		}
		if multi {
			a.cities++
		}
	}
	out := make(map[SpreadKey]Spread, len(sums))
	for k, a := range sums {
		var sd [3]float64
		for i := range sd {
			sd[i] = math.NaN()
			if a.n[i] > 0 {
				sd[i] = math.Sqrt(a.ss[i] / float64(a.n[i]))
			}
		}
		out[k] = Spread{Throughput: sd[0], Retrans: sd[1], Inflation: sd[2], Cities: a.cities}
	}
	return out
}

func sampleVar(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return v / float64(len(xs)-1)
}

// Ceiling is the noise ceiling of one (kind, direction): the expected
// number of cells inside each band for a model exact in the mean, with as
// many simulated runs per cell as rows have, and the median Spearman such a
// model reaches.
type Ceiling struct {
	Kind, Direction                string
	Cells                          int
	Throughput, Retrans, Inflation float64 // expected cells within the band
	Rho                            float64 // median Spearman over ceilingDraws draws (NaN if < 3 CCAs)
	SimRuns                        int     // the largest number of simulated runs of a cell
}

// ceilingDraws is the number of Monte Carlo draws of the Spearman ceiling:
// its median is then known to about ±0.01 (the draws' ρ spread is ~0.1).
const ceilingDraws = 2000

// Ceilings computes the ceiling of every (kind, direction) of rows from the
// spreads. A CCA whose spread is unknown in a kind (no city with two runs)
// takes the root mean square of that kind's known spreads. The draws for
// the Spearman figure are seeded, so the result is the same every time.
func Ceilings(rows []Row, spreads map[SpreadKey]Spread) []Ceiling {
	var out []Ceiling
	for _, p := range pairs(rows) {
		c := Ceiling{Kind: p[0], Direction: p[1], Rho: math.NaN()}
		fallback := kindSpread(spreads, p[0], p[1])
		var cells []Row
		var sds [][3]float64
		for _, r := range rows {
			if r.Kind != c.Kind || r.Direction != c.Direction || !Comparable(r) {
				continue
			}
			sd := cellSpread(spreads, r.Key, fallback)
			scale := math.Sqrt(1/float64(r.Sim.N) + 1/float64(r.Real.N))
			c.Cells++
			c.SimRuns = max(c.SimRuns, r.Sim.N)
			c.Throughput += probWithin(sd[0]*scale, math.Log(1-ThroughputBand), math.Log(1+ThroughputBand))
			c.Retrans += probWithin(sd[1]*scale, -math.Log(RetransFactor), math.Log(RetransFactor))
			c.Inflation += probWithin(sd[2]*scale, math.Log(1-InflationBand), math.Log(1+InflationBand))
			cells = append(cells, r)
			sds = append(sds, sd)
		}
		if c.Cells == 0 {
			continue
		}
		c.Rho = spearmanCeiling(c.Kind, c.Direction, cells, sds)
		out = append(out, c)
	}
	return out
}

// kindSpread is the root mean square of the known spreads of one kind and
// direction (ccp excluded), per metric.
func kindSpread(spreads map[SpreadKey]Spread, kind, dir string) [3]float64 {
	var ss [3]float64
	var n [3]int
	// In CCA order, so the sums (and every figure built on them) are the
	// same bits each run.
	var ccas []string
	for k := range spreads {
		if k.Kind == kind && k.Direction == dir && k.CCA != excludedFromFidelity {
			ccas = append(ccas, k.CCA)
		}
	}
	slices.Sort(ccas)
	for _, c := range ccas {
		s := spreads[SpreadKey{kind, dir, c}]
		for i, v := range [3]float64{s.Throughput, s.Retrans, s.Inflation} {
			if !math.IsNaN(v) {
				ss[i] += v * v
				n[i]++
			}
		}
	}
	var out [3]float64
	for i := range out {
		if n[i] > 0 {
			out[i] = math.Sqrt(ss[i] / float64(n[i]))
		}
	}
	return out
}

func cellSpread(spreads map[SpreadKey]Spread, k Key, fallback [3]float64) [3]float64 {
	s, ok := spreads[SpreadKey{k.Kind, k.Direction, k.CCA}]
	if !ok {
		return fallback
	}
	out := [3]float64{s.Throughput, s.Retrans, s.Inflation}
	for i := range out {
		if math.IsNaN(out[i]) {
			out[i] = fallback[i]
		}
	}
	return out
}

// probWithin is P(lo ≤ X ≤ hi) for X normal with mean 0 and deviation sd.
func probWithin(sd, lo, hi float64) float64 {
	if sd <= 0 {
		if lo <= 0 && hi >= 0 {
			return 1
		}
		return 0
	}
	phi := func(x float64) float64 { return 0.5 * (1 + math.Erf(x/(sd*math.Sqrt2))) }
	return phi(hi) - phi(lo)
}

// spearmanCeiling draws the cells' simulated and real throughputs around
// the real means (the best estimate of the truth there is) with their
// spreads and returns the median Spearman of per-CCA means over the draws.
func spearmanCeiling(kind, dir string, cells []Row, sds [][3]float64) float64 {
	// Seeded by the draw count, so every call draws the same numbers.
	rng := rand.New(rand.NewPCG(ceilingDraws, 17))
	draw := slices.Clone(cells)
	rhos := make([]float64, 0, ceilingDraws)
	for range ceilingDraws {
		for i, r := range cells {
			sd := sds[i][0]
			draw[i].Sim.ThroughputMbps = r.Real.ThroughputMbps * math.Exp(sd*rng.NormFloat64()/math.Sqrt(float64(r.Sim.N)))
			draw[i].Real.ThroughputMbps = r.Real.ThroughputMbps * math.Exp(sd*rng.NormFloat64()/math.Sqrt(float64(r.Real.N)))
		}
		for _, f := range Spearman(draw) {
			if f.Kind == kind && f.Direction == dir && !math.IsNaN(f.Rho) {
				rhos = append(rhos, f.Rho)
			}
		}
	}
	return median(rhos)
}

// String is one line, e.g. "downlink concurrent: a model exact in the
// mean would have 23.5/40 throughput within ±25 %, …".
func (c Ceiling) String() string {
	return fmt.Sprintf("%s %s: %.1f/%d throughput within ±%.0f%%, %.1f/%d retrans/GB within %.0f×, "+
		"%.1f/%d RTT inflation within ±%.0f%%, Spearman %.2f (%d simulated run(s) per cell)",
		c.Direction, c.Kind, c.Throughput, c.Cells, 100*ThroughputBand, c.Retrans, c.Cells, RetransFactor,
		c.Inflation, c.Cells, 100*InflationBand, c.Rho, c.SimRuns)
}

// CeilingNote explains the ceiling lines in one sentence, for stdout and
// reports.
const CeilingNote = "noise ceiling (what a model exact in the mean would score, given the real data's run-to-run " +
	"spread in both the real targets and the simulated runs; more runs per cell raise it):"
