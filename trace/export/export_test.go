package export

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/link/starlink"
	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/trace"
)

// deliveries returns the sorted receive times, less prop, of a flow's
// delivered records.
func deliveries(pk []result.ProbePacket, prop time.Duration) []time.Duration {
	var out []time.Duration
	for _, p := range pk {
		if p.OWDMs > 0 {
			out = append(out, seconds(p.SentS)+millis(p.OWDMs)-prop)
		}
	}
	slices.Sort(out)
	return out
}

// TestMahimahiRoundTrip is issue 22's acceptance 2 for the round trip:
// model → Mahimahi trace → trace-driven link, in both directions of the
// Sydney path. The model is recorded for 20 s (FromModel), the trace is
// written and read back by a scenario of profile trace that replays it
// saturated by the same CBR flow. The model's delivery schedule is its
// saturated deliveries less the fixed propagation; the tolerance is
// Mahimahi's unit: the replay must deliver the same number of packets,
// each exactly at the model's time rounded up to the millisecond (within
// [0, 1 ms) after it), so every millisecond carries the same packets and
// bytes.
func TestMahimahiRoundTrip(t *testing.T) {
	m := Model{City: "sydney", Duration: 20 * time.Second, Seed: 1}
	tr, err := FromModel(m)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := profile.Starlink("sydney", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"downlink", "uplink"} {
		t.Run(dir, func(t *testing.T) {
			ops, prop, maxRate := tr.Downlink, tr.DownlinkPropagation, sp.Downlink.MaxRate()
			if dir == "uplink" {
				ops, prop, maxRate = tr.Uplink, tr.UplinkPropagation, sp.Uplink.MaxRate()
			}
			file := filepath.Join(t.TempDir(), dir+".txt")
			f, err := os.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := trace.WriteMahimahi(f, ops); err != nil {
				t.Fatal(err)
			}
			f.Close()
			flow := fmt.Sprintf("{cca: cbr, rate: %.0fbps, packet_size: 1504, record: true}", saturation*maxRate)
			model, err := m.run(dir, flow)
			if err != nil {
				t.Fatal(err)
			}
			replay := simtest.Run(t, fmt.Sprintf(`version: 1
duration: 20s
path: {profile: trace, direction: %s, trace: {format: mahimahi, uplink: %[2]s, downlink: %[2]s}}
flows: [%s]
`, dir, file, flow))
			want := deliveries(model.Flows[0].Packets, prop)
			got := deliveries(replay.Flows[0].Packets, 0)
			// Compare one period of the trace (its last opportunity, just
			// under 20 s): after it the replay starts the trace again, as
			// Mahimahi does.
			period := time.Duration(ops[len(ops)-1]) * time.Millisecond
			got = slices.DeleteFunc(got, func(d time.Duration) bool { return d > period })
			if len(got) != len(want) {
				t.Fatalf("replay delivered %d packets, the model %d (within the period %v)", len(got), len(want), period)
			}
			worst := time.Duration(0)
			for i := range want {
				up := (want[i] + time.Millisecond - 1) / time.Millisecond * time.Millisecond
				if got[i] != up {
					t.Fatalf("delivery %d: replay %v, model %v (rounded up: %v)", i, got[i], want[i], up)
				}
				worst = max(worst, got[i]-want[i])
			}
			mbps := float64(len(got)) * 1504 * 8 / period.Seconds() / 1e6
			t.Logf("%d deliveries (%.1f Mbit/s) replayed at the model's times rounded up to the ms; largest shift %v", len(got), mbps, worst)
			if worst >= time.Millisecond {
				t.Errorf("a delivery shifted by %v, want < 1 ms", worst)
			}
		})
	}
}

