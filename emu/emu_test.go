package emu

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"testing"
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/internal/livetest"
)

// needEmu skips a test that needs root and a TUN driver.
func needEmu(tb testing.TB) {
	tb.Helper()
	livetest.Need(tb)
}

// cbrThrough runs one CBR flow client→server through a fixed link and
// returns its report and the pump's stats.
func cbrThrough(tb testing.TB, linkBps, cbrBps float64, delay, dur time.Duration) (*endpoint.CBRReport, *Stats) {
	tb.Helper()
	// A deep queue (240 ms at 1 Gbit/s): at an offered load equal to the
	// link rate, every scheduling hiccup of the sender idles the link for
	// good and grows the queue; this keeps that from turning into loss.
	queue := 20000
	e, err := Start(Config{
		Uplink:   FixedLink(linkBps, delay, queue, 0, 1),
		Downlink: FixedLink(linkBps, delay, queue, 0, 2),
	})
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Since(e.Epoch()) + 100*time.Millisecond
	rep, rerr := endpoint.RunCBR(context.Background(), e.Epoch(), endpoint.CBR{
		RateBps: cbrBps, Start: start, Duration: dur, Drain: delay + 200*time.Millisecond,
		From: e.Client, To: e.Server, Addr: netip.AddrPortFrom(ServerAddr(), 5201), Trace: true,
		KeepOff: e.KeepOff(),
	})
	st, err := e.Close()
	if rerr != nil {
		tb.Fatal(rerr)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return rep, st
}

// delayErrors replays the fixed link's model on the packets' send times —
// departure d_k = max(sent_k, d_{k-1}) + size·8/rate, arrival d_k + delay —
// and returns the histogram of actual minus ideal arrival, plus the most
// negative error (a packet delivered before the model allows is a bug).
func delayErrors(trace []endpoint.PacketTimes, rateBps float64, size int, delay time.Duration) (*endpoint.Hist, time.Duration) {
	sort.Slice(trace, func(i, j int) bool { return trace[i].Seq < trace[j].Seq })
	tx := time.Duration(float64(size*8) / rateBps * float64(time.Second))
	h := endpoint.NewHist(0)
	var done, early time.Duration
	for _, p := range trace {
		done = max(p.Sent, done) + tx
		err := p.Recv - (done + delay)
		early = min(early, err)
		h.Add(err)
	}
	return h, early
}

func TestFixedLinkDelayAndRate(t *testing.T) {
	needEmu(t)
	const (
		rate  = 50e6
		delay = 20 * time.Millisecond
		size  = 1500
	)
	// At an offered load equal to the link rate, one stall of the host
	// (a hypervisor's steal time: pump release max 7.6 ms once under a
	// full go test ./...; 2.9–11.5 ms in all three runs of one CI run)
	// leaves a queue that never drains and lifts the median for the rest
	// of the run. A stall of the pump's CPU or of the sender (which then
	// writes a packet after its send stamp) longer than the 1 ms the median
	// may be off is the host's doing: such a run is repeated, and the test
	// skips after three (livetest.Repeat). A pump that is late on a quiet
	// host fails.
	livetest.Repeat(t, func(a *livetest.Attempt) {
		rep, st := cbrThrough(t, rate, rate, delay, 2*time.Second)
		errs, early := delayErrors(rep.Trace, rate, size, delay)
		a.Stall("pump gap max", st.GapMax, time.Millisecond)
		a.Stall("sender late max", rep.SendLate.Max(), time.Millisecond)
		sent := float64(rep.Sent*size) * 8 / 2
		got := rep.Flow.ThroughputMbps * 1e6
		t.Logf("run %d: sent %d recv %d; delivered %.3f Mbit/s (offered %.3f); delay error p50 %v p99 %v max %v min %v; sender late p99 %v max %v; pump release err p50 %v p99 %v max %v; pump gaps %d (max %v); tun drops %v",
			a.N, rep.Sent, rep.Received, got/1e6, sent/1e6, errs.Quantile(0.5), errs.Quantile(0.99), errs.Max(), early,
			rep.SendLate.Quantile(0.99), rep.SendLate.Max(), st.ReleaseP50, st.ReleaseP99, st.ReleaseMax, st.Gaps, st.GapMax, st.TUNDrops)
		if rep.Received != rep.Sent {
			a.Errorf("received %d of %d packets at an offered load equal to the link rate", rep.Received, rep.Sent)
		}
		if rel := (got - rate) / rate; rel < -0.01 || rel > 0.01 {
			a.Errorf("delivered %.3f Mbit/s, want %.1f ± 1%%", got/1e6, rate/1e6)
		}
		// Send stamps precede the pump's reads, so the model's arrival
		// times are lower bounds: nothing may arrive earlier (clock reads
		// ±2 µs). No stall explains an early packet.
		if early < -2*time.Microsecond {
			t.Errorf("a packet arrived %v before the link model allows", -early)
		}
		// Timing on a shared 2-core host is reported above (issue 7 asks
		// p50 < 50 µs, p99 < 200 µs); the test asserts only that the pump
		// is not off by the order of a millisecond, which would be a
		// scheduling bug.
		if p50 := errs.Quantile(0.5); p50 > time.Millisecond {
			a.Errorf("median delay error %v, want < 1 ms", p50)
		}
		if l := st.Links[0]; l.Delivered != rep.RecvBytes {
			t.Errorf("uplink delivered %d bytes, receiver got %d", l.Delivered, rep.RecvBytes)
		}
		if st.Packets < rep.Sent || st.BadPackets != 0 || st.WriteErrors != 0 {
			t.Errorf("pump stats %+v", st)
		}
	})
}

// BenchmarkFixedRate is acceptance 1 of issue 7 through a fixed link with
// a 20 ms delay: CBR at the link's own rate for 2 s for the
// delivered/offered ratio, then CBR at half the rate for 10 s for the delay
// error against the link model (at full load one late send shifts every
// later packet for good, which would measure the sender, not the pump).
// The delay run is long enough that one gap of the pump's CPU (gaps.go;
// on a 2-core VM up to a few per 10 s, of 1–8 ms) cannot decide its p99
// on its own: at 25 Mbit/s a 2 s run has 4 166 packets, and one 7 ms gap
// delays about 30 of them, those due and those arriving in it.
func BenchmarkFixedRate(b *testing.B) {
	needEmu(b)
	const delay = 20 * time.Millisecond
	for _, mbps := range []float64{50, 300, 1000} {
		b.Run(fmt.Sprintf("%gMbps", mbps), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rep, st := cbrThrough(b, mbps*1e6, mbps*1e6, delay, 2*time.Second)
				offered := float64(rep.Sent*1500) * 8 / 2
				b.ReportMetric(rep.Flow.ThroughputMbps*1e6/offered, "delivered/offered")
				b.ReportMetric(float64(rep.Sent-rep.Received), "lost")
				b.ReportMetric(float64(st.Links[0].Drops.Tail), "queue-drops")
				b.ReportMetric(float64(st.TUNDrops[0]), "tun-drops")
				b.ReportMetric(st.ReleaseP99.Seconds()*1e6, "release-p99-µs")
				rep, st = cbrThrough(b, mbps*1e6, mbps*1e6/2, delay, 10*time.Second)
				// Hypervisor steal during the delay run, and the longest
				// time the pump was kept off its CPU (gaps.go): the
				// run's multi-ms outliers come with them.
				b.ReportMetric(float64(st.HostSteal)/float64(time.Millisecond), "steal-ms")
				b.ReportMetric(float64(st.Gaps), "gaps")
				b.ReportMetric(st.GapMax.Seconds()*1e6, "gap-max-µs")
				errs, _ := delayErrors(rep.Trace, mbps*1e6, 1500, delay)
				b.ReportMetric(errs.Quantile(0.5).Seconds()*1e6, "err-p50-µs")
				b.ReportMetric(errs.Quantile(0.99).Seconds()*1e6, "err-p99-µs")
			}
		})
	}
}

// TestParallelRunsIsolated runs two emulations at once with different
// delays; each CBR flow must see its own path's delay only.
func TestParallelRunsIsolated(t *testing.T) {
	needEmu(t)
	delays := []time.Duration{5 * time.Millisecond, 30 * time.Millisecond}
	reps := make([]*endpoint.CBRReport, len(delays))
	done := make(chan struct{})
	for i, d := range delays {
		go func() {
			defer func() { done <- struct{}{} }()
			reps[i], _ = cbrThrough(t, 20e6, 5e6, d, time.Second)
		}()
	}
	for range delays {
		<-done
	}
	for i, d := range delays {
		r := reps[i]
		if r == nil {
			t.Fatalf("run %d failed", i)
		}
		med := r.OWD.Quantile(0.5)
		// Delay + one 1500-byte serialisation at 20 Mbit/s (0.6 ms) + slack.
		if med < d || med > d+2*time.Millisecond || r.Received != r.Sent {
			t.Errorf("run %d (delay %v): median OWD %v, received %d/%d", i, d, med, r.Received, r.Sent)
		}
	}
}
