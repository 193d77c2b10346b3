package scenario_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/scenario"
)

// chainDelayFile is a two-link chain: a fixed 20 ms link (10 ms each way)
// then a link replaying LeoEM's SD→NY path from second 990 for 40 s, both
// at 1 Gbit/s; a 1 ms probe of 125-byte packets crosses both.
const chainDelayFile = `version: 1
name: chain-delay-file
duration: 40s
links:
  - {name: access, from: a, to: b, rate: 1Gbps, rtt: 20ms}
  - name: leo
    from: b
    to: c
    rate: 1Gbps
    delay_file: {file: leoem/Starlink_SD_NY_15_BP_path.log, offset: 990s}
flows:
  - {cca: cbr, rate: 1Mbps, packet_size: 125, record: true, path: [access, leo]}
`

// Issue 19, links[i].delay_file: per second, the probe's one-way delay is
// the file's for that second plus the first link's fixed 10 ms plus two
// serialisations (1 µs each at 1 Gbit/s), the median within ±0.1 ms as
// for path.delay_file (TestLeoEMReplayDelaysAndHandovers); per packet never
// below it and above it only by the order rule's hold at a second where
// the file's delay falls. The NULL seconds (run seconds 7–10) lose every
// probe and no other second loses any; the run's handover schedule is the
// file's route changes, since the one flow crosses the link.
func TestLinkDelayFileChain(t *testing.T) {
	const offset, dur = 990, 40
	lines := readLeoEM(t, leoemBP)
	sc := scenarioIn(t, "../examples/seed002", chainDelayFile)
	spec, res := runScenario(t, sc)
	if !spec.Hops[1].Timed || !spec.Hops[3].Timed || spec.Hops[0].Timed {
		t.Errorf("timed hops: %v %v %v %v, want only leo's two", spec.Hops[0].Timed, spec.Hops[1].Timed, spec.Hops[2].Timed, spec.Hops[3].Timed)
	}
	// base RTT: 20 ms + twice the file's delay at second 990
	if want := 20*time.Millisecond + time.Duration(2*lines[offset].owd*float64(time.Second)); spec.BaseRTT-want > time.Microsecond || want-spec.BaseRTT > time.Microsecond {
		t.Errorf("base RTT %v, want %v", spec.BaseRTT, want)
	}
	const fixed = 10 + 2e-3 // ms: access's one-way delay and two 1 µs serialisations
	// A probe reaches leo's delay stage 10.002 ms after it is sent (a 1 µs
	// serialisation on each link and access's 10 ms): the file's second
	// that applies is the one of that instant.
	const reach = 10.002e-3 // s
	checked, got := checkReplay(t, spec, res, lines, offset, dur, reach, fixed)
	if checked != dur-4 {
		t.Errorf("%d seconds checked, want %d", checked, dur-4)
	}
	if sc.Links[1].PathLog() == nil || sc.Links[0].PathLog() != nil {
		t.Error("PathLog: want leo's file only")
	}
	t.Logf("%d seconds within ±0.1 ms of file + %.3f ms; handovers at %v", checked, fixed, got)
}

// The same run twice is byte-identical, and handovers: false leaves the run
// without a schedule but with the same delays.
func TestLinkDelayFileDeterministic(t *testing.T) {
	sc := scenarioIn(t, "../examples/seed002", chainDelayFile)
	_, a := runScenario(t, sc)
	_, b := runScenario(t, scenarioIn(t, "../examples/seed002", chainDelayFile))
	noHo := scenarioIn(t, "../examples/seed002", strings.Replace(chainDelayFile, "offset: 990s}", "offset: 990s, handovers: false}", 1))
	spec, c := runScenario(t, noHo)
	if spec.Schedule != nil {
		t.Error("handovers: false still gives a schedule")
	}
	pa, pb, pc := a.Flows[0].Packets, b.Flows[0].Packets, c.Flows[0].Packets
	if !slices.Equal(pa, pb) || !slices.Equal(pa, pc) || len(pa) < 39000 {
		t.Errorf("probe records differ between identical runs (%d, %d, %d packets)", len(pa), len(pb), len(pc))
	}
}

