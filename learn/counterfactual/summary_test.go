package counterfactual

import (
	"reflect"
	"testing"

	"github.com/leolab/leolab/learn"
)

func TestSummarize(t *testing.T) {
	dec := func(ph learn.Phase, best int, sur, mapped float64) Decision {
		o := make([]Outcome, 5)
		for i, g := range learn.Feasible(ph) {
			o[i].Gain = g
		}
		return Decision{Phase: ph, Outcomes: o, Best: best, Surrogate: sur, Mapped: mapped}
	}
	ls := []Labelled{{Decisions: []Decision{
		dec(learn.Up, 0, 1.05, 1.2), dec(learn.Up, 0, 1.05, 1.05), dec(learn.Up, 4, 1.05, 1.25),
		dec(learn.Down, 2, 0.98, 0.94),
	}}}
	got := Summarize(ls)
	want := []PhaseSummary{
		{Phase: learn.Up, N: 3, Counts: []int{2, 0, 0, 0, 1}, Majority: 1.05, MajorityShare: 2.0 / 3, DiffSurrogate: 1, DiffMapped: 1, DiffMajority: 1},
		{Phase: learn.Down, N: 1, Counts: []int{0, 0, 1, 0, 0}, Majority: 0.94, MajorityShare: 1, DiffSurrogate: 1, DiffMapped: 0, DiffMajority: 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
