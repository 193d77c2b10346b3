package metrics

import (
	"fmt"
	"slices"
	"time"
)

// Defaults of the reaction-window detector (seed 000 Fig. 12). The seed
// defines a BBR reaction window as "an RTT spike or bandwidth drop followed
// by a congestion window drop within the reaction window" but gives no
// thresholds; ours are the fluid model's own gains (its Eq. 6–9), so that a
// detected disturbance is one that would switch I_dwn on in that model.
const (
	// DefaultRTTSpike: an interval's RTT at least 5/4 of the recent median
	// is a spike. Under the seed's quasi-steady v ≈ x·RTT, a delivery rate
	// held while the RTT grows by 5/4 puts 5/4·BDP̄ in flight: the I_dwn
	// trigger v > 5/4·BDP̄.
	DefaultRTTSpike = 1.25
	// DefaultBWDrop: an interval's throughput at most 3/4 of the recent
	// median is a bandwidth drop (the ProbeBW_DOWN pacing gain 3/4, Eq. 6).
	DefaultBWDrop = 0.75
	// DefaultCwndCut: a cwnd at most (1−β) of what it was before the
	// disturbance is a reduction, β = 0.15 the seed's headroom margin (the
	// (1−β)·BDP_hi cruise target of Fig. 11).
	DefaultCwndCut = 0.85
	// DefaultReactionWindow is how long after a disturbance a cwnd
	// reduction still counts as its reaction: one BBRv3 ProbeBW wait at
	// its longest (2 s + up to 1 s, bbr_bw_probe_base_us/rand_us), the
	// cycle within which the model revisits its inflight bounds.
	DefaultReactionWindow = 3 * time.Second
	// DefaultBaseline is the trailing window whose median is "recent": ten
	// of iperf3's 1 s intervals, shorter than the 15 s slot so a
	// reconfiguration's RTT step becomes the new baseline within a slot.
	DefaultBaseline = 10 * time.Second
)

// ReactionOptions parameterise Reactions; zero fields take the defaults.
type ReactionOptions struct {
	RTTSpike, BWDrop, CwndCut float64
	Window, Baseline          time.Duration
}

// Disturbance is one run of consecutive disturbed intervals and what the
// sender's cwnd did after it.
type Disturbance struct {
	Start, End time.Duration // end of the first and last disturbed interval
	RTTSpike   bool          // some interval's RTT ≥ RTTSpike × recent median
	BWDrop     bool          // some interval's throughput ≤ BWDrop × recent median
	// Perturbation: an RTT excursion coinciding with a throughput drop in
	// one interval (the seed's "bandwidth perturbation event").
	Perturbation bool
	Reacted      bool          // a cwnd reduction followed within the window
	Delay        time.Duration // reaction delay: reduction interval end − Start (0: the same interval)
	CwndBefore   int           // bytes, the most in the interval before and until the reduction
	CwndAfter    int           // bytes, at the reduction
}

// ReactionSummary condenses the events of a trace.
type ReactionSummary struct {
	Events, RTTSpikes, BWDrops, Perturbations, Reacted int
	// Gap statistics: time between the starts of successive disturbances
	// (the seed's "disturbance spacing", tens of seconds on Starlink).
	MedianGap, MeanGap time.Duration
	// PerturbationGap is the median time between successive perturbation
	// events alone.
	PerturbationGap time.Duration
	// Delay statistics over the reacted events.
	MedianDelay, MeanDelay time.Duration
}

// Reactions finds the reaction windows of a per-flow series (seed 000
// Fig. 12). Interval j is disturbed when, against the median m of the
// samples that ended within Baseline before it (at least three),
//
//	RTT_j ≥ RTTSpike·m_RTT   (RTT spike)   or   x_j ≤ BWDrop·m_x   (bandwidth drop)
//
// and consecutive disturbed intervals form one disturbance starting at the
// first. It reacted when some interval k within Window of the start
// (k ≥ the first disturbed interval) has cwnd_k ≤ CwndCut·max(cwnd over the
// interval before the disturbance up to k−1); the reaction delay is
// t_k − t_start, so 0 means the cwnd fell in the disturbed interval itself.
// Intervals without an RTT or cwnd (0) never count as disturbed or reduced.
func Reactions(s []Sample, opt ReactionOptions) ([]Disturbance, error) {
	opt = opt.withDefaults()
	if err := opt.validate(); err != nil {
		return nil, err
	}
	var out []Disturbance
	scratch := make([]float64, 0, 64)
	lo := 0
	for j := 0; j < len(s); j++ {
		for lo < j && s[lo].T < s[j].T-opt.Baseline {
			lo++
		}
		spike, drop, ok := disturbed(s, lo, j, opt, &scratch)
		if !ok || !(spike || drop) {
			continue
		}
		d := Disturbance{Start: s[j].T, End: s[j].T}
		last := j
		for ; last < len(s); last++ {
			for lo < last && s[lo].T < s[last].T-opt.Baseline {
				lo++
			}
			sp, dr, ok := disturbed(s, lo, last, opt, &scratch)
			if last > j && (!ok || !(sp || dr)) {
				break
			}
			d.End = s[last].T
			d.RTTSpike = d.RTTSpike || sp
			d.BWDrop = d.BWDrop || dr
			d.Perturbation = d.Perturbation || (sp && dr)
		}
		react(s, j, opt.Window, opt.CwndCut, &d)
		out = append(out, d)
		j = last - 1 // resume after the disturbance
	}
	return out, nil
}

