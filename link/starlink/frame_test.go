package starlink

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
)

// Acceptance 3: delivery stops for 45 ms (DL) / 68 ms (UL) at each boundary
// of the run's UTC minute (:12, :27, :42, :57).
func TestReconfigurationOutages(t *testing.T) {
	const epoch = 5 * time.Second // t = 0 is :05, so boundaries at t = 7, 22, 37, 52 s
	want := []time.Duration{7 * time.Second, 22 * time.Second, 37 * time.Second, 52 * time.Second}
	for _, dir := range []string{"downlink", "uplink"} {
		p := mustProfile(t, "", nil)
		outage := p.Downlink.Outage.Duration
		if dir == "uplink" {
			outage = p.Uplink.Outage.Duration
		}
		b := newBench(t, dir, p, epoch)
		gap := 500 * time.Microsecond
		b.cbr(0, 1500*8/gap.Seconds(), 1500, 0, 60*time.Second)
		b.loop.RunUntil(61 * time.Second)
		var gaps, at []time.Duration
		for i := 1; i < len(b.delivered); i++ {
			if g := b.delivered[i].at - b.delivered[i-1].at; g > 20*time.Millisecond {
				gaps = append(gaps, g)
				at = append(at, b.delivered[i-1].at-p.Downlink.BaseOWD)
			}
		}
		if len(gaps) != len(want) {
			t.Fatalf("%s: %d delivery gaps (%v at %v), want one per boundary %v", dir, len(gaps), gaps, at, want)
		}
		// A gap is the outage, give or take one frame of grant phase, one
		// inter-packet gap and the slot's OWD shift (<= owd_max).
		tol := p.TDMA.Frame + gap + p.Downlink.Drift.OWDMax
		for i, g := range gaps {
			if d := g - outage; d < -tol || d > tol {
				t.Errorf("%s: gap %v at %v, want %v ± %v", dir, g, at[i], outage, tol)
			}
			if d := at[i] - want[i]; d < -50*time.Millisecond || d > 50*time.Millisecond {
				t.Errorf("%s: gap at %v, want at the boundary %v", dir, at[i], want[i])
			}
		}
		t.Logf("%s: gaps %v", dir, gaps)
	}
}

// Acceptance 3: the allocation resets at a boundary and regrows within
// ~600 ms (regrow) after the outage.
func TestResetAndRegrow(t *testing.T) {
	p := mustProfile(t, "", nil)
	b := newBench(t, "downlink", p, 11*time.Second) // boundary at t = 1 s
	b.cbr(0, 500e6, 1500, 0, 3*time.Second)
	ts, rates := allocTrace(b, 3*time.Second)
	boundary := time.Second
	var before, after, top float64
	var regrown time.Duration = -1
	for i, tt := range ts {
		switch {
		case tt == boundary-time.Millisecond:
			before = rates[i]
		case tt == boundary+time.Millisecond:
			after = rates[i]
		case tt == 2900*time.Millisecond:
			top = rates[i]
		}
	}
	for i, tt := range ts {
		if tt > boundary && regrown < 0 && rates[i] >= 0.99*top {
			regrown = tt - boundary
		}
	}
	slotBase := top / p.Downlink.Alloc.Multiplier
	if before != p.Downlink.MaxRate() || after != slotBase {
		t.Errorf("allocation %.1f Mbps before, %.1f after the boundary; want %.0f then the slot's base %.1f",
			before/1e6, after/1e6, p.Downlink.MaxRate()/1e6, slotBase/1e6)
	}
	// Outage 45 ms, then 600 ms of linear regrowth, plus the few ms the
	// arrival estimate needs.
	if regrown < 600*time.Millisecond || regrown > 700*time.Millisecond {
		t.Errorf("regrown %v after the boundary, want ~645 ms", regrown)
	}
	t.Logf("before %.0f, after %.1f, slot max %.1f Mbps, regrown after %v", before/1e6, after/1e6, top/1e6, regrown)
}

// Arrivals during an outage are queued by default (seed 001: the DL queue
// surges); drop_arrivals reports them as DropOutage instead.
func TestOutageDropArrivals(t *testing.T) {
	for _, dropArr := range []bool{false, true} {
		p := mustProfile(t, "", map[string]any{"downlink.outage.drop_arrivals": dropArr})
		b := newBench(t, "downlink", p, 11*time.Second)
		b.cbr(0, 12e6, 1500, 900*time.Millisecond, 1100*time.Millisecond) // 1 packet/ms
		b.loop.RunUntil(1500 * time.Millisecond)
		got := b.nDrop[link.DropOutage]
		if !dropArr && got != 0 {
			t.Errorf("queueing outage dropped %d", got)
		}
		if dropArr && (got < 43 || got > 46) {
			t.Errorf("dropping outage dropped %d, want ~45 (1 per ms for 45 ms)", got)
		}
	}
}

// arrival_loss drops each arrival during an outage with its probability:
// at 10 packets/ms over the 45 ms downlink outage, 450 arrivals, of which a
// share of 0.3 lost is 135 ± 3σ (σ = √(450·0.3·0.7) ≈ 9.7), all inside the
// outage, and none otherwise.
func TestOutageArrivalLoss(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"downlink.outage.arrival_loss": 0.3})
	b := newBench(t, "downlink", p, 11*time.Second)
	b.cbr(0, 120e6, 1500, 900*time.Millisecond, 1100*time.Millisecond)
	b.loop.RunUntil(1500 * time.Millisecond)
	lost := 0
	for _, d := range b.dropped {
		if d.cause != link.DropOutage {
			continue
		}
		lost++
		if d.at < time.Second || d.at >= time.Second+p.Downlink.Outage.Duration {
			t.Errorf("outage drop at %v, outside the outage [1s, %v)", d.at, time.Second+p.Downlink.Outage.Duration)
		}
	}
	sigma := math.Sqrt(450 * 0.3 * 0.7)
	if math.Abs(float64(lost)-135) > 3*sigma {
		t.Errorf("%d of ~450 outage arrivals lost, want 135 ± %.0f", lost, 3*sigma)
	}
}

