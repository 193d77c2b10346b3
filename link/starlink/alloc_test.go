package starlink

import (
	"testing"
	"time"
)

// allocTrace samples the link's allocation every millisecond.
func allocTrace(b *bench, until time.Duration) (ts []time.Duration, rates []float64) {
	for t := time.Duration(0); t < until; t += time.Millisecond {
		b.loop.RunUntil(t)
		ts = append(ts, t)
		rates = append(rates, b.l.Snapshot(t).RateBps)
	}
	return ts, rates
}

// Acceptance 2, downlink: a 500 Mbps CBR is delivered at ~100 Mbps at
// first, at >= 3.2x base within 400 ± 100 ms, and after it stops the
// allocation is back at base within 250 ms.
func TestAllocationRampDownlink(t *testing.T) {
	p := mustProfile(t, "", nil) // epoch 0: first boundary at 12 s, outside the test
	b := newBench(t, "downlink", p, 0)
	start, stop := 100*time.Millisecond, 1100*time.Millisecond
	b.cbr(0, 500e6, 1500, start, stop)
	ts, rates := allocTrace(b, 2*time.Second)
	base := p.Downlink.Alloc.Base

	first := b.delivered[0].at
	if r := b.deliveredRate(first, first+20*time.Millisecond); r < 0.9*base || r > 1.2*base {
		t.Errorf("first 20 ms delivered at %.0f Mbps, want ~%.0f", r/1e6, base/1e6)
	}
	reach := time.Duration(-1)
	for w := start; w < stop; w += 5 * time.Millisecond {
		if b.deliveredRate(w, w+10*time.Millisecond) >= 3.2*base {
			reach = w + 10*time.Millisecond - start
			break
		}
	}
	if reach < 300*time.Millisecond || reach > 500*time.Millisecond {
		t.Errorf("delivery reached 3.2x base %v after the start, want 400 ± 100 ms", reach)
	}
	t.Logf("first 20 ms %.1f Mbps; 3.2x base after %v", b.deliveredRate(first, first+20*time.Millisecond)/1e6, reach)
	for i, tt := range ts {
		if tt >= stop && rates[i] <= base*1.001 {
			t.Logf("back at base %v after the stop", tt-stop)
			if d := tt - stop; d > 250*time.Millisecond {
				t.Errorf("allocation back at base %v after the stop, want <= 250 ms", d)
			}
			return
		}
	}
	t.Error("allocation never returned to base")
}

// Acceptance 2, uplink: 2x base within 400 ± 100 ms; the decay starts
// ~175 ms after the demand stops.
func TestAllocationRampUplink(t *testing.T) {
	p := mustProfile(t, "", nil)
	b := newBench(t, "uplink", p, 0)
	start, stop := 100*time.Millisecond, 1100*time.Millisecond
	b.cbr(0, 100e6, 1500, start, stop)
	ts, rates := allocTrace(b, 2*time.Second)
	base, top := p.Uplink.Alloc.Base, p.Uplink.MaxRate()
	var reach, decay time.Duration = -1, -1
	for i, tt := range ts {
		if reach < 0 && rates[i] >= 0.99*top {
			reach = tt - start
		}
		if tt > stop && decay < 0 && rates[i] < 0.999*top {
			decay = tt - stop
		}
	}
	t.Logf("uplink 2x after %v, decay starts %v after the stop", reach, decay)
	if reach < 300*time.Millisecond || reach > 500*time.Millisecond {
		t.Errorf("uplink reached 2x base %v after the start, want 400 ± 100 ms", reach)
	}
	// Demand stops when the arrival estimate falls below demand_low x
	// allocation: within a few ms of the stop (10 ms window).
	if decay < 160*time.Millisecond || decay > 215*time.Millisecond {
		t.Errorf("uplink decay started %v after the stop, want ~175 ms", decay)
	}
	if got := rates[len(rates)-1]; got != base {
		t.Errorf("uplink allocation %.1f Mbps at the end, want base %.0f", got/1e6, base/1e6)
	}
}

// The allocator's arithmetic: a linear ramp of span/ramp per second under
// pressure, a hold, a linear decay.
func TestAllocatorUnit(t *testing.T) {
	p := mustProfile(t, "", nil)
	a := newAllocator(p.Uplink.Alloc)
	dt := time.Millisecond
	const busy = 100 // backlog above pressure_packets
	now := time.Duration(0)
	for ; now < 200*time.Millisecond; now += dt {
		a.frame(now, dt, int(100e6/8*dt.Seconds()), busy, false) // 100 Mbps offered
	}
	// 200 ms into a 400 ms ramp from 30 to 60 Mbps: 45 Mbps, less the few
	// ms the arrival estimate needs to pass demand_high x allocation.
	if a.rate < 43e6 || a.rate > 45e6 {
		t.Errorf("after 200 ms of pressure: %.2f Mbps, want ~45", a.rate/1e6)
	}
	for ; now < 600*time.Millisecond; now += dt {
		a.frame(now, dt, int(100e6/8*dt.Seconds()), busy, false)
	}
	if a.rate != 60e6 {
		t.Errorf("after 600 ms: %.2f Mbps, want the 60 Mbps cap", a.rate/1e6)
	}
	a.reset()
	if a.rate != 30e6 || !a.regrowing {
		t.Errorf("reset: %.2f Mbps regrowing=%v", a.rate/1e6, a.regrowing)
	}
}
