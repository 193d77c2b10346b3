package counterfactual

import (
	"math"
	"slices"

	"github.com/leolab/leolab/learn"
)

// PhaseSummary compares one phase's counterfactual labels with the
// labels they replace.
type PhaseSummary struct {
	Phase learn.Phase
	N     int
	// Counts of each label, by Feasible(Phase) index.
	Counts []int
	// Majority is the commonest label and MajorityShare its share.
	Majority      float64
	MajorityShare float64
	// DiffSurrogate, DiffMapped and DiffMajority count labels that differ
	// from eq. 17's surrogate argmax, eq. 3's gain and Majority.
	DiffSurrogate, DiffMapped, DiffMajority int
	// Entropy of the labels' distribution over the gains, bits (0: one
	// gain always; log2 5 ≈ 2.32: all five equally often).
	Entropy float64
	// Margin and Noise are the medians over the decisions of the best
	// gain's reward minus the second best's, and of Decision.Noise (with
	// Options.Noise; 0 without). A label carries signal where the margin
	// exceeds the noise.
	Margin, Noise float64
	// AboveNoise counts decisions whose margin exceeds their noise.
	AboveNoise int
}

// Margin is the best gain's reward minus the second-best's.
func (d Decision) Margin() float64 {
	second := math.Inf(-1)
	for i, o := range d.Outcomes {
		if i != d.Best && o.Reward > second {
			second = o.Reward
		}
	}
	return d.Outcomes[d.Best].Reward - second
}

// median of xs (sorted in place), 0 when empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Summarize compares the labels of every decision, UP then DOWN.
func Summarize(ls []Labelled) []PhaseSummary {
	var out []PhaseSummary
	for _, ph := range []learn.Phase{learn.Up, learn.Down} {
		gains := learn.Feasible(ph)
		s := PhaseSummary{Phase: ph, Counts: make([]int, len(gains))}
		var margins, noises []float64
		for _, l := range ls {
			for _, d := range l.Decisions {
				if d.Phase != ph {
					continue
				}
				m := d.Margin()
				margins, noises = append(margins, m), append(noises, d.Noise)
				if m > d.Noise {
					s.AboveNoise++
				}
				g := d.Outcomes[d.Best].Gain
				s.N++
				s.Counts[d.Best]++
				if g != d.Surrogate {
					s.DiffSurrogate++
				}
				if g != d.Mapped {
					s.DiffMapped++
				}
			}
		}
		if s.N > 0 {
			k := 0
			for i, c := range s.Counts {
				if c > s.Counts[k] {
					k = i
				}
			}
			s.Majority, s.MajorityShare = gains[k], float64(s.Counts[k])/float64(s.N)
			s.DiffMajority = s.N - s.Counts[slices.Index(gains, s.Majority)]
			for _, c := range s.Counts {
				if c > 0 {
					p := float64(c) / float64(s.N)
					s.Entropy -= p * math.Log2(p)
				}
			}
			s.Margin, s.Noise = median(margins), median(noises)
		}
		out = append(out, s)
	}
	return out
}
