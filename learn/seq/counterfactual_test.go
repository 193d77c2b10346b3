package seq

import (
	"bytes"
	gocontext "context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/learn"
)

// cfRows is one trace of 40 one-second rows in which every 4th row is a
// replay-labelled UP decision (label 1.2, measured reward 0.6), every 4th
// row from the 2nd an unreplayed DOWN one (eq. 3 gain 0.9, reward 0.8),
// the rest CRUISE (reward 1).
func cfRows() []learn.Row {
	src := learn.Source{Location: "sydney", Stream: "downlink-sim", Flow: "sydney bbr"}
	var rows []learn.Row
	for i := range 40 {
		r := learn.Row{Source: src, Index: i, Sample: learn.Sample{T: time.Duration(i+1) * time.Second, Throughput: 1e8,
			CWnd: 1 << 20, RTT: 40 * time.Millisecond}, Phase: learn.Cruise, Action: 1, Mapped: 1, MappedReward: 1}
		switch i % 4 {
		case 0:
			r.Phase, r.Action, r.Reward, r.Mapped, r.MappedReward = learn.Up, 1.2, 0.6, 1.05, 0.9
			r.LabelSource, r.GainRewards = learn.LabelCounterfactual, []float64{0.1, 0.2, 0.3, 0.6, 0.5}
		case 2:
			r.Phase, r.Action, r.Mapped, r.MappedReward = learn.Down, 0.9, 0.9, 0.8
		}
		rows = append(rows, r)
	}
	return rows
}

// Under counterfactual labels the replayed rows carry their measured
// argmax and reward; the unreplayed UP/DOWN rows are history, neither
// fitted nor scored nor counted in the prior; surrogate labels are as
// before.
func TestSequencesCounterfactual(t *testing.T) {
	rows := cfRows()
	cf, sur := SequencesOf(rows, learn.LabelCounterfactual), Sequences(rows)
	if len(cf) != 1 || len(cf[0].Steps) != 40 {
		t.Fatalf("%d sequences", len(cf))
	}
	up, noLabel := slices.Index(learn.Actions[:], 1.2), 0
	for i, st := range cf[0].Steps {
		switch {
		case i%4 == 0 && (st.Action != up || st.Unlabelled):
			t.Errorf("step %d: action %d unlabelled %v, want the replayed 1.2 labelled", i, st.Action, st.Unlabelled)
		case i%4 == 2 && !st.Unlabelled:
			t.Errorf("step %d: an unreplayed DOWN row is labelled", i)
		case i%4 == 2:
			noLabel++
		}
		if sur[0].Steps[i].Unlabelled {
			t.Fatalf("surrogate step %d unlabelled", i)
		}
	}
	// The return-to-go of the last UP step (36): its 0.6, then 1, 0.8, 1
	// over the 4 steps left.
	if r := cf[0].Steps[36].Return; math.Abs(float64(r)-(0.6+1+0.8+1)/4) > 1e-6 {
		t.Errorf("return at 36: %g, want %g", r, (0.6+1+0.8+1)/4)
	}
	pr := LabelPrior(cf)
	if pr[learn.Up][up] != 1 || slices.Max(pr[learn.Down]) != 0 || noLabel != 10 {
		t.Errorf("prior %v (unlabelled %d): want UP all 1.2, DOWN empty", pr, noLabel)
	}
	// The batch weights only the replayed steps.
	b := newBatch(1, 4)
	b.fill(0, cf, window{Seq: 0, End: 3})
	if !slices.Equal(b.Weight, []float32{1, 0, 0, 0}) {
		t.Errorf("weights %v, want only step 0", b.Weight)
	}
	// Training fits the replayed label and scores only those steps;
	// deterministic for a seed.
	run := func() ([]byte, Eval) {
		tc := tinyTrain()
		tc.Epochs = 4
		m, err := Train(gocontext.Background(), tinyConfig(), tc, cf, TrainOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ev, err := m.Evaluate(cf, pr)
		if err != nil {
			t.Fatal(err)
		}
		return modelBytes(t, m), ev
	}
	a, ev := run()
	// The one UP label is learnt: every step right, below the uniform
	// head's ln 5 over the UP gains (eq. 15's mask).
	if e := ev.Phases[0]; e.N != 10 || ev.Phases[1].N != 0 || e.Correct != 10 || !(e.CE() < math.Log(5)) {
		t.Errorf("scored UP %v, DOWN n %d; want 10 UP steps all right below ln 5 nats, no DOWN", e, ev.Phases[1].N)
	}
	if b2, _ := run(); !bytes.Equal(a, b2) {
		t.Error("two runs with one seed differ")
	}
}
