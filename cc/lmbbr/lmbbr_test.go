package lmbbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
)

func TestFeatures(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		in   Inputs
		want Vector
	}{
		{"saturated, no queue, no loss", Inputs{Rate: 100, MaxRate: 100, RTT: 50 * ms, MinRTT: 50 * ms}, Vector{1, 1, 0, 0}},
		{"half rate, half RTT of queue, 1% loss", Inputs{Rate: 50, MaxRate: 100, RTT: 75 * ms, MinRTT: 50 * ms, LossRate: 0.01}, Vector{1, 0.5, 0.5, 0.5}},
		{"clamped", Inputs{Rate: 300, MaxRate: 100, RTT: 500 * ms, MinRTT: 50 * ms, LossRate: 0.5}, Vector{1, 1, MaxRTTExcess, 1}},
		{"unknown", Inputs{Rate: 10}, Vector{1, 1, 0, 0}},
		{"NaN loss", Inputs{Rate: 1, MaxRate: 2, LossRate: math.NaN()}, Vector{1, 0.5, 0, 0}},
	} {
		if got := Features(tc.in); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The embedded model is valid and answers feasible gains; on a saturated
// path it probes gently and drains fully, eq. 3's G↑(1) = 1 → 1.05 and
// its G↓ for the DOWN intervals of the training runs → 0.90.
func TestDefaultModel(t *testing.T) {
	m := DefaultModel()
	sat := Features(Inputs{Rate: 1, MaxRate: 1})
	if g := m.Predict(PhaseUp, sat); g != 1.05 {
		t.Errorf("UP on a saturated path: %g, want 1.05", g)
	}
	if g := m.Predict(PhaseDown, sat); g != 0.90 {
		t.Errorf("DOWN on a saturated path: %g, want 0.90", g)
	}
	for b := 0.0; b <= 1; b += 0.1 {
		for _, q := range []float64{0, 1, 2} {
			x := Vector{1, b, q, 0.5}
			if g := m.Predict(PhaseUp, x); g < bbr.UpGainMin || g > bbr.UpGainMax {
				t.Errorf("UP %v: %g", x, g)
			}
			if g := m.Predict(PhaseDown, x); g < bbr.DownGainMin || g > bbr.DownGainMax {
				t.Errorf("DOWN %v: %g", x, g)
			}
			var s float64
			for _, p := range m.Phases[PhaseUp].Probs(x) {
				s += p
			}
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("probabilities sum to %g", s)
			}
		}
	}
}

func TestParseModelRejects(t *testing.T) {
	for _, doc := range []string{
		`{}`,
		`{"format":"leolab-linear","version":1,"features":["bias","b_norm","rtt_excess","loss"],"phases":{"UP":{"gains":[1.05],"weights":[[0,0,0,0]]}}}`,
		`{"format":"leolab-linear","version":1,"features":["bias","b_norm","rtt_excess","loss"],"phases":{"UP":{"gains":[1.3],"weights":[[0,0,0,0]]},"DOWN":{"gains":[0.9],"weights":[[0,0,0,0]]}}}`,
		`{"format":"leolab-linear","version":1,"features":["bias","b_norm","rtt_excess","loss"],"phases":{"UP":{"gains":[1.05],"weights":[[0,0,0]]},"DOWN":{"gains":[0.9],"weights":[[0,0,0,0]]}}}`,
	} {
		if _, err := ParseModel([]byte(doc)); err == nil {
			t.Errorf("accepted %s", doc)
		}
	}
}

// lmbbr is registered, runs, and reports its policy's choices.
func TestRegistered(t *testing.T) {
	c, err := cc.New("lmbbr", cc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	in, ok := c.(cc.Inspector)
	if !ok {
		t.Fatal("lmbbr is not an Inspector")
	}
	if m := in.Inspect(); m["lm_up_calls"] != 0 || m["pacing_gain"] == 0 {
		t.Errorf("fresh Inspect %v", m)
	}
	if w, ok := c.(cc.Wrapper); !ok || w.Unwrap() == nil || cc.MarkerOf(c) == nil {
		t.Error("lmbbr hides BBR's app-limited marker")
	}
}
