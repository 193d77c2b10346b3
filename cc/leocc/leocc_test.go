package leocc

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// newPath builds controller cfg on a path of bits/s and base RTT.
func newPath(t testing.TB, cfg cc.Config, bitsPerSec float64, rtt time.Duration) (*cctest.Path, *LeoCC) {
	t.Helper()
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := cctest.NewPath(l, bitsPerSec, rtt)
	p.MSS = cfg.MSS
	return p, l
}

// phases records the distinct successive phases seen on ACKs.
func phases(p *cctest.Path, l *LeoCC) *[]int {
	var seq []int
	p.Observe = func(time.Duration, *cc.RateSample) {
		if ph := l.phase(); len(seq) == 0 || seq[len(seq)-1] != ph {
			seq = append(seq, ph)
		}
	}
	return &seq
}

// TestStartupToCruise: on a clean 100 Mbit/s, 40 ms path LeoCC runs BBRv1's
// STARTUP → DRAIN → PROBE_BW, measures the bottleneck within 2% and the
// base RTT, cycles through UP (1.25) and DOWN (0.75), and detection mode
// sees no reconfiguration.
func TestStartupToCruise(t *testing.T) {
	p, l := newPath(t, testConfig(nil, nil), 100e6, 40*time.Millisecond)
	seq := phases(p, l)
	var gains []float64
	inner := p.Observe
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		inner(now, rs)
		if !slices.Contains(gains, l.pacingGain) {
			gains = append(gains, l.pacingGain)
		}
	}
	p.Run(5 * time.Second)
	if (*seq)[0] != phaseStartup || (*seq)[1] != phaseDrain || !slices.Contains(*seq, phaseUp) || !slices.Contains(*seq, phaseDown) {
		t.Errorf("phases %v, want STARTUP(1), DRAIN(2), then PROBE_BW with UP(3) and DOWN(4)", *seq)
	}
	if got := l.bw.Get() * 8; math.Abs(got-100e6) > 0.02*100e6 {
		t.Errorf("max bw %.1f Mbit/s, want 100 ± 2%%", got/1e6)
	}
	if l.minRTT < 40*time.Millisecond || l.minRTT > 41*time.Millisecond {
		t.Errorf("min_rtt %v, want 40 ms + one segment's serialisation", l.minRTT)
	}
	for _, g := range []float64{highGain, drainGain, upGain, downGain, 1} {
		if !slices.Contains(gains, g) {
			t.Errorf("pacing gain %v never used (gains %v)", g, gains)
		}
	}
	if l.trig.count != 0 || l.p.trigger != TriggerDetect {
		t.Errorf("trigger mode %d fired %d times on a clean path, want detection and 0", l.p.trigger, l.trig.count)
	}
}

// TestRTOAndRestore: an RTO collapses cwnd to 2 segments; the ACK that
// ends recovery restores the window saved before it.
func TestRTOAndRestore(t *testing.T) {
	p, l := newPath(t, testConfig(nil, nil), 50e6, 30*time.Millisecond)
	p.Run(3 * time.Second)
	before := l.CWnd()
	l.OnRTO(p.Now())
	if l.CWnd() != cc.MinCWnd(1448) || l.priorCwnd != before {
		t.Fatalf("after RTO cwnd %d prior %d, want %d and %d", l.CWnd(), l.priorCwnd, cc.MinCWnd(1448), before)
	}
	rs := cc.RateSample{AckedBytes: 1448, InRecovery: true, Inflight: 1448, TotalDelivered: p.Delivered()}
	l.OnAck(p.Now()+time.Millisecond, &rs)
	if l.CWnd() >= before {
		t.Errorf("cwnd %d during loss recovery, want below the saved %d", l.CWnd(), before)
	}
	rs.InRecovery = false
	l.OnAck(p.Now()+2*time.Millisecond, &rs)
	if l.CWnd() < before {
		t.Errorf("cwnd %d after recovery, want the saved %d restored", l.CWnd(), before)
	}
}

// TestInspectKeys: the trace exposes phase and the Kalman state.
func TestInspectKeys(t *testing.T) {
	p, l := newPath(t, testConfig(nil, nil), 50e6, 30*time.Millisecond)
	p.Run(2 * time.Second)
	m := l.Inspect()
	for _, k := range []string{"phase", "pacing_gain", "cwnd_gain", "up_gain", "btlbw_bps", "kalman_bw_bps",
		"kalman_rtt_ms", "kalman_gain_bw", "kalman_gain_rtt", "use_kalman", "min_rtt_ms", "reconfiguring", "reconfigs"} {
		if _, ok := m[k]; !ok {
			t.Errorf("Inspect lacks %q", k)
		}
	}
	if g := m["kalman_gain_rtt"]; math.Abs(g-steadyGain(kalmanQ, kalmanR)) > 1e-6 {
		t.Errorf("kalman_gain_rtt %v after 2 s, want the steady %v", g, steadyGain(kalmanQ, kalmanR))
	}
	if r := m["kalman_rtt_ms"]; r < 30 || r > 35 {
		t.Errorf("kalman_rtt_ms %v, want the path's 30 ms plus little queue", r)
	}
}

// BenchmarkOnAck: the per-ACK cost in steady state, without allocation.
func BenchmarkOnAck(b *testing.B) {
	p, l := newPath(b, testConfig(nil, nil), 100e6, 40*time.Millisecond)
	p.Run(3 * time.Second)
	rs := p.Sample()
	now := p.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now += 10 * time.Microsecond
		rs.PriorDelivered += int64(i&1) * 1448
		rs.TotalDelivered += 1448
		l.OnAck(now, &rs)
	}
}
