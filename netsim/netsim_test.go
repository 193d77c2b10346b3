package netsim

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/sim"
)

// fixedWindow is a test controller with a constant window, unpaced.
type fixedWindow struct{ cwnd int }

func (f *fixedWindow) OnSend(time.Duration, cc.SentInfo)   {}
func (f *fixedWindow) OnAck(time.Duration, *cc.RateSample) {}
func (f *fixedWindow) OnRTO(time.Duration)                 {}
func (f *fixedWindow) CWnd() int                           { return f.cwnd }
func (f *fixedWindow) PacingRate() float64                 { return 0 }

func init() {
	cc.Register(cc.Info{
		Name: "test-fixed-window", Description: "constant window (netsim tests)", Source: "test",
		Params: map[string]float64{"packets": 10},
		New: func(cfg cc.Config) (cc.Controller, error) {
			return &fixedWindow{cwnd: int(cfg.Param("packets", 10)) * cfg.MSS}, nil
		},
	})
}

// dumbbell returns a spec over a fixed link: rate, base RTT, queue limit.
func dumbbell(rate float64, rtt time.Duration, limit int, flows ...FlowSpec) Spec {
	build := func(name string) LinkSpec {
		return LinkSpec{Name: name, Build: func(drop link.DropFunc) (link.Stage, error) {
			b, err := link.NewBottleneck(rate, link.QueueLimit{Packets: limit}, drop)
			if err != nil {
				return nil, err
			}
			d, _ := link.NewDelay(rtt / 2)
			return link.NewChain(b, d), nil
		}}
	}
	return Spec{
		Name: "test", Seed: 1, Duration: 10 * time.Second, Interval: time.Second,
		Forward: build("forward"), Reverse: build("reverse"), Flows: flows, BaseRTT: rtt,
	}
}

// A window of W packets over an RTT R with a fast link delivers W·MSS/R.
func TestWindowLimitedThroughput(t *testing.T) {
	spec := dumbbell(1e9, 100*time.Millisecond, 0,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 20}})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	// 20·1448 B per ~100 ms (+ serialisation and delayed ACK slack).
	want := 20 * 1448 * 8 / 0.1 / 1e6
	if f.ThroughputMbps < 0.85*want || f.ThroughputMbps > 1.01*want {
		t.Fatalf("throughput %.2f Mbit/s, want ≈ %.2f (window-limited)", f.ThroughputMbps, want)
	}
	if f.Retransmits != 0 || f.MinRTTMs < 100 || f.MinRTTMs > 101 {
		t.Fatalf("retransmits %d min RTT %.3f ms; want 0 and ≈100 ms", f.Retransmits, f.MinRTTMs)
	}
}

// A send buffer below the window binds like a window (the flow's sndbuf,
// Linux's tcp_wmem limit on what is queued): the application refills it
// once it has drained to two thirds (transport/sendbuf.go), so between
// 2/3 and all of SndBuf is in flight, 2/3 to 1 SndBuf per RTT.
func TestSendBufferLimitedThroughput(t *testing.T) {
	const sndbuf = 64 << 10 // 45 segments: below the 100-packet window
	spec := dumbbell(1e9, 100*time.Millisecond, 0,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 100}, SndBuf: sndbuf})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	// Whole segments only: 45·1448 B per ~100 ms at most.
	most := float64(sndbuf/1448*1448) * 8 / 0.1 / 1e6
	if got := res.Flows[0].ThroughputMbps; got < 0.95*most*2/3 || got > 1.01*most {
		t.Fatalf("throughput %.2f Mbit/s, want %.2f–%.2f (send-buffer-limited: 2/3 to all of the buffer per RTT)", got, most*2/3, most)
	}
}

// A window far above the BDP fills the link: rate-limited at the bottleneck.
func TestRateLimitedThroughput(t *testing.T) {
	spec := dumbbell(10e6, 40*time.Millisecond, 0,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 100}})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	// Payload rate = 10 Mbit/s · 1448/1500.
	want := 10.0 * 1448 / 1500
	if got := res.Flows[0].ThroughputMbps; math.Abs(got/want-1) > 0.03 {
		t.Fatalf("throughput %.3f Mbit/s, want %.3f ± 3%%", got, want)
	}
	// 100 packets in flight on a 33-packet BDP: a standing queue of ~67.
	q := res.Links[0].Intervals[5].QueuePkts
	if q < 55 || q > 75 {
		t.Fatalf("standing queue %d packets, want ≈ 67", q)
	}
}

