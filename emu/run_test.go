package emu

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/transport"
)

func TestRunValidates(t *testing.T) {
	base := RunConfig{Duration: time.Second, Flows: []Flow{{Kind: KindTCP, CCA: "cubic"}}}
	bad := []func(*RunConfig){
		func(r *RunConfig) { r.Duration = 0 },
		func(r *RunConfig) { r.Flows = nil },
		func(r *RunConfig) { r.Flows = []Flow{{Kind: "quic"}} },
		func(r *RunConfig) { r.Flows = []Flow{{Kind: KindCBR, Direction: "sideways"}} },
		func(r *RunConfig) { r.Flows = []Flow{{Kind: KindTCP, Start: 2 * time.Second}} },
		func(r *RunConfig) { r.Flows = []Flow{{Kind: KindTCP, SndBuf: -1}} },
		// Kernel flows of one direction share their namespace's tcp_wmem.
		func(r *RunConfig) { r.Flows = []Flow{{Kind: KindTCP}, {Kind: KindTCP, SndBuf: 4 << 20}} },
	}
	for i, mut := range bad {
		rc := base
		mut(&rc)
		if err := rc.validate(); err == nil {
			t.Errorf("case %d: invalid config accepted: %+v", i, rc)
		}
	}
	if err := base.validate(); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
	// Different buffers are fine across directions, for leolab's own
	// transport, and when one of them is the default spelled out.
	ok := base
	// (Kernel flows name their congestion control: validate asks the
	// kernel for it.)
	ok.Flows = []Flow{{Kind: KindTCP, CCA: "cubic"}, {Kind: KindTCP, CCA: "cubic", Direction: Uplink, SndBuf: 4 << 20},
		{Kind: KindTransport, CCA: "bbr3", SndBuf: 1 << 20}, {Kind: KindTCP, CCA: "reno", SndBuf: transport.DefaultSndBuf}}
	if err := ok.validate(); err != nil {
		t.Errorf("valid send buffers rejected: %v", err)
	}
}

// Kernel flows run with their send buffer as the sending namespace's
// tcp_wmem maximum, whatever the host's is; the other namespace keeps the
// host's.
func TestSendBufferSysctl(t *testing.T) {
	needEmu(t)
	host, err := os.ReadFile(tcpWmem)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const want = 6 << 20
	if err := setSendBuffers(e, []Flow{{Kind: KindTCP, Direction: Uplink, SndBuf: want}}); err != nil {
		t.Fatal(err)
	}
	read := func(ns string) string {
		var b []byte
		if err := netns.Do(ns, func() (err error) { b, err = os.ReadFile(tcpWmem); return err }); err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(string(b)), " ")
	}
	hf := strings.Fields(string(host))
	if got, w := read(e.Client), fmt.Sprintf("%s %s %d", hf[0], hf[1], want); got != w {
		t.Errorf("client (sender) tcp_wmem %q, want %q", got, w)
	}
	if got, w := read(e.Server), strings.Join(hf, " "); got != w {
		t.Errorf("server tcp_wmem %q, want the host's %q", got, w)
	}
}

func TestRunTwoFlows(t *testing.T) {
	needEmu(t)
	res, err := Run(context.Background(), RunConfig{
		Config:   Config{Uplink: FixedLink(20e6, 10*time.Millisecond, 100, 0, 1), Downlink: FixedLink(20e6, 10*time.Millisecond, 100, 0, 2)},
		Name:     "two-flows",
		Duration: 2 * time.Second,
		Flows: []Flow{
			{Kind: KindTCP, CCA: "reno"},
			{Kind: KindCBR, RateBps: 2e6, Direction: Uplink},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != "emu" || len(res.Flows) != 2 || len(res.Links) != 2 {
		t.Fatalf("result %+v", res)
	}
	tcp, cbr := res.Flows[0], res.Flows[1]
	// The TCP flow has the 20 Mbit/s downlink to itself (minus slow start
	// over 2 s at a 20 ms RTT): more than half of it, never more than all.
	if tcp.ThroughputMbps < 10 || tcp.ThroughputMbps > 20 {
		t.Errorf("reno throughput %.2f Mbit/s, want 10–20", tcp.ThroughputMbps)
	}
	// The CBR flow runs on the uplink, which carries only the ACKs besides.
	if cbr.LostPackets != 0 || cbr.ThroughputMbps < 1.98 || cbr.ThroughputMbps > 2.02 {
		t.Errorf("cbr %.3f Mbit/s lost %d, want 2 ± 1%%, 0", cbr.ThroughputMbps, cbr.LostPackets)
	}
	if cbr.MeanOWDMs < 10 || cbr.MeanOWDMs > 12 {
		t.Errorf("cbr mean OWD %.2f ms, want 10 ms + serialisation (≤ 12)", cbr.MeanOWDMs)
	}
	if res.Instrument["pump_packets"] == 0 || res.Links[1].Delivered < tcp.BytesAcked {
		t.Errorf("instrument %v, downlink delivered %d < acked %d", res.Instrument, res.Links[1].Delivered, tcp.BytesAcked)
	}
}

// Link samples share the flows' time axis: a CBR flow starting at 1 s
// fills the uplink's sample ending at 1.2 s (all but its 10 ms delay),
// and the one ending at 1.0 s is empty. Labelled from the emulator's
// epoch, 100 ms before the flows' t=0, half of it would fall into the
// next sample.
func TestRunLinkSamplesOnFlowAxis(t *testing.T) {
	needEmu(t)
	const iv, rate = 200 * time.Millisecond, 4e6
	res, err := Run(context.Background(), RunConfig{
		Config:   Config{Uplink: FixedLink(20e6, 10*time.Millisecond, 100, 0, 1), Downlink: FixedLink(20e6, 10*time.Millisecond, 100, 0, 2), Interval: iv},
		Name:     "axis",
		Duration: 2 * time.Second,
		Interval: iv,
		Flows:    []Flow{{Kind: KindCBR, RateBps: rate, Direction: Uplink, Start: time.Second}},
	})
	if err != nil {
		t.Fatal(err)
	}
	byT := map[int64]int64{} // sample end (ms) → bytes
	for _, s := range res.Links[0].Intervals {
		byT[int64(math.Round(s.T*1000))] = s.DeliveredBytes
	}
	want := rate / 8 * (iv - 10*time.Millisecond).Seconds()
	if got := float64(byT[1200]); got < 0.9*want || got > 1.1*want {
		t.Errorf("uplink sample ending at 1.2 s carries %.0f bytes, want %.0f ± 10%% (samples %v)", got, want, byT)
	}
	if byT[1000] != 0 {
		t.Errorf("uplink sample ending at 1.0 s carries %d bytes before the flow started", byT[1000])
	}
}
