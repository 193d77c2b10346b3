package bbr

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// TestInspectV3: Inspect carries the model; the bounds appear once set.
func TestInspectV3(t *testing.T) {
	c := newTest("bbr3", 1, nil)
	p := newSynth(c, 100e6, 50*time.Millisecond)
	p.Buffer = int(0.1 * p.BDPBytes())
	p.Run(10 * time.Second)
	m := c.(cc.Inspector).Inspect()
	for _, k := range []string{"phase", "pacing_gain", "cwnd_gain", "btlbw_bps", "bw_hi_bps", "min_rtt_ms", "round", "extra_acked", "inflight_hi"} {
		if _, ok := m[k]; !ok {
			t.Errorf("Inspect lacks %q: %v", k, m)
		}
	}
	if bps := m["btlbw_bps"]; bps < 95e6 || bps > 105e6 {
		t.Errorf("btlbw_bps %v, want 100e6 ±5%%", bps)
	}
	if rtt := m["min_rtt_ms"]; rtt < 50 || rtt > 51 {
		t.Errorf("min_rtt_ms %v, want 50 (+ serialization)", rtt)
	}
}

// TestRTOv3: an RTO collapses cwnd to the minimum and the end of loss
// recovery restores the saved window.
func TestRTOv3(t *testing.T) {
	c := newTest("bbr3", 1, nil)
	b := c.(*BBR)
	p := newSynth(c, 50e6, 40*time.Millisecond)
	p.Run(3 * time.Second)
	before := b.cwnd
	c.OnRTO(p.Now() + 300*time.Millisecond)
	if b.cwnd != cc.MinCWnd(1448) || b.priorCwnd != before {
		t.Fatalf("after RTO cwnd %d prior %d, want %d and %d", b.cwnd, b.priorCwnd, cc.MinCWnd(1448), before)
	}
	rs := p.Sample()
	rs.InRecovery = false
	rs.TotalDelivered += 1448
	c.OnAck(p.Now()+400*time.Millisecond, &rs)
	if b.cwnd < min(before, b.inflightHi) && b.inflightLo == unset {
		t.Errorf("after recovery cwnd %d, want restored toward %d", b.cwnd, before)
	}
}

// BenchmarkV2OnAck and BenchmarkV3OnAck measure the per-ACK cost.
func BenchmarkV2OnAck(b *testing.B) { benchOnAck(b, "bbr2") }

func BenchmarkV3OnAck(b *testing.B) { benchOnAck(b, "bbr3") }
