package astraea_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/astraea"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/internal/learnedtest"
	"github.com/leolab/leolab/cc/monitor"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

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
	lo := run(t, &learnedtest.Recorder{A: -1})
	if floor := 4 * 1500 * 8 / 0.06 / 1e6; lo.ThroughputMbps > 2*floor {
		t.Errorf("action −1: %.2f Mbit/s, want about the 4-segment floor %.2f", lo.ThroughputMbps, floor)
	}
	zd := &learnedtest.Recorder{Period: astraea.MonitorPeriod}
	zero := run(t, zd)
	hi := run(t, &learnedtest.Recorder{A: 1})
	if hi.Retransmits <= zero.Retransmits || hi.MeanRTTMs <= lo.MeanRTTMs {
		t.Errorf("action +1: %d retransmits, mean RTT %.1f ms; action 0: %d retransmits; −1: %.1f ms",
			hi.Retransmits, hi.MeanRTTMs, zero.Retransmits, lo.MeanRTTMs)
	}
	if zd.Calls < 800 || zd.Calls > 1000 || zd.Broken != 0 {
		t.Errorf("action 0: %d decisions in 20 s, %d off the 20 ms grid (want one per 20 ms period after slow start, 800..1000)", zd.Calls, zd.Broken)
	}
	nan := run(t, &learnedtest.Recorder{A: float32(math.NaN())})
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
	learnedtest.ModelFiles(t, learnedtest.Model{CCA: "astraea", Param: astraea.ParamModel, Dim: astraea.StateDim, Embedded: astraea.DefaultActorFile()})
}

// The monitor periods close on ACKs (cc/monitor): through a 200 ms
// outage one period stretches over the ACK gap, the others are at least
// 20 ms, one decision each.
func TestPeriodsStretchOverGaps(t *testing.T) {
	mk := func(cfg cc.Config, r *learnedtest.Recorder) (cc.Controller, error) { return astraea.New(cfg, r) }
	learnedtest.Outage(t, astraea.MonitorPeriod, mk)
}

// The per-ACK path, including one actor inference every 20 ms, allocates
// nothing.
func BenchmarkOnAck(b *testing.B) { learnedtest.BenchOnAck(b, "astraea") }

func TestOnAckAllocs(t *testing.T) { learnedtest.OnAckAllocs(t, "astraea") }

// One inference of the embedded actor.
func BenchmarkActorAct(b *testing.B) { learnedtest.BenchActor(b, astraea.DefaultActor()) }
