package endpoint_test

import (
	"context"
	"net/netip"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/packet"
)

// ours runs one flow of leolab's transport server→client (downlink) through
// the emulator with links cfg.
func ours(tb testing.TB, cfg emu.Config, cca string, dur time.Duration) (*endpoint.TransportReport, *emu.Stats) {
	tb.Helper()
	e, err := emu.Start(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	t0 := time.Now()
	f := endpoint.Transport{
		CCA: cca, Seed: 1, Start: time.Since(t0) + 50*time.Millisecond, Duration: dur,
		From: e.Server, To: e.Client, Addr: netip.AddrPortFrom(emu.ClientAddr(), 5201),
	}
	rep, rerr := endpoint.RunTransport(context.Background(), t0, f)
	st, err := e.Close()
	if rerr != nil {
		tb.Fatal(rerr)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return rep, st
}

func fixed100() emu.Config {
	const rate, oneWay, bdp = 100e6, 25 * time.Millisecond, 417
	return emu.Config{
		Uplink:   emu.FixedLink(rate, oneWay, bdp, 0, 1),
		Downlink: emu.FixedLink(rate, oneWay, bdp, 0, 2),
	}
}

func TestTransportCubicFillsFixedLink(t *testing.T) {
	needEmu(t)
	// A host stall of the pump or of the sender's driver longer than a
	// tenth of the 50 ms RTT releases or sends a burst into the 1-BDP
	// queue that the model's loss events do not hold (a loaded host: 59
	// Mbit/s with the driver's wake-ups 3 ms late at p99). Such a failed
	// run is repeated; after three the test skips.
	const maxStall = 5 * time.Millisecond
	livetest.Repeat(t, func(a *livetest.Attempt) {
		rep, st := ours(t, fixed100(), "cubic", 6*time.Second)
		a.Stall("pump gap max", st.GapMax, maxStall)
		a.Stall("driver wake late max", rep.WakeLate.Max(), maxStall)
		f := rep.Flow
		t.Logf("run %d: leolab cubic over UDP: %.1f Mbit/s, retrans %d, RTOs %d, min/mean/p95 RTT %.1f/%.1f/%.1f ms; wake late p50/p99/max %v/%v/%v; pump gap max %v; local drops %d, bad %d; link drops %+v",
			a.N, f.ThroughputMbps, f.Retransmits, f.RTOs, f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs,
			rep.WakeLate.Quantile(0.5), rep.WakeLate.Quantile(0.99), rep.WakeLate.Max(), st.GapMax, rep.LocalDrops, rep.BadDatagrams, st.Links[1].Drops)
		// As the kernel test: 96.5 Mbit/s of goodput at most, slow start
		// costs ~0.5 s of 6 s.
		if f.ThroughputMbps < 80 || f.ThroughputMbps > 96.6 {
			a.Errorf("throughput %.1f Mbit/s, want in [80, 96.6]", f.ThroughputMbps)
		}
		if f.MinRTTMs < 50 || f.MinRTTMs > 51.5 {
			t.Errorf("min RTT %.2f ms, want 50–51.5", f.MinRTTMs)
		}
		if f.P95RTTMs > 101 {
			a.Errorf("p95 RTT %.1f ms exceeds base + full queue (100 ms)", f.P95RTTMs)
		}
		if rep.BadDatagrams != 0 {
			t.Errorf("%d undecodable datagrams", rep.BadDatagrams)
		}
		if rep.Receiver.BytesReceived < f.BytesAcked {
			t.Errorf("receiver got %d bytes < %d acked", rep.Receiver.BytesReceived, f.BytesAcked)
		}
	})
}

// BenchmarkTransportFixed runs leolab cubic and bbr3 over UDP for 10 s on
// the fixed 100 Mbit/s, 50 ms, 1-BDP path: throughput and the driver's
// wake-up lateness (its timing instrument).
func BenchmarkTransportFixed(b *testing.B) {
	needEmu(b)
	for _, cca := range []string{"cubic", "bbr3"} {
		b.Run(cca, func(b *testing.B) {
			for b.Loop() {
				rep, _ := ours(b, fixed100(), cca, 10*time.Second)
				b.ReportMetric(rep.Flow.ThroughputMbps, "Mbit/s")
				b.ReportMetric(float64(rep.Flow.Retransmits), "retrans")
				b.ReportMetric(float64(rep.WakeLate.Quantile(0.5))/1e3, "wake-late-p50-µs")
				b.ReportMetric(float64(rep.WakeLate.Quantile(0.99))/1e3, "wake-late-p99-µs")
			}
		})
	}
}

// TestTransportBBRRateNotInflated: BBR's bandwidth estimate is the maximum
// of its delivery-rate samples, so any timing error that shortens a
// sample's interval inflates it, and BBR then paces above the link. On a
// fixed 300 Mbit/s path with a 26 ms RTT (about the Starlink Sydney path's
// rate and RTT) the estimate must stay within 5% of the payload capacity:
// a sample spans at least one min RTT, and 5% of 26 ms is 1.3 ms of timing
// error, several times the emulator's release error p99 (~0.25 ms). When
// the driver wrote one datagram per pacing gap (~40 µs at this rate) its
// real-time thread held a core, the emulator's pump stalled for up to tens
// of ms, and the estimate ran ~28% above the link (measured: 372 Mbit/s
// against 290; with bursts: 292). The emulator's pump itself hits the
// kernel's real-time throttling at 400 Mbit/s on a fixed link (it spins
// between per-packet releases), which is why the rate is not higher.
func TestTransportBBRRateNotInflated(t *testing.T) {
	needEmu(t)
	const (
		rate   = 300e6
		oneWay = 13 * time.Millisecond
		bdp    = 650 // packets of packet.MTU: 300 Mbit/s × 26 ms
		tol    = 0.05
	)
	cfg := emu.Config{
		Uplink:   emu.FixedLink(rate, oneWay, bdp, 0, 1),
		Downlink: emu.FixedLink(rate, oneWay, bdp, 0, 2),
	}
	payload := rate * packet.MSS / packet.MTU
	// A host stall (the pump, or the driver's ACK reads, late by more than
	// the 1.3 ms budget) releases a burst that inflates one sample, as it
	// would the kernel's BBR: a failed run with one is repeated, and after
	// three the test skips. A systematic inflation on a quiet host fails.
	budget := time.Duration(tol * float64(2*oneWay))
	livetest.Repeat(t, func(a *livetest.Attempt) {
		rep, st := ours(t, cfg, "bbr1", 8*time.Second)
		maxBW := 0.0
		for _, iv := range rep.Flow.Intervals {
			maxBW = max(maxBW, iv.CC["btlbw_bps"])
		}
		f := rep.Flow
		a.Stall("ACK late max", rep.AckLate.Max(), budget)
		a.Stall("pump release max", st.ReleaseMax, budget)
		t.Logf("run %d: leolab bbr1 over UDP, 300 Mbit/s 26 ms: %.1f Mbit/s, retrans %d, max btlbw %.1f Mbit/s (payload capacity %.1f); ACK late p50/p99/max %v/%v/%v; pump release error p99/max %v/%v",
			a.N, f.ThroughputMbps, f.Retransmits, maxBW/1e6, payload/1e6,
			rep.AckLate.Quantile(0.5), rep.AckLate.Quantile(0.99), rep.AckLate.Max(), st.ReleaseP99, st.ReleaseMax)
		if maxBW > payload*(1+tol) {
			a.Errorf("max btlbw %.1f Mbit/s exceeds the payload capacity %.1f Mbit/s by more than %.0f%%", maxBW/1e6, payload/1e6, tol*100)
		}
		if f.ThroughputMbps > payload/1e6 {
			t.Errorf("throughput %.1f Mbit/s above the payload capacity %.1f", f.ThroughputMbps, payload/1e6)
		}
	})
}
