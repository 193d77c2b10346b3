package counterfactual

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/cctest"
)

func newTestProbe(tb testing.TB, ov Override) *probe {
	tb.Helper()
	p, err := newProbe(cc.Config{MSS: cctest.DefaultMSS, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 2))}, ov)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkProbeAck is the per-ACK cost of a probed BBRv3 (counting,
// entry log, gain override) on cctest's steady path.
func BenchmarkProbeAck(b *testing.B) {
	cctest.BenchAcks(b, newTestProbe(b, Override{Phase: bbr.GainUp, Visit: 3, Gain: 1.05}), "")
}

// The probe allocates nothing per ACK, entries included (the log's first
// capacity holds them), and it sees ProbeBW's entries on the way.
func TestProbeAckAllocs(t *testing.T) {
	p := newTestProbe(t, Override{})
	ack := cctest.SteadyAcks(p)
	before := len(p.entries)
	if a := testing.AllocsPerRun(200_000, ack); a != 0 {
		t.Errorf("%g allocations per ACK", a)
	}
	if len(p.entries) <= before || len(p.entries) > entriesCap {
		t.Errorf("%d entries after 23 s of ACKs (%d before), want some within the first capacity %d", len(p.entries), before, entriesCap)
	}
}

// The override holds its gain for exactly its visit and answers the
// stock gain elsewhere.
func TestProbeOverride(t *testing.T) {
	p := newTestProbe(t, Override{Phase: bbr.GainDown, Visit: 1, Gain: 0.94})
	up := bbr.GainState{Phase: bbr.GainUp, Enter: true, Default: 1.25}
	down := bbr.GainState{Phase: bbr.GainDown, Enter: true, Default: 0.91}
	later := down
	later.Enter = false
	for i, tc := range []struct {
		s    bbr.GainState
		want float64
	}{{down, 0.91}, {up, 1.25}, {down, 0.94}, {later, 0.94}, {up, 1.25}, {down, 0.91}} {
		tc.s.Now = 1 + timeStep(i)
		p.c.T = tc.s.Now
		if g := p.Gain(tc.s); g != tc.want {
			t.Errorf("call %d (%v enter %v): gain %g, want %g", i, tc.s.Phase, tc.s.Enter, g, tc.want)
		}
	}
	w, ok := p.window()
	if !ok || w.Truncated || w.Start.T != 1+timeStep(2) || w.End.T != 1+timeStep(4) {
		t.Errorf("window %+v (ok %v), want from call 2 to the UP entry of call 4", w, ok)
	}
}

func timeStep(i int) time.Duration { return time.Duration(i) * time.Second }
