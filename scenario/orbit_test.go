package scenario_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/orbit"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// lossCheck compares a recorded probe's losses with the model: each packet
// that reached the ptot stage at run time sent+lead is lost with
// q = 1 − (1 − p_tot(t))(1 − r)(1 − l)(1 − a·[in an outage]) (r: the
// link's own random loss, l: the terrestrial leg's, a: outage.arrival_loss), so the
// count of a set of packets has mean Σq and variance Σq(1−q); 4σ.
type lossCheck struct{ n, lost, mean, vari float64 }

func (c *lossCheck) add(q float64, lost bool) {
	c.n++
	c.mean += q
	c.vari += q * (1 - q)
	if lost {
		c.lost++
	}
}

func (c *lossCheck) check(t *testing.T, what string) {
	t.Helper()
	sd := math.Sqrt(c.vari)
	t.Logf("%s: %.0f of %.0f packets lost (%.5f), model %.1f ± %.1f (%.5f)", what, c.lost, c.n, c.lost/c.n, c.mean, sd, c.mean/c.n)
	if c.n == 0 || math.Abs(c.lost-c.mean) > 4*sd {
		t.Errorf("%s: %.0f lost, want %.1f ± 4·%.1f", what, c.lost, c.mean, sd)
	}
}

// probeLoss checks a starlink downlink run's recorded probe against the
// scenario's p_tot: in and outside the handover windows.
func probeLoss(t *testing.T, sc *scenario.Scenario, spec netsim.Spec, res *result.Result) (in, out lossCheck) {
	t.Helper()
	slots := sc.OrbitLoss()
	sp := sc.Starlink()
	lead, r := sp.Terrestrial.OneWay, sp.Downlink.RandomLoss // the stage follows the terrestrial leg
	// The city's terrestrial leg loses packets before the stage, and the
	// access link loses outage.arrival_loss of what arrives during each
	// reconfiguration outage (which the handover windows overlap).
	tl, dur, a := sp.Terrestrial.DownlinkLoss, sp.Downlink.Outage.Duration, sp.Downlink.Outage.ArrivalLoss
	end := time.Duration(res.DurationS*float64(time.Second)) - time.Second
	for _, p := range res.Flows[0].Packets {
		at := time.Duration(math.Round(p.SentS*1e9)) + lead
		if at > end { // may still be in flight
			continue
		}
		q := 1 - (1-slots.At(at))*(1-r)*(1-tl)
		if b := spec.Schedule.Next(at - dur); b >= 0 && b <= at && b > at-dur {
			q = 1 - (1-q)*(1-a)
		}
		if slots.InWindow(at) {
			in.add(q, p.OWDMs < 0)
		} else {
			out.add(q, p.OWDMs < 0)
		}
	}
	return in, out
}

