package probe

import (
	"testing"
	"time"

	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
)

// simulate runs a scenario text on the simulator.
func simulate(t *testing.T, text string) *result.Result { return simtest.Run(t, text) }

// inferFlow reads flow 0 of a result and infers with the default options.
func inferFlow(t *testing.T, res *result.Result) (*Trace, *Report) {
	t.Helper()
	tr, err := FromResult(res, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, r
}

func starlinkProfile(t *testing.T) *profile.StarlinkProfile {
	t.Helper()
	p, err := profile.Starlink("", nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The validation of the inference: a light probe through the simulator's
// Starlink model gives back the model's own parameters — the 15 s schedule
// at :12/:27/:42/:57 UTC, each direction's outage, the 1/750 s frame, the
// idle one-way delay and the per-interval shift bounded by owd_max.
func TestInferStarlinkModel(t *testing.T) {
	p := starlinkProfile(t)
	for _, dir := range []struct {
		name string
		a    profile.Access
	}{{"downlink", p.Downlink}, {"uplink", p.Uplink}} {
		t.Run(dir.name, func(t *testing.T) {
			const size, spacing = 1000, time.Millisecond // 8 Mbit/s: far below either base allocation
			res := simulate(t, `version: 1
name: probe
duration: 50s
seed: 3
epoch_utc: 2026-12-01T10:00:03Z
path: {profile: starlink, direction: `+dir.name+`}
flows:
  - {cca: cbr, rate: 8Mbps, packet_size: 1000, record: true}
`)
			tr, r := inferFlow(t, res)
			if tr.Size != size || tr.Spacing != spacing {
				t.Fatalf("trace size %d spacing %v, want %d and %v", tr.Size, tr.Spacing, size, spacing)
			}
			s := r.Schedule
			if s == nil {
				t.Fatalf("no schedule among %d outages", len(r.Outages))
			}
			t.Logf("%d outages; period %v phase %v UTC offset %v residual %v; outage %v; min OWD %v; shift %v; loss %.4f",
				len(r.Outages), s.Period, s.Phase, s.UTCOffset, s.Residual, r.OutageLength, r.MinOWD, r.Shift, r.LossRate)
			if r.Frame != nil {
				t.Logf("frame %v coherence %.3f (sends %.3f)", r.Frame.Period, r.Frame.Coherence, r.Frame.SendCoherence)
			}
			// Boundaries at 9, 24, 39 s (epoch :03, boundaries :12, ...):
			// three outages, all on a 15 s grid. An outage starts at its
			// boundary; the estimate is the midpoint between the last
			// packet before and the first held, so within a spacing.
			if s.OnGrid != 3 || s.Off != 0 {
				t.Errorf("%d outages on the grid, %d off, want 3 and 0", s.OnGrid, s.Off)
			}
			if d := s.Period - p.Reconfig.Period; abs(d) > spacing {
				t.Errorf("period %v, want %v ± %v", s.Period, p.Reconfig.Period, spacing)
			}
			if d := s.UTCOffset - p.Reconfig.Offset%p.Reconfig.Period; abs(d) > spacing {
				t.Errorf("UTC offset %v, want %v ± %v", s.UTCOffset, p.Reconfig.Offset%p.Reconfig.Period, spacing)
			}
			// Frames quantise both ends: the last packet before left on a
			// frame up to one before the boundary, the first after on the
			// first frame after the outage. Length: up to two frames (and a
			// spacing) above the profile's.
			if d := r.OutageLength - dir.a.Outage.Duration; d < -spacing || d > 2*p.TDMA.Frame+spacing {
				t.Errorf("outage %v, want %v (+ up to two frames)", r.OutageLength, dir.a.Outage.Duration)
			}
			// Idle delay: base OWD plus at most the slot's shift and a frame's wait.
			if r.MinOWD < dir.a.BaseOWD || r.MinOWD > dir.a.BaseOWD+dir.a.Drift.OWDMax+p.TDMA.Frame {
				t.Errorf("min OWD %v, want %v + [0, owd_max %v + frame]", r.MinOWD, dir.a.BaseOWD, dir.a.Drift.OWDMax)
			}
			if r.Shift > dir.a.Drift.OWDMax+p.TDMA.Frame/2 {
				t.Errorf("median shift between intervals %v, want <= owd_max %v (+ half a frame)", r.Shift, dir.a.Drift.OWDMax)
			}
			if r.Frame == nil {
				t.Fatal("no frame period found")
			}
			if d := r.Frame.Period - p.TDMA.Frame; abs(d) > 2*time.Microsecond {
				t.Errorf("frame %v, want %v ± 2 µs", r.Frame.Period, p.TDMA.Frame)
			}
			if r.Ramp != nil {
				t.Errorf("a ramp %+v under a light probe", *r.Ramp)
			}
		})
	}
}

// An overloading probe (500 Mbit/s into the downlink, in a slot without a
// boundary) shows the demand-driven allocation: delivered at the base
// allocation first, at multiplier × base after the ramp (seed 001 findings
// 4, 5: 3.4× over ~400 ms). The slot's drift scales both alike, so their
// ratio is the profile's multiplier, less the growth within the first
// rampHead (the linear ramp's mean there is base·(1 + (m-1)·10/400)).
// Tolerances: the simulator test's ±100 ms on the ramp, and ±10 % on the
// ratio (the frames' quantisation of 20 ms, the AQM's drops).
func TestInferAllocationRamp(t *testing.T) {
	p := starlinkProfile(t)
	res := simulate(t, `version: 1
name: ramp
duration: 3s
seed: 5
epoch_utc: 2026-12-01T10:00:03Z
path: {profile: starlink, direction: downlink}
flows:
  - {cca: cbr, rate: 500Mbps, packet_size: 1500, start: 1s, stop: 2.5s, record: true}
`)
	_, r := inferFlow(t, res)
	if r.Ramp == nil {
		t.Fatalf("no ramp found (%d outages, %d rate bins)", len(r.Outages), len(r.Rate))
	}
	a := p.Downlink.Alloc
	m := a.Multiplier / (1 + (a.Multiplier-1)*float64(rampHead/2)/float64(a.Ramp))
	t.Logf("initial %.1f Mbit/s, peak %.1f (ratio %.2f), ramp %v; loss %.3f; %d outages", r.Ramp.Initial, r.Ramp.Peak, r.Ramp.Peak/r.Ramp.Initial, r.Ramp.Time, r.LossRate, len(r.Outages))
	if ratio := r.Ramp.Peak / r.Ramp.Initial; ratio < 0.9*m || ratio > 1.1*m {
		t.Errorf("peak/initial %.2f, want %.2f ± 10 %%", ratio, m)
	}
	if d := r.Ramp.Time - p.Downlink.Alloc.Ramp; abs(d) > 100*time.Millisecond {
		t.Errorf("ramp %v, want %v ± 100 ms", r.Ramp.Time, p.Downlink.Alloc.Ramp)
	}
}

// A fixed link has no schedule and no frames: a periodic sender's own
// regularity (one packet per ms) must not pass for a frame grid, and its
// constant delay for outages.
func TestInferFixedLink(t *testing.T) {
	res := simulate(t, `version: 1
name: fixed
duration: 40s
path: {profile: fixed, rate: 100Mbps, rtt: 40ms, queue: {limit_packets: 500}}
flows:
  - {cca: cbr, rate: 8Mbps, packet_size: 1000, record: true}
`)
	_, r := inferFlow(t, res)
	if len(r.Outages) != 0 || r.Schedule != nil || r.Frame != nil || r.Ramp != nil {
		t.Errorf("outages %v, schedule %v, frame %v, ramp %v: want none", r.Outages, r.Schedule, r.Frame, r.Ramp)
	}
	// One-way delay: half the RTT plus serialisation (80 µs at 100 Mbit/s).
	if want := 20*time.Millisecond + 80*time.Microsecond; abs(r.MinOWD-want) > 10*time.Microsecond {
		t.Errorf("min OWD %v, want %v", r.MinOWD, want)
	}
	if len(r.Intervals) != 1 || r.Intervals[0].Lost != 0 {
		t.Errorf("intervals %+v: want one, lossless", r.Intervals)
	}
	if iv := r.Intervals[0]; iv.Mbps < 7.99 || iv.Mbps > 8.01 {
		t.Errorf("delivered %.3f Mbit/s, want 8", iv.Mbps)
	}
}

// A line-rate burst longer than the buffer, through the simulator's
// Starlink downlink (head drop, 1500 packets; seed 001 findings 1–3) and a
// fixed link's drop-tail queue of 300: the prober names each policy and
// reads the buffer's size from what was kept. Tolerances: head drop keeps
// the limit less the AQM's drops among the kept (at most twice its max_p of
// them) plus up to a frame's grant served uncounted; drop-tail exactly the
// limit, give or take the packet in service.
func TestInferBurstQueue(t *testing.T) {
	p := starlinkProfile(t)
	for _, c := range []struct {
		name, path, stop string
		policy           string
		lo, hi           int
	}{
		{"starlink downlink", "{profile: starlink, direction: downlink, overrides: {pop.enabled: false}}", "3600us", "head-drop",
			int(float64(p.Downlink.Queue.LimitPackets) * (1 - 2*p.Downlink.AQM.MaxProb)), p.Downlink.Queue.LimitPackets + 30},
		{"drop-tail 300", "{profile: fixed, rate: 100Mbps, rtt: 20ms, queue: {discipline: droptail, limit_packets: 300}}", "1200us", "tail-drop", 299, 301},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := simulate(t, "version: 1\nname: burst\nduration: 2s\nseed: 1\npath: "+c.path+
				"\nflows:\n  - {cca: cbr, rate: 10Gbps, packet_size: 1500, stop: "+c.stop+", record: true}\n")
			_, r := inferFlow(t, res)
			b := r.Burst
			if b == nil {
				t.Fatal("no burst found")
			}
			t.Logf("%+v", *b)
			if b.Policy != c.policy {
				t.Errorf("policy %s (newest kept delivered %.2f), want %s", b.Policy, b.NewestDelivered, c.policy)
			}
			if b.Kept < c.lo || b.Kept > c.hi {
				t.Errorf("kept %d, want %d–%d", b.Kept, c.lo, c.hi)
			}
		})
	}
}

// Measure → calibrate → replay: a probe through a Starlink downlink whose
// profile differs from the defaults (frame 2 ms, outage 60 ms, boundaries
// at :05/:20/:35/:50, base OWD 20 ms) gives overrides that the profile
// loader accepts and that name those values back.
func TestOverridesRoundTrip(t *testing.T) {
	res := simulate(t, `version: 1
name: calibrate
duration: 50s
seed: 2
epoch_utc: 2026-12-01T10:00:03Z
path:
  profile: starlink
  direction: downlink
  overrides: {tdma.frame: 2ms, reconfig.offset: 5s, downlink.outage.duration: 60ms, downlink.base_owd: 20ms}
flows:
  - {cca: cbr, rate: 8Mbps, packet_size: 1000, record: true}
`)
	_, r := inferFlow(t, res)
	ovs, err := r.Overrides(res.Path.Direction, true)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for _, o := range ovs {
		t.Logf("%s: %s (%s)", o.Key, o.Value, o.From)
		m[o.Key] = o.Value
	}
	p, err := profile.Starlink("", m)
	if err != nil {
		t.Fatalf("the profile refuses the overrides: %v", err)
	}
	near := func(name string, got, want, tol time.Duration) {
		if d := got - want; d < -tol || d > tol {
			t.Errorf("%s %v, want %v ± %v", name, got, want, tol)
		}
	}
	near("frame", p.TDMA.Frame, 2*time.Millisecond, 2*time.Microsecond)
	near("period", p.Reconfig.Period, 15*time.Second, time.Millisecond)
	near("offset", p.Reconfig.Offset, 5*time.Second, 2*time.Millisecond)
	// The outage less half a frame: the release waits 0 to 1 frame.
	near("outage", p.Downlink.Outage.Duration, 60*time.Millisecond, time.Millisecond+time.Millisecond/2)
	// Base OWD: the least delay is base plus the lowest slot's shift (up
	// to owd_max, 2 ms) plus the frame wait of the luckiest packet.
	if b := p.Downlink.BaseOWD; b < 20*time.Millisecond || b > 22*time.Millisecond+p.TDMA.Frame {
		t.Errorf("base OWD %v, want 20 ms + [0, owd_max + frame]", b)
	}
	if _, err := r.Overrides("sideways", true); err == nil {
		t.Error("direction sideways accepted")
	}
}