// TestModelDelayTrace: the exported delay trace of the Sydney downlink is
// the path's propagation (13 ms access + the terrestrial leg) plus at most
// a TDMA frame and the slot's OWD drift away from the reconfigurations,
// and each reconfiguration (every 15 s) shows as the probes sent into its
// 45 ms outage waiting for it to end. Each interval keeps its smallest
// delay, its last probe's, so the interval after the one holding the
// boundary (it starts under 10 ms after it, its last probe under 20 ms)
// reaches at least propagation + 45 ms − 20 ms, and the spike falls by
// 10 ms per interval, as in the real LeoReplayer example (35, 30, 18 ms at
// 8.75 s).
func TestModelDelayTrace(t *testing.T) {
	m := Model{City: "sydney", Direction: "downlink", Duration: 40 * time.Second, Seed: 3}
	tr, err := FromModel(m)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := profile.Starlink("sydney", nil)
	prop := tr.DownlinkPropagation
	if prop != sp.Downlink.BaseOWD+sp.Terrestrial.OneWay {
		t.Fatalf("propagation %v", prop)
	}
	if len(tr.Delay) != 4000 {
		t.Fatalf("%d intervals, want 4000", len(tr.Delay))
	}
	epoch, err := time.Parse(time.RFC3339Nano, tr.EpochUTC)
	if err != nil {
		t.Fatal(err)
	}
	sched := starlink.NewSchedule(sp, starlink.MinuteOffset(epoch))
	outage := sp.Downlink.Outage.Duration
	quiet := prop + sp.TDMA.Frame + sp.Downlink.Drift.OWDMax
	boundaries := 0
	for b := sched.Next(0); b < m.Duration-time.Second; b = sched.Next(b + time.Millisecond) {
		boundaries++
		k := int(b / trace.DelayInterval)
		peak := slices.Max(tr.Delay[k : k+3])
		if lo := prop + outage - 2*trace.DelayInterval; peak < lo || peak > prop+outage+sp.TDMA.Frame+sp.Downlink.Drift.OWDMax {
			t.Errorf("boundary at %v: largest delay %v, want in [%v, outage + propagation + frame + drift]", b, peak, lo)
		}
	}
	if boundaries < 2 {
		t.Fatalf("%d reconfigurations in 40 s", boundaries)
	}
	lo, over := time.Duration(math.MaxInt64), 0
	for k, d := range tr.Delay {
		lo = min(lo, d)
		near := false
		for b := sched.Next(0); b < m.Duration; b = sched.Next(b + time.Millisecond) {
			if at := time.Duration(k) * trace.DelayInterval; at > b-2*outage && at < b+2*outage {
				near = true
			}
		}
		if !near && d > quiet {
			over++
		}
	}
	t.Logf("delay trace: min %v, propagation %v, %d reconfigurations, %d quiet intervals above %v", lo, prop, boundaries, over, quiet)
	if lo < prop-sp.Downlink.Drift.OWDMax || over > 0 {
		t.Errorf("quiet delays outside [%v, %v]: min %v, %d above", prop-sp.Downlink.Drift.OWDMax, quiet, lo, over)
	}
}

// TestDelayTraceProbed: the prober, reading the exported delay trace as it
// reads LeoReplayer's (a delay series, 10 ms steps), finds the model's
// reconfiguration schedule: a 15 s period whose phase is the model's first
// boundary within one 10 ms step.
func TestDelayTraceProbed(t *testing.T) {
	m := Model{City: "sydney", Duration: 60 * time.Second, Seed: 2}
	tr, err := FromModel(m)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := trace.WriteDelay(&buf, tr.Delay); err != nil {
		t.Fatal(err)
	}
	ser, err := probe.ReadDelaySeries("delay.txt", &buf, trace.DelayInterval)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := probe.Infer(ser, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := profile.Starlink("sydney", nil)
	epoch, _ := time.Parse(time.RFC3339Nano, tr.EpochUTC)
	first := starlink.NewSchedule(sp, starlink.MinuteOffset(epoch)).Next(0)
	if rep.Schedule == nil {
		t.Fatalf("no schedule found in %d outages", len(rep.Outages))
	}
	t.Logf("prober: period %v, phase %v, %d outages on the grid; model: first boundary %v", rep.Schedule.Period, rep.Schedule.Phase, rep.Schedule.OnGrid, first)
	if rep.Schedule.Period != 15*time.Second || (rep.Schedule.Phase-first).Abs() > trace.DelayInterval || rep.Schedule.OnGrid < 3 {
		t.Errorf("prober's schedule %+v, want period 15s, phase %v ± 10ms, >= 3 outages", *rep.Schedule, first)
	}
}
