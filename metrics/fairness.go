package metrics

import (
	"math"
	"slices"
)

// Fairness holds seed 000's allocation metrics for N concurrent flows with
// mean throughputs T_i (any unit; indices are unit-free).
type Fairness struct {
	N int
	// Jain's index (ΣT)² / (N·ΣT²) (Jain, Chiu & Hawe, DEC-TR-301, 1984;
	// seed 000 "normalized Jain fairness index"): 1/N … 1.
	Jain float64
	// MinMax is min T / max T, the max–min score of a whole allocation
	// (seed 000 §two-flow: 0.761 simultaneous, 0.637 staggered).
	MinMax float64
	// PF is the normalized proportional-fairness score Π_i (S_i / S*) =
	// exp(Σ_i ln(N·S_i)): 1 at equal shares, 0 if any flow starves. Seed
	// 000 lost the equation; this product is the candidate that comes
	// closest to its two-flow pairs (Jain 0.949 → PF 0.946, 0.909 → 0.907):
	// for two flows with shares ½±d it is 1−4d² while Jain is 1/(1+4d²),
	// giving 0.946 and 0.900. The geometric mean N·(ΠS_i)^(1/N) would give
	// 0.973 and 0.949 instead.
	PF float64
	// Alpha0 is the α = 0 (throughput-maximising) utility Σ T_i, the
	// "α=0 utility" seed 000 quotes in Mbit/s (197.30 vs 242.52).
	Alpha0 float64
	// FairShare is S* = 1/N.
	FairShare float64
	// Per flow, in input order:
	Shares    []float64 // S_i = T_i / ΣT (seed 000; F_i^{α=0} = S_i)
	MaxMin    []float64 // max–min closeness T_i / max T (seed 000)
	ShareGain []float64 // S_i / S*: 1 = exactly the fair share (Fig. 10's line)
	// PFTerm is flow i's term ln(S_i/S*) of ln PF: 0 at the fair share,
	// negative below it, positive above, -Inf when starved.
	PFTerm []float64
}

// Allocation computes the fairness metrics of throughputs t (all ≥ 0). With
// no flows every field is zero; when every flow has zero throughput the
// allocation is equal but empty: Jain, MinMax and PF are 1 by continuity
// and the shares are 1/N.
func Allocation(t []float64) Fairness {
	n := len(t)
	f := Fairness{N: n}
	if n == 0 {
		return f
	}
	f.FairShare = 1 / float64(n)
	var sum, sumSq float64
	for _, x := range t {
		sum += x
		sumSq += x * x
	}
	f.Alpha0 = sum
	f.Shares = make([]float64, n)
	f.MaxMin = make([]float64, n)
	f.ShareGain = make([]float64, n)
	f.PFTerm = make([]float64, n)
	if sum == 0 {
		for i := range t {
			f.Shares[i], f.MaxMin[i], f.ShareGain[i] = f.FairShare, 1, 1
		}
		f.Jain, f.MinMax, f.PF = 1, 1, 1
		return f
	}
	hi, lo := slices.Max(t), slices.Min(t)
	f.Jain = sum * sum / (float64(n) * sumSq)
	f.MinMax = lo / hi
	var logPF float64
	for i, x := range t {
		f.Shares[i] = x / sum
		f.MaxMin[i] = x / hi
		f.ShareGain[i] = f.Shares[i] / f.FairShare
		f.PFTerm[i] = math.Log(f.ShareGain[i])
		logPF += f.PFTerm[i]
	}
	f.PF = math.Exp(logPF) // exp(-Inf) = 0 for a starved flow
	return f
}

// Jain is Jain's fairness index of t (see Fairness.Jain).
func Jain(t []float64) float64 { return Allocation(t).Jain }