// CBR probes see the propagation delay plus their serialisation and count
// their losses.
func TestCBRDelayAndLoss(t *testing.T) {
	spec := dumbbell(100e6, 20*time.Millisecond, 100,
		FlowSpec{Kind: CBR, RateBps: 50e6, PacketSize: 1250, Record: true},
		FlowSpec{Kind: CBR, RateBps: 80e6, PacketSize: 1250, Start: 5 * time.Second, Stop: 6 * time.Second})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Flows[0]
	// 10 ms propagation + 0.1 ms serialisation when the link is not loaded.
	if a.MeanOWDMs < 10.1 || a.P95OWDMs > 10.1+100*0.1+0.2 {
		t.Fatalf("owd mean %.3f p95 %.3f ms", a.MeanOWDMs, a.P95OWDMs)
	}
	// 130 Mbit/s offered for 1 s into 100 Mbit/s: ~30 Mbit of drops.
	drops := res.Links[0].Drops.Tail
	wantDrops := 30e6 / (1250 * 8)
	if math.Abs(float64(drops)/wantDrops-1) > 0.1 {
		t.Fatalf("tail drops %d, want ≈ %.0f", drops, wantDrops)
	}
	if a.LostPackets+res.Flows[1].LostPackets != drops {
		t.Fatalf("flow losses %d+%d != link drops %d", a.LostPackets, res.Flows[1].LostPackets, drops)
	}
	// Per-packet records agree with the counts, and only packets sent while
	// the second flow overloaded the link (5–6 s, plus the queue's drain) are lost.
	if int64(len(a.Packets)) != a.SentPackets || res.Flows[1].Packets != nil {
		t.Fatalf("%d records for %d packets sent (second flow: %d, not asked)", len(a.Packets), a.SentPackets, len(res.Flows[1].Packets))
	}
	var lost int64
	for _, p := range a.Packets {
		switch {
		case p.OWDMs < 0:
			lost++
			if p.SentS < 5 || p.SentS > 6.1 {
				t.Fatalf("packet %d sent at %.3fs lost outside the overload", p.Seq, p.SentS)
			}
		case p.OWDMs > 0 && p.OWDMs < 10.1:
			t.Fatalf("packet %d: owd %.3f ms below propagation + serialisation", p.Seq, p.OWDMs)
		}
	}
	if lost != a.LostPackets {
		t.Fatalf("%d lost records, %d lost packets", lost, a.LostPackets)
	}
}

func TestDeterministic(t *testing.T) {
	spec := dumbbell(20e6, 30*time.Millisecond, 30,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 80}},
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 60}, Start: time.Second})
	var out [2][]byte
	for i := range out {
		res, err := Run(spec)
		if err != nil {
			t.Fatal(err)
		}
		out[i], _ = json.Marshal(res)
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatal("same spec gave different results")
	}
}

func TestValidate(t *testing.T) {
	spec := dumbbell(1e6, time.Millisecond, 0)
	if _, err := Run(spec); err == nil {
		t.Fatal("spec without flows accepted")
	}
	spec = dumbbell(1e6, time.Millisecond, 0, FlowSpec{CCA: "no-such-cca"})
	if _, err := Run(spec); err == nil {
		t.Fatal("unknown cca accepted")
	}
	_ = sim.Never
}

// TestSpecRefusesRunawayNumbers: a spec built without a scenario gets the
// same shared checks (issue 18): a 1 ns interval (a record per flow per
// nanosecond, out of memory) and a cbr rate that makes the packet gap
// overflow are refused before anything runs.
func TestSpecRefusesRunawayNumbers(t *testing.T) {
	spec := dumbbell(1e8, 50*time.Millisecond, 0, FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 20}})
	spec.Interval = time.Nanosecond
	if _, err := Run(spec); err == nil || !strings.Contains(err.Error(), "allowed: 1ms") {
		t.Errorf("interval 1ns: %v", err)
	}
	for _, r := range []float64{1e-300, math.Inf(1), math.NaN()} {
		spec := dumbbell(1e8, 50*time.Millisecond, 0, FlowSpec{Kind: CBR, RateBps: r, PacketSize: 1000})
		if _, err := Run(spec); err == nil || !strings.Contains(err.Error(), "cbr needs a rate in [1kbps, 1Tbps]") {
			t.Errorf("cbr rate %g: %v", r, err)
		}
	}
}

// A flow's Controller factory replaces the registry: the flow runs the
// factory's controller (here a 20-packet window where the registry's
// test-fixed-window would default to 10) and receives the run's config.
func TestFlowControllerFactory(t *testing.T) {
	var got cc.Config
	spec := dumbbell(1e9, 100*time.Millisecond, 0, FlowSpec{CCA: "test-fixed-window",
		Controller: func(cfg cc.Config) (cc.Controller, error) {
			got = cfg
			return &fixedWindow{cwnd: 20 * cfg.MSS}, nil
		}})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if got.MSS <= 0 || got.Rand == nil {
		t.Fatalf("factory config %+v: want the transport's MSS and a random stream", got)
	}
	want := 20 * float64(got.MSS) * 8 / 0.1 / 1e6 // W·MSS/R in Mbit/s
	if f := res.Flows[0]; math.Abs(f.ThroughputMbps-want) > 0.05*want {
		t.Errorf("throughput %.2f Mbit/s, want %.2f (20 packets per 100 ms)", f.ThroughputMbps, want)
	}
}
