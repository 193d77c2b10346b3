package paper002

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/result"
)

// Data is the study's results, read back from the campaign store.
type Data struct {
	Results map[string]*result.Result // by run id
	// BaseRTTMs is the LeoEM path's round-trip propagation (2 × the path
	// file's one-way delay) per second of a LeoEM run, from its start.
	BaseRTTMs []float64
	// BaseDown marks the seconds of BaseRTTMs the path is down.
	BaseDown []bool
	// path is the LeoEM path file, its runs starting at second pathFirst.
	path      *schedule.PathLog
	pathFirst int
	// Probe is a live study's CBR probe over the LeoEM path (PathProbe),
	// run by the caller and handed over here: the store keeps no probe
	// packets. Nil: none ran.
	Probe *result.Result
	// Twin is the live parts' simulated twins (SimTwins, TwinParts), read
	// back by the caller for the live-against-sim table; nil: none.
	Twin      *Data
	TwinParts []*Part
	// Findings collects the numbers the verdicts use, by key (findings.go).
	Findings map[string]metrics.Estimate
}

// Load reads every run of the parts from the store; a run the store does
// not hold is an error (the caller ran them first).
func Load(ctx context.Context, st *campaign.Store, parts []*Part) (*Data, error) {
	d := &Data{Results: map[string]*result.Result{}, Findings: map[string]metrics.Estimate{}}
	for _, p := range parts {
		for _, r := range p.Runs {
			res, err := st.Result(ctx, r.ID)
			if err != nil {
				return nil, fmt.Errorf("paper002: %s: %w", p.File, err)
			}
			d.Results[r.ID] = res
		}
		if d.BaseRTTMs == nil {
			if pl, first, ok, err := leoemPath(p); err != nil {
				return nil, err
			} else if ok {
				d.BaseRTTMs, d.BaseDown = leoemBaseRTT(pl, first, p.Campaign.Duration)
				d.path, d.pathFirst = pl, first
			}
		}
	}
	return d, nil
}

// cell is the runs of one point of a figure: a cca and a sweep point.
type cell struct {
	CCA   string
	Point []campaign.Setting
	Runs  []*result.Result
	First campaign.Run // the cell's first run (its seed-1 run when present)
}

// value returns the cell's setting of a sweep key ("" if none).
func (c *cell) value(key string) string {
	for _, s := range c.Point {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// cells groups a part's runs by cca and sweep point, in run order of first
// appearance (ccas and points in the campaign's order).
func (d *Data) cells(p *Part) []*cell {
	var out []*cell
	idx := map[string]*cell{}
	for _, r := range p.Runs {
		res := d.Results[r.ID]
		if res == nil {
			continue
		}
		key := fmt.Sprint(r.CCAs[0], r.Sweep)
		c := idx[key]
		if c == nil {
			c = &cell{CCA: r.CCAs[0], Point: r.Sweep, First: r}
			idx[key] = c
			out = append(out, c)
		}
		c.Runs = append(c.Runs, res)
	}
	// Order: by cca in the axis order, then by point as expanded.
	order := p.Campaign.Axes.CCA
	slices.SortStableFunc(out, func(a, b *cell) int { return slices.Index(order, a.CCA) - slices.Index(order, b.CCA) })
	return out
}

// each estimates f over a cell's runs.
func (c *cell) each(f func(*result.Result) float64) metrics.Estimate {
	xs := make([]float64, 0, len(c.Runs))
	for _, r := range c.Runs {
		xs = append(xs, f(r))
	}
	return metrics.MeanCI(xs)
}

// goodputs are a run's flows' mean goodputs (Mbit/s).
func goodputs(r *result.Result) []float64 {
	out := make([]float64, len(r.Flows))
	for i, f := range r.Flows {
		out[i] = f.ThroughputMbps
	}
	return out
}

// meanSRTT is a flow's mean smoothed RTT over the intervals ending in
// (from, to] s since its start (every interval with from = to = 0), ms.
func meanSRTT(f result.Flow, from, to float64) float64 {
	var sum float64
	n := 0
	for _, iv := range f.Intervals {
		t := iv.T - f.StartS
		if (from != 0 || to != 0) && (t <= from || t > to) || iv.SRTTMs <= 0 {
			continue
		}
		sum += iv.SRTTMs
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// rateIn is a flow's goodput over the intervals ending in (from, to] s of
// run time, Mbit/s; NaN when none.
func rateIn(f result.Flow, from, to float64) float64 {
	var bytes int64
	var t0, t1 = math.NaN(), math.NaN()
	prev := f.StartS
	for _, iv := range f.Intervals {
		if iv.T > from && iv.T <= to {
			if math.IsNaN(t0) {
				t0 = prev
			}
			t1 = iv.T
			bytes += iv.Bytes
		}
		prev = iv.T
	}
	if math.IsNaN(t0) || t1 <= t0 {
		return math.NaN()
	}
	return float64(bytes) * 8 / (t1 - t0) / 1e6
}

// perInterval is a flow's goodput per interval (Mbit/s) with the interval
// ends (s of run time).
func perInterval(f result.Flow) (t, v []float64) {
	prev := f.StartS
	for _, iv := range f.Intervals {
		if dt := iv.T - prev; dt > 0 {
			t = append(t, iv.T)
			v = append(v, float64(iv.Bytes)*8/dt/1e6)
		}
		prev = iv.T
	}
	return t, v
}

// recovery is the time from at until the first interval (ending after at)
// whose goodput reaches frac × capacity, s; NaN when none does.
func recovery(f result.Flow, at, frac, capacityMbps float64) float64 {
	t, v := perInterval(f)
	for i := range t {
		if t[i] > at && v[i] >= frac*capacityMbps {
			return t[i] - at
		}
	}
	return math.NaN()
}
