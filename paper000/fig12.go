package paper000

import (
	"fmt"
	"slices"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// reactionSources are the traces of Fig. 12: the paper's Sydney dedicated
// BBRv3 captures, downlink and uplink, real and simulated.
var reactionSources = []struct{ source, direction string }{
	{Real, "downlink"}, {Simulated, "downlink"}, {Real, "uplink"}, {Simulated, "uplink"},
}

// fig12 detects reaction windows (metrics.Reactions) in the Sydney BBRv3
// traces and draws each trace's RTT, throughput and cwnd, relative to
// their medians, with the disturbances that were followed by a cwnd cut.
func fig12(ts []Trace) (report.Section, []string, error) {
	s := report.Section{Title: "Fig. 12: BBRv3 reaction windows (Sydney)"}
	s.Text = []string{fmt.Sprintf("Seed 000: \"a BBR reaction window is identified if an RTT spike or bandwidth drop is "+
		"followed by a congestion window drop within the reaction window\"; the seed gives no thresholds. Ours are the "+
		"fluid model's gains: an interval is disturbed when its srtt is ≥ %.2f× or its throughput ≤ %.2f× the median of the "+
		"previous %v (5/4 is I_dwn's inflight trigger under v ≈ x·RTT, 3/4 the ProbeBW_DOWN pacing gain of Eq. 6); consecutive "+
		"disturbed intervals are one disturbance; it reacted when the cwnd falls to ≤ %.2f× (1−β, β = 0.15) of its value "+
		"before the disturbance within %v (one ProbeBW wait at its longest). Reaction delay = end of the cut's interval − "+
		"end of the first disturbed interval (0: the same second); spacing = time between successive disturbances. A "+
		"disturbance with an RTT spike and a throughput drop in one interval is a bandwidth perturbation event. The last "+
		"column is the check the seed does not make: the share of arbitrary seconds that a cwnd cut follows within the same "+
		"window. Where it is as high as the share of disturbances that reacted, the 1 s series cannot tell a reaction from "+
		"BBRv3's ordinary cwnd movement.",
		metrics.DefaultRTTSpike, metrics.DefaultBWDrop, metrics.DefaultBaseline, metrics.DefaultCwndCut, metrics.DefaultReactionWindow)}
	tab := report.Table{Title: "Reaction windows per trace", Name: "fig12-reactions", Columns: []report.Column{
		{Key: "source", Title: "source", Kind: report.Text}, {Key: "direction", Title: "direction", Kind: report.Text},
		{Key: "disturbances", Title: "disturbances", Kind: report.Int},
		{Key: "rtt_spikes", Title: "with RTT spike", Kind: report.Int},
		{Key: "bw_drops", Title: "with bandwidth drop", Kind: report.Int},
		{Key: "perturbations", Title: "perturbation events", Kind: report.Int},
		{Key: "reacted", Title: "followed by cwnd cut", Kind: report.Int},
		{Key: "median_spacing_s", Title: "median spacing", Unit: "s", Kind: report.Float, Digits: 1},
		{Key: "mean_spacing_s", Title: "mean spacing", Unit: "s", Kind: report.Float, Digits: 1},
		{Key: "median_delay_s", Title: "median reaction delay", Unit: "s", Kind: report.Float, Digits: 1},
		{Key: "mean_delay_s", Title: "mean reaction delay", Unit: "s", Kind: report.Float, Digits: 2},
		{Key: "perturbation_spacing_s", Title: "median spacing of perturbation events", Unit: "s", Kind: report.Float, Digits: 1},
		{Key: "reacted_frac", Title: "share reacted", Kind: report.Float, Digits: 2},
		{Key: "chance_frac", Title: "share of any second followed by a cut", Kind: report.Float, Digits: 2},
	}}
	var notes []string
	for _, src := range reactionSources {
		t, ok := find(ts, src.source, campaign.Dedicated, src.direction, "sydney", bbr)
		if !ok {
			continue
		}
		series := metrics.Series(t.Flow)
		ev, err := metrics.Reactions(series, metrics.ReactionOptions{})
		if err != nil {
			return s, nil, err
		}
		sum := metrics.SummariseReactions(ev)
		chance := metrics.ChanceReaction(series, metrics.ReactionOptions{})
		share := 0.0
		if sum.Events > 0 {
			share = float64(sum.Reacted) / float64(sum.Events)
		}
		tab.Rows = append(tab.Rows, []report.Cell{report.Str(src.source), report.Str(src.direction),
			report.Count(int64(sum.Events)), report.Count(int64(sum.RTTSpikes)), report.Count(int64(sum.BWDrops)),
			report.Count(int64(sum.Perturbations)), report.Count(int64(sum.Reacted)),
			report.Num(sum.MedianGap.Seconds()), report.Num(sum.MeanGap.Seconds()),
			report.Num(sum.MedianDelay.Seconds()), report.Num(sum.MeanDelay.Seconds()),
			report.Num(sum.PerturbationGap.Seconds()), report.Num(share), report.Num(chance)})
		notes = append(notes, fmt.Sprintf("Fig. 12, %s Sydney %s: %d disturbances (median spacing %.0f s; perturbation events "+
			"%d, spacing %.0f s), %.0f %% followed by a cwnd cut against %.0f %% of arbitrary seconds (paper: spacing of tens "+
			"of seconds).", src.source, src.direction, sum.Events, sum.MedianGap.Seconds(), sum.Perturbations,
			sum.PerturbationGap.Seconds(), 100*share, 100*chance))
		f, err := reactionFigure(t, series, ev)
		if err != nil {
			return s, nil, err
		}
		f.Caption = fmt.Sprintf("%s: %d disturbances (%d RTT spikes, %d bandwidth drops, %d perturbation events), %d followed "+
			"by a cwnd cut (dashed lines; %.0f %% of arbitrary seconds are), median spacing %.1f s (perturbation events %.1f s), "+
			"median reaction delay %.1f s. The paper (Fig. 12, real Sydney BBRv3, both directions) finds disturbances spaced "+
			"by tens of seconds, comparable to t̄_pbw, each followed by a cwnd contraction; it gives no counts.", t.Name(),
			sum.Events, sum.RTTSpikes, sum.BWDrops, sum.Perturbations, sum.Reacted, 100*chance, sum.MedianGap.Seconds(),
			sum.PerturbationGap.Seconds(), sum.MedianDelay.Seconds())
		s.Figures = append(s.Figures, f)
	}
	s.Tables = append(s.Tables, tab)
	return s, notes, nil
}

// reactionFigure draws srtt, throughput and cwnd over their medians with
// the reacted disturbances as vertical markers.
func reactionFigure(t Trace, series []metrics.Sample, ev []metrics.Disturbance) (*report.Figure, error) {
	const unit = "× the trace's median"
	get := []struct {
		name string
		v    func(metrics.Sample) float64
	}{
		{"srtt", func(x metrics.Sample) float64 { return float64(x.SRTT) }},
		{"throughput", func(x metrics.Sample) float64 { return x.ThroughputBps }},
		{"cwnd", func(x metrics.Sample) float64 { return float64(x.CWnd) }},
	}
	var out []report.Series
	for _, g := range get {
		vals := make([]float64, len(series))
		for i, x := range series {
			vals[i] = g.v(x)
		}
		med := medianOf(vals)
		rs := report.Series{Name: g.name, Key: g.name, Unit: unit}
		for i, x := range series {
			rs.T = append(rs.T, x.T.Seconds())
			if med > 0 {
				rs.V = append(rs.V, vals[i]/med)
			} else {
				rs.V = append(rs.V, 0)
			}
		}
		out = append(out, rs)
	}
	var marks []float64
	for _, e := range ev {
		if e.Reacted {
			marks = append(marks, e.Start.Seconds())
		}
	}
	f, err := report.TimeSeries("Fig. 12: "+t.Name(), "value", out,
		report.SeriesOptions{Boundaries: marks, BoundaryLabel: "disturbance → cwnd cut"})
	if err != nil {
		return nil, err
	}
	f.Name = "fig12-" + t.Source + "-" + t.Direction
	return f, nil
}

// medianOf is the median of the positive values of v (0 if none).
func medianOf(v []float64) float64 {
	var pos []float64
	for _, x := range v {
		if x > 0 {
			pos = append(pos, x)
		}
	}
	if len(pos) == 0 {
		return 0
	}
	slices.Sort(pos)
	if n := len(pos); n%2 == 0 {
		return (pos[n/2-1] + pos[n/2]) / 2
	}
	return pos[len(pos)/2]
}
