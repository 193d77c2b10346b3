package closedloop

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/result"
)

// Sample is one run's outcome: its one flow's end summary.
type Sample struct {
	Arm          string
	Seed         uint64
	Mbps         float64
	Retransmits  int64
	RetransPerGB float64
	MeanRTTMs    float64
	RTTInflation float64
}

// Metric is one reported quantity of a Sample.
type Metric struct {
	Name string // CSV key, with its unit
	Of   func(Sample) float64
}

// Metrics are the reported quantities, in report order (issue 21:
// throughput, retransmissions per GB, RTT and its inflation).
var Metrics = []Metric{
	{"throughput_mbps", func(s Sample) float64 { return s.Mbps }},
	{"retrans_per_gb", func(s Sample) float64 { return s.RetransPerGB }},
	{"retransmits", func(s Sample) float64 { return float64(s.Retransmits) }},
	{"mean_rtt_ms", func(s Sample) float64 { return s.MeanRTTMs }},
	{"rtt_inflation", func(s Sample) float64 { return s.RTTInflation }},
}

// Execute runs the runs on exec and returns their samples in run order.
// The first failed run's error is returned after the others finish.
func Execute(ctx context.Context, runs []campaign.Run, exec campaign.Executor, progress func(done, total int)) ([]Sample, error) {
	byID := map[string]int{}
	for i, r := range runs {
		byID[r.ID] = i
	}
	out := make([]Sample, len(runs))
	var first error
	n := 0
	err := exec.Execute(ctx, runs, func(o campaign.Outcome) error {
		n++
		if progress != nil {
			progress(n, len(runs))
		}
		if o.Err != nil {
			if first == nil {
				first = o.Err
			}
			return nil
		}
		s, err := SampleOf(o.Run, o.Result)
		if err != nil && first == nil {
			first = err
		}
		out[byID[o.Run.ID]] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

// SampleOf is a run's outcome from its result (one flow), for callers
// that execute the runs themselves (reproduce --paper 003 runs them in
// its resumable store).
func SampleOf(r campaign.Run, res *result.Result) (Sample, error) {
	if res == nil || len(res.Flows) != 1 {
		return Sample{}, fmt.Errorf("closedloop: run %s: want one flow in the result", r.Name())
	}
	f := res.Flows[0]
	return Sample{Arm: r.CCAs[0], Seed: r.Seed, Mbps: f.ThroughputMbps, Retransmits: f.Retransmits,
		RetransPerGB: f.RetransPerGB, MeanRTTMs: f.MeanRTTMs, RTTInflation: f.RTTInflation}, nil
}

// Stat is one arm's estimate of one metric.
type Stat struct {
	Arm, Metric string
	// Value is the mean over seeds with its 95 % CI (metrics.MeanCI).
	Value metrics.Estimate
	// Diff is the paired difference arm − reference over the seeds both
	// ran (metrics.MeanCI of the per-seed differences); DiffPct its mean
	// as a percentage of the reference's mean.
	Diff    metrics.Estimate
	DiffPct float64
}

// Summarize estimates every metric per arm (arms in first-seen order)
// and its difference from arm ref, paired by seed. Every arm must have
// run exactly the reference's seeds.
func Summarize(samples []Sample, ref string) ([]Stat, error) {
	var arms []string
	by := map[string]map[uint64]Sample{}
	for _, s := range samples {
		if by[s.Arm] == nil {
			by[s.Arm] = map[uint64]Sample{}
			arms = append(arms, s.Arm)
		}
		if _, dup := by[s.Arm][s.Seed]; dup {
			return nil, fmt.Errorf("closedloop: arm %s has seed %d twice", s.Arm, s.Seed)
		}
		by[s.Arm][s.Seed] = s
	}
	base, ok := by[ref]
	if !ok {
		return nil, fmt.Errorf("closedloop: no runs of the reference arm %s", ref)
	}
	seeds := make([]uint64, 0, len(base))
	for s := range base {
		seeds = append(seeds, s)
	}
	slices.Sort(seeds)
	var out []Stat
	for _, arm := range arms {
		if len(by[arm]) != len(seeds) {
			return nil, fmt.Errorf("closedloop: arm %s ran %d seeds, %s %d: the pairing needs the same seeds", arm, len(by[arm]), ref, len(seeds))
		}
		for _, m := range Metrics {
			vals, diffs := make([]float64, len(seeds)), make([]float64, len(seeds))
			for i, seed := range seeds {
				s, ok := by[arm][seed]
				if !ok {
					return nil, fmt.Errorf("closedloop: arm %s has no run of seed %d, which %s ran", arm, seed, ref)
				}
				vals[i], diffs[i] = m.Of(s), m.Of(s)-m.Of(base[seed])
			}
			st := Stat{Arm: arm, Metric: m.Name, Value: metrics.MeanCI(vals), Diff: PairedDiff(diffs)}
			if rm := metrics.MeanCI(refValues(base, seeds, m)).Mean; rm != 0 {
				st.DiffPct = 100 * st.Diff.Mean / rm
			} else {
				st.DiffPct = math.NaN()
			}
			out = append(out, st)
		}
	}
	return out, nil
}

func refValues(base map[uint64]Sample, seeds []uint64, m Metric) []float64 {
	v := make([]float64, len(seeds))
	for i, s := range seeds {
		v[i] = m.Of(base[s])
	}
	return v
}

// PairedDiff is the mean of per-seed differences with its 95 % CI. All
// differences zero (an arm against itself) give exactly 0 ± 0, where
// MeanCI's t-interval would be 0 too; with one seed the CI is NaN.
func PairedDiff(d []float64) metrics.Estimate { return metrics.MeanCI(d) }

// Distinct tells whether the paired difference's 95 % CI excludes 0.
func (s Stat) Distinct() bool { return s.Diff.N > 1 && (s.Diff.Lo() > 0 || s.Diff.Hi() < 0) }

// sortStats orders stats by arm in ArmNames order, then metric order.
func sortStats(st []Stat) {
	rank := func(a string) int {
		if i := slices.Index(ArmNames, a); i >= 0 {
			return i
		}
		return len(ArmNames)
	}
	mrank := func(m string) int {
		return slices.IndexFunc(Metrics, func(x Metric) bool { return x.Name == m })
	}
	sort.SliceStable(st, func(i, j int) bool {
		if ri, rj := rank(st[i].Arm), rank(st[j].Arm); ri != rj {
			return ri < rj
		}
		return mrank(st[i].Metric) < mrank(st[j].Metric)
	})
}
