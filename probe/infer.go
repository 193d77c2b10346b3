package probe

import (
	"fmt"
	"time"
)

// Options tune the inference; the zero value gives the defaults.
type Options struct {
	// Threshold is how much longer than the sender's spacing the arrivals
	// must pause to make an outage. Default 10 ms: well above a Starlink
	// frame's batching (1.33 ms), below the shortest outage (45 ms, seed
	// 001 finding 14).
	Threshold time.Duration
	// Window is the half-width of the delay floor's window (the path's
	// delay without queueing, which places outages on the sender's
	// clock). Default 1 s.
	Window time.Duration
	// Merge joins outage candidates less than this apart. Default 250 ms:
	// longer than the model's boundary delay spikes (75 ms before, 140 ms
	// after a boundary; DESIGN.md), shorter than any period looked for.
	Merge time.Duration
	// MinPeriod and MaxPeriod bound the schedule's period. Default 5 s
	// and 60 s (Starlink: 15 s).
	MinPeriod, MaxPeriod time.Duration
	// Tolerance is how far an outage may start from its boundary. Default
	// 100 ms or two packet spacings, whichever is longer: the LeoReplayer
	// recording's outages start up to 55 ms apart from a 15 s grid.
	Tolerance time.Duration
	// FrameMin and FrameMax bound the frame search. Default 0.5 and 5 ms.
	FrameMin, FrameMax time.Duration
	// Bin is the rate series' bin. Default 5 ms.
	Bin time.Duration
	// Settle is how long after an outage's end the interval statistics
	// skip (the queue built during it drains). Default 100 ms.
	Settle time.Duration
}

func (o Options) withDefaults(spacing time.Duration) Options {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.Threshold, 10*time.Millisecond)
	def(&o.Window, time.Second)
	def(&o.Merge, 250*time.Millisecond)
	def(&o.MinPeriod, 5*time.Second)
	def(&o.MaxPeriod, 60*time.Second)
	def(&o.Tolerance, max(100*time.Millisecond, 2*spacing))
	def(&o.FrameMin, 500*time.Microsecond)
	def(&o.FrameMax, 5*time.Millisecond)
	def(&o.Bin, 5*time.Millisecond)
	def(&o.Settle, 100*time.Millisecond)
	return o
}

func (o Options) validate() error {
	switch {
	case o.MinPeriod >= o.MaxPeriod:
		return fmt.Errorf("min period %v must be below max period %v", o.MinPeriod, o.MaxPeriod)
	case o.FrameMin >= o.FrameMax:
		return fmt.Errorf("frame search: min %v must be below max %v", o.FrameMin, o.FrameMax)
	}
	return nil
}

// Interval is one stretch between schedule boundaries (or the whole trace
// when there is no schedule), outages and their settling excluded.
type Interval struct {
	Start, End                time.Duration
	Packets, Lost             int
	MinOWD, MedianOWD, P95OWD time.Duration
	Mbps                      float64 // delivered rate; 0 when the size is unknown
}

// Report is what a trace says about its link.
type Report struct {
	Packets, Lost int
	LossRate      float64
	Span          time.Duration // first to last send
	Spacing       time.Duration // median send interval
	Size          int           // bytes per packet; 0 unknown
	// Delay quantiles of the delivered packets.
	MinOWD, MedianOWD, P95OWD, P99OWD time.Duration

	Outages []Outage
	// Schedule is nil when the outages fit no periodic grid.
	Schedule *Schedule
	// OutageLength is the median length of the outages on the grid (all
	// outages when there is no schedule).
	OutageLength time.Duration
	// LostInOutages counts losses inside outages.
	LostInOutages int

	Intervals []Interval
	// Shift is the median change of the median delay between consecutive
	// intervals (seed 001 finding 15: the path's delay moves at each
	// reconfiguration).
	Shift time.Duration

	Frame *Frame // nil when arrivals show no frame grid
	Ramp  *Ramp  // nil unless the probe overloaded the link's first allocation
	Burst *Burst // nil unless the probe was a burst that overflowed a queue
	Rate  []RatePoint
	Epoch time.Time
}

