package scenario_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

const leoemBP = "../examples/seed002/leoem/Starlink_SD_NY_15_BP_path.log"

// leoemLine is one second of the path file, read here independently of
// link/schedule: the total delay, whether the second is NULL, and the node
// list as written.
type leoemLine struct {
	owd   float64
	null  bool
	nodes string
}

func readLeoEM(t *testing.T, file string) []leoemLine {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []leoemLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "$")
		if len(fs) == 2 {
			out = append(out, leoemLine{null: true})
			continue
		}
		owd, err := strconv.ParseFloat(fs[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, leoemLine{owd: owd, nodes: fs[1]})
	}
	return out
}

// scenarioIn writes text as a scenario file in the test's directory tree
// (so that its delay_file resolves against it) and loads it.
// scenarioIn loads text as a scenario file whose relative leoem/ paths
// point into dir. The file itself goes to a temporary directory, so the
// tests never write into the source tree.
func scenarioIn(t *testing.T, dir, text string) *scenario.Scenario {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	text = strings.ReplaceAll(text, "leoem/", filepath.Join(abs, "leoem")+"/")
	file := filepath.Join(t.TempDir(), "test.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func runScenario(t *testing.T, sc *scenario.Scenario) (netsim.Spec, *result.Result) {
	t.Helper()
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	return spec, res
}

// Acceptance 4 of issue 19 (sim): LeoEM's SD→NY path replayed from second
// 990 of the orbit for 40 s, probed every 1 ms with 125-byte packets on a
// 1 Gbit/s link (1 µs of serialisation). Every probe's one-way delay is the
// file's total for the second it was sent in, plus the serialisation:
// within ±0.1 ms per second (the median), and per packet never below it
// and above it only by a delay drop at that second's start (the order
// rule). The NULL seconds (lines 998–1001: run seconds 7–10) lose every
// packet sent in them and no other second loses any. The run's schedule is
// the file's route changes in run time.
func TestLeoEMReplayDelaysAndHandovers(t *testing.T) {
	const offset, dur = 990, 40
	lines := readLeoEM(t, leoemBP)
	sc := scenarioIn(t, "../examples/seed002", `version: 1
name: leoem-replay
duration: 40s
path:
  profile: fixed
  rate: 1Gbps
  delay_file: {file: leoem/Starlink_SD_NY_15_BP_path.log, offset: 990s}
flows:
  - {cca: cbr, rate: 1Mbps, packet_size: 125, record: true}
`)
	spec, res := runScenario(t, sc)
	const tx = 1e-3 // ms: 125 B at 1 Gbit/s
	checked, got := checkReplay(t, spec, res, lines, offset, dur, 0, tx)
	if checked != dur-4 {
		t.Errorf("%d seconds checked, want %d", checked, dur-4)
	}
	t.Logf("%d seconds within ±0.1 ms; handovers at %v", checked, got)
}

// With handover_error the schedule is the file's instants each moved by a
// LeoEM prediction error (at most 1.58 s either way), the same for the same
// seed and different for another.
func TestLeoEMHandoverError(t *testing.T) {
	text := func(seed int) string {
		return `version: 1
name: leoem-predicted
duration: 300s
seed: ` + strconv.Itoa(seed) + `
path:
  profile: fixed
  rate: 10Mbps
  delay_file: {file: leoem/Starlink_SD_NY_15_BP_path.log, handover_error: leoem/timing_err_ecdf.dat}
flows: [{cca: satcp}]
`
	}
	list := func(sc *scenario.Scenario) []time.Duration {
		spec, err := sc.Spec()
		if err != nil {
			t.Fatal(err)
		}
		var out []time.Duration
		for t0 := spec.Schedule.Next(0); t0 >= 0 && t0 < 300*time.Second; t0 = spec.Schedule.Next(t0 + 1) {
			out = append(out, t0)
		}
		return out
	}
	truth := list(scenarioIn(t, "../examples/seed002", strings.Replace(text(1), ", handover_error: leoem/timing_err_ecdf.dat", "", 1)))
	a := list(scenarioIn(t, "../examples/seed002", text(1)))
	b := list(scenarioIn(t, "../examples/seed002", text(1)))
	c := list(scenarioIn(t, "../examples/seed002", text(2)))
	if !slices.Equal(a, b) || slices.Equal(a, c) || slices.Equal(a, truth) {
		t.Fatalf("seed 1 twice equal %v, seed 2 differs %v, differs from the truth %v", slices.Equal(a, b), !slices.Equal(a, c), !slices.Equal(a, truth))
	}
	// Every predicted instant is within 1.5794 s (the ECDF's largest
	// error) of a true one.
	for _, p := range a {
		near := false
		for _, h := range truth {
			if d := (p - h).Seconds(); math.Abs(d) <= 1.5795 {
				near = true
			}
		}
		if !near {
			t.Errorf("predicted handover %v is not within 1.58 s of a true one", p)
		}
	}
	if math.Abs(float64(len(a)-len(truth))) > 2 { // the ends of the window may gain or lose one
		t.Errorf("%d predicted handovers, %d true", len(a), len(truth))
	}
}

// Acceptance 3 (delay schedules keep order), with TCP: a flow with 1 MiB
// of send buffer (~700 packets, less than the 1000-packet queue plus the
// path) fills a 20 Mbit/s link while the RTT drops from 200 ms to 20 ms at
// 10 s. The queue never overflows, so a retransmission could only be the
// change's doing (a reordering makes RACK and dupACKs retransmit): none,
// no link drop, and the flow keeps the link busy after the drop.
func TestDelayDropUnderTCPLoadLosesNothing(t *testing.T) {
	res := simtest.Run(t, `version: 1
name: rtt-drop-tcp
duration: 20s
path:
  profile: fixed
  rate: 20Mbps
  rtt: 200ms
  queue: {limit_packets: 1000}
  schedule: [{at: 10s, rtt: 20ms}]
flows:
  - {cca: cubic, sndbuf: 1MiB}
`)
	tcp := res.Flows[0]
	if tcp.Retransmits != 0 {
		t.Errorf("%d retransmissions: the delay drop caused losses or reordering", tcp.Retransmits)
	}
	for _, l := range res.Links {
		if d := l.Drops; d.Head+d.Tail+d.AQM+d.Random+d.Outage+d.Policer != 0 {
			t.Errorf("link %s dropped %+v", l.Name, d)
		}
	}
	// Goodput over 11–20 s: the link's 20 Mbit/s less headers (1448 of
	// 1500 bytes) within 5 %: the change did not stall the flow.
	var bytes int64
	for _, iv := range tcp.Intervals {
		if iv.T > 11 && iv.T <= 20 {
			bytes += iv.Bytes
		}
	}
	want := 20 * 1448.0 / 1500
	if mbps := float64(bytes) * 8 / 9 / 1e6; math.Abs(mbps-want) > 0.05*want {
		t.Errorf("tcp after the drop %.2f Mbit/s, want %.2f within 5%%", mbps, want)
	}
}

// The same drop seen packet by packet: a 15 Mbit/s CBR (1500 B, 0.8 ms
// apart; 0.6 ms of serialisation, so no standing queue) across the drop
// from 100 ms to 10 ms one way at 10 s. Every packet arrives, in sending
// order; before the drop each takes 100 ms + 0.6 ms; those entering the
// line in the 90 ms after it leave back to back (0.8 ms apart, as sent:
// they queue behind the last one on the long path, at 10.1006 s), and from
// then on each takes 10 ms + 0.6 ms.
func TestDelayDropKeepsProbeOrder(t *testing.T) {
	res := simtest.Run(t, `version: 1
name: rtt-drop-cbr
duration: 12s
path:
  profile: fixed
  rate: 20Mbps
  rtt: 200ms
  schedule: [{at: 10s, rtt: 20ms}]
flows:
  - {cca: cbr, rate: 15Mbps, packet_size: 1500, record: true}
`)
	const tx = 0.6 // ms
	last := 0.0
	held := 0
	for _, p := range res.Flows[0].Packets {
		if p.OWDMs < 0 {
			t.Fatalf("packet %d lost", p.Seq)
		}
		if p.OWDMs == 0 {
			continue
		}
		arr := p.SentS + p.OWDMs/1e3
		if arr < last-1e-9 {
			t.Fatalf("packet %d arrived at %.6fs before the previous one at %.6fs", p.Seq, arr, last)
		}
		last = arr
		enter := p.SentS + tx/1e3 // when it enters the delay line
		var want float64
		switch {
		case enter < 10:
			want = 100 + tx
		case enter < 10.09:
			want = (10.1 + tx/1e3 - p.SentS) * 1e3 // behind the last long-path packet, at most
			held++
			if p.OWDMs > want+1e-5 || p.OWDMs < 10+tx-1e-5 {
				t.Fatalf("packet sent %.4fs: owd %.4f ms, want in [%.1f, %.4f]", p.SentS, p.OWDMs, 10+tx, want)
			}
			continue
		default:
			want = 10 + tx
		}
		if math.Abs(p.OWDMs-want) > 1e-5 {
			t.Fatalf("packet sent %.4fs: owd %.5f ms, want %.5f", p.SentS, p.OWDMs, want)
		}
	}
	if held < 100 || held > 115 { // 90 ms / 0.8 ms = 112 packets
		t.Errorf("%d packets in the 90 ms after the drop, want ~112", held)
	}
}

// Rate schedules: a 50 Mbit/s CBR offered to a link that steps 30 → 10
// Mbit/s at 5 s and ramps 10 → 40 Mbit/s over 10–20 s, with no delay: each
// second the link delivers the integral of its rate over that second (the
// offer exceeds the rate throughout, so the queue stays backlogged), to
// within one packet: 1500 B per interval. The link's
// rate series reads the schedule.
func TestRateScheduleSeenByCBR(t *testing.T) {
	res := simtest.Run(t, `version: 1
name: rate-steps
duration: 25s
path:
  profile: fixed
  rate: 30Mbps
  queue: {limit_packets: 100000}
  schedule:
    - {at: 5s, rate: 10Mbps}
    - {at: 10s, ramp: 10s, rate: 40Mbps}
flows:
  - {cca: cbr, rate: 50Mbps, packet_size: 1500}
`)
	rate := func(t float64) float64 { // Mbit/s
		switch {
		case t < 5:
			return 30
		case t < 10:
			return 10
		case t < 20:
			return 10 + 3*(t-10)
		}
		return 40
	}
	var fwd = res.Links[0]
	for _, iv := range fwd.Intervals {
		from := iv.T - 1
		if from < 0.5 { // the first packet's start
			continue
		}
		want := 0.0 // bytes: the rate's integral over [from, T), by midpoints (exact for linear pieces)
		for i := range 1000 {
			want += rate(from+(float64(i)+0.5)/1000) * 1e6 / 8 / 1000
		}
		if d := float64(iv.DeliveredBytes) - want; math.Abs(d) > 1500 {
			t.Errorf("[%g, %g) s: delivered %d bytes, want %.0f ± 1500", from, iv.T, iv.DeliveredBytes, want)
		}
		if math.Abs(iv.AllocMbps-rate(iv.T)) > 1e-6 {
			t.Errorf("t=%g: link rate %g Mbit/s, want %g", iv.T, iv.AllocMbps, rate(iv.T))
		}
	}
}

// A TCP flow sees a rate step within its own reaction time: CUBIC on
// 100 → 20 Mbit/s at 20 s (50 ms, 1-BDP queue at 100) delivers 20 Mbit/s
// within 5 % over 25–40 s (a 1-BDP queue at 20 Mbit/s keeps the link
// busy through CUBIC's backoffs: β = 0.7 empties a queue of 0.3 cwnd only),
// and at least 90 % of 100 Mbit/s before the step (5–20 s).
func TestRateStepSeenByTCP(t *testing.T) {
	res := simtest.Run(t, `version: 1
name: rate-step-tcp
duration: 40s
path:
  profile: fixed
  rate: 100Mbps
  rtt: 50ms
  queue: {limit_packets: 417}
  schedule: [{at: 20s, rate: 20Mbps}]
flows: [{cca: cubic}]
`)
	mean := func(from, to float64) float64 {
		var b int64
		for _, iv := range res.Flows[0].Intervals {
			if iv.T > from && iv.T <= to {
				b += iv.Bytes
			}
		}
		return float64(b) * 8 / (to - from) / 1e6
	}
	if before := mean(5, 20); before < 90 {
		t.Errorf("before the step %.1f Mbit/s, want >= 90", before)
	}
	if after := mean(25, 40); math.Abs(after-20) > 1 {
		t.Errorf("after the step %.1f Mbit/s, want 20 ± 5%%", after)
	}
}

// With handover_outage the replay adds LeoEM's handover interruptions: a
// 1 ms probe loses exactly the packets that reach the delay line (1 µs
// after sending) while the path is down, NULL seconds and interruptions,
// and no other.
func TestLeoEMHandoverOutage(t *testing.T) {
	sc := scenarioIn(t, "../examples/seed002", `version: 1
name: leoem-interruptions
duration: 120s
path:
  profile: fixed
  rate: 1Gbps
  delay_file: {file: leoem/Starlink_SD_NY_15_BP_path.log, offset: 900s, handover_outage: true}
flows:
  - {cca: cbr, rate: 1Mbps, packet_size: 125}
`)
	pl := sc.PathLog()
	down := func(at time.Duration) bool {
		k := 900 + int(at/time.Second)
		within := at % time.Second
		return pl.Down[k] || within < pl.Interruption[k]
	}
	want, cuts := 0, 0
	for ms := range 120000 {
		if down(time.Duration(ms)*time.Millisecond + time.Microsecond) {
			want++
		}
	}
	for k := 900; k < 1020; k++ {
		if pl.Interruption[k] > 0 {
			cuts++
		}
	}
	_, res := runScenario(t, sc)
	f := res.Flows[0]
	if cuts == 0 || f.LostPackets != int64(want) || res.Links[0].Drops.Outage != int64(want) {
		t.Errorf("%d interruptions: %d probes lost (%d outage drops), want %d", cuts, f.LostPackets, res.Links[0].Drops.Outage, want)
	}
	t.Logf("%d interruptions and 4 NULL seconds: %d probes lost", cuts, f.LostPackets)
}

// SaTCP reads the replayed path's handovers: over 60 s of the SD→NY path
// its warning flag (sampled every 100 ms) is up only within its window
// [h − 0.5 s, h − 0.5 s + 2.3 s] of some handover h of the file (lead_s and
// duration_s defaults, cc/satcp), and it is up at some point.
func TestSaTCPSeesReplayedHandovers(t *testing.T) {
	sc := scenarioIn(t, "../examples/seed002", `version: 1
name: satcp-leoem
duration: 60s
interval: 100ms
path:
  profile: fixed
  rate: 50Mbps
  queue: {limit_packets: 1000}
  delay_file: {file: leoem/Starlink_SD_NY_15_BP_path.log, offset: 900s}
flows: [{cca: satcp}]
`)
	spec, res := runScenario(t, sc)
	var hs []float64
	for h := spec.Schedule.Next(0); h >= 0 && h < 61*time.Second; h = spec.Schedule.Next(h + 1) {
		hs = append(hs, h.Seconds())
	}
	up := 0
	for _, iv := range res.Flows[0].Intervals {
		if iv.CC["warned"] != 1 {
			continue
		}
		up++
		ok := false
		for _, h := range hs {
			if iv.T >= h-0.5-0.1 && iv.T <= h-0.5+2.3+0.1 { // ± one sample
				ok = true
			}
		}
		if !ok {
			t.Errorf("warned at %.1fs, not within a handover's window (handovers %v)", iv.T, hs)
		}
	}
	if up == 0 || len(hs) == 0 {
		t.Errorf("warned in %d samples with %d handovers", up, len(hs))
	}
	t.Logf("%d handovers, warned in %d of %d samples", len(hs), up, len(res.Flows[0].Intervals))
}

// checkReplay checks a 1 ms probe (flow 0, 125-byte packets) over a link
// replaying LeoEM's file from line offset for dur seconds. A probe reaches
// the replaying stage reach seconds after it is sent, and fixed ms of
// one-way delay besides the file's are on its path. Per packet: never
// below the file's delay + fixed, above it only by the order rule's hold
// where the file's delay falls, lost in the NULL seconds and nowhere else;
// arrivals in send order; per second the median within ±0.1 ms; the
// schedule's handovers are the file's route changes. It returns the
// seconds checked and the handovers.
func checkReplay(t *testing.T, spec netsim.Spec, res *result.Result, lines []leoemLine, offset, dur int, reach, fixed float64) (int, []time.Duration) {
	t.Helper()
	perSecond := make([][]float64, dur)
	for _, p := range res.Flows[0].Packets {
		k := int(p.SentS + reach)
		if k >= dur || p.OWDMs == 0 { // still in flight at the end
			continue
		}
		line := lines[offset+k]
		if line.null {
			if p.OWDMs != -1 {
				t.Fatalf("packet sent %.3fs, at the replaying link in NULL second %d, delivered (%.3f ms)", p.SentS, offset+k+1, p.OWDMs)
			}
			continue
		}
		if p.OWDMs < 0 {
			t.Fatalf("packet sent %.3fs lost outside the NULL seconds", p.SentS)
		}
		want := line.owd*1e3 + fixed
		slack := 1e-5 // ms: ns rounding
		if k > 0 && !lines[offset+k-1].null && lines[offset+k-1].owd > line.owd {
			slack += (lines[offset+k-1].owd - line.owd) * 1e3 // held behind the last packet of the longer delay
		}
		if p.OWDMs < want-1e-5 || p.OWDMs > want+slack {
			t.Fatalf("packet sent %.3fs: owd %.6f ms, want %.6f (+%.6f)", p.SentS, p.OWDMs, want, slack)
		}
		perSecond[k] = append(perSecond[k], p.OWDMs)
	}
	// Order: where the file's delay falls, the delay stage holds packets
	// behind the last one of the longer delay, so arrivals keep send order.
	last := -1.0
	for _, p := range res.Flows[0].Packets {
		if p.OWDMs <= 0 {
			continue
		}
		at := p.SentS*1e3 + p.OWDMs
		if at < last-1e-6 {
			t.Fatalf("packet sent %.3fs arrives at %.6f ms, before an earlier one (%.6f ms): reordered", p.SentS, at, last)
		}
		last = at
	}
	checked := 0
	for k, owds := range perSecond {
		if lines[offset+k].null {
			continue
		}
		slices.Sort(owds)
		if len(owds) < 900 { // 1000 sent; the last second's last ~30 ms are in flight at the end
			t.Fatalf("second %d: %d probes delivered, want ~1000", k, len(owds))
		}
		med := owds[len(owds)/2]
		if d := med - (lines[offset+k].owd*1e3 + fixed); math.Abs(d) > 0.1 {
			t.Errorf("second %d: median owd %.4f ms, want file %.4f + %.3f ms (±0.1 ms)", k, med, lines[offset+k].owd*1e3, fixed)
		}
		checked++
	}
	// Handovers: each second whose node list differs from the last
	// second's, or the first route after a NULL one.
	var want []time.Duration
	for k := 1; k < dur; k++ {
		cur, prev := lines[offset+k], lines[offset+k-1]
		if !cur.null && (prev.null || cur.nodes != prev.nodes) {
			want = append(want, time.Duration(k)*time.Second)
		}
	}
	var got []time.Duration
	for t0 := spec.Schedule.Next(0); t0 >= 0 && t0 < time.Duration(dur)*time.Second; t0 = spec.Schedule.Next(t0 + 1) {
		got = append(got, t0)
	}
	if len(want) < 3 || !slices.Equal(got, want) {
		t.Errorf("handovers %v, want the file's %v", got, want)
	}
	return checked, got
}
