package sage_test

import (
	"fmt"
	"strings"
	"testing"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/cc/cctest"
	lsage "github.com/leolab/leolab/learn/sage"
)

// Issue 23, acceptance 1 for Sage: on dumbbells drawn from the pool's
// distribution with held-out seeds (the pool draws from seed 1, these
// from acceptSeed), the registered sage (the embedded policy) uses at
// least 80 % of the link on average, with a mean queueing delay at most
// CUBIC's on the same links and under half the mean base RTT: Sage's
// reward discounts throughput by min_rtt/rtt once the RTT exceeds
// 1.25·min_rtt (sage.cc, rtt_rate < 0.8), so a policy that learned it
// keeps less queue than CUBIC, which fills the buffer. Measured with the
// embedded policy: sage 0.927 utilisation, 2.8 ms queueing; cubic 0.830,
// 60.9 ms; bbr3 0.899, 10.0 ms (mean base RTT 72 ms).
const (
	acceptSeed     = 9001
	acceptEpisodes = 16
	acceptUtil     = 0.80
	acceptQueueRTT = 0.5
)

type accRow struct{ util, queueMs float64 }

func TestSageAcceptance(t *testing.T) {
	d := lsage.PoolDist()
	ccas := []string{"sage", "cubic", "bbr3"}
	sum := map[string]*accRow{}
	for _, c := range ccas {
		sum[c] = &accRow{}
	}
	var tab strings.Builder
	fmt.Fprintf(&tab, "%-3s %6s %5s %5s %7s  %-6s %6s %8s\n", "ep", "Mbit/s", "rtt", "BDP", "loss%", "cca", "util", "queue_ms")
	baseSum := 0.0
	for i := range acceptEpisodes {
		ep := d.Draw(acceptSeed, i)
		baseSum += float64(ep.RTT.Milliseconds())
		for _, c := range ccas {
			res, _, err := cctest.RunYAML(ep.YAML(c))
			if err != nil {
				t.Fatal(err)
			}
			f := res.Flows[0]
			u, q := f.ThroughputMbps/ep.RateMbps, f.MeanRTTMs-f.MinRTTMs
			sum[c].util += u / acceptEpisodes
			sum[c].queueMs += q / acceptEpisodes
			fmt.Fprintf(&tab, "%-3d %6.1f %5v %5.2f %7.4f  %-6s %6.3f %8.1f\n", i, ep.RateMbps, ep.RTT, ep.BDPs(), 100*ep.Loss, c, u, q)
		}
	}
	base := baseSum / acceptEpisodes
	fmt.Fprintf(&tab, "mean (base RTT %.1f ms):\n", base)
	for _, c := range ccas {
		fmt.Fprintf(&tab, "  %-6s utilisation %.3f, queueing delay %.1f ms\n", c, sum[c].util, sum[c].queueMs)
	}
	t.Log("\n" + tab.String())
	s := sum["sage"]
	if s.util < acceptUtil {
		t.Errorf("sage: mean utilisation %.3f < %.2f", s.util, acceptUtil)
	}
	if s.queueMs > sum["cubic"].queueMs || s.queueMs > acceptQueueRTT*base {
		t.Errorf("sage: mean queueing delay %.1f ms: want ≤ cubic's %.1f ms and ≤ %.0f%% of the mean base RTT %.1f ms",
			s.queueMs, sum["cubic"].queueMs, 100*acceptQueueRTT, base)
	}
}
