package counterfactual

import (
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
}

// Summarize compares the labels of every decision, UP then DOWN.
func Summarize(ls []Labelled) []PhaseSummary {
	var out []PhaseSummary
	for _, ph := range []learn.Phase{learn.Up, learn.Down} {
		gains := learn.Feasible(ph)
		s := PhaseSummary{Phase: ph, Counts: make([]int, len(gains))}
		for _, l := range ls {
			for _, d := range l.Decisions {
				if d.Phase != ph {
					continue
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
		}
		out = append(out, s)
	}
	return out
}
