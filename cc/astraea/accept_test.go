package astraea_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/result"
)

// The two-flow acceptance link (issue 23, acceptance 1 for Astraea): a
// fixed 50 Mbit/s, 40 ms path with a one-BDP drop-tail buffer (50 Mbit/s
// × 40 ms = 250 kB = 167 packets of 1500 B); flow 1 starts at 5 s, and
// Jain's index and utilisation are taken over the last half of 30 s.
const (
	twoMbps     = 50
	twoRTT      = 40 * time.Millisecond
	twoLimit    = 167
	twoFor      = 30 * time.Second
	twoStart2   = 5 * time.Second
	acceptJain  = 0.9
	acceptUtil2 = 0.8
)

type twoFlow struct {
	jain, util, queueMs float64
	mbps                [2]float64
}

// runTwo runs two flows of cca on the acceptance link and measures the
// last half from the flows' 1 s intervals.
func runTwo(t *testing.T, cca string) twoFlow {
	t.Helper()
	yaml := fmt.Sprintf(`version: 1
name: astraea-two-%s
duration: %v
seed: 1
interval: 1s
path:
  profile: fixed
  rate: %dMbps
  rtt: %v
  queue: {discipline: droptail, limit_packets: %d}
flows:
  - {cca: %s, start: 0s}
  - {cca: %s, start: %v}
`, cca, twoFor, twoMbps, twoRTT, twoLimit, cca, cca, twoStart2)
	res, _, err := cctest.RunYAML(yaml)
	if err != nil {
		t.Fatal(err)
	}
	return lastHalf(res)
}

func lastHalf(res *result.Result) twoFlow {
	from := twoFor.Seconds() / 2
	var out twoFlow
	var total float64
	for i, f := range res.Flows[:2] {
		var bytes int64
		for _, iv := range f.Intervals {
			if iv.T > from+1e-9 {
				bytes += iv.Bytes
			}
		}
		out.mbps[i] = float64(bytes) * 8 / (twoFor.Seconds() - from) / 1e6
		total += out.mbps[i]
		out.queueMs += (f.MeanRTTMs - f.MinRTTMs) / 2
	}
	out.jain = metrics.Jain(out.mbps[:])
	out.util = total / twoMbps
	return out
}

// Two astraea flows (the embedded actor) share the link fairly and fill
// it: Jain ≥ 0.9 and utilisation ≥ 80 % over the last 15 s, the bar
// the issue sets (the paper reports near-optimal sharing, Liao et al.
// 2024, abstract). CUBIC and BBRv3 run the same scenario for the table.
// Measured with the embedded actor (100 rounds, seed 1): astraea 29.85
// and 18.42 Mbit/s, Jain 0.947, utilisation 0.965, queueing 3.4 ms;
// cubic 33.68/14.59, 0.865, 0.965, 24.3 ms; bbr3 26.22/21.25, 0.989,
// 0.949, 20.4 ms.
func TestAstraeaTwoFlowFairness(t *testing.T) {
	var tab strings.Builder
	fmt.Fprintf(&tab, "%-8s %8s %8s %6s %6s %9s\n", "cca", "flow0", "flow1", "jain", "util", "queue_ms")
	rows := map[string]twoFlow{}
	for _, c := range []string{"astraea", "cubic", "bbr3"} {
		r := runTwo(t, c)
		rows[c] = r
		fmt.Fprintf(&tab, "%-8s %8.2f %8.2f %6.3f %6.3f %9.1f\n", c, r.mbps[0], r.mbps[1], r.jain, r.util, r.queueMs)
	}
	t.Log("last half of 30 s, 50 Mbit/s, 40 ms, 1 BDP, flow 1 from 5 s (Mbit/s):\n" + tab.String())
	a := rows["astraea"]
	if a.jain < acceptJain {
		t.Errorf("astraea: Jain %.3f < %.1f", a.jain, acceptJain)
	}
	if a.util < acceptUtil2 {
		t.Errorf("astraea: utilisation %.3f < %.1f", a.util, acceptUtil2)
	}
}
