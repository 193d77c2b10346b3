package starlink

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
)

// Acceptance 3: slot-to-slot changes of the stable rate have the
// configured median (70 Mbps DL, 26 Mbps UL).
func TestDriftMedian(t *testing.T) {
	p := mustProfile(t, "", nil)
	for _, a := range []struct {
		name   string
		max    float64
		median float64
		d      drifter
	}{
		{"downlink", p.Downlink.MaxRate(), 70e6, newDrifter(&p.Downlink, p.Reconfig.RTTSteps, 1)},
		{"uplink", p.Uplink.MaxRate(), 26e6, newDrifter(&p.Uplink, p.Reconfig.RTTSteps, 1)},
	} {
		rng := rand.New(rand.NewPCG(3, 4))
		const n = 20001
		prev := a.d.next(rng).scale * a.max
		diffs := make([]float64, 0, n)
		for range n {
			cur := a.d.next(rng).scale * a.max
			diffs = append(diffs, math.Abs(cur-prev))
			if cur <= 0 {
				t.Fatalf("%s: slot rate %.1f Mbps", a.name, cur/1e6)
			}
			prev = cur
		}
		slices.Sort(diffs)
		// Sample median of n: relative sd ~ 1/(2 f(m) sqrt n) ~ 1 %; 4 sd.
		if got := diffs[n/2]; math.Abs(got-a.median) > 0.04*a.median {
			t.Errorf("%s: median slot change %.1f Mbps, want %.0f", a.name, got/1e6, a.median/1e6)
		}
	}
}

// RTT steps: changes come from ±magnitudes, the level stays within
// [0, max_excess], and two links with the same slot seed agree.
func TestRTTSteps(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"reconfig.rtt_steps.enabled": true, "downlink.drift.owd_max": "0s", "uplink.drift.owd_max": "0s"})
	dl := newDrifter(&p.Downlink, p.Reconfig.RTTSteps, 42)
	ul := newDrifter(&p.Uplink, p.Reconfig.RTTSteps, 42)
	r1, r2 := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(9, 9))
	var prev time.Duration
	for range 1000 {
		a, b := dl.next(r1), ul.next(r2)
		if a.owd != b.owd {
			t.Fatalf("DL and UL steps differ: %v vs %v", a.owd, b.owd)
		}
		step := 2 * (a.owd - prev)
		prev = a.owd
		if step < 0 {
			step = -step
		}
		if !slices.Contains(p.Reconfig.RTTSteps.Magnitudes, step) {
			t.Fatalf("RTT step %v not in %v", step, p.Reconfig.RTTSteps.Magnitudes)
		}
		if lvl := 2 * a.owd; lvl < 0 || lvl > p.Reconfig.RTTSteps.MaxExcess {
			t.Fatalf("RTT level %v out of [0, %v]", lvl, p.Reconfig.RTTSteps.MaxExcess)
		}
	}
}

// A slot's state depends on the seed and the slot's index only: a link
// overloaded with a CBR source (AQM, head and random-loss draws) and one
// carrying a trickle see the same slots. This is what lets a live run and
// the simulator of the same seed and epoch be compared slot for slot.
func TestSlotsIndependentOfTraffic(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"downlink.random_loss": 0.01})
	type seen struct {
		at   time.Duration
		slot slotState
	}
	trace := func(rate float64) []seen {
		b := newBench(t, "downlink", p, 0)
		b.keep = false
		b.cbr(0, rate, 1500, 0, 61*time.Second)
		var out []seen
		// One look 1 s after each boundary (:12, :27, :42, :57).
		for _, at := range []time.Duration{13, 28, 43, 58} {
			b.loop.RunUntil(at * time.Second)
			out = append(out, seen{at * time.Second, b.l.slot})
		}
		if rate > p.Downlink.MaxRate() && b.nDrop[link.DropAQM]+b.nDrop[link.DropHead] == 0 {
			t.Fatalf("overloaded link dropped nothing: the test does not load it")
		}
		return out
	}
	light, heavy := trace(1e6), trace(2*p.Downlink.MaxRate())
	for i := range light {
		if light[i] != heavy[i] {
			t.Errorf("slot at %v: %+v under a trickle, %+v under overload", light[i].at, light[i].slot, heavy[i].slot)
		}
		if i > 0 && light[i].slot == light[i-1].slot {
			t.Errorf("slot at %v equals the previous one: no draw at the boundary", light[i].at)
		}
	}
}

// A loss spread draws each slot's random loss as random_loss times a
// lognormal factor of mean 1: over many slots the mean is random_loss and
// the log of the factor has sd loss_spread; without a spread every slot has
// random_loss and the slot stream (rate, OWD) is the one it was.
func TestDriftLossSpread(t *testing.T) {
	const n = 20000
	const mean, spread = 1e-3, 1.3
	p := mustProfile(t, "", map[string]any{"downlink.random_loss": mean, "downlink.drift.loss_spread": spread})
	d := newDrifter(&p.Downlink, p.Reconfig.RTTSteps, 1)
	if got := d.first().loss; got != mean {
		t.Errorf("first slot loss %g, want the mean %g", got, mean)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var sum, sumLn, sumLn2 float64
	for range n {
		l := d.next(rng).loss
		sum += l
		ln := math.Log(l / mean)
		sumLn += ln
		sumLn2 += ln * ln
	}
	// The factor's sd is sqrt(exp(s²)-1) = 2.1 at s = 1.3: the mean of n has
	// relative sd 2.1/sqrt(n) = 1.5 %; 4 sd.
	if got := sum / n; math.Abs(got/mean-1) > 4*math.Sqrt(math.Expm1(spread*spread)/n) {
		t.Errorf("mean slot loss %.3g, want %g", got, mean)
	}
	// The sample sd of n normals has sd s/sqrt(2n); 4 sd.
	m := sumLn / n
	if sd := math.Sqrt(sumLn2/n - m*m); math.Abs(sd-spread) > 4*spread/math.Sqrt(2*n) {
		t.Errorf("sd of ln(slot loss factor) %.3f, want %.1f", sd, spread)
	}
	if want := -spread * spread / 2; math.Abs(m-want) > 4*spread/math.Sqrt(n) {
		t.Errorf("mean of ln(slot loss factor) %.3f, want %.3f (mean 1)", m, want)
	}

	// No spread: every slot has the mean, and rate and OWD draws are unchanged.
	q := mustProfile(t, "", map[string]any{"downlink.random_loss": mean})
	a, b := newDrifter(&q.Downlink, q.Reconfig.RTTSteps, 1), newDrifter(&p.Downlink, p.Reconfig.RTTSteps, 1)
	ra, rb := rand.New(rand.NewPCG(7, 8)), rand.New(rand.NewPCG(7, 8))
	sa, sb := a.next(ra), b.next(rb)
	if sa.loss != mean || sa.scale != sb.scale || sa.owd != sb.owd {
		t.Errorf("without a spread: slot %+v; with: %+v (want the mean loss and the same first rate and OWD)", sa, sb)
	}
}
