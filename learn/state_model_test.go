package learn

import (
	"bytes"
	"math"
	"testing"
	"time"
)

// cwndPool is a pool whose counterfactual label depends only on cwnd, a
// state field cc/lmbbr.Features does not see: every UP and DOWN row has
// the same rate, RTT and loss, and the label is the phase's lowest gain
// below 2 MB of cwnd and its highest above.
func cwndPool(locs ...string) []Row {
	var rows []Row
	for _, loc := range locs {
		src := Source{Location: loc, Stream: "downlink-sim", Flow: loc + " bbr"}
		for i := range 60 {
			r := Row{Source: src, Index: i, Sample: Sample{T: time.Duration(i+1) * time.Second, Throughput: 1e8,
				CWnd: 1_000_000 + (i%4)*1_000_000, RTT: 40 * time.Millisecond}, Phase: Cruise, Action: 1, Mapped: 1}
			switch i % 8 {
			case 1, 6: // cwnd 2 MB (i%4 == 1) or 3 MB (i%4 == 2)
				r.Phase = Up
			case 3, 4: // cwnd 4 MB or 1 MB
				r.Phase = Down
			}
			if r.Phase != Cruise {
				g := Feasible(r.Phase)
				k := 0
				if r.CWnd > 2_000_000 {
					k = len(g) - 1
				}
				r.Action, r.Mapped, r.LabelSource = g[k], g[0], LabelCounterfactual
				r.GainRewards = make([]float64, len(g))
				r.GainRewards[k] = 1
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// The full-state model learns a label the 4 lmbbr features cannot see,
// on a city it was not trained on; the lmbbr model can only answer one
// gain per phase there.
func TestTrainStateSeesCWnd(t *testing.T) {
	rows := cwndPool("sydney", "tokyo")
	train, held := SplitLocation(CounterfactualExamples(rows), "tokyo")
	cfg := DefaultTrainConfig()
	m, err := TrainState(StateExamples(rows, train), cfg)
	if err != nil {
		t.Fatal(err)
	}
	evs := EvaluateState(m, StateExamples(rows, held))
	SetPrior(evs, train, held)
	for _, e := range evs {
		// Half the labels are each gain: the majority is ½, the prior's CE
		// ln 2 plus the KT smoothing's share (5 gains at ½ each).
		if e.N != 15 || e.Accuracy() != 1 || math.Abs(e.Majority-0.5) > 1/float64(e.N) || !(e.CE < 0.1*e.PriorCE) {
			t.Errorf("%v: n %d accuracy %.3f (majority %.3f), CE %.4f vs prior %.4f; want every label right and CE ≪ prior",
				e.Phase, e.N, e.Accuracy(), e.Majority, e.CE, e.PriorCE)
		}
	}
	lm, err := Train(train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range Evaluate(lm, held) {
		if e.Accuracy() > e.Majority+1e-9 {
			t.Errorf("lmbbr %v: accuracy %.3f above majority %.3f with features blind to cwnd", e.Phase, e.Accuracy(), e.Majority)
		}
	}
	// Standardisation: the 30 labelled rows of 60 have i%8 = 1, 3 (8
	// each: cwnd 2, 4 MB) and 6, 4 (7 each: 3, 1 MB), mean 76/30 MB.
	if j := 3; StateFeatureNames[j] != "cwnd" || math.Abs(m.Mean[j]-76e6/30) > 1e-3 {
		t.Errorf("cwnd mean %g, want %g", m.Mean[3], 76e6/30)
	}
	// Deterministic: the same examples give byte-identical JSON.
	m2, err := TrainState(StateExamples(rows, train), cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, err1 := MarshalStateModel(m, TrainingInfo{})
	b, err2 := MarshalStateModel(m2, TrainingInfo{})
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Errorf("two trainings differ (%v, %v)", err1, err2)
	}
}

func TestTrainStateBad(t *testing.T) {
	if _, err := TrainState(nil, DefaultTrainConfig()); err == nil {
		t.Error("no examples trained")
	}
	rows := cwndPool("sydney")
	ex := StateExamples(rows, CounterfactualExamples(rows))
	if _, err := TrainState(ex, TrainConfig{Iterations: 0, Rate: 0.5}); err == nil {
		t.Error("--iterations 0 trained")
	}
	if _, err := ParseFeatureSet("most"); err == nil || err.Error() != `feature set "most" (allowed: lmbbr, all)` {
		t.Errorf("--features most: %v", err)
	}
}
