package orca_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/internal/learnedtest"
	"github.com/leolab/leolab/cc/orca"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// run runs a 50 Mbit/s, 60 ms, one-BDP dumbbell for 20 s with flow 0's
// controller built by mk (nil: the registry's cca).
func run(t *testing.T, cca string, mk func(cc.Config) (cc.Controller, error)) result.Flow {
	t.Helper()
	d := cctest.Dumbbell{Name: "orca-" + cca, Mbps: 50, RTT: 60 * time.Millisecond, Limit: 250,
		Duration: 20 * time.Second, CCAs: []string{cca}}
	sc, err := scenario.Parse("inline.yaml", []byte(d.YAML()))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	spec.Flows[0].Controller = mk
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	return res.Flows[0]
}

// With action 0 (cwnd·4⁰) Orca is CUBIC: the same run, byte for byte, and
// the agent is asked once per 20 ms period after slow start.
func TestZeroActionIsCubic(t *testing.T) {
	d := &learnedtest.Recorder{Period: orca.MonitorPeriod}
	o := run(t, "cubic", func(cfg cc.Config) (cc.Controller, error) { return orca.New(cfg, d) })
	c := run(t, "cubic", nil)
	if o.BytesAcked != c.BytesAcked || o.Retransmits != c.Retransmits {
		t.Fatalf("orca(a=0) acked %d B with %d retransmits, cubic %d B with %d", o.BytesAcked, o.Retransmits, c.BytesAcked, c.Retransmits)
	}
	// ~20 s minus slow start of 20 ms periods: between 800 and 1000 calls
	if d.Calls < 800 || d.Calls > 1000 || d.First > 3*time.Second {
		t.Fatalf("%d decisions from %v (want 800..1000 after slow start)", d.Calls, d.First)
	}
	if d.MaxGap > 40*time.Millisecond || d.Broken != 0 {
		t.Errorf("largest gap between decisions %v > 2 periods, %d periods off the 20 ms grid", d.MaxGap, d.Broken)
	}
}

// A constant action −1 quarters the window every 20 ms down to the 4
// segment floor: ≤ 4 segments per 60 ms RTT, ~0.8 Mbit/s; +1 grows it to
// fill the buffer and lose, with more retransmits than CUBIC.
func TestActionScalesWindow(t *testing.T) {
	lo := run(t, "cubic", func(cfg cc.Config) (cc.Controller, error) { return orca.New(cfg, &learnedtest.Recorder{A: -1}) })
	floor := 4 * 1500 * 8 / 0.06 / 1e6 // Mbit/s at 4 segments per base RTT
	if lo.ThroughputMbps > 2*floor {
		t.Errorf("action −1: %.2f Mbit/s, want about the 4-segment floor %.2f", lo.ThroughputMbps, floor)
	}
	hi := run(t, "cubic", func(cfg cc.Config) (cc.Controller, error) { return orca.New(cfg, &learnedtest.Recorder{A: 1}) })
	c := run(t, "cubic", nil)
	if hi.Retransmits <= c.Retransmits || hi.P95RTTMs < c.P95RTTMs {
		t.Errorf("action +1: %d retransmits, p95 RTT %.1f ms; cubic %d, %.1f ms: want more of both",
			hi.Retransmits, hi.P95RTTMs, c.Retransmits, c.P95RTTMs)
	}
}

// An out-of-range or NaN action is clamped (NaN to 0: CUBIC).
func TestActionClamp(t *testing.T) {
	nan := run(t, "cubic", func(cfg cc.Config) (cc.Controller, error) {
		return orca.New(cfg, &learnedtest.Recorder{A: float32(math.NaN())})
	})
	if c := run(t, "cubic", nil); nan.BytesAcked != c.BytesAcked {
		t.Errorf("NaN action: %d B, cubic %d B", nan.BytesAcked, c.BytesAcked)
	}
}

func TestRegistered(t *testing.T) {
	info := cctest.Registered(t, "orca", nil, map[string]float64{"bogus": 1})
	if !strings.Contains(info.Description, "retrained here; the authors' weights are not used") {
		t.Errorf("description %q lacks the retraining note", info.Description)
	}
	learnedtest.ModelFiles(t, learnedtest.Model{CCA: "orca", Param: orca.ParamModel, Dim: orca.StateDim, Embedded: orca.DefaultActorFile()})
}

// The monitor periods close on ACKs (cc/monitor): through a 200 ms
// outage one period stretches over the ACK gap, the others are at least
// 20 ms, one decision each.
func TestPeriodsStretchOverGaps(t *testing.T) {
	mk := func(cfg cc.Config, r *learnedtest.Recorder) (cc.Controller, error) { return orca.New(cfg, r) }
	learnedtest.Outage(t, orca.MonitorPeriod, mk)
}

// The per-ACK path, including one agent step (actor inference) every
// 20 ms, allocates nothing.
func BenchmarkOnAck(b *testing.B) { learnedtest.BenchOnAck(b, "orca") }

func TestOnAckAllocs(t *testing.T) { learnedtest.OnAckAllocs(t, "orca") }

// One inference of the embedded actor.
func BenchmarkActorAct(b *testing.B) { learnedtest.BenchActor(b, orca.DefaultActor()) }

// The embedded actor loads and is deterministic.
func TestDefaultActor(t *testing.T) {
	a := orca.DefaultActor()
	if a.Dim() != orca.StateDim || a.Act(make([]float32, orca.StateDim)) != a.Act(make([]float32, orca.StateDim)) {
		t.Fatal("embedded actor of the wrong size or not deterministic")
	}
}

// Issue 5, acceptance 2, through the simulator: alone on the fixed
// 50 Mbit/s, 60 ms, one-BDP drop-tail path for 60 s, orca (the embedded
// actor) uses at least 80 % of the link. Its reward is flat up to
// srtt = 1.25·min_rtt (delay_margin_coef), so the agent has no reason to
// queue less than a quarter of the base RTT; the bound asserted is twice
// that margin, 50 % (30 ms), where CUBIC fills the whole BDP of buffer.
func TestNetsimFixedLink(t *testing.T) {
	f := cctest.FixedLink(t, "orca")
	if q := f.MeanRTTMs - f.MinRTTMs; q > 0.5*60 {
		t.Errorf("mean queueing delay %.1f ms > 30 ms (half the base RTT)", q)
	}
}
