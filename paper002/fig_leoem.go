package paper002

import (
	"fmt"
	"math"
	"os"
	"time"

	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// leoemRateMbps is the LeoEM links' rate the campaigns use (emulator.py's
// default bent-pipe bandwidth, as examples/seed002/fig1-leoem-cubic.yaml).
const leoemRateMbps = 150

// leoemPath reads a LeoEM part's path file back with the index of the
// second its runs start at (delay_file.offset); ok is false for other
// parts.
func leoemPath(p *Part) (pl *schedule.PathLog, first int, ok bool, err error) {
	df, ok := p.Campaign.Path["delay_file"].(map[string]any)
	if !ok {
		return nil, 0, false, nil
	}
	name, _ := df["file"].(string)
	offset, err := time.ParseDuration(fmt.Sprint(df["offset"]))
	if err != nil {
		return nil, 0, false, fmt.Errorf("paper002: %s: delay_file.offset: %w", p.File, err)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, false, fmt.Errorf("paper002: %w", err)
	}
	defer f.Close()
	if pl, err = schedule.ReadLeoEM(name, f); err != nil {
		return nil, 0, false, fmt.Errorf("paper002: %w", err)
	}
	first = int(offset / pl.Step)
	if n := int(p.Campaign.Duration / pl.Step); first+n > len(pl.OWD) {
		return nil, 0, false, fmt.Errorf("paper002: %s: offset %v + %v beyond the path file", p.File, offset, p.Campaign.Duration)
	}
	return pl, first, true, nil
}

// leoemBaseRTT is 2 × a path file's one-way delay per second of a run of
// dur from second first, ms, and the seconds the path is down.
func leoemBaseRTT(pl *schedule.PathLog, first int, dur time.Duration) (rtt []float64, down []bool) {
	n := int(dur / pl.Step)
	rtt, down = make([]float64, n), make([]bool, n)
	for i := range rtt {
		rtt[i], down[i] = 2*pl.OWD[first+i]*1e3, pl.Down[first+i]
	}
	return rtt, down
}

// baseRTTMean is the LeoEM path's mean base RTT over a run, ms.
func (d *Data) baseRTTMean() float64 { return metrics.Mean(d.BaseRTTMs) }

// leoemInflation is a flow's mean smoothed RTT over the path's mean base RTT.
func (d *Data) leoemInflation(f result.Flow) float64 {
	return metrics.DelayInflation(meanSRTT(f, 0, 0), d.baseRTTMean())
}

func fig1(d *Data, p *Part) (report.Section, error) {
	f := p.Figures[0]
	s := report.Section{Title: f.Title}
	cells := d.cells(p)
	good := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return r.Flows[0].ThroughputMbps })
	}
	infl := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return d.leoemInflation(r.Flows[0]) })
	}
	for _, c := range cells {
		d.Findings["fig1.goodput."+c.CCA] = good(c)
		d.Findings["fig1.inflation."+c.CCA] = infl(c)
		d.Findings["fig1.retrans."+c.CCA] = c.each(func(r *result.Result) float64 { return float64(r.Flows[0].Retransmits) })
	}
	s.Tables = append(s.Tables, estimateTable("One flow on the LeoEM path", "fig1-single", cells, nil, []col{
		{"goodput_mbps", "goodput", "Mbit/s", 1, good},
		{"normalised_goodput", "goodput / 150 Mbit/s", "", 3, func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 { return r.Flows[0].ThroughputMbps / leoemRateMbps })
		}},
		{"delay_inflation", "mean sRTT / base RTT", "", 2, infl},
		{"retransmits", "retransmitted segments", "", 0, func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 { return float64(r.Flows[0].Retransmits) })
		}},
	}))
	var gs, rs []report.Series
	for _, c := range cells {
		fl := c.Runs[0].Flows[0]
		t, v := perInterval(fl)
		gs = append(gs, report.Series{Name: schemeName(c.CCA), Key: c.CCA, Unit: "Mbit/s", T: t, V: v})
		rt, rv := srttSeries(fl)
		rs = append(rs, report.Series{Name: schemeName(c.CCA), Key: c.CCA, Unit: "ms", T: rt, V: rv})
	}
	if len(d.BaseRTTMs) > 0 {
		bt := make([]float64, len(d.BaseRTTMs))
		for i := range bt {
			bt[i] = float64(i + 1)
		}
		// "path-base-rtt" hashes to dark green, a colour none of the schemes has.
		rs = append(rs, report.Series{Name: "base RTT (path file)", Key: "path-base-rtt", Unit: "ms", T: bt, V: d.BaseRTTMs})
	}
	if err := addTimeFigures(&s, "fig1", gs, rs); err != nil {
		return s, err
	}
	s.Text = []string{"Paper: " + f.Paper,
		fmt.Sprintf("Here: %s. "+learnedNote+" Delay inflation divides by the path's mean base RTT over the run (%.1f ms).",
			joinEstimates(cells, func(c *cell) string {
				return fmt.Sprintf("%s %s Mbit/s at %s× the base RTT", schemeName(c.CCA), pm(good(c), 1), pm(infl(c), 2))
			}), d.baseRTTMean()),
		ciNote(runsPer(p))}
	return s, nil
}