// disturbed tests interval j against the median of s[lo:j]; ok is false
// when j has no RTT or fewer than three baseline samples exist.
func disturbed(s []Sample, lo, j int, opt ReactionOptions, scratch *[]float64) (spike, drop, ok bool) {
	if j-lo < 3 || s[j].SRTT <= 0 {
		return false, false, false
	}
	mRTT := median(s[lo:j], scratch, func(x Sample) float64 { return float64(x.SRTT) })
	mX := median(s[lo:j], scratch, func(x Sample) float64 { return x.ThroughputBps })
	spike = mRTT > 0 && float64(s[j].SRTT) >= opt.RTTSpike*mRTT
	drop = mX > 0 && s[j].ThroughputBps <= opt.BWDrop*mX
	return spike, drop, true
}

// react looks for the cwnd reduction after the disturbance starting at j.
func react(s []Sample, j int, window time.Duration, cut float64, d *Disturbance) {
	ref := 0
	if j > 0 {
		ref = s[j-1].CWnd
	}
	for k := j; k < len(s) && s[k].T-s[j].T <= window; k++ {
		if k > j {
			ref = max(ref, s[k-1].CWnd)
		}
		if ref > 0 && s[k].CWnd > 0 && float64(s[k].CWnd) <= cut*float64(ref) {
			d.Reacted, d.Delay, d.CwndBefore, d.CwndAfter = true, s[k].T-s[j].T, ref, s[k].CWnd
			return
		}
	}
}

// median of f over xs, sorting in the caller's scratch buffer (no
// allocation once it has grown to the baseline's length).
func median(xs []Sample, scratch *[]float64, f func(Sample) float64) float64 {
	b := (*scratch)[:0]
	for _, x := range xs {
		if v := f(x); v > 0 {
			b = append(b, v)
		}
	}
	*scratch = b
	if len(b) == 0 {
		return 0
	}
	slices.Sort(b)
	if n := len(b); n%2 == 0 {
		return (b[n/2-1] + b[n/2]) / 2
	}
	return b[len(b)/2]
}

// SummariseReactions counts the events and gives the median and mean gap
// between disturbances and reaction delay.
func SummariseReactions(ev []Disturbance) ReactionSummary {
	var s ReactionSummary
	s.Events = len(ev)
	var gaps, delays, pgaps []time.Duration
	lastP := time.Duration(-1)
	for i, e := range ev {
		if e.RTTSpike {
			s.RTTSpikes++
		}
		if e.BWDrop {
			s.BWDrops++
		}
		if e.Perturbation {
			s.Perturbations++
			if lastP >= 0 {
				pgaps = append(pgaps, e.Start-lastP)
			}
			lastP = e.Start
		}
		if e.Reacted {
			s.Reacted++
			delays = append(delays, e.Delay)
		}
		if i > 0 {
			gaps = append(gaps, e.Start-ev[i-1].Start)
		}
	}
	s.MedianGap, s.MeanGap = durStats(gaps)
	s.MedianDelay, s.MeanDelay = durStats(delays)
	s.PerturbationGap, _ = durStats(pgaps)
	return s
}

// ChanceReaction is the fraction of all intervals (after the first) that
// the reaction test would call reacted if a disturbance started there: the
// rate at which cwnd cuts follow any instant. A detector is informative
// only when its disturbances react more often than this.
func ChanceReaction(s []Sample, opt ReactionOptions) float64 {
	opt = opt.withDefaults()
	if len(s) < 2 {
		return 0
	}
	n := 0
	for j := 1; j < len(s); j++ {
		var d Disturbance
		react(s, j, opt.Window, opt.CwndCut, &d)
		if d.Reacted {
			n++
		}
	}
	return float64(n) / float64(len(s)-1)
}

// durStats is the (lower) median and the mean of ds; zeros for none.
func durStats(ds []time.Duration) (med, mean time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	c := slices.Clone(ds)
	slices.Sort(c)
	var sum time.Duration
	for _, d := range c {
		sum += d
	}
	return c[(len(c)-1)/2], sum / time.Duration(len(c))
}

func (o ReactionOptions) withDefaults() ReactionOptions {
	if o.RTTSpike == 0 {
		o.RTTSpike = DefaultRTTSpike
	}
	if o.BWDrop == 0 {
		o.BWDrop = DefaultBWDrop
	}
	if o.CwndCut == 0 {
		o.CwndCut = DefaultCwndCut
	}
	if o.Window == 0 {
		o.Window = DefaultReactionWindow
	}
	if o.Baseline == 0 {
		o.Baseline = DefaultBaseline
	}
	return o
}

func (o ReactionOptions) validate() error {
	if o.RTTSpike <= 1 || o.BWDrop <= 0 || o.BWDrop >= 1 || o.CwndCut <= 0 || o.CwndCut >= 1 ||
		o.Window < 0 || o.Baseline <= 0 {
		return fmt.Errorf("reaction windows: rtt spike %g (want > 1), bw drop %g and cwnd cut %g (want in (0, 1)), "+
			"window %v (want ≥ 0), baseline %v (want > 0)", o.RTTSpike, o.BWDrop, o.CwndCut, o.Window, o.Baseline)
	}
	return nil
}
