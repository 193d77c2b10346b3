package repro001

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// Slot-rate procedure (seed 001 §Reconfigurations, findings 13 and 15):
// a probe overloading the link across several boundaries shows each
// slot's stable rate (the allocation it settles at) and, after every
// outage, the regrowth from the reset allocation.
const (
	// slotOffered × the ramp's peak: above the drift's highest slot (the
	// default drift reaches +35 % DL and +73 % UL: median changes of 70
	// and 26 Mbit/s on maxima of 340 and 60); a slot the probe could not
	// overload is left out.
	slotOffered = 2.0
	// slotSettle is how long after a boundary the stable rate is read:
	// past the ~600 ms regrowth (finding 13) with margin.
	slotSettle = 1500 * time.Millisecond
	slotMC     = 20000 // Monte Carlo draws of the drift's sample median
	// slotMaxDuration bounds the probe: at ~500 Mbit/s every packet's
	// record costs memory (125 s: 5 M packets, ~250 MB with the trace).
	slotMaxDuration = 125 * time.Second
)

// Slots is one direction's slot-rate probe.
type Slots struct {
	Direction string
	Offered   float64   // Mbit/s
	Stable    []float64 // per complete-enough slot, Mbit/s
	Changes   []float64 // |Δ| between consecutive slots, Mbit/s
	Regrow    []time.Duration
	// Rate over time (figure), 20 ms averages.
	T, Mbps    []float64
	Boundaries []float64
}

func runSlots(l lab, v Variant, dir string, anchor time.Time, seed int, peakMbps, popMbps float64, period, outage time.Duration, periods float64) (*Slots, error) {
	offered := slotOffered * peakMbps
	if dir == "downlink" && popMbps > 0 {
		offered = min(offered, popMargin*popMbps)
	}
	dur := min(time.Duration(periods*float64(period)), slotMaxDuration).Round(time.Second)
	_, r, err := run{name: "slots-" + dir, path: starlink(dir, v, nil), dur: dur.String(), seed: seed, epoch: anchor,
		flows: []flowSpec{cbr(offered*1e6, 1500, 0, 0)}}.inferred(l, probe.Options{Bin: 20 * time.Millisecond})
	if err != nil {
		return nil, err
	}
	s := &Slots{Direction: dir, Offered: offered}
	for _, p := range r.Rate {
		s.T, s.Mbps = append(s.T, p.T.Seconds()), append(s.Mbps, p.Mbps)
	}
	// The boundaries come from the light probe's schedule (the anchor is
	// a second after one): under load an uplink outage may hide in the
	// deep queue's backlog (finding 14).
	for b := period - anchorLead; b < r.Span; b += period {
		s.Boundaries = append(s.Boundaries, b.Seconds())
	}
	// Slots: from each boundary (and the start) to the next; only those
	// with slotSettle + 1 s of stable rate count.
	cuts := append([]time.Duration{0}, durations(s.Boundaries)...)
	cuts = append(cuts, r.Span)
	prevK := -1
	for k := 1; k < len(cuts); k++ {
		from, to := cuts[k-1]+slotSettle, cuts[k]-100*time.Millisecond
		if k == 1 {
			from = cuts[0] + slotSettle // the probe's own ramp
		}
		if to-from < time.Second {
			continue
		}
		var v []float64
		for _, p := range r.Rate {
			if p.T > from && p.T <= to {
				v = append(v, p.Mbps)
			}
		}
		stable := medianF(v)
		if stable > 0.95*offered {
			continue // the probe, not the link, set the rate
		}
		if prevK == k-1 {
			s.Changes = append(s.Changes, math.Abs(stable-s.Stable[len(s.Stable)-1]))
		}
		s.Stable, prevK = append(s.Stable, stable), k
		if k > 1 {
			if t, ok := regrowTime(r, cuts[k-1], outage, stable); ok {
				s.Regrow = append(s.Regrow, t)
			}
		}
	}
	return s, nil
}

