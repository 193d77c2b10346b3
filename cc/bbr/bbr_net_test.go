package bbr_test

// Network-level checks of issue 4 (acceptance 2) on the simulator engine:
// our transport over a fixed drop-tail bottleneck.

import (
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
	_ "github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/result"
)

// runFixed runs one flow of cca over 100 Mbit/s, 50 ms, with a drop-tail
// queue of limit packets.
func runFixed(t *testing.T, cca string, limit int, secs int) *result.Result {
	t.Helper()
	res, err := cctest.Dumbbell{Name: "bbr-net-" + cca, Mbps: 100, RTT: 50 * time.Millisecond, Limit: limit,
		Duration: time.Duration(secs) * time.Second, CCAs: []string{cca}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// utilisation is the forward link's delivered bytes over (from, to] per
// its capacity.
func utilisation(res *result.Result, from, to float64) float64 {
	var bytes int64
	for _, s := range res.Links[0].Intervals {
		if s.T > from && s.T <= to {
			bytes += s.DeliveredBytes
		}
	}
	return float64(bytes) * 8 / (100e6 * (to - from))
}

// TestNetUtilisation: on a one-BDP drop-tail buffer BBRv1 and BBRv3 keep
// the link ≥ 95% busy after startup with a mean queueing delay below one
// base RTT (mean RTT < 2 × 50 ms).
func TestNetUtilisation(t *testing.T) {
	if testing.Short() {
		t.Skip("network run")
	}
	for _, cca := range []string{"bbr1", "bbr3"} {
		res := runFixed(t, cca, 417, 60)
		u := utilisation(res, 5, 60)
		f := res.Flows[0]
		t.Logf("%s: utilisation %.1f%%, mean RTT %.1f ms, retransmits %d", cca, 100*u, f.MeanRTTMs, f.Retransmits)
		if u < 0.95 {
			t.Errorf("%s: utilisation %.1f%%, want ≥ 95%%", cca, 100*u)
		}
		if f.MeanRTTMs >= 100 {
			t.Errorf("%s: mean RTT %.1f ms, want queueing delay below the 50 ms base RTT", cca, f.MeanRTTMs)
		}
	}
}

// TestNetShallowBuffer: with a 0.1-BDP buffer (42 packets) BBRv3 keeps
// its retransmission rate ≤ 5% while staying ≥ 80% utilised; CUBIC's
// utilisation on the same path is logged for comparison.
func TestNetShallowBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("network run")
	}
	util := map[string]float64{}
	for _, cca := range []string{"bbr3", "cubic"} {
		res := runFixed(t, cca, 42, 60)
		f := res.Flows[0]
		u := utilisation(res, 5, 60)
		retrans := float64(f.Retransmits) * 1448 / float64(f.BytesAcked)
		util[cca] = u
		t.Logf("%s: utilisation %.1f%%, retransmission rate %.2f%%", cca, 100*u, 100*retrans)
		if cca == "bbr3" && (u < 0.8 || retrans > 0.05) {
			t.Errorf("bbr3: utilisation %.1f%%, retransmissions %.2f%%: want ≥ 80%% and ≤ 5%%", 100*u, 100*retrans)
		}
	}
	// Issue 4 expects CUBIC "well below"; on this path CUBIC (β = 0.7 after
	// a loss at 1.1 BDP keeps ~0.77 BDP) measures close to BBRv3, so the
	// comparison is reported, not asserted.
	t.Logf("utilisation: bbr3 %.1f%%, cubic %.1f%%", 100*util["bbr3"], 100*util["cubic"])
}

// TestNetProbeRTTKeepsBandwidth: PROBE_RTT's low rates, and the first burst
// after it (whose sample spans the mode's quiet time), are app-limited, so
// the max-bw filter keeps the bottleneck rate through the mode. On a 10 ms
// path PROBE_RTT lasts ~20 rounds, twice the filter's window: were the
// samples admitted, the first one after PROBE_RTT would reset the filter
// to a fraction of the rate (Linux bbr_update_min_rtt marks them).
func TestNetProbeRTTKeepsBandwidth(t *testing.T) {
	if testing.Short() {
		t.Skip("network run")
	}
	for _, cca := range []string{"bbr1", "bbr3"} {
		res, err := cctest.Dumbbell{Name: "probertt-" + cca, Mbps: 100, RTT: 10 * time.Millisecond, Limit: 100,
			Duration: 12 * time.Second, Interval: 10 * time.Millisecond, CCAs: []string{cca}}.Run()
		if err != nil {
			t.Fatal(err)
		}
		iv := res.Flows[0].Intervals
		// The last interval in PROBE_RTT (phase 7) after startup.
		last := -1
		for i, s := range iv {
			if s.T > 2 && s.CC["phase"] == 7 {
				last = i
			}
		}
		if last < 0 || last+50 >= len(iv) {
			t.Fatalf("%s: no PROBE_RTT with 0.5 s after it in 12 s", cca)
		}
		first := last
		for first > 0 && iv[first-1].CC["phase"] == 7 {
			first--
		}
		before := iv[first-1].CC["btlbw_bps"]
		lowest := before
		for _, s := range iv[first : last+50] {
			lowest = min(lowest, s.CC["btlbw_bps"])
		}
		t.Logf("%s: PROBE_RTT %.2f–%.2f s; btlbw %.1f Mbit/s before, lowest %.1f through it and 0.5 s after", cca, iv[first].T, iv[last].T, before/1e6, lowest/1e6)
		if lowest < 0.9*before {
			t.Errorf("%s: btlbw fell from %.1f to %.1f Mbit/s across PROBE_RTT", cca, before/1e6, lowest/1e6)
		}
	}
}