func fig2(d *Data, p *Part) (report.Section, error) {
	f := p.Figures[0]
	s := report.Section{Title: f.Title}
	cells := d.cells(p)
	ratio := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 {
			return metrics.GoodputRatio(r.Flows[0].ThroughputMbps, r.Flows[1].ThroughputMbps)
		})
	}
	jain := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.Jain(goodputs(r)) })
	}
	agg := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.NormalisedGoodput(goodputs(r), leoemRateMbps) })
	}
	for _, c := range cells {
		d.Findings["fig2.jain."+c.CCA] = jain(c)
	}
	s.Tables = append(s.Tables, estimateTable("Two flows on the LeoEM path (the second starts 10 s later)", "fig2-two-flows", cells, nil, []col{
		{"goodput_ratio", "goodput ratio min/max", "", 3, ratio},
		{"jain", "Jain's index", "", 3, jain},
		{"normalised_goodput", "aggregate / 150 Mbit/s", "", 3, agg},
	}))
	var gs []report.Series
	for _, c := range cells {
		for i, fl := range c.Runs[0].Flows {
			t, v := perInterval(fl)
			gs = append(gs, report.Series{Name: fmt.Sprintf("%s #%d", schemeName(c.CCA), i+1), Key: c.CCA, Unit: "Mbit/s", T: t, V: v})
		}
	}
	if err := addTimeFigures(&s, "fig2", gs, nil); err != nil {
		return s, err
	}
	s.Text = []string{"Paper: " + f.Paper,
		"Here: " + joinEstimates(cells, func(c *cell) string {
			return fmt.Sprintf("%s ratio %s, Jain %s", schemeName(c.CCA), pm(ratio(c), 2), pm(jain(c), 3))
		}) + ". Each scheme competes with itself (the figure's solid and dashed lines); " + learnedNote,
		ciNote(runsPer(p))}
	return s, nil
}

// srttSeries is a flow's smoothed RTT per interval (ms).
func srttSeries(f result.Flow) (t, v []float64) {
	for _, iv := range f.Intervals {
		t = append(t, iv.T)
		if iv.SRTTMs > 0 {
			v = append(v, iv.SRTTMs)
		} else {
			v = append(v, math.NaN())
		}
	}
	return t, v
}

// addTimeFigures adds a goodput-over-time figure (and an RTT one when rs
// is given) of each scheme's first run.
func addTimeFigures(s *report.Section, name string, gs, rs []report.Series) error {
	if len(gs) > 0 {
		fig, err := report.TimeSeries(s.Title+": goodput (first run of each scheme)", "goodput", gs, report.SeriesOptions{})
		if err != nil {
			return err
		}
		fig.Name = name + "-goodput"
		fig.Caption = "Per-interval goodput of each scheme's first run (seed 1)."
		s.Figures = append(s.Figures, fig)
	}
	if len(rs) > 0 {
		fig, err := report.TimeSeries(s.Title+": smoothed RTT", "smoothed RTT", rs, report.SeriesOptions{})
		if err != nil {
			return err
		}
		fig.Name = name + "-rtt"
		fig.Caption = "Smoothed RTT of the same runs, with the path's base RTT (2 × the path file's one-way delay)."
		s.Figures = append(s.Figures, fig)
	}
	return nil
}

// joinEstimates joins one phrase per cell.
func joinEstimates(cells []*cell, f func(*cell) string) string {
	out := ""
	for i, c := range cells {
		if i > 0 {
			out += "; "
		}
		out += f(c)
	}
	return out
}