// regrowTime is from the end of the outage at boundary b to where the
// regrowth reaches 90 % of the slot's stable rate: a least-squares line
// through the 20 ms bins between 55 and 85 % of it (a bin holds ~30
// packets at the uplink's slowest slots, so one bin's crossing would be
// ±1 bin; the line averages the climb), read at 90 %.
//
// The outage ends outage after b (the light probe's length): under load
// the prober may not see an uplink outage, whose packets wait in a queue
// that was already long.
func regrowTime(r *probe.Report, b, outage time.Duration, stable float64) (time.Duration, bool) {
	end := b + outage
	var n, sx, sy, sxx, sxy float64
	for _, p := range r.Rate {
		if p.T <= end+20*time.Millisecond {
			continue
		}
		if p.Mbps >= 0.95*stable {
			break
		}
		if f := p.Mbps / stable; f >= 0.55 && f <= 0.85 {
			t := (p.T - 10*time.Millisecond - end).Seconds() // the bin's middle
			n, sx, sy, sxx, sxy = n+1, sx+t, sy+p.Mbps, sxx+t*t, sxy+t*p.Mbps
		}
	}
	if n < 3 || n*sxx-sx*sx <= 0 {
		return 0, false
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	if slope <= 0 {
		return 0, false
	}
	icept := (sy - slope*sx) / n
	return time.Duration((0.9*stable - icept) / slope * float64(time.Second)), true
}

func durations(s []float64) []time.Duration {
	out := make([]time.Duration, len(s))
	for i, x := range s {
		out[i] = time.Duration(x * float64(time.Second))
	}
	return out
}

func (s *Slots) quantities(p *profile.StarlinkProfile) []Quantity {
	a := access(p, s.Direction)
	m := a.Alloc.Multiplier
	// The drift draws each slot's stable rate uniformly on max ± w with
	// w = median_rate_change / (2 − √2) (link/starlink/drift.go: that makes
	// the median slot-to-slot change the profile's).
	w := a.Drift.MedianRateChange / (2 - math.Sqrt2) / 1e6
	hi := a.MaxRate()/1e6 + w
	lo := a.MaxRate()/1e6 - w
	in := 0
	for _, x := range s.Stable {
		if x >= 0.95*lo && x <= hi*1.02 {
			in++
		}
	}
	paperChange := map[string]string{"downlink": "~70 (median)", "uplink": "~26 (median)"}[s.Direction]
	qs := []Quantity{
		{Finding: "15", Direction: s.Direction, Name: "slots with the stable rate inside the drift band", Unit: "share", Paper: "rate shifts between intervals",
			Profile: 1, Inferred: float64(in) / float64(max(1, len(s.Stable))),
			Why: fmt.Sprintf("band max ± %.0f Mbit/s (−5 %% for the frames' quantisation, +2 %%); %d slots", w, len(s.Stable))},
	}
	if n := len(s.Changes); n > 0 {
		lo, hi := sampleMedianRange(w, n)
		want := a.Drift.MedianRateChange / 1e6
		qs = append(qs, Quantity{Finding: "15", Direction: s.Direction, Name: "median rate change between slots", Unit: "Mbit/s", Paper: paperChange,
			Profile: want, Inferred: medianF(append([]float64(nil), s.Changes...)), Abs: math.Max(hi-want, want-lo),
			Why: fmt.Sprintf("the 5–95 %% range of the median of %d changes drawn from the profile's drift (Monte Carlo)", n)})
	}
	if len(s.Regrow) > 0 {
		var g []float64
		for _, t := range s.Regrow {
			g = append(g, ms(t))
		}
		t90 := float64(a.Alloc.Regrow) * (0.9*m - 1) / (m - 1)
		qs = append(qs, Quantity{Finding: "13", Direction: s.Direction, Name: "regrowth after a reset to 90 % of the slot's rate", Unit: "ms", Paper: "~600 to regrow",
			Profile: ms(time.Duration(t90)), Inferred: medianF(g), Rel: within10, Abs: 20,
			Why: "linear regrowth from base over regrow reaches 90 % at regrow·(0.9m−1)/(m−1); a line through 20 ms bins"})
	}
	return qs
}

// sampleMedianRange is the 5 % and 95 % quantiles of the median of n
// consecutive |Δ| of slot rates uniform on ±w (deterministic draws).
func sampleMedianRange(w float64, n int) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	meds := make([]float64, slotMC)
	d := make([]float64, n)
	for k := range meds {
		prev := w * (2*rng.Float64() - 1)
		for i := range d {
			x := w * (2*rng.Float64() - 1)
			d[i], prev = math.Abs(x-prev), x
		}
		meds[k] = medianF(d)
	}
	sort.Float64s(meds)
	return meds[slotMC/20], meds[slotMC-slotMC/20]
}