// outage.clean_prob makes a boundary's loss all-or-nothing: over 80
// boundaries of 45 arrivals each (1 packet/ms, 45 ms outage) at
// arrival_loss 0.5 and clean_prob 0.3, the boundaries losing nothing are
// Binomial(80, 0.3) = 24 ± 3σ (σ = √(80·0.3·0.7) ≈ 4.1), a lossy boundary
// losing none has probability 0.5^45, and the lossy ones lose 22.5 each on
// average ± 3σ of the mean (σ ≈ √(45·0.25/56) ≈ 0.45). Without clean_prob
// every boundary loses.
func TestOutageCleanBoundaries(t *testing.T) {
	const n = 80
	for _, clean := range []float64{0, 0.3} {
		p := mustProfile(t, "", map[string]any{"downlink.outage.arrival_loss": 0.5, "downlink.outage.clean_prob": clean})
		b := newBench(t, "downlink", p, 11*time.Second) // boundaries at 1 s + k·15 s
		// Send only around each boundary.
		for k := range n {
			at := time.Second + time.Duration(k)*15*time.Second
			b.cbr(0, 12e6, 1500, at-20*time.Millisecond, at+80*time.Millisecond)
		}
		b.loop.RunUntil(n*15*time.Second + time.Second)
		var lost [n]int
		for _, d := range b.dropped {
			if d.cause == link.DropOutage {
				lost[(d.at-time.Second)/(15*time.Second)]++
			}
		}
		cleanN, lossySum := 0, 0
		for _, k := range lost {
			if k == 0 {
				cleanN++
			}
			lossySum += k
		}
		if clean == 0 {
			if cleanN != 0 {
				t.Errorf("clean_prob 0: %d of %d boundaries lost nothing, want every boundary lossy", cleanN, n)
			}
			continue
		}
		if sigma := math.Sqrt(n * clean * (1 - clean)); math.Abs(float64(cleanN)-n*clean) > 3*sigma {
			t.Errorf("clean_prob %.1f: %d of %d boundaries clean, want %.0f ± %.0f", clean, cleanN, n, n*clean, 3*sigma)
		}
		mean := float64(lossySum) / float64(n-cleanN)
		if sigma := math.Sqrt(45 * 0.25 / float64(n-cleanN)); math.Abs(mean-22.5) > 3*sigma {
			t.Errorf("lossy boundaries lost %.1f of 45 arrivals each, want 22.5 ± %.1f", mean, 3*sigma)
		}
		t.Logf("clean_prob %.1f: %d of %d boundaries clean, the others lost %.1f of 45 each", clean, cleanN, n, mean)
	}
}

// Packets granted in one frame leave together: delivery instants are frame
// starts plus the OWD (the ACK compression the transport must see).
func TestFrameBatches(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"downlink.drift.owd_max": "0s", "downlink.random_loss": 0})
	b := newBench(t, "downlink", p, 0)
	b.cbr(0, 50e6, 1500, 0, 200*time.Millisecond)
	b.loop.RunUntil(time.Second)
	batches := map[time.Duration]int{}
	for _, r := range b.delivered {
		rel := r.at - p.Downlink.BaseOWD
		if rel%p.TDMA.Frame != 0 {
			t.Fatalf("delivery at %v: not a frame start + base OWD", r.at)
		}
		batches[rel]++
	}
	// 50 Mbps = 4167 packets/s: 5.6 packets per 1.333 ms frame.
	if n := float64(len(b.delivered)) / float64(len(batches)); n < 5 || n > 6.2 {
		t.Errorf("%.2f packets per frame batch, want ~5.6", n)
	}
}

// Delay spikes add their extra OWD in the first head and last tail of a slot.
func TestSpikes(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"reconfig.spikes.enabled": true, "downlink.drift.owd_max": "0s"})
	b := newBench(t, "downlink", p, 11*time.Second) // boundary at 1 s
	b.cbr(0, 1.2e6, 150, 0, 2*time.Second)          // 1 packet/ms
	b.loop.RunUntil(3 * time.Second)
	base := p.Downlink.BaseOWD + p.TDMA.Frame
	for _, r := range b.delivered {
		owd := r.at - r.sent
		inTail := r.sent >= time.Second-p.Reconfig.Spikes.Tail+2*time.Millisecond && r.sent < time.Second-2*time.Millisecond
		inHead := r.sent >= time.Second+60*time.Millisecond && r.sent < time.Second+p.Reconfig.Spikes.Head-2*time.Millisecond
		calm := r.sent >= 1300*time.Millisecond && r.sent < 1800*time.Millisecond
		switch {
		case (inTail || inHead) && owd < p.Reconfig.Spikes.Extra+p.Downlink.BaseOWD:
			t.Fatalf("packet sent %v: OWD %v, want the spike", r.sent, owd)
		case calm && owd > base:
			t.Fatalf("packet sent %v: OWD %v, want <= %v", r.sent, owd, base)
		}
	}
}
