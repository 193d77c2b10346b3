package emu

import (
	"context"
	"fmt"
	"github.com/leolab/leolab/internal/livetest"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// parse builds a scenario from YAML text.
func parse(tb testing.TB, text string) *scenario.Scenario {
	tb.Helper()
	sc, err := scenario.Parse("test.yaml", []byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// liveConfig is what `leolab emu -f` does: the spec, with the Starlink path
// rebuilt on the wall clock.
func liveConfig(tb testing.TB, sc *scenario.Scenario, own bool) (netsim.Spec, RunConfig) {
	tb.Helper()
	spec, err := sc.Spec()
	if err != nil {
		tb.Fatal(err)
	}
	rc, err := FromSpec(spec, SpecOptions{Starlink: sc.Starlink(), OwnTransport: own})
	if err != nil {
		tb.Fatal(err)
	}
	return spec, rc
}

func TestFromSpecMapsFlows(t *testing.T) {
	sc := parse(t, `version: 1
name: m
duration: 10s
path: {profile: starlink, city: sydney, direction: uplink}
flows:
  - {cca: cubic}
  - {cca: bbr1, start: 1s, stop: 5s}
  - {cca: bbr3, params: {}}
  - {cca: cbr, rate: 10Mbps, packet_size: 1000, record: true}
`)
	spec, rc := liveConfig(t, sc, false)
	want := []Flow{
		{Kind: KindTCP, CCA: "cubic", Direction: Uplink},
		{Kind: KindTCP, CCA: "bbr", Direction: Uplink, Start: time.Second, Duration: 4 * time.Second},
		{Kind: KindTransport, CCA: "bbr3", Direction: Uplink},
		{Kind: KindCBR, CCA: "cbr", Direction: Uplink, RateBps: 10e6, Size: 1000, Record: true},
	}
	for i, w := range want {
		g := rc.Flows[i]
		g.Params = nil
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("flow %d: %+v, want %+v", i, g, w)
		}
	}
	if rc.Epoch.IsZero() || time.Since(rc.Epoch) > time.Second || rc.Schedule == nil {
		t.Errorf("starlink run without a wall-clock epoch (%v) or schedule", rc.Epoch)
	}
	if rc.Duration != spec.Duration || rc.Seed != spec.Seed || rc.Path.City != "sydney" || rc.Path.Direction != Uplink {
		t.Errorf("run %+v does not carry the spec's duration, seed and path", rc)
	}
	_, own := liveConfig(t, sc, true)
	if own.Flows[0].Kind != KindTransport || own.Flows[0].CCA != "cubic" || own.Flows[1].CCA != "bbr1" {
		t.Errorf("OwnTransport: flows %+v, want leolab cubic and bbr1", own.Flows[:2])
	}
}

func TestFromSpecDirections(t *testing.T) {
	sc := parse(t, "version: 1\nname: f\nduration: 5s\npath: {profile: fixed, rate: 10Mbps, rtt: 20ms}\nflows: [{cca: reno}]\n")
	for _, dir := range []string{"", Uplink} {
		spec, err := sc.Spec()
		if err != nil {
			t.Fatal(err)
		}
		spec.Direction = dir // a fixed path has none in the file: data flows down
		rc, err := FromSpec(spec, SpecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The forward link (data) must carry the flows' direction. The
		// two builders are distinct closures: compare their code pointers.
		fwd, rev, want := rc.Downlink, rc.Uplink, Downlink
		if dir == Uplink {
			fwd, rev, want = rc.Uplink, rc.Downlink, Uplink
		}
		if fmt.Sprintf("%p", fwd) != fmt.Sprintf("%p", spec.Forward.Build) || fmt.Sprintf("%p", rev) != fmt.Sprintf("%p", spec.Reverse.Build) {
			t.Errorf("direction %q: forward/reverse links not mapped to the data direction", dir)
		}
		if !rc.Epoch.IsZero() || rc.Flows[0].Direction != want {
			t.Errorf("direction %q: fixed path got epoch %v / flow direction %q", dir, rc.Epoch, rc.Flows[0].Direction)
		}
	}
}

func TestFromSpecRejects(t *testing.T) {
	for name, flow := range map[string]string{
		"bytes":         "{cca: cubic, bytes: 1000000}",
		"extra rtt":     "{cca: cubic, extra_rtt: 10ms}",
		"max rate":      "{cca: cubic, max_rate: 5Mbps}",
		"rwnd":          "{cca: cubic, rwnd: 1MiB}",
		"kernel params": "{cca: cubic, params: {hystart: 0}}",
	} {
		spec, err := parse(t, "version: 1\nname: r\nduration: 5s\npath: {profile: fixed, rate: 10Mbps, rtt: 20ms}\nflows: ["+flow+"]\n").Spec()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := FromSpec(spec, SpecOptions{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// liveSeconds is the length of the long live runs: short in CI,
// LEOLAB_LIVE_SECONDS (e.g. 60) by hand.
func liveSeconds(tb testing.TB, ci time.Duration) time.Duration {
	if s := os.Getenv("LEOLAB_LIVE_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			tb.Fatalf("LEOLAB_LIVE_SECONDS=%q: want a positive integer", s)
		}
		return time.Duration(n) * time.Second
	}
	return ci
}

// simFlow runs the scenario on the simulator and returns its first flow.
func simFlow(tb testing.TB, sc *scenario.Scenario) result.Flow {
	tb.Helper()
	return simtest.RunScenario(tb, sc).Flows[0]
}

// simBand runs the spec through the simulator for seeds 1..n and returns
// the flows' min, mean and max throughput and mean retransmissions.
func simBand(tb testing.TB, sc *scenario.Scenario, n int) (lo, mean, hi, retrans float64) {
	tb.Helper()
	lo = math.Inf(1)
	for seed := 1; seed <= n; seed++ {
		sc.Seed = uint64(seed)
		f := simFlow(tb, sc)
		lo, hi = min(lo, f.ThroughputMbps), max(hi, f.ThroughputMbps)
		mean += f.ThroughputMbps / float64(n)
		retrans += float64(f.Retransmits) / float64(n)
	}
	return lo, mean, hi, retrans
}

func live(tb testing.TB, rc RunConfig) *result.Result {
	tb.Helper()
	res, err := Run(context.Background(), rc)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

func oneFlow(cca string, dur time.Duration, path string) string {
	return fmt.Sprintf("version: 1\nname: %s\nduration: %v\npath: %s\nflows: [{cca: %s}]\n", cca, dur, path, cca)
}

const sydneyDown = "{profile: starlink, city: sydney, direction: downlink}"

// Acceptance 5 of issue 7: leolab's own transport with BBRv3 and CUBIC
// runs live on the Starlink Sydney downlink. Plausible throughput: within
// the simulator's range over five seeds of the same scenario, widened by
// half on each side (the live run has its own UTC epoch, slot draws and
// host timing). 20 s in CI; LEOLAB_LIVE_SECONDS=60 for the full run.
func TestLiveTransportStarlink(t *testing.T) {
	needEmu(t)
	dur := liveSeconds(t, 20*time.Second)
	for _, cca := range []string{"bbr3", "cubic"} {
		t.Run(cca, func(t *testing.T) {
			sc := parse(t, oneFlow(cca, dur, sydneyDown))
			lo, mean, hi, _ := simBand(t, sc, 5)
			// The pump kept off its CPU longer than maxTransportStall
			// (a loaded host: release p99 11.7 ms, bbr3 at 96 Mbit/s
			// against the model's 209–280) shows the sender an RTT
			// spike and a burst of late deliveries the simulated band
			// does not hold: such a failed run is repeated, and after
			// three the test skips.
			livetest.Repeat(t, func(a *livetest.Attempt) {
				_, rc := liveConfig(t, sc, true)
				res := live(t, rc)
				f := res.Flows[0]
				gap := time.Duration(res.Instrument["pump_gap_max_us"]) * time.Microsecond
				a.Stall("pump gap max", gap, maxTransportStall)
				t.Logf("run %d: live leolab %s over UDP, %v: %.1f Mbit/s, %d retrans, %d RTOs, RTT min/mean/p95 %.1f/%.1f/%.1f ms; sim %.1f–%.1f (mean %.1f); pump release p99 %.0f µs, gap max %v",
					a.N, cca, dur, f.ThroughputMbps, f.Retransmits, f.RTOs, f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs, lo, hi, mean, res.Instrument["release_err_p99_us"], gap)
				if f.CCA != cca || len(f.Intervals) < int(dur/time.Second)-1 {
					t.Errorf("flow %q with %d intervals", f.CCA, len(f.Intervals))
				}
				if f.ThroughputMbps < 0.5*lo || f.ThroughputMbps > 1.5*hi {
					a.Errorf("%.1f Mbit/s outside [%.1f, %.1f] (half the simulator's range around it)", f.ThroughputMbps, 0.5*lo, 1.5*hi)
				}
				// The path's idle RTT is 26 ms (DESIGN.md: Sydney); a
				// working transport sees it, plus at most a TDMA frame
				// each way.
				if f.MinRTTMs < 25 || f.MinRTTMs > 30 {
					a.Errorf("min RTT %.1f ms, want the idle 26 ms path", f.MinRTTMs)
				}
			})
		})
	}
}

// maxTransportStall is the longest pump gap a live transport run's
// throughput check tolerates: a fifth of the 26 ms Sydney RTT, beyond
// which the stall is a visible RTT spike to the sender (on a quiet 2-core
// VM gaps are 1–8 ms, a few per 10 s: gaps.go).
const maxTransportStall = 5 * time.Millisecond

// compareRow is one line of the kernel-vs-model table.
type compareRow struct {
	path, sim, kernel                  string
	simMbps, liveMbps, simRtx, liveRtx float64
}

func (r compareRow) String() string {
	return fmt.Sprintf("%-8s %-6s %7.1f | %-6s %7.1f  (%+5.1f%%) | retrans sim %7.0f emu %7.0f (%+5.1f%%)",
		r.path, r.sim, r.simMbps, r.kernel, r.liveMbps, 100*(r.liveMbps/r.simMbps-1), r.simRtx, r.liveRtx, 100*(r.liveRtx/max(r.simRtx, 1)-1))
}

// kernelVsSim runs the kernel's cca through emu runs times on the path
// and leolab's through sim, and returns the means. On a fixed path the sim
// side is seeds seeds; on Starlink each live run (seed 1, 2, ...) has a
// simulator twin with its seed and epoch_utc, which sees the same slots
// (rates, delays, reconfiguration times), so the live run's draw of slots
// does not weigh on the comparison.
// retransAgree is acceptance 3's retransmission band: within ±25 % of the
// model's, and at least ±3 segments.
func retransAgree(live, sim float64) bool {
	return math.Abs(live-sim) <= max(0.25*sim, 3)
}

func kernelVsSim(t *testing.T, name, path, cca string, dur time.Duration, seeds, runs int) compareRow {
	sc := parse(t, oneFlow(cca, dur, path))
	row := compareRow{path: name, sim: cca}
	paired := sc.Starlink() != nil
	if !paired {
		_, row.simMbps, _, row.simRtx = simBand(t, sc, seeds)
	}
	for i := range runs {
		sc.Seed, sc.EpochUTC = uint64(i+1), time.Time{}
		_, rc := liveConfig(t, sc, false)
		res := live(t, rc)
		f := res.Flows[0]
		// On the fixed path neither engine should time out: the model's
		// seeds never do. A kernel RTO there (seen once in ~20 runs on a
		// loaded host: 848 retransmissions like the model's, but 67 Mbit/s)
		// idles the link for seconds of a 10 s run. Such a run is
		// repeated, twice at most; a real recovery bug fails all three.
		//
		// So is a run whose retransmissions miss the model's band while the
		// host held the pump off its CPU (pump gaps over 1 ms): the TUN
		// device's queue, not the model, then took the sender's startup
		// burst (fresh-clone CI runs under the full suite: kernel cubic 303
		// and 60 against the model's 45, bbr 1239 against 884; alone, the
		// same runs agree). A run without a gap, or a systematic
		// difference, still fails.
		stalledMiss := func() bool {
			return res.Instrument["pump_gaps"] > 0 && !retransAgree(float64(f.Retransmits), row.simRtx)
		}
		for attempt := 1; !paired && (f.RTOs > 0 || stalledMiss()) && attempt < livetest.Tries; attempt++ {
			t.Logf("%s run %d: kernel %s %.1f Mbit/s, %d retrans, %d RTOs, %.0f pump gaps (longest %.0f µs): repeating",
				name, i+1, f.CCA, f.ThroughputMbps, f.Retransmits, f.RTOs, res.Instrument["pump_gaps"], res.Instrument["pump_gap_max_us"])
			_, rc = liveConfig(t, sc, false) // a run consumes its config's recorders
			res = live(t, rc)
			f = res.Flows[0]
		}
		if !paired && stalledMiss() {
			t.Skipf("skipping: %s run %d missed the model's retransmissions with the pump kept off its CPU in each of %d runs (the last: kernel %s %d retrans vs %.0f, %.0f pump gaps, longest %.0f µs)",
				name, i+1, livetest.Tries, f.CCA, f.Retransmits, row.simRtx, res.Instrument["pump_gaps"], res.Instrument["pump_gap_max_us"])
		}
		row.kernel = f.CCA
		row.liveMbps += f.ThroughputMbps / float64(runs)
		row.liveRtx += float64(f.Retransmits) / float64(runs)
		if !paired {
			t.Logf("%s run %d: kernel %s %.1f Mbit/s %d retrans %d RTOs, RTT %.1f ms; pump release max %.0f µs",
				name, i+1, f.CCA, f.ThroughputMbps, f.Retransmits, f.RTOs, f.MeanRTTMs, res.Instrument["release_err_max_us"])
			continue
		}
		epoch, err := time.Parse(time.RFC3339Nano, res.EpochUTC)
		if err != nil {
			t.Fatalf("live result's epoch_utc: %v", err)
		}
		sc.EpochUTC = epoch
		s := simFlow(t, sc)
		row.simMbps += s.ThroughputMbps / float64(runs)
		row.simRtx += float64(s.Retransmits) / float64(runs)
		t.Logf("%s seed %d at %s: kernel %s %.1f Mbit/s %d retrans, RTT %.1f ms | sim %s %.1f Mbit/s %d retrans, RTT %.1f ms",
			name, sc.Seed, res.EpochUTC, f.CCA, f.ThroughputMbps, f.Retransmits, f.MeanRTTMs, cca, s.ThroughputMbps, s.Retransmits, s.MeanRTTMs)
	}
	return row
}

// Acceptance 3 of issue 7: kernel cubic, reno and bbr through emu against
// leolab cubic, reno and bbr1 through sim: mean throughput within ±15% and
// retransmissions within ±25% (at least ±3 segments: CUBIC's HyStart exit
// loses ~50). Both run with the scenario's send buffer (the default 16 MiB;
// emu sets it as the kernel's tcp_wmem maximum). CI runs the fixed 100
// Mbit/s, 50 ms, 1-BDP path for 10 s (its retransmissions are all in the
// startup overshoot), one live run and five simulator seeds per algorithm;
// LEOLAB_LIVE_SECONDS and LEOLAB_LIVE_RUNS widen it. LEOLAB_COMPARE_STARLINK=1
// adds the Starlink Sydney downlink, each live run against its simulator
// twin (same seed and epoch, so the same slots); run it for 30 s with 10
// live runs or more: a run's BBR retransmissions are 0.6 to 1.5 times its
// twin's (continuous AQM loss at a standing queue whose onset differs from
// run to run), so 10 runs pin the mean to about ±7% (one standard error).
// Two batches of 10 gave +8% and −5%. Before transport's sender ended a
// TSO burst where the windows stop it (endBurst) the mean was +21% to
// +31%: every ACK of a frame batch reached bbr1 at one instant and a
// window-limited sender kept retransmitting into its open burst; later
// ACKs of the same batch SACKed those segments' originals, each ending a
// BBR round, so after a reconfiguration ten rounds passed within a few
// frames and the max-bw filter forgot the bandwidth that the kernel
// keeps. The kernel's mean RTT is still about 8 ms above its twin's (48
// vs 40 ms): its queue stands longer, which this test does not bound.
func TestKernelVsSim(t *testing.T) {
	needEmu(t)
	dur := liveSeconds(t, 10*time.Second)
	runs := 1
	if s := os.Getenv("LEOLAB_LIVE_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
		runs = max(runs, 1)
	}
	paths := [][2]string{{"fixed", "{profile: fixed, rate: 100Mbps, rtt: 50ms, queue: {limit_packets: 417}}"}}
	if os.Getenv("LEOLAB_COMPARE_STARLINK") != "" {
		paths = append(paths, [2]string{"sydney", sydneyDown})
	}
	var table []string
	for _, p := range paths {
		for _, cca := range []string{"cubic", "reno", "bbr1"} {
			// One subtest per row: a row the host keeps from measuring
			// skips on its own, the others still count.
			t.Run(p[0]+"/"+cca, func(t *testing.T) {
				row := kernelVsSim(t, p[0], p[1], cca, dur, 5, runs)
				table = append(table, row.String())
				if math.Abs(row.liveMbps/row.simMbps-1) > 0.15 {
					t.Errorf("%s: kernel %s %.1f Mbit/s vs sim %s %.1f: more than 15%% apart", p[0], row.kernel, row.liveMbps, cca, row.simMbps)
				}
				if !retransAgree(row.liveRtx, row.simRtx) {
					t.Errorf("%s: kernel %s %.0f retransmissions vs sim %s %.0f: more than 25%% apart", p[0], row.kernel, row.liveRtx, cca, row.simRtx)
				}
			})
		}
	}
	t.Logf("kernel (emu) vs model (sim), %v runs:\n%s", dur, strings.Join(table, "\n"))
}

// The simulator-only path fields (netsim.Spec.SimOnly: path.loss_model,
// path.orbit, path.owd_source) are refused, naming the field, before
// anything is set up.
func TestFromSpecRefusesSimOnly(t *testing.T) {
	for name, path := range map[string]string{
		"fixed":    `{profile: fixed, rate: 10Mbps, rtt: 20ms, orbit: {from: "-37.85,145.11", to: "-33.87,151.21"}, loss_model: {kind: ptot, p_cap: 0.01}}`,
		"starlink": `{profile: starlink, orbit: {from: "-37.85,145.11", to: "-33.87,151.21"}, owd_source: orbit}`,
	} {
		sc := parse(t, "version: 1\nname: r\nduration: 5s\npath: "+path+"\nflows: [{cca: cubic}]\n")
		spec, err := sc.Spec()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = FromSpec(spec, SpecOptions{Starlink: sc.Starlink()})
		if err == nil || !strings.Contains(err.Error(), "(line 4): path.loss_model, path.orbit and path.owd_source run on the simulator only") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
