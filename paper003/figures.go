package paper003

import (
	"fmt"
	"math"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"gonum.org/v1/plot"
)

// panel is one (figure, direction, kind) of seed 003: Fig. 2 downlink
// independent, 3 uplink independent, 4 downlink parallel, 5 uplink parallel.
type panel struct {
	fig             int
	direction, kind string
}

var panels = []panel{
	{2, "downlink", campaign.Dedicated}, {3, "uplink", campaign.Dedicated},
	{4, "downlink", campaign.Concurrent}, {5, "uplink", campaign.Concurrent},
}

func (p panel) what() string {
	k := "independent (dedicated)"
	if p.kind == campaign.Concurrent {
		k = "competing (concurrent)"
	}
	return p.direction + ", " + k
}

// Box sources.
const (
	simSec  = "sim, per s"
	simRun  = "sim, per run"
	realRun = "real, per run"
	realSec = "real, per s"
)

// Box returns the box of one cell, metric and source (simSec, simRun,
// realRun, realSec); N = 0 when there is no data.
func (d Data) Box(c Cell, m Metric, source string) metrics.BoxStats {
	s, ok := d[c]
	if !ok {
		return metrics.BoxStats{}
	}
	switch source {
	case simSec:
		return metrics.Box(s.simSec[m])
	case simRun:
		return metrics.Box(s.simRun[m])
	case realRun:
		return metrics.Box(s.realRun[m])
	case realSec:
		return metrics.Box(s.realSec[m])
	}
	return metrics.BoxStats{}
}

func toBox(b metrics.BoxStats) report.Box {
	return report.Box{N: b.N, Q1: b.Q1, Median: b.Median, Q3: b.Q3, WhiskLo: b.WhiskLo, WhiskHi: b.WhiskHi, Outliers: b.Outliers}
}

// cityLabel is a city's axis label; the held-out city says so.
func cityLabel(c string) string {
	name := map[string]string{"sydney": "Sydney", "tokyo": "Tokyo", "mumbai": "Mumbai", "ohio": "Ohio",
		"london": "London", "saopaulo": "São Paulo"}[c]
	if name == "" {
		name = c
	}
	if c == HeldOut {
		name += " (sim only)"
	}
	return name
}

