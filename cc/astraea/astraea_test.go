package astraea_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/astraea"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/monitor"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

type constDecider struct {
	a     float32
	calls int
}

func (d *constDecider) Decide(time.Duration, *monitor.Interval, []float32, float32) float32 {
	d.calls++
	return d.a
}

// run runs one flow of Astraea with decider d alone for 20 s on a
// 20 Mbit/s, 60 ms path with a one-BDP (100 packet) drop-tail buffer.
func run(t *testing.T, d astraea.Decider) result.Flow {
	t.Helper()
	sc, err := scenario.Parse("a.yaml", []byte(`version: 1
name: astraea-unit
duration: 20s
seed: 1
path:
  profile: fixed
  rate: 20Mbps
  rtt: 60ms
  queue: {discipline: droptail, limit_packets: 100}
flows:
  - {cca: astraea, start: 0s}
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	spec.Flows[0].Controller = func(cfg cc.Config) (cc.Controller, error) { return astraea.New(cfg, d) }
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	return res.Flows[0]
}

// A constant action −1 shrinks the window by √2 every 20 ms down to the
// 4-segment floor (≤ 4 segments per 60 ms, 0.8 Mbit/s); +1 adds 2
// segments per 20 ms past every overflow, so it retransmits more than
// action 0 (which keeps the window slow start left, itself a full
// buffer: half the overshoot) and queues more than −1; 0 asks the agent
// once per period after slow start.
func TestConstantActions(t *testing.T) {
	lo := run(t, &constDecider{a: -1})
	if floor := 4 * 1500 * 8 / 0.06 / 1e6; lo.ThroughputMbps > 2*floor {
		t.Errorf("action −1: %.2f Mbit/s, want about the 4-segment floor %.2f", lo.ThroughputMbps, floor)
	}
	zd := &constDecider{}
	zero := run(t, zd)
	hi := run(t, &constDecider{a: 1})
	if hi.Retransmits <= zero.Retransmits || hi.MeanRTTMs <= lo.MeanRTTMs {
		t.Errorf("action +1: %d retransmits, mean RTT %.1f ms; action 0: %d retransmits; −1: %.1f ms",
			hi.Retransmits, hi.MeanRTTMs, zero.Retransmits, lo.MeanRTTMs)
	}
	if zd.calls < 800 || zd.calls > 1000 {
		t.Errorf("action 0: %d decisions in 20 s (want one per 20 ms after slow start, 800..1000)", zd.calls)
	}
	nan := run(t, &constDecider{a: float32(math.NaN())})
	if nan.BytesAcked != zero.BytesAcked {
		t.Errorf("NaN action: %d B, action 0: %d B (want the clamp to 0)", nan.BytesAcked, zero.BytesAcked)
	}
}

// The fairness-aware reward: two flows at 5 and 5 MB/s with the largest
// capacity 10 MB/s, no queue and no loss score 1; 8 and 2 score
// 1 − 0.5·0.6; a
// queue at 2.5·min_rtt halves the utilisation term; losing 10 % of the
// bytes costs 0.2; alone a flow pays no fairness term.
func TestFairReward(t *testing.T) {
	iv := func(thr float64, rtt time.Duration, lostFrac float64) *monitor.Interval {
		acked := int64(thr * 0.02)
		lost := int64(lostFrac / (1 - lostFrac) * float64(acked))
		return &monitor.Interval{End: 20 * time.Millisecond, AckedBytes: acked, LostBytes: lost, RTTs: 1, RTTSum: rtt,
			MinRTT: 40 * time.Millisecond, SRTT: rtt}
	}
	near := func(got float32, want float64) bool { return math.Abs(float64(got)-want) < 1e-3 }
	if r := astraea.FairReward(iv(5e6, 40*time.Millisecond, 0), 5e6, []float64{5e6, 5e6}, 1e7); !near(r, 1) {
		t.Errorf("fair: %v, want 1", r)
	}
	if r := astraea.FairReward(iv(8e6, 40*time.Millisecond, 0), 8e6, []float64{8e6, 2e6}, 1e7); !near(r, 1-0.5*0.6) {
		t.Errorf("8 of 10: %v, want 0.7", r)
	}
	if r := astraea.FairReward(iv(2e6, 40*time.Millisecond, 0), 2e6, []float64{8e6, 2e6}, 1e7); !near(r, 1-0.5*0.6) {
		t.Errorf("2 of 10: %v, want 0.7", r)
	}
	if r := astraea.FairReward(iv(5e6, 100*time.Millisecond, 0), 5e6, []float64{5e6, 5e6}, 1e7); !near(r, 0.5) {
		t.Errorf("queued: %v, want 0.5", r)
	}
	if r := astraea.FairReward(iv(5e6, 40*time.Millisecond, 0.1), 5e6, []float64{5e6, 5e6}, 1e7); !near(r, 0.8) {
		t.Errorf("lossy: %v, want 0.8", r)
	}
	if r := astraea.FairReward(iv(5e6, 40*time.Millisecond, 0), 5e6, []float64{5e6}, 1e7); !near(r, 0.5) {
		t.Errorf("alone at half the capacity: %v, want 0.5", r)
	}
	if r := astraea.FairReward(iv(5e6, 40*time.Millisecond, 0.9), 5e6, []float64{5e6}, 1e7); r != -1 {
		t.Errorf("floor: %v, want −1", r)
	}
}

func TestRegistered(t *testing.T) {
	info := cctest.Registered(t, "astraea", nil, map[string]float64{"bogus": 1})
	if !strings.Contains(info.Description, "retrained here; the authors' weights are not used") {
		t.Errorf("description %q lacks the retraining note", info.Description)
	}
	if _, err := cc.New("astraea", cc.Config{Files: map[string]string{astraea.ParamModel: "/nonexistent/actor.json"}}); err == nil ||
		!strings.Contains(err.Error(), "/nonexistent/actor.json") {
		t.Errorf("missing model file: %v", err)
	}
	path := filepath.Join(t.TempDir(), "actor.json")
	if err := os.WriteFile(path, astraea.DefaultActorFile(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.New("astraea", cc.Config{Files: map[string]string{astraea.ParamModel: path}}); err != nil {
		t.Errorf("model file %s: %v", path, err)
	}
	// an Orca actor (input 70) is refused
	if err := os.WriteFile(path, []byte(`{"format":"leolab-orca-actor","version":1,"layers":[{"in":70,"out":1,"w":[`+strings.Repeat("0,", 69)+`0],"b":[0]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.New("astraea", cc.Config{Files: map[string]string{astraea.ParamModel: path}}); err == nil || !strings.Contains(err.Error(), "layers[0]") {
		t.Errorf("70-input model file: %v", err)
	}
}

// The per-ACK path, including one actor inference every 20 ms, allocates
// nothing.
func BenchmarkOnAck(b *testing.B) {
	c, err := cc.New("astraea", cc.Config{})
	if err != nil {
		b.Fatal(err)
	}
	cctest.BenchAcks(b, c, "steps/op", "agent_steps")
}

// One inference of the embedded actor.
func BenchmarkActorAct(b *testing.B) {
	a := astraea.DefaultActor()
	s := make([]float32, astraea.StateDim)
	for i := range s {
		s[i] = float32(i%5) / 5
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Act(s)
	}
}

func TestOnAckAllocs(t *testing.T) {
	c, err := cc.New("astraea", cc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ack := cctest.SteadyAcks(c)
	if n := testing.AllocsPerRun(2000, ack); n != 0 {
		t.Fatalf("%v allocations per ACK", n)
	}
}
