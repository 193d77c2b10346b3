package counterfactual

import (
	"math"
	"reflect"
	"testing"

	"github.com/leolab/leolab/learn"
)

func TestSummarize(t *testing.T) {
	// every gain but the best rewards 0.1, the best 0.1 + margin
	dec := func(ph learn.Phase, best int, sur, mapped, margin, noise float64) Decision {
		o := make([]Outcome, 5)
		for i, g := range learn.Feasible(ph) {
			o[i].Gain, o[i].Reward = g, 0.1
		}
		o[best].Reward += margin
		return Decision{Phase: ph, Outcomes: o, Best: best, Surrogate: sur, Mapped: mapped, Noise: noise}
	}
	ls := []Labelled{{Decisions: []Decision{
		dec(learn.Up, 0, 1.05, 1.2, 0.1, 0.05), dec(learn.Up, 0, 1.05, 1.05, 0.2, 0.25), dec(learn.Up, 4, 1.05, 1.25, 0.3, 0.01),
		dec(learn.Down, 2, 0.98, 0.94, 0.02, 0.03),
	}}}
	got := Summarize(ls)
	// margins and entropies to 1e-12 (0.1 + m − 0.1 and the logs round)
	for i := range got {
		got[i].Margin = math.Round(got[i].Margin*1e12) / 1e12
		got[i].Entropy = math.Round(got[i].Entropy*1e12) / 1e12
	}
	want := []PhaseSummary{
		{Phase: learn.Up, N: 3, Counts: []int{2, 0, 0, 0, 1}, Majority: 1.05, MajorityShare: 2.0 / 3, DiffSurrogate: 1, DiffMapped: 1, DiffMajority: 1,
			Entropy: math.Round((math.Log2(3)-2.0/3)*1e12) / 1e12, Margin: 0.2, Noise: 0.05, AboveNoise: 2}, // H(⅔, ⅓) bits
		{Phase: learn.Down, N: 1, Counts: []int{0, 0, 1, 0, 0}, Majority: 0.94, MajorityShare: 1, DiffSurrogate: 1, DiffMapped: 0, DiffMajority: 0,
			Margin: 0.02, Noise: 0.03},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