// cities are the cities of Cities with any data in d.
func (d Data) cities() []string {
	var out []string
	for _, c := range Cities {
		for cell := range d {
			if cell.City == c {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// panelFigure is one panel of Figs. 2–5: per city, per CCA, the simulated
// per-second box (hollow) next to the real per-run box (filled).
func (d Data) panelFigure(p panel, m Metric) (*report.Figure, bool, error) {
	mi := metricInfos[m]
	cities := d.cities()
	var series []report.BoxSeries
	any := false
	for _, cca := range CCAs {
		for _, src := range []string{simSec, realRun} {
			if src == realRun && m == RTTVar {
				continue // the end summaries have no RTT variance
			}
			s := report.BoxSeries{Name: cca + " " + src, Key: cca, Hollow: src == simSec}
			for _, city := range cities {
				b := d.Box(Cell{p.kind, p.direction, city, cca}, m, src)
				any = any || b.N > 0
				s.Boxes = append(s.Boxes, toBox(b))
			}
			series = append(series, s)
		}
	}
	if !any || len(cities) == 0 {
		return nil, false, nil
	}
	labels := make([]string, len(cities))
	for i, c := range cities {
		labels[i] = cityLabel(c)
	}
	f, err := boxFigure(m)(fmt.Sprintf("Fig. %d(%s): %s, %s", p.fig, mi.panel, mi.title, p.what()),
		mi.title+" ("+mi.unit+")", labels, series)
	if err != nil {
		return nil, false, err
	}
	f.Name = fmt.Sprintf("fig%d%s-%s", p.fig, mi.panel, mi.key)
	f.Width = 2 * report.DefaultWidth / 1.5 // 24 cm: six cities × eight boxes
	f.Caption = d.caption(p, m) + clip(f, series)
	return f, true, nil
}

// boxFigure draws cwnd on a log axis (CUBIC's 0.1 MB and Hybla's real
// 95 MB maxima are three decades apart), the rest on linear ones.
func boxFigure(m Metric) func(string, string, []string, []report.BoxSeries) (*report.Figure, error) {
	if m == CWnd {
		return report.CategoryBoxesLog
	}
	return report.CategoryBoxes
}

// clipFactor: when outliers reach beyond clipFactor times the highest
// whisker, the y axis ends at clipHeadroom times that whisker so the boxes
// stay readable (a few slow-start seconds of Hybla at 400 ms retransmit
// thousands of segments, 30× a box's top).
const (
	clipFactor   = 2.0
	clipHeadroom = 1.3
)

// clip ends f's y axis above the whiskers when far outliers would squash
// the boxes, and says in the caption what is off the axis.
func clip(f *report.Figure, series []report.BoxSeries) string {
	whisk, top := 0.0, 0.0
	for _, s := range series {
		for _, b := range s.Boxes {
			if b.N == 0 {
				continue
			}
			whisk = math.Max(whisk, b.WhiskHi)
			for _, o := range b.Outliers {
				top = math.Max(top, o)
			}
		}
	}
	if f.Plot().Y.Scale != nil {
		if _, isLog := f.Plot().Y.Scale.(plot.LogScale); isLog {
			return "" // a log axis shows every outlier
		}
	}
	if !(whisk > 0) || top <= clipFactor*whisk {
		return ""
	}
	limit := clipHeadroom * whisk
	above := 0
	for _, s := range series {
		for _, b := range s.Boxes {
			for _, o := range b.Outliers {
				if o > limit {
					above++
				}
			}
		}
	}
	f.Plot().Y.Max = limit
	return fmt.Sprintf(" The axis ends at %s: %d outliers above it (up to %s) are not drawn.", g3(limit), above, g3(top))
}

// caption says what the boxes are over, what the paper reports and what we
// measured.
func (d Data) caption(p panel, m Metric) string {
	var b strings.Builder
	b.WriteString("Hollow boxes: the simulator's per-second samples (all seeds' 1 s intervals pooled); filled: the real " +
		"end summaries, one value per run (")
	b.WriteString(realWhat[m])
	b.WriteString("). Boxes: quartiles (linear interpolation) and median; whiskers: the most extreme sample within 1.5 IQR; " +
		"rings: samples beyond. ")
	b.WriteString("The paper: ")
	b.WriteString(paperSays[[2]int{p.fig, int(m)}])
	b.WriteString(" Measured: ")
	b.WriteString(d.measured(p, m))
	return b.String()
}

// realWhat is what a real per-run value is for each metric.
var realWhat = [nMetrics]string{
	"mean sender throughput over the run",
	"retransmitted segments over the run's length",
	"max_snd_cwnd, the run's largest cwnd, so it sits at or above the per-second box by construction",
	"mean_rtt, the mean of the per-interval RTT",
	"none: the end summaries have no RTT variance",
}

// measured summarises BBR per city and how the CCAs rank.
func (d Data) measured(p panel, m Metric) string {
	var parts []string
	for _, city := range d.cities() {
		c := Cell{p.kind, p.direction, city, "bbr"}
		sb, rb := d.Box(c, m, simSec), d.Box(c, m, realRun)
		if sb.N == 0 {
			continue
		}
		s := fmt.Sprintf("%s %s (Q1–Q3 %s–%s, upper whisker %s", cityLabel(city), g3(sb.Median), g3(sb.Q1), g3(sb.Q3), g3(sb.WhiskHi))
		if rb.N > 0 {
			s += fmt.Sprintf("; real per-run median %s over %d runs", g3(rb.Median), rb.N)
		}
		parts = append(parts, s+")")
	}
	out := fmt.Sprintf("BBR's simulated per-second median %s: %s.", metricInfos[m].unit, strings.Join(parts, "; "))
	simTop, simN := d.topCount(p, m, simSec, "bbr")
	out += fmt.Sprintf(" BBR has the highest simulated median in %d of %d cities", simTop, simN)
	if realTop, realN := d.topCount(p, m, realRun, "bbr"); realN > 0 {
		out += fmt.Sprintf(" and the highest real per-run median in %d of %d", realTop, realN)
	}
	out += "."
	if m == RTT || m == RTTVar {
		out += fmt.Sprintf(" Largest ratio of the highest to the lowest CCA's simulated median within a city: %.2f.", d.spread(p, m))
	}
	return out
}

// topCount counts the cities where cca's median is the highest of the
// four, among the cities where all four have data from source.
func (d Data) topCount(p panel, m Metric, source, cca string) (top, n int) {
	for _, city := range d.cities() {
		best, bestCCA, all := math.Inf(-1), "", true
		for _, c := range CCAs {
			b := d.Box(Cell{p.kind, p.direction, city, c}, m, source)
			if b.N == 0 {
				all = false
				break
			}
			if b.Median > best {
				best, bestCCA = b.Median, c
			}
		}
		if !all {
			continue
		}
		n++
		if bestCCA == cca {
			top++
		}
	}
	return top, n
}

// spread is the largest ratio, over cities, of the highest to the lowest
// simulated per-second median among the four CCAs.
func (d Data) spread(p panel, m Metric) float64 {
	worst := math.NaN()
	for _, city := range d.cities() {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range CCAs {
			b := d.Box(Cell{p.kind, p.direction, city, c}, m, simSec)
			if b.N > 0 {
				lo, hi = math.Min(lo, b.Median), math.Max(hi, b.Median)
			}
		}
		if lo > 0 && !math.IsInf(hi, 0) && (math.IsNaN(worst) || hi/lo > worst) {
			worst = hi / lo
		}
	}
	return worst
}

// g3 formats a value with three significant digits.
func g3(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	if math.Abs(v) >= 1000 {
		return fmt.Sprintf("%.0f", v) // not 1.72e+04
	}
	return fmt.Sprintf("%.3g", v)
}