// Bad links[i].delay_file input: one error naming the scenario file, the
// line, the field and what is allowed; and the handover rules (one link
// gives the run's schedule; every flow crosses it on every path).
func TestLinkDelayFileBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.log")
	if err := os.WriteFile(bad, []byte("1$[-1, 5, -2]$3$[0.01, 0.02]$0.03\n2$[-1, 5, -2]$3$[0.01, 0.02]$0.07\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bp, err := filepath.Abs(leoemBP)
	if err != nil {
		t.Fatal(err)
	}
	const base = `version: 1
name: bad
duration: 60s
links:
  - {name: hop1, from: a, to: b, rate: 100Mbps, rtt: 10ms}
  - name: hop2
    from: b
    to: c
    rate: 50Mbps
    DELAY
  - {name: alt, from: a, to: b, rate: 100Mbps, rtt: 40ms}
flows:
FLOWS
`
	const both = "  - {cca: cubic, path: [hop1, hop2]}\n"
	src := func(delay, flows string) string {
		return strings.Replace(strings.Replace(base, "DELAY", delay, 1), "FLOWS\n", flows, 1)
	}
	testBadInput(t, filepath.Join(dir, "bad.yaml"), []badInput{
		{"missing file", src("delay_file: {file: nowhere.log}", both),
			[]string{"bad.yaml:10:", "links[1].delay_file.file", "nowhere.log", "no such file"}},
		{"no file", src("delay_file: {offset: 5s}", both),
			[]string{"bad.yaml:10:", "links[1].delay_file.file", "missing"}},
		{"malformed line", src("delay_file: {file: "+bad+"}", both),
			[]string{"bad.yaml:10:", "links[1].delay_file.file", bad + ":2:", "not the sum of the hop delays"}},
		{"format", src("delay_file: {file: "+bp+", format: mahimahi}", both),
			[]string{"bad.yaml:10:", "links[1].delay_file.format", `"mahimahi"`, "allowed: leoem, orbit"}},
		{"unknown field", src("delay_file: {file: "+bp+", loop: true}", both),
			[]string{"bad.yaml:10:", "links[1].delay_file.loop", "allowed: file, format, offset, handovers, handover_error, handover_outage"}},
		{"offset beyond", src("delay_file: {file: "+bp+", offset: 5700s}", both),
			[]string{"bad.yaml:10:", "links[1].delay_file.offset", "beyond the file's 1h35m32s"}},
		{"unknown link field", src("delay: 5ms", both),
			[]string{"bad.yaml:10:", "links[1].delay", "allowed: name, from, to, rate, rtt, queue, loss, reverse, schedule, delay_file"}},
		{"flow not crossing", src("delay_file: {file: "+bp+"}", both+"  - {cca: cubic, path: [hop1]}\n"),
			[]string{"bad.yaml:14:", "flows[1].path", "does not cross hop2", "links[1], line 6", "handovers: false"}},
	})
	// A move off the link with handovers.
	moved := strings.Replace(strings.Replace(base, "DELAY", "loss: 0", 1),
		"{name: hop1, from: a, to: b, rate: 100Mbps, rtt: 10ms}", "{name: hop1, from: a, to: b, rate: 100Mbps, delay_file: {file: "+bp+"}}", 1)
	moved = strings.Replace(moved, "FLOWS\n", "  - {cca: cubic, path: [hop1, hop2], moves: [{at: 10s, path: [alt, hop2]}]}\n", 1)
	_, err = scenario.Parse(filepath.Join(dir, "bad.yaml"), []byte(moved))
	for _, w := range []string{"bad.yaml:13:", "flows[0].moves[0].path", "does not cross hop1", "every path it takes"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("a move off the link: %v lacks %q", err, w)
		}
	}
	// Two links with handovers: the second names the first.
	two := strings.Replace(strings.Replace(base, "DELAY", "delay_file: {file: "+bp+"}", 1),
		"{name: hop1, from: a, to: b, rate: 100Mbps, rtt: 10ms}", "{name: hop1, from: a, to: b, rate: 100Mbps, delay_file: {file: "+bp+"}}", 1)
	_, err = scenario.Parse(filepath.Join(dir, "bad.yaml"), []byte(strings.Replace(two, "FLOWS\n", both, 1)))
	for _, w := range []string{"bad.yaml:10:", "links[1].delay_file.handovers", "links[0] (line 5) already gives the run's handovers", "handovers: false"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("two links with handovers: %v lacks %q", err, w)
		}
	}
	// ...which handovers: false on one of them settles; a flow then need
	// not cross a link without handovers.
	ok := strings.Replace(two, "{file: "+bp+"}}", "{file: "+bp+", handovers: false}}", 1)
	if _, err := scenario.Parse(filepath.Join(dir, "ok.yaml"), []byte(strings.Replace(ok, "FLOWS\n", both, 1))); err != nil {
		t.Errorf("handovers on one link only: %v", err)
	}
	noHo := src("delay_file: {file: "+bp+", handovers: false}", both+"  - {cca: cubic, path: [hop1]}\n")
	if _, err := scenario.Parse(filepath.Join(dir, "ok.yaml"), []byte(noHo)); err != nil {
		t.Errorf("a flow beside a link without handovers: %v", err)
	}
}
