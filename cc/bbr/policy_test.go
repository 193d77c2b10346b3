package bbr

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// recordingPolicy answers a fixed gain per phase and records its calls.
type recordingPolicy struct {
	up, down float64
	calls    []GainState
}

func (p *recordingPolicy) Gain(s GainState) float64 {
	p.calls = append(p.calls, s)
	if s.Phase == GainDown {
		return p.down
	}
	return p.up
}

// ProbeBW phases with a policy: UP and DOWN pace at its (clamped) gain,
// CRUISE and REFILL at 1; it is asked on entry and at round starts only.
func TestGainPolicyHook(t *testing.T) {
	for _, tc := range []struct {
		name             string
		up, down         float64
		wantUp, wantDown float64
	}{
		{"feasible", 1.10, 0.94, 1.10, 0.94},
		{"clamped", 2, 0.5, UpGainMax, DownGainMin},
		{"clamped low", 1.0, 1.0, UpGainMin, DownGainMax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := &recordingPolicy{up: tc.up, down: tc.down}
			c, err := NewV3WithPolicy(cfgWith(nil), pol)
			if err != nil {
				t.Fatal(err)
			}
			b := c.(*BBR)
			p := newSynth(c, 100e6, 40*time.Millisecond)
			p.Buffer = int(p.BDPBytes())
			seen := map[int]bool{}
			acks := 0
			p.Observe = func(now time.Duration, rs *cc.RateSample) {
				acks++
				if b.mode != modeProbeBW {
					return
				}
				seen[b.cycleIdx] = true
				want := 1.0
				switch b.cycleIdx {
				case cycleUp:
					want = tc.wantUp
				case cycleDown:
					want = tc.wantDown
				}
				if b.pacingGain != want {
					t.Fatalf("%v: cycle %d pacing gain %g, want %g", now, b.cycleIdx, b.pacingGain, want)
				}
			}
			p.Run(20 * time.Second)
			if !seen[cycleUp] || !seen[cycleDown] || !seen[cycleCruise] {
				t.Fatalf("ProbeBW phases seen %v: the run never cycled", seen)
			}
			enters := 0
			for _, s := range pol.calls {
				if s.Enter {
					enters++
				}
				if s.MaxBw <= 0 || s.MinRTT <= 0 || (s.Phase == GainUp) != (s.Default == 1.25) {
					t.Fatalf("state %+v", s)
				}
			}
			if enters == 0 || 10*len(pol.calls) >= acks {
				t.Errorf("%d calls, %d entries, %d ACKs: want entries and far fewer calls than ACKs", len(pol.calls), enters, acks)
			}
		})
	}
}

// A nil policy is stock BBRv3: the same pacing rate and cwnd after every
// ACK as the registered bbr3 on the same path and random stream.
func TestNilPolicyIsStock(t *testing.T) {
	stock := newTest("bbr3", 5, nil)
	c, err := NewV3WithPolicy(cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(5, 3))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b []float64
	for i, ctl := range []cc.Controller{stock, c} {
		p := newSynth(ctl, 50e6, 30*time.Millisecond)
		p.Buffer = int(p.BDPBytes())
		p.Observe = func(now time.Duration, rs *cc.RateSample) {
			v := []float64{float64(now), ctl.PacingRate(), float64(ctl.CWnd())}
			if i == 0 {
				a = append(a, v...)
			} else {
				b = append(b, v...)
			}
		}
		p.Run(10 * time.Second)
	}
	if len(a) == 0 || !slices.Equal(a, b) {
		t.Fatalf("nil-policy BBRv3 differs from bbr3 (%d vs %d values)", len(a), len(b))
	}
}
