package analyze

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// groupSeries is one group's flows that have a series, aligned on a common
// time axis: seconds since the earliest wall-clock start among them (or
// each flow's own t = 0 when the start is unknown).
type groupSeries struct {
	name     string
	flows    []int           // indices into Analysis.Flows
	offset   []time.Duration // per flow, its start after the reference
	ref      time.Time       // reference wall clock; zero when unknown
	maxT     time.Duration
	starlink bool // a Starlink path (city known): draw reconfiguration boundaries
}

// seriesGroups lists the groups with per-interval data, at most
// maxGroupFigures of them.
func (a *Analysis) seriesGroups() []groupSeries {
	var out []groupSeries
	for _, g := range a.Groups {
		gs := groupSeries{name: g.Group}
		for _, i := range g.flowsIndex {
			d := a.detail[i]
			if len(d.series) == 0 {
				continue
			}
			gs.flows = append(gs.flows, i)
			if e := d.flow.Epoch; !e.IsZero() && (gs.ref.IsZero() || e.Before(gs.ref)) {
				gs.ref = e
			}
			gs.starlink = gs.starlink || a.Flows[i].Meta.City != ""
		}
		if len(gs.flows) == 0 {
			continue
		}
		for _, i := range gs.flows {
			d := a.detail[i]
			var off time.Duration
			if !gs.ref.IsZero() && !d.flow.Epoch.IsZero() {
				off = d.flow.Epoch.Sub(gs.ref)
			}
			gs.offset = append(gs.offset, off)
			gs.maxT = max(gs.maxT, off+d.series[len(d.series)-1].T)
		}
		out = append(out, gs)
		if len(out) == maxGroupFigures {
			break
		}
	}
	return out
}

// boundaries are the reconfiguration instants (:12/:27/:42/:57 UTC;
// metrics.SlotOffset, metrics.SlotLength) within the group's time axis.
func (gs groupSeries) boundaries() []float64 {
	if gs.ref.IsZero() || !gs.starlink {
		return nil
	}
	t := gs.ref.Truncate(time.Minute).Add(metrics.SlotOffset)
	for t.Before(gs.ref) {
		t = t.Add(metrics.SlotLength)
	}
	var out []float64
	for d := t.Sub(gs.ref); d <= gs.maxT; d += metrics.SlotLength {
		out = append(out, d.Seconds())
	}
	return out
}

// curve is one flow's values over the group's time axis.
func (a *Analysis) curve(gs groupSeries, k int, unit string, v func(metrics.Sample) float64) report.Series {
	i := gs.flows[k]
	m := &a.Flows[i]
	s := report.Series{Name: m.Label, Key: ccaOr(m.Meta.CCA), Unit: unit}
	for _, smp := range a.detail[i].series {
		s.T = append(s.T, (gs.offset[k] + smp.T).Seconds())
		s.V = append(s.V, v(smp))
	}
	return s
}

func (b *builder) seriesSection() report.Section {
	s := report.Section{Title: "Per-interval time series"}
	for _, gs := range b.a.seriesGroups() {
		var thr, rtt []report.Series
		for k := range gs.flows {
			thr = append(thr, b.a.curve(gs, k, "Mbit/s", func(x metrics.Sample) float64 { return x.ThroughputBps / 1e6 }))
			rtt = append(rtt, b.a.curve(gs, k, "ms", func(x metrics.Sample) float64 {
				if x.SRTT == 0 {
					return math.NaN()
				}
				return durMs(x.SRTT)
			}))
		}
		opt := report.SeriesOptions{Boundaries: gs.boundaries()}
		f, err := report.TimeSeries("Throughput: "+gs.name, "throughput", thr, opt)
		s.Figures = b.add(s.Figures, f, "Per-interval throughput; vertical lines mark Starlink reconfigurations (:12/:27/:42/:57 UTC) when the start time is known.", err)
		f, err = report.TimeSeries("Smoothed RTT: "+gs.name, "smoothed RTT", rtt, opt)
		s.Figures = b.add(s.Figures, f, "Per-interval smoothed RTT (sender srtt).", err)
	}
	return s
}