// Infer reads the link's behaviour from a probe trace.
func Infer(tr *Trace, opt Options) (*Report, error) {
	s := tr.Samples
	if len(s) < 2 {
		return nil, fmt.Errorf("a trace needs at least 2 packets, this one has %d", len(s))
	}
	opt = opt.withDefaults(tr.Spacing)
	if err := opt.validate(); err != nil {
		return nil, err
	}
	r := &Report{Packets: len(s), Span: s[len(s)-1].Sent - s[0].Sent, Spacing: tr.Spacing, Size: tr.Size, Epoch: tr.Epoch}
	var owd []time.Duration
	for _, x := range s {
		if x.Lost {
			r.Lost++
		} else {
			owd = append(owd, x.OWD)
		}
	}
	r.LossRate = float64(r.Lost) / float64(r.Packets)
	if len(owd) == 0 {
		return nil, fmt.Errorf("all %d packets were lost", len(s))
	}
	r.MinOWD, r.MedianOWD, r.P95OWD, r.P99OWD = quantile(owd, 0), quantile(owd, 0.5), quantile(owd, 0.95), quantile(owd, 0.99)

	before, after := delayFloor(s, opt.Window)
	r.Outages = findOutages(s, before, after, opt.Threshold, tr.Spacing, opt.Merge)
	starts := make([]time.Duration, len(r.Outages))
	lengths := make([]time.Duration, len(r.Outages))
	for i, o := range r.Outages {
		starts[i], lengths[i] = o.Start, o.Length()
		r.LostInOutages += o.Lost
	}
	if sch, ok := fitSchedule(starts, lengths, s[0].Sent, s[len(s)-1].Sent, opt.MinPeriod, opt.MaxPeriod, opt.Tolerance); ok {
		if !tr.Epoch.IsZero() {
			minute := tr.Epoch.Sub(tr.Epoch.UTC().Truncate(time.Minute))
			sch.UTCOffset = (minute + sch.Phase) % sch.Period
		}
		r.Schedule = &sch
	}
	var onGrid []time.Duration
	for _, o := range r.Outages {
		if r.Schedule == nil || r.Schedule.onGrid(o.Start, opt.Tolerance) {
			onGrid = append(onGrid, o.Length())
		}
	}
	r.OutageLength = quantile(onGrid, 0.5)

	r.Intervals = intervals(s, r.Schedule, r.Outages, tr.Size, opt.Settle)
	var shifts []time.Duration
	for k := 1; k < len(r.Intervals); k++ {
		a, b := r.Intervals[k-1], r.Intervals[k]
		if a.Packets > a.Lost && b.Packets > b.Lost {
			shifts = append(shifts, abs(b.MedianOWD-a.MedianOWD))
		}
	}
	r.Shift = quantile(shifts, 0.5)

	if f, ok := findFrame(s, opt.FrameMin, opt.FrameMax); ok {
		r.Frame = &f
	}
	r.Rate = deliveryRate(s, tr.Size, opt.Bin)
	until := s[len(s)-1].Recv()
	for _, o := range r.Outages {
		if o.Start > s[0].Sent {
			until = o.Start
			break
		}
	}
	if rp, ok := findRamp(r.Rate, opt.Bin, until); ok {
		r.Ramp = &rp
	}
	if b, ok := findBurst(s, r.MinOWD); ok {
		r.Burst = &b
	}
	return r, nil
}

// onGrid reports whether t is within tol of a boundary.
func (s Schedule) onGrid(t, tol time.Duration) bool {
	n := s.Next(t - tol)
	return n <= t+tol
}

// intervals cuts s at the schedule's boundaries (one interval without a
// schedule) and summarises each, skipping outages and settle after them.
func intervals(s []Sample, sch *Schedule, outs []Outage, size int, settle time.Duration) []Interval {
	first, last := s[0].Sent, s[len(s)-1].Sent
	cuts := []time.Duration{first}
	if sch != nil {
		for b := sch.Next(first + 1); b < last; b += sch.Period {
			cuts = append(cuts, b)
		}
	}
	cuts = append(cuts, last+1)
	out := make([]Interval, 0, len(cuts)-1)
	oi, i := 0, 0
	for k := 1; k < len(cuts); k++ {
		iv := Interval{Start: cuts[k-1], End: cuts[k]}
		var owd []time.Duration
		var from, to time.Duration = -1, 0
		for ; i < len(s) && s[i].Sent < iv.End; i++ {
			x := s[i]
			for oi < len(outs) && outs[oi].End+settle < x.Sent {
				oi++
			}
			if oi < len(outs) && x.Sent >= outs[oi].Start && x.Sent <= outs[oi].End+settle {
				continue
			}
			iv.Packets++
			if x.Lost {
				iv.Lost++
				continue
			}
			owd = append(owd, x.OWD)
			if from < 0 {
				from = x.Recv()
			}
			to = x.Recv()
		}
		if len(owd) > 0 {
			iv.MinOWD, iv.MedianOWD, iv.P95OWD = quantile(owd, 0), quantile(owd, 0.5), quantile(owd, 0.95)
			if size > 0 && to > from {
				iv.Mbps = float64((len(owd)-1)*size*8) / (to - from).Seconds() / 1e6
			}
		}
		out = append(out, iv)
	}
	return out
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
