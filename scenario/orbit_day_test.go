package scenario_test

import (
	"fmt"
	"testing"

	"github.com/leolab/leolab/internal/simtest"
)

// Sydney's per-run minimum RTTs in the real data (../shared/data
// starlink-iperf3 run1_summary.csv and runs2to5_summary.csv, city Sydney,
// min_rtt_us over 164 runs of 300 s): 24.105 to 38.574 ms.
const sydneyMinRTTLoMs, sydneyMinRTTHiMs = 24.105, 38.574

// TestOrbitSydneyRTTOverADay is issue 22's acceptance 1 end to end: a
// Melbourne (Burwood) dish on the Starlink Sydney path with its per-slot
// OWD from the orbit (bent pipe to Sydney over shell 1), one 30 s run at
// every hour of a day: a short CUBIC transfer's minimum RTT stays in the
// range of the real Sydney runs' minimum RTTs, and a light probe's mean
// downlink OWD in half that range (plus the 15 s slot's queueing of a
// 100 kbit/s probe: none to speak of).
func TestOrbitSydneyRTTOverADay(t *testing.T) {
	lo, hi := 1e9, 0.0
	for h := range 24 {
		res := simtest.Run(t, fmt.Sprintf(`version: 1
duration: 30s
epoch_utc: 2026-12-01T%02d:00:03Z
path:
  profile: starlink
  city: sydney
  direction: downlink
  orbit: {from: "-37.85,145.11", to: "-33.87,151.21", mode: bentpipe, policy: highest}
  owd_source: orbit
flows:
  - {cca: cubic, bytes: 20000}
  - {cca: cbr, rate: 100kbps, packet_size: 100, start: 1s}
`, h))
		rtt, owd := res.Flows[0].MinRTTMs, res.Flows[1].MeanOWDMs
		if rtt < sydneyMinRTTLoMs || rtt > sydneyMinRTTHiMs {
			t.Errorf("%02d:00: min RTT %.2f ms outside the real Sydney runs' %.1f..%.1f ms", h, rtt, sydneyMinRTTLoMs, sydneyMinRTTHiMs)
		}
		if owd < sydneyMinRTTLoMs/2 || owd > sydneyMinRTTHiMs/2 {
			t.Errorf("%02d:00: mean downlink OWD %.2f ms outside %.1f..%.1f ms", h, owd, sydneyMinRTTLoMs/2, sydneyMinRTTHiMs/2)
		}
		lo, hi = min(lo, rtt), max(hi, rtt)
	}
	t.Logf("min RTT over 24 hourly runs: %.2f..%.2f ms", lo, hi)
}
