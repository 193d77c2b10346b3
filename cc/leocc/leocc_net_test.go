package leocc_test

// Network-level check of issue 4 (acceptance 4) on the simulator engine:
// LeoCC against BBRv3 around the Starlink reconfiguration boundaries.

import (
	"fmt"
	"slices"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/leocc"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
)

// Recovery-time definition (issue 4 point 4).
const (
	// bin is the result interval: throughput is measured in 100 ms bins.
	bin = 100 * time.Millisecond
	// preWindow: the reference is the mean rate of the 2 s before a boundary.
	preWindow = 2 * time.Second
	// recoveredFrac: recovered once a bin reaches 90% of the reference.
	recoveredFrac = 0.9
	// settle: boundaries in the first 5 s (initial STARTUP) are skipped.
	settle = 5 * time.Second
)

// runStarlink runs one flow of cca over the Starlink profile (Sydney,
// downlink) for secs seconds and returns the result and its spec.
func runStarlink(t *testing.T, cca string, secs, seed int, params string) (*result.Result, *netsim.Spec) {
	t.Helper()
	y := fmt.Sprintf(`version: 1
name: leocc-net-%s
duration: %ds
seed: %d
interval: 100ms
path:
  profile: starlink
  city: sydney
  direction: downlink
flows:
  - {cca: %s, start: 0s%s}
`, cca, secs, seed, cca, params)
	res, spec, err := cctest.RunYAML(y)
	if err != nil {
		t.Fatal(err)
	}
	return res, spec
}

// recoveryTimes returns, for every reconfiguration boundary b after settle
// with a full 2 s before it and 3 s after it, the time from b to the end
// of the first 100 ms bin after b whose rate is ≥ 90% of the mean rate of
// the bins in [b−2 s, b); a boundary never recovered before the next one
// counts as the time to the next one.
func recoveryTimes(f *result.Flow, spec *netsim.Spec) []time.Duration {
	rate := make(map[int]float64, len(f.Intervals)) // bin end (in bins) → bytes
	last := 0
	for _, iv := range f.Intervals {
		k := int(iv.T/bin.Seconds() + 0.5)
		rate[k] = float64(iv.Bytes)
		last = max(last, k)
	}
	var out []time.Duration
	for b := spec.Schedule.Next(settle); b >= 0 && b+3*time.Second <= time.Duration(last)*bin; b = spec.Schedule.Next(b + 1) {
		first := int((b + bin - 1) / bin) // the bin ending at or after b
		n := int(preWindow / bin)
		var pre float64
		for k := first - n; k < first; k++ {
			pre += rate[k]
		}
		pre /= float64(n)
		next := spec.Schedule.Next(b + 1)
		rec := next - b
		for k := first + 1; time.Duration(k)*bin <= next; k++ {
			if rate[k] >= recoveredFrac*pre {
				rec = time.Duration(k)*bin - b
				break
			}
		}
		out = append(out, rec)
	}
	return out
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestNetRecoveryVsBBR3: over the reconfiguration boundaries of the
// Sydney downlink, LeoCC's recovery costs less than BBRv3's: its mean and
// its 90th percentile are shorter. The two differ in kind: LeoCC pays its
// PROBE_RTT at every boundary (0.4–1.0 s), BBRv3 recovers in a few RTTs
// when the new slot's capacity is no higher and takes one or more 2–3 s
// probe cycles when it is. The median therefore depends on how many slots
// gained capacity and flips with small changes (with the receiver's window
// autotuned, BBRv3's median is 614 ms against LeoCC's 744 over 47
// boundaries, while its mean is 1.0 s and its p90 1.8 s); the mean and the
// tail are what a boundary costs in delivered data. Three seeds pooled
// (≥ 45 boundaries).
func TestNetRecoveryVsBBR3(t *testing.T) {
	if testing.Short() {
		t.Skip("network run")
	}
	med, mean, p90 := map[string]time.Duration{}, map[string]time.Duration{}, map[string]time.Duration{}
	for _, cca := range []string{"leocc", "bbr3"} {
		var all []time.Duration
		for seed := 1; seed <= 3; seed++ {
			res, spec := runStarlink(t, cca, 240, seed, "")
			f := &res.Flows[0]
			rec := recoveryTimes(f, spec)
			all = append(all, rec...)
			t.Logf("%s seed %d: %.1f Mbit/s, %d retransmits, %d RTOs, mean RTT %.1f ms; recovery per boundary %v, median %v",
				cca, seed, f.ThroughputMbps, f.Retransmits, f.RTOs, f.MeanRTTMs, rec, median(rec))
		}
		if len(all) < 10 {
			t.Fatalf("%s: only %d boundaries measured, want ≥ 10", cca, len(all))
		}
		med[cca] = median(all)
		var sum time.Duration
		for _, r := range all {
			sum += r
		}
		mean[cca] = sum / time.Duration(len(all))
		sorted := slices.Clone(all)
		slices.Sort(sorted)
		p90[cca] = sorted[len(sorted)*9/10]
		t.Logf("%s: recovery over %d boundaries: median %v, mean %v, p90 %v", cca, len(all), med[cca], mean[cca], p90[cca])
	}
	// Detection instead of the schedule, reported: the trigger fires on
	// the first ACK after the outage instead of before it.
	res, spec := runStarlink(t, "leocc", 165, 1, ", params: {trigger: 2}")
	f := &res.Flows[0]
	rec := recoveryTimes(f, spec)
	t.Logf("leocc (detection): %.1f Mbit/s, %d retransmits, %v triggers; median recovery %v",
		f.ThroughputMbps, f.Retransmits, f.Intervals[len(f.Intervals)-1].CC["reconfigs"], median(rec))
	if mean["leocc"] >= mean["bbr3"] || p90["leocc"] >= p90["bbr3"] {
		t.Errorf("recovery mean/p90: leocc %v/%v, bbr3 %v/%v: want leocc shorter in both", mean["leocc"], p90["leocc"], mean["bbr3"], p90["bbr3"])
	}
}