func (b *builder) slotSection() report.Section {
	s := report.Section{Title: "Reconfiguration slot profile", Text: []string{
		"Each interval is placed by its midpoint in the 15 s Starlink reconfiguration slot, aligned to " +
			":12/:27/:42/:57 UTC from the log's start time; bar i covers [i, i+1) s after a boundary, so the " +
			"rightmost bar is the second before the next reconfiguration. Only meaningful on Starlink paths."}}
	for _, gs := range b.a.seriesGroups() {
		var profiles []report.SlotProfile
		for _, i := range gs.flows {
			bins := b.a.detail[i].slots
			if bins == nil {
				continue
			}
			p := report.SlotProfile{Name: b.a.Flows[i].Label, Key: ccaOr(b.a.Flows[i].Meta.CCA)}
			for k, bin := range bins {
				p.Throughput[k], p.Retransmits[k] = bin.ThroughputBps/1e6, bin.RetransMean
			}
			profiles = append(profiles, p)
		}
		if len(profiles) == 0 {
			continue
		}
		f, err := report.SlotPlot("Slot throughput: "+gs.name, report.SlotThroughput, profiles)
		s.Figures = b.add(s.Figures, f, "Mean throughput by second of the reconfiguration slot.", err)
		f, err = report.SlotPlot("Slot retransmissions: "+gs.name, report.SlotRetransmits, profiles)
		s.Figures = b.add(s.Figures, f, "Mean retransmitted segments per interval by second of the reconfiguration slot.", err)
	}
	return s
}

// saturationQueue is the estimate's ceiling with seed 000's defaults: a
// window busy throughout has λ = μ (metrics keeps λ = μ·X̄ uncapped) and
// ρ = ρ_max, so Pollaczek–Khinchine with Little's law gives
// Q = (1+c_s²)/(2(1−ρ_max)) — the value the estimate actually reaches.
func saturationQueue() float64 {
	return (1 + metrics.DefaultCs2) / (2 * (1 - metrics.DefaultRhoMax))
}

func (b *builder) queueSection() report.Section {
	s := report.Section{Title: "M/G/1 queue estimate"}
	for _, gs := range b.a.seriesGroups() {
		var series []report.Series
		for k, i := range gs.flows {
			est := b.a.detail[i].queue
			if len(est) == 0 {
				continue
			}
			m := &b.a.Flows[i]
			q := report.Series{Name: m.Label, Key: ccaOr(m.Meta.CCA), Unit: report.QueueUnit}
			for _, e := range est {
				q.T = append(q.T, (gs.offset[k] + e.T).Seconds())
				q.V = append(q.V, e.Q)
			}
			series = append(series, q)
		}
		if len(series) == 0 {
			continue
		}
		opt := report.SeriesOptions{Refs: []report.RefLine{{Y: saturationQueue(),
			Label: fmt.Sprintf("saturation (ρ = %g)", metrics.DefaultRhoMax)}}}
		f, err := report.QueueOverTime("Queue estimate: "+gs.name, series, opt)
		s.Figures = b.add(s.Figures, f, "Seed 000 M/G/1 estimate over sliding 15 s windows: μ = b/(8·1500 B), λ = μ·X̄, "+
			"Pollaczek–Khinchine W_q, Q = λ·W_q, ρ capped at 0.995.", err)
	}
	return s
}

func (b *builder) phaseSection() report.Section {
	s := report.Section{Title: "Two-flow phase plane"}
	for _, g := range b.a.Groups {
		if !g.Concurrent || g.N != 2 {
			continue
		}
		i, j := g.flowsIndex[0], g.flowsIndex[1]
		pts, _ := metrics.PhasePlane(b.a.detail[i].flow.Data, b.a.detail[j].flow.Data)
		if len(pts) == 0 {
			continue
		}
		pp := report.PhasePlane{Name1: b.a.Flows[i].Label, Name2: b.a.Flows[j].Label}
		for _, p := range pts {
			pp.T = append(pp.T, p.T.Seconds())
			pp.X1, pp.X2 = append(pp.X1, p.X1/1e6), append(pp.X2, p.X2/1e6)
		}
		f, err := report.PhasePlot("Phase plane: "+g.Group, pp)
		s.Figures = b.add(s.Figures, f, "Seed 000 Fig. 15: instantaneous throughput pairs with the fairness and efficiency lines.", err)
	}
	return s
}
