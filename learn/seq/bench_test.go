package seq

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // gomlx's graph DSL reads as math
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/lmbbr"
)

// BenchmarkDecision is one per-decision inference of the default model
// (a window of w steps, batch 1) on the pure-Go backend; it reports the
// p50 and p99 latency over its iterations.
func BenchmarkDecision(b *testing.B) {
	benchDecision(b, DefaultConfig(), "")
}

// BenchmarkDecisionGPT2Tiny is the same for the tiny random GPT-2 (width
// 16, 2 layers) with LoRA rank 4.
func BenchmarkDecisionGPT2Tiny(b *testing.B) {
	benchDecision(b, gpt2Config(4), writeTinyGPT2(b, 16, 2))
}

func benchDecision(b *testing.B, cfg Config, gpt2 string) {
	m, err := NewModel(cfg, 1, gpt2)
	if err != nil {
		b.Fatal(err)
	}
	seqs := realSequences(b)
	batch := newBatch(1, m.Config.Window)
	batch.fill(0, seqs, window{0, 100})
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := m.Logits(batch); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds()), "p99-µs")
}

// BenchmarkTrainStep is one optimizer step of the default model and
// training config (Batch·Accumulate windows).
func BenchmarkTrainStep(b *testing.B) {
	cfg, tc := DefaultConfig(), DefaultTrainConfig()
	m, err := NewModel(cfg, 1, "")
	if err != nil {
		b.Fatal(err)
	}
	seqs := realSequences(b)
	step, err := context.NewExecAny(m.backend, m.ctx, func(ctx *context.Context, in []*Node) []*Node {
		return m.net.trainStep(ctx, tc, in)
	})
	if err != nil {
		b.Fatal(err)
	}
	per := tc.Batch * tc.Accumulate
	bt := newBatch(per, cfg.Window)
	for n := range per {
		bt.fill(n, seqs, window{n % 2, 10 + 3*n})
	}
	args := func() []any {
		return []any{tensors.FromFlatDataAndDimensions(bt.X, bt.N, bt.W, NumFeatures),
			tensors.FromFlatDataAndDimensions(bt.Return, bt.N, bt.W),
			tensors.FromFlatDataAndDimensions(bt.Action, bt.N, bt.W),
			tensors.FromFlatDataAndDimensions(bt.Phase, bt.N, bt.W),
			tensors.FromFlatDataAndDimensions(bt.Label, bt.N, bt.W),
			tensors.FromFlatDataAndDimensions(bt.Weight, bt.N, bt.W)}
	}
	if _, err := step.Exec(args()...); err != nil { // compile
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := step.Exec(args()...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAckSeq is lmbbr's per-ACK cost with the default sequence
// model (random weights: the cost does not depend on them): BBRv3, the
// online policy's observation, a step closed each second, and the
// decisions on round starts in UP and DOWN, amortised.
func BenchmarkAckSeq(b *testing.B) { benchAck(b, DefaultConfig(), "") }

// BenchmarkAckSeqGPT2Tiny is the same for the tiny GPT-2 with LoRA.
func BenchmarkAckSeqGPT2Tiny(b *testing.B) { benchAck(b, gpt2Config(4), writeTinyGPT2(b, 16, 2)) }

func benchAck(b *testing.B, cfg Config, gpt2 string) {
	cctest.BenchAcks(b, newSeqController(b, cfg, gpt2), "decisions/op", "lm_up_calls", "lm_down_calls")
}

// BenchmarkOnlineDecision is one decision of the online policy with the
// plain-Go pass (encode the current step, run the window), reporting its
// p50 and p99 over the iterations.
func BenchmarkOnlineDecision(b *testing.B) { benchOnline(b, DefaultConfig(), "") }

// BenchmarkOnlineDecisionGPT2Tiny is the same for the tiny GPT-2 with LoRA.
func BenchmarkOnlineDecisionGPT2Tiny(b *testing.B) {
	benchOnline(b, gpt2Config(4), writeTinyGPT2(b, 16, 2))
}

func benchOnline(b *testing.B, cfg Config, gpt2 string) {
	g, err := LoadGainModel(saveRandom(b, b.TempDir(), cfg, gpt2))
	if err != nil {
		b.Fatal(err)
	}
	f, err := g.Forward()
	if err != nil {
		b.Fatal(err)
	}
	o := NewOnline(f, true)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 40 * time.Millisecond, SRTT: 40 * time.Millisecond}
	now := time.Duration(0)
	for ; now < 10*time.Second; now += 116 * time.Microsecond { // a full window of closed steps
		o.ObserveAck(now, &rs, 500_000)
	}
	st := bbr.GainState{Now: now, Phase: bbr.GainUp, Enter: true, RoundBw: 12e6, MaxBw: 12.5e6, MinRTT: 40 * time.Millisecond,
		SRTT: 45 * time.Millisecond, LossRate: 0.001}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		st.Phase = bbr.GainPhase(1 + i%2)
		o.fresh = true // a new second's first decision: the full pass
		t0 := time.Now()
		o.Gain(st)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Nanoseconds())/1e3, "p99-µs")
}

// timed records the latency of each decision of the online policy it
// wraps (an Observer still: the methods are promoted).
type timed struct {
	*Online
	lat *[]time.Duration
}

func (t timed) Gain(s bbr.GainState) float64 {
	t0 := time.Now()
	g := t.Online.Gain(s)
	*t.lat = append(*t.lat, time.Since(t0))
	return g
}

type timedModel struct {
	g   *GainModel
	lat *[]time.Duration
}

func (m timedModel) NewPolicy(fl lmbbr.FlowInfo) (bbr.GainPolicy, error) {
	p, err := m.g.NewPolicy(fl)
	if err != nil {
		return nil, err
	}
	return timed{p.(*Online), m.lat}, nil
}

// BenchmarkClosedLoopDecision times every decision of lmbbr with the
// default sequence model over 30 s of a 100 Mbit/s, 40 ms path per
// iteration: the mix of full passes (a second's first decision) and
// one-token passes (the later ones) that a flow makes. It reports their
// p50 and p99 and the decisions per simulated second.
func BenchmarkClosedLoopDecision(b *testing.B) {
	g, err := LoadGainModel(saveRandom(b, b.TempDir(), DefaultConfig(), ""))
	if err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for range b.N {
		c, err := lmbbr.NewWith(cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 2))},
			timedModel{g, &lat}, lmbbr.FlowInfo{Downlink: true})
		if err != nil {
			b.Fatal(err)
		}
		cctest.NewPath(c, 100e6, 40*time.Millisecond).Run(30 * time.Second)
	}
	if len(lat) == 0 {
		b.Fatal("no decision")
	}
	b.ReportMetric(float64(len(lat))/float64(b.N)/30, "decisions/s")
	reportLatency(b, lat)
}