// The example runs in sim and loses what p_tot says: its probe's losses
// outside and inside the handover windows agree with the model within 4σ;
// its per-slot smallest one-way delay is base + terrestrial + the orbit
// slot's delay above the run's smallest (owd_source: orbit), within a
// TDMA frame.
func TestPtotExampleInSim(t *testing.T) {
	sc, err := scenario.Load("../examples/orbit/ptot-sydney-probe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec, res := runScenario(t, sc)
	in, out := probeLoss(t, sc, spec, res)
	out.check(t, "outside handover windows")
	in.check(t, "inside handover windows")

	slots, paths, sp := sc.OrbitLoss(), sc.OrbitPaths(), sc.Starlink()
	var owds []time.Duration
	for _, p := range paths {
		owds = append(owds, p.OneWay)
	}
	minOWD := slices.Min(owds)
	mins := make([]float64, len(paths))
	for _, p := range res.Flows[0].Packets {
		at := time.Duration(math.Round(p.SentS*1e9)) + sp.Terrestrial.OneWay
		k := int((at - slots.First) / slots.Length)
		if p.OWDMs > 0 && (mins[k] == 0 || p.OWDMs < mins[k]) {
			mins[k] = p.OWDMs
		}
	}
	frame := float64(sp.TDMA.Frame) / 1e6
	for k, m := range mins {
		want := float64(sp.Downlink.BaseOWD+sp.Terrestrial.OneWay+owds[k]-minOWD) / 1e6
		if m == 0 {
			continue // a slot the run barely touches
		}
		if m < want-1e-6 || m > want+frame+1e-6 {
			t.Errorf("slot %d: smallest OWD %.3f ms, want %.3f (+ up to a %.3f ms frame)", k, m, want, frame)
		}
	}
}

// A handover-heavy run: p_ho 0.5 makes the windows' loss unmistakable;
// in and out of them the probe's losses agree with p_tot within 4σ.
func TestPtotHandoverWindowsInSim(t *testing.T) {
	sc, err := scenario.Parse("ho.yaml", []byte(`version: 1
duration: 600s
epoch_utc: 2026-12-01T10:00:03Z
path:
  profile: starlink
  city: sydney
  orbit: {from: "-37.85,145.11", to: "-33.87,151.21", policy: dwell}
  loss_model: {kind: ptot, p_cap: 0.001, p_ho: 0.5}
flows: [{cca: cbr, rate: 8Mbps, packet_size: 1000, record: true}]
`))
	if err != nil {
		t.Fatal(err)
	}
	handovers := 0
	for _, s := range sc.OrbitLoss().Slots {
		if s.Handover {
			handovers++
		}
	}
	if handovers < 3 {
		t.Fatalf("%d handovers in 600 s: the test needs some", handovers)
	}
	spec, res := runScenario(t, sc)
	in, out := probeLoss(t, sc, spec, res)
	if in.n < 40*float64(handovers) {
		t.Errorf("%.0f packets in %d windows of 45 ms at 1000 packets/s", in.n, handovers)
	}
	in.check(t, "inside handover windows")
	out.check(t, "outside handover windows")
}

// owd_source: model alone is the default spelt out: the same path.
func TestOWDSourceModelAlone(t *testing.T) {
	sc, err := scenario.Parse("m.yaml", []byte(strings.Replace(strings.Replace(orbitBase, "PROFILE", "starlink", 1), "PATH", "owd_source: model", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if spec, err := sc.Spec(); err != nil || spec.SimOnly != "" || sc.OrbitLoss() != nil {
		t.Errorf("spec %v, sim only %q", err, spec.SimOnly)
	}
}

// A fixed path with owd_source: orbit: each probe's one-way delay is
// rtt/2 + its slot's propagation delay, and the base RTT says so.
func TestOrbitOWDOnFixedPath(t *testing.T) {
	sc, err := scenario.Parse("fixed.yaml", []byte(`version: 1
duration: 60s
epoch_utc: 2026-04-01T10:00:00Z
path:
  profile: fixed
  rate: 1Gbps
  rtt: 10ms
  orbit: {from: "32.72,-117.16", to: "40.71,-74.01", slot: 10s}
  owd_source: orbit
flows: [{cca: cbr, rate: 1Mbps, packet_size: 125, record: true}]
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, res := runScenario(t, sc)
	paths := sc.OrbitPaths()
	if len(paths) != 6 {
		t.Fatalf("%d slots of 10 s in 60 s", len(paths))
	}
	if want := 10*time.Millisecond + 2*paths[0].OneWay; spec.BaseRTT != want {
		t.Errorf("base RTT %v, want %v", spec.BaseRTT, want)
	}
	const ser = 1e-3 // 125 bytes at 1 Gbit/s, ms
	for _, p := range res.Flows[0].Packets {
		if p.OWDMs <= 0 {
			continue
		}
		k := int(p.SentS / 10)
		if want := 5 + paths[k].OWDms + ser; math.Abs(p.OWDMs-want) > 1e-3 {
			t.Fatalf("packet %d at %.3f s: OWD %.4f ms, want %.4f (slot %d)", p.Seq, p.SentS, p.OWDMs, want, k)
		}
	}
	if res.EpochUTC != "2026-04-01T10:00:00Z" {
		t.Errorf("epoch_utc %q", res.EpochUTC)
	}
}

const orbitBase = `version: 1
duration: 60s
path:
  profile: PROFILE
  PATH
flows: [{cca: cubic}]
`

// Bad input: one error naming the file, the line, the field and what is
// allowed.
func TestOrbitBadInput(t *testing.T) {
	const orb = `orbit: {from: "-37.85,145.11", to: "-33.87,151.21"}`
	orbitSrc := func(profile, path string) string {
		return strings.Replace(strings.Replace(orbitBase, "PROFILE", profile, 1), "PATH", path, 1)
	}
	testBadInput(t, "bad.yaml", []badInput{
		{"unknown kind", orbitSrc("starlink", orb+"\n  loss_model: {kind: gilbert}"), []string{`bad.yaml:6: path.loss_model.kind: "gilbert" (allowed: ptot)`}},
		{"no kind", orbitSrc("starlink", orb+"\n  loss_model: {p_cap: 0.1}"), []string{`bad.yaml:6: path.loss_model.kind: missing (allowed: ptot)`}},
		{"p_cap 1", orbitSrc("starlink", orb+"\n  loss_model: {kind: ptot, p_cap: 1}"), []string{`bad.yaml:6: path.loss_model.p_cap: 1 is out of range (allowed: a probability in [0, 1))`}},
		{"p_isl negative", orbitSrc("starlink", orb+"\n  loss_model: {kind: ptot, p_isl: -0.1}"), []string{`path.loss_model.p_isl: -0.1 is out of range`}},
		{"window too long", orbitSrc("fixed", "rate: 10Mbps\n  rtt: 10ms\n  "+orb+"\n  loss_model: {kind: ptot, handover_window: 20s}"), []string{`path.loss_model.handover_window: 20s: longer than a slot (15s)`}},
		{"unknown field", orbitSrc("starlink", orb+"\n  loss_model: {kind: ptot, p_sat: 0.1}"), []string{`path.loss_model.p_sat: unknown field (allowed: kind, p_cap, p_at, p_ho, p_gw, p_isl, handover_window)`}},
		{"no orbit", orbitSrc("starlink", "loss_model: {kind: ptot}"), []string{`bad.yaml:5: path.loss_model: needs path.orbit`}},
		{"orbit unused", orbitSrc("starlink", orb), []string{`bad.yaml:5: path.orbit: unused`}},
		{"owd source", orbitSrc("starlink", orb+"\n  owd_source: gps"), []string{`bad.yaml:6: path.owd_source: "gps" (allowed: model, orbit)`}},
		{"owd source alone", orbitSrc("starlink", "owd_source: orbit"), []string{`bad.yaml:5: path.owd_source: orbit needs path.orbit`}},
		{"bad from", orbitSrc("starlink", `orbit: {from: "95,0", to: "0,0"}`+"\n  owd_source: orbit"), []string{`path.orbit.from: "95,0": latitude 95 outside -90..90`}},
		{"no to", orbitSrc("starlink", `orbit: {from: "0,0"}`+"\n  owd_source: orbit"), []string{`path.orbit.to: missing: LAT,LON in degrees`}},
		{"mode", orbitSrc("starlink", `orbit: {from: "0,0", to: "1,1", mode: laser}`+"\n  owd_source: orbit"), []string{`path.orbit.mode: unknown mode "laser" (allowed: bentpipe, isl)`}},
		{"shell", orbitSrc("starlink", `orbit: {from: "0,0", to: "1,1", shell: kuiper}`+"\n  owd_source: orbit"), []string{`path.orbit.shell: unknown shell "kuiper" (allowed: starlink-1`}},
		{"elevation", orbitSrc("starlink", `orbit: {from: "0,0", to: "1,1", min_elevation: 90}`+"\n  owd_source: orbit"), []string{`path.orbit.min_elevation: 90: want 0 < degrees < 90`}},
		{"slot on starlink", orbitSrc("starlink", `orbit: {from: "0,0", to: "1,1", slot: 10s}`+"\n  owd_source: orbit"), []string{`path.orbit.slot: a starlink path's slots are its reconfiguration intervals`}},
		{"too many slots", orbitSrc("fixed", "rate: 10Mbps\n  rtt: 10ms\n  "+`orbit: {from: "0,0", to: "1,1", slot: 100us}`+"\n  owd_source: orbit"), []string{`path.orbit.slot: duration 1m0s in slots of 100µs is 600000 slots (allowed: at most 100000)`}},
		{"no path in any slot", orbitSrc("starlink", `orbit: {from: "0,0", to: "1,1"}`+"\n  owd_source: orbit"), []string{`bad.yaml:5: path.orbit: no satellite above 25° serves 0,0 with a path to 1,1 in any slot of the run (mode bentpipe)`}},
		{"delay file too", orbitSrc("fixed", "rate: 10Mbps\n  rtt: 10ms\n  delay_file: {file: x.log}\n  "+orb+"\n  owd_source: orbit"), []string{`path.owd_source: orbit and path.delay_file both give the path's delay`}},
		{"trace profile", orbitSrc("trace", "trace: {format: mahimahi, uplink: a, downlink: a, owd: 1ms}\n  "+orb), []string{`path: loss_model, orbit and owd_source apply to profiles fixed and starlink, not trace`}},
	})
}

// On a fixed path the ptot stage comes before the queue: a light probe's
// loss is the slots' mean p_tot, within 4σ, and nothing else drops.
func TestPtotOnFixedPath(t *testing.T) {
	sc, err := scenario.Parse("fixed.yaml", []byte(`version: 1
duration: 300s
path:
  profile: fixed
  rate: 100Mbps
  rtt: 20ms
  orbit: {from: "32.72,-117.16", to: "40.71,-74.01", mode: isl}
  loss_model: {kind: ptot, p_cap: 0.002, p_ho: 0.3, p_isl: 0.001, handover_window: 100ms}
flows: [{cca: cbr, rate: 8Mbps, packet_size: 1000}]
`))
	if err != nil {
		t.Fatal(err)
	}
	isls := 0
	for _, p := range sc.OrbitPaths() {
		isls += p.ISLs
	}
	if isls == 0 {
		t.Fatal("San Diego → New York over ISLs crossed no ISL: the test does not exercise p_isl")
	}
	_, res := runScenario(t, sc)
	f := res.Flows[0]
	n := float64(f.SentPackets)
	p := sc.OrbitLoss().Expected(0, 300*time.Second)
	sd := math.Sqrt(n * p * (1 - p))
	t.Logf("%d of %d lost (%.5f), p_tot over the run %.5f (± %.1f packets)", f.LostPackets, f.SentPackets, float64(f.LostPackets)/n, p, sd)
	if math.Abs(float64(f.LostPackets)-n*p) > 4*sd {
		t.Errorf("%d lost, want %.1f ± 4·%.1f", f.LostPackets, n*p, sd)
	}
	if d := res.Links[0].Drops; d.Random != f.LostPackets || d.Head+d.Tail+d.AQM+d.Outage+d.Policer != 0 {
		t.Errorf("link drops %+v for %d probe losses: want them all random (the ptot stage's)", d, f.LostPackets)
	}
}

// delay_file reads `leolab orbit path` output: each probe's one-way delay
// is rtt/2 + its slot's delay (to the µs the CSV keeps), and the slots
// whose route changed are the run's handovers.
func TestDelayFileOrbitFormat(t *testing.T) {
	dir := t.TempDir()
	sched := filepath.Join(dir, "sdny.csv")
	code := writeOrbitCSV(t, sched)
	sc, err := scenario.Parse(filepath.Join(dir, "s.yaml"), []byte(`version: 1
duration: 120s
path:
  profile: fixed
  rate: 1Gbps
  rtt: 10ms
  delay_file: {file: sdny.csv, format: orbit, offset: 30s}
flows: [{cca: cbr, rate: 1Mbps, packet_size: 125, record: true}]
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, res := runScenario(t, sc)
	const ser = 1e-3 // 125 bytes at 1 Gbit/s, ms
	for _, p := range res.Flows[0].Packets {
		if p.OWDMs <= 0 {
			continue
		}
		k := int((p.SentS + 30) / 15)
		if want := 5 + code[k].OWDms + ser; math.Abs(p.OWDMs-want) > 2e-3 {
			t.Fatalf("packet %d at %.3f s: OWD %.4f ms, want %.4f (slot %d)", p.Seq, p.SentS, p.OWDMs, want, k)
		}
	}
	var want []time.Duration
	for k, s := range code {
		if at := time.Duration(k)*15*time.Second - 30*time.Second; s.Changed && at >= 0 && at < 120*time.Second {
			want = append(want, at)
		}
	}
	if len(want) == 0 {
		t.Fatal("no route change in the schedule: the test does not check handovers")
	}
	var got []time.Duration
	for at := spec.Schedule.Next(0); at >= 0 && at < 120*time.Second; at = spec.Schedule.Next(at + 1) {
		got = append(got, at)
	}
	if !slices.Equal(got, want) {
		t.Errorf("handovers %v, want the route changes %v", got, want)
	}
}

// writeOrbitCSV writes San Diego → New York's bent-pipe schedule of 4 min
// from orbit.Epoch() as `leolab orbit path --csv` does, and returns it as
// read back.
func writeOrbitCSV(t *testing.T, name string) []orbit.SlotPath {
	t.Helper()
	sh, _ := orbit.ShellByName("starlink-1")
	w, err := orbit.NewWalker(orbit.Epoch(), sh)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := orbit.ParseLatLon("32.72,-117.16")
	to, _ := orbit.ParseLatLon("40.71,-74.01")
	slots, err := orbit.Schedule(w, orbit.PathConfig{From: from, To: to, Start: orbit.Epoch(), Duration: 4 * time.Minute,
		Slot: orbit.DefaultSlot, Mode: orbit.BentPipe, Policy: orbit.Highest, MinElevation: orbit.DefaultMinElevation, Gateways: orbit.Gateways()})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := orbit.WriteCSV(&buf, slots); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := orbit.ReadSchedule(name, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestDelayFileOrbitBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("start,one_way_delay_ms,changed,outage\n2026-04-01T00:00:00Z,5,false,false\n2026-04-01T00:00:15Z,-1,false,false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := func(df string) string {
		return "version: 1\nduration: 10s\npath:\n  profile: fixed\n  rate: 10Mbps\n  rtt: 10ms\n  delay_file: " + df + "\nflows: [{cca: cubic}]\n"
	}
	testBadInput(t, filepath.Join(dir, "s.yaml"), []badInput{
		{"{file: bad.csv, format: orbit}", src("{file: bad.csv, format: orbit}"), []string{"s.yaml:7: path.delay_file.file: " + bad + ":3: slot 1: one_way_delay_ms -1 outside 0..10000"}},
		{"{file: bad.csv, format: orbit, handover_outage: true}", src("{file: bad.csv, format: orbit, handover_outage: true}"), []string{"path.delay_file.handover_outage: needs LeoEM's per-hop delays (format leoem); format orbit has none"}},
		{"{file: bad.csv, format: tle}", src("{file: bad.csv, format: tle}"), []string{`path.delay_file.format: "tle" (allowed: leoem, orbit)`}},
	})
}
