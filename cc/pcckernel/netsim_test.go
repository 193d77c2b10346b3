package pcckernel_test

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/cubic"
	_ "github.com/leolab/leolab/cc/pcckernel"
	"github.com/leolab/leolab/result"
)

// lossless is a fixed 50 Mbit/s, 40 ms path whose 10000-packet queue
// (15 MB) holds more than the flow's 8 MB send buffer, so nothing is ever
// dropped.
const lossless = `version: 1
name: pcck-lossless
duration: 30s
seed: 1
interval: 1s
path:
  profile: fixed
  rate: 50Mbps
  rtt: 40ms
  queue: {discipline: droptail, limit_packets: 10000}
  loss: 0
flows:
  - {cca: pcc-kernel, start: 0s, sndbuf: 8MB}
`

// rateAt is the controller's central rate in Mbit/s at the end of the
// interval ending at t seconds.
func rateAt(t *testing.T, f result.Flow, sec float64) float64 {
	t.Helper()
	for _, iv := range f.Intervals {
		if iv.T == sec {
			return iv.CC["rate_mbps"]
		}
	}
	t.Fatalf("no interval ending at %v s", sec)
	return 0
}

// Without loss every probe pair favours the higher rate, so the rate
// grows geometrically (the same factor per 10 s in the second and third
// decade, well past the link's rate), and the flow ends limited by its
// window of data in flight (the receiver's and the send buffer), not by
// the controller's: the link is full, nothing is retransmitted and the
// controller's window is over ten times what is in flight.
func TestNetsimLosslessRatchet(t *testing.T) {
	res, _, err := cctest.RunYAML(lossless)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	r10, r20, r30 := rateAt(t, f, 10), rateAt(t, f, 20), rateAt(t, f, 30)
	g1, g2 := r20/r10, r30/r20
	t.Logf("rate %.0f → %.0f → %.0f Mbit/s at 10, 20, 30 s (×%.2f, ×%.2f); %.2f Mbit/s, %d retransmits",
		r10, r20, r30, g1, g2, f.ThroughputMbps, f.Retransmits)
	if g1 < 3 || g2 < 3 || math.Abs(math.Log(g1/g2)) > math.Log(1.25) {
		t.Errorf("growth ×%.2f then ×%.2f per 10 s, want geometric: both ≥ 3 and within 25 %% of each other", g1, g2)
	}
	if r30 < 10*50 {
		t.Errorf("rate %.0f Mbit/s at 30 s, want ≥ 10× the 50 Mbit/s link", r30)
	}
	if f.Retransmits != 0 {
		t.Errorf("%d retransmits on a path that never drops", f.Retransmits)
	}
	last := f.Intervals[len(f.Intervals)-1]
	inflight := float64(last.Bytes) * last.SRTTMs / 1e3 // bytes per 1 s interval × SRTT
	if got := float64(last.Bytes) * 8 / 1e6; got < 0.9*50 {
		t.Errorf("last second %.1f Mbit/s, want the link full (≥ 45)", got)
	}
	if float64(last.CWndBytes) < 10*inflight {
		t.Errorf("cwnd %d bytes at the end, want ≥ 10× the %.0f bytes in flight (window limited elsewhere)", last.CWndBytes, inflight)
	}
}

// On a drop-tail 100 Mbit/s, 250 ms path with a one-BDP queue (2083
// packets) for 120 s, the module's loss-tolerant utility keeps the rate
// above the link's (it only turns negative at 7.4 % loss, judged on the
// target rate): it retransmits at least 5 % of what it sends and 20 times
// cubic's share on the same path, yet does not collapse (≥ 30 % of the
// link).
func TestNetsimDropTailLossy(t *testing.T) {
	d := cctest.Dumbbell{Name: "pcck-droptail", Mbps: 100, RTT: 250 * time.Millisecond, Limit: 2083,
		Duration: 120 * time.Second, CCAs: []string{"pcc-kernel"}}
	res, err := d.Run()
	if err != nil {
		t.Fatal(err)
	}
	d.CCAs = []string{"cubic"}
	ref, err := d.Run()
	if err != nil {
		t.Fatal(err)
	}
	p, c := res.Flows[0], ref.Flows[0]
	ratio := func(f result.Flow) float64 { return float64(f.Retransmits) / float64(f.SentPackets) }
	t.Logf("pcc-kernel %.1f Mbit/s, %.2f %% retransmitted, %d RTOs; cubic %.1f Mbit/s, %.3f %%",
		p.ThroughputMbps, 100*ratio(p), p.RTOs, c.ThroughputMbps, 100*ratio(c))
	if ratio(p) < 0.05 || ratio(p) < 20*ratio(c) {
		t.Errorf("pcc-kernel retransmitted %.2f %% of its segments, want ≥ 5 %% and ≥ 20× cubic's %.3f %%", 100*ratio(p), 100*ratio(c))
	}
	if p.ThroughputMbps < 30 {
		t.Errorf("pcc-kernel %.1f Mbit/s, want ≥ 30 (30 %% of the link)", p.ThroughputMbps)
	}
}
