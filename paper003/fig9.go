package paper003

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/learn/closedloop"
	"github.com/leolab/leolab/profile"
)

// Fig9 is seed 003's Fig. 9 and what we set beside it: the surrogate
// evaluation of a gain model on held-out Tokyo (the paper's figure) and
// the closed-loop runs of the same model in the simulator.
type Fig9 struct {
	Model     string // which model, for the captions
	Surrogate []SurrogatePanel
	Closed    []ClosedCell
}

// ShippedModel names lmbbr's embedded model for the captions (its
// training record: learn's TestDefaultModel, Tokyo held out).
const ShippedModel = "the shipped linear model (cc/lmbbr/model.json: a per-phase softmax regression on four features, " +
	"trained on simulated BBRv3 downlink runs of Sydney, Mumbai, Ohio, London and São Paulo)"

// Outcome is a policy's mean per 1 s interval: throughput in Mbit/s and
// retransmitted segments.
type Outcome struct{ Mbps, Retrans float64 }

// SurrogatePanel is one of the paper's Fig. 9 stream kinds (independent
// or competing, downlink or uplink) on Tokyo's BBR flows: how well the
// model predicts the eq. 3 labels per phase, and the surrogate throughput
// and retransmissions (eqs. 22, 27) of its gains next to the measured
// ones, the stock BBRv3 gains' and the labels'.
type SurrogatePanel struct {
	Kind, Direction  string
	Flows, Intervals int
	// Evals are learn.Evaluate's UP and DOWN scores; CE the model's mean
	// cross-entropy on the labels of each and LabelEntropy the labels'
	// entropy (the cross-entropy of the best constant predictor), nats.
	Evals            []learn.PhaseEval
	CE, LabelEntropy []float64
	Measured         Outcome // the trace's own intervals
	// Surrogate under each policy's gains: stock BBRv3, the model, the
	// eq. 3 labels, and the const105 ablation (UP 1.05, the rest stock).
	Stock, Model, Label, Const105 Outcome
}

// Stock BBRv3 ProbeBW gains the surrogate replays as "native BBR": UP
// 1.25 (draft-ietf-ccwg-bbr-03 §4.3.3.6, BBRProbeBWUpPacingGain) and
// DOWN 0.91 (Linux bbr v3's bbr_pacing_gain, as cc/bbr/v3.go's
// v3DownGain); CRUISE and REFILL pace at 1.
const (
	stockUpGain   = 1.25
	stockDownGain = 0.91
)

// EvaluateSurrogate scores m on the held-out city's simulated BBR flows
// of every panel, without training anything: each stream kind's flows
// (in seed order) form a learn pool, its UP and DOWN rows the examples.
// Panels without Tokyo BBR flows are left out.
func EvaluateSurrogate(m *lmbbr.Model, sim []Flow) ([]SurrogatePanel, error) {
	var out []SurrogatePanel
	for _, p := range panels {
		var fs []Flow
		for _, f := range sim {
			if f.Cell == (Cell{p.kind, p.direction, HeldOut, "bbr"}) {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			continue
		}
		slices.SortStableFunc(fs, func(a, b Flow) int { return int(a.Seed) - int(b.Seed) })
		pool := learn.NewPool()
		for _, f := range fs {
			src := learn.Source{Location: HeldOut, Stream: p.direction + "-" + p.kind + "-sim", Flow: fmt.Sprintf("tokyo bbr seed%d", f.Seed)}
			if err := pool.AddFlow(src, f.Flow); err != nil {
				return nil, fmt.Errorf("paper003: Fig. 9: %w", err)
			}
		}
		sp, err := scorePool(m, pool)
		if err != nil {
			return nil, err
		}
		sp.Kind, sp.Direction, sp.Flows = p.kind, p.direction, len(fs)
		out = append(out, sp)
	}
	return out, nil
}

// phaseKey is the model's name of a learn phase.
var phaseKey = map[learn.Phase]string{learn.Up: lmbbr.PhaseUp, learn.Down: lmbbr.PhaseDown}

// scorePool evaluates m on a pool's rows.
func scorePool(m *lmbbr.Model, pool *learn.Pool) (SurrogatePanel, error) {
	rows := pool.Rows
	ex := learn.Examples(rows)
	sp := SurrogatePanel{Intervals: len(rows), Evals: learn.Evaluate(m, ex)}
	for _, ev := range sp.Evals {
		ce, h, err := crossEntropy(m, ex, ev.Phase)
		if err != nil {
			return sp, err
		}
		sp.CE, sp.LabelEntropy = append(sp.CE, ce), append(sp.LabelEntropy, h)
	}
	ins := learn.RowInputs(rows)
	var meas, stock, model, label, c105 Outcome
	for i, r := range rows {
		meas.Mbps += r.Throughput / 1e6
		meas.Retrans += float64(r.Retransmits)
		gs, gm, gc := 1.0, 1.0, 1.0
		switch r.Phase {
		case learn.Up:
			gs, gm, gc = stockUpGain, m.Predict(lmbbr.PhaseUp, lmbbr.Features(ins[i])), closedloop.Const105Gain
		case learn.Down:
			gs, gm, gc = stockDownGain, m.Predict(lmbbr.PhaseDown, lmbbr.Features(ins[i])), stockDownGain
		}
		for _, x := range []struct {
			o *Outcome
			g float64
		}{{&stock, gs}, {&model, gm}, {&label, r.Mapped}, {&c105, gc}} {
			x.o.Mbps += r.Refs.Throughput(x.g) / 1e6
			x.o.Retrans += r.Refs.Retransmits(x.g, pool.Params)
		}
	}
	n := float64(len(rows))
	for _, o := range []*Outcome{&meas, &stock, &model, &label, &c105} {
		o.Mbps, o.Retrans = o.Mbps/n, o.Retrans/n
	}
	sp.Measured, sp.Stock, sp.Model, sp.Label, sp.Const105 = meas, stock, model, label, c105
	return sp, nil
}

// crossEntropy is the mean −ln p(label) of m's softmax over phase ph's
// examples, and the entropy of those labels' frequencies: a model that
// knows nothing but the labels' mix scores the entropy. NaN without
// examples.
func crossEntropy(m *lmbbr.Model, ex []learn.Example, ph learn.Phase) (ce, entropy float64, err error) {
	pm, ok := m.Phases[phaseKey[ph]]
	if !ok {
		return 0, 0, fmt.Errorf("paper003: Fig. 9: the model has no %v phase", ph)
	}
	count := make([]int, len(pm.Gains))
	n := 0
	for _, e := range ex {
		if e.Phase != ph {
			continue
		}
		k := slices.Index(pm.Gains, e.Label)
		if k < 0 {
			return 0, 0, fmt.Errorf("paper003: Fig. 9: %v label %g is not among the model's gains %v", ph, e.Label, pm.Gains)
		}
		ce -= math.Log(pm.Probs(e.X)[k])
		count[k]++
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), nil
	}
	for _, c := range count {
		if c > 0 {
			f := float64(c) / float64(n)
			entropy -= f * math.Log(f)
		}
	}
	return ce / float64(n), entropy, nil
}

// ClosedCell is one city and direction of the closed-loop evaluation:
// every arm's statistics against stock BBRv3 and against const105.
type ClosedCell struct {
	Plan           closedloop.Plan
	VsBBR, VsConst []closedloop.Stat
}

// ClosedArms are the closed-loop arms of the report: the shipped linear
// model (lmbbr's embedded model), stock BBRv3 and the constant-1.05
// ablation.
var ClosedArms = []string{closedloop.ArmBBR, closedloop.ArmLinear, closedloop.ArmConst105}

// ClosedCities are the quick closed-loop cities: the held-out Tokyo and
// one calibration city (Sydney, closedloop.DefaultCity, the shortest
// runs). --full runs every city (FullClosedCities).
var ClosedCities = []string{HeldOut, closedloop.DefaultCity}

// FullClosedCities are --full's closed-loop cities: the held-out Tokyo
// first, then every calibration city, so that with both directions the
// evaluation is issue 21's 12 city-direction cells.
func FullClosedCities() []string {
	out := []string{HeldOut}
	for _, c := range profile.Cities() {
		if c != HeldOut {
			out = append(out, c)
		}
	}
	return out
}

// Closed-loop sizes: quick 5 seeds (enough for a t-interval), full
// closedloop.DefaultSeeds (issue 21's ≥ 10), each run
// closedloop.DefaultDuration.
const (
	ClosedQuickSeeds = 5
	ClosedFullSeeds  = closedloop.DefaultSeeds
)

// ClosedPlans are the closed-loop evaluations: ClosedCities (full:
// FullClosedCities) × downlink, uplink, arms ClosedArms paired by seed
// against BBRv3.
func ClosedPlans(full bool, duration time.Duration) []closedloop.Plan {
	seeds, cities := ClosedQuickSeeds, ClosedCities
	if full {
		seeds, cities = ClosedFullSeeds, FullClosedCities()
	}
	if duration == 0 {
		duration = closedloop.DefaultDuration
	}
	var out []closedloop.Plan
	for _, c := range cities {
		for _, dir := range []string{"downlink", "uplink"} {
			out = append(out, closedloop.Plan{City: c, Direction: dir, Seeds: seeds, Duration: duration,
				Arms: ClosedArms, Ref: closedloop.ArmBBR})
		}
	}
	return out
}

// ClosedRuns are every plan's runs, in plan order.
func ClosedRuns(plans []closedloop.Plan) ([]campaign.Run, error) {
	var out []campaign.Run
	for i := range plans {
		rs, err := plans[i].Runs()
		if err != nil {
			return nil, fmt.Errorf("paper003: Fig. 9: %w", err)
		}
		out = append(out, rs...)
	}
	return out, nil
}

// ClosedLoop reads the plans' runs from the store and summarizes each
// plan against BBRv3 and against const105. A run missing from the store
// is an error: the pairing needs every seed of every arm.
func ClosedLoop(ctx context.Context, st *campaign.Store, plans []closedloop.Plan) ([]ClosedCell, error) {
	var out []ClosedCell
	for _, p := range plans {
		runs, err := p.Runs()
		if err != nil {
			return nil, fmt.Errorf("paper003: Fig. 9: %w", err)
		}
		var samples []closedloop.Sample
		for _, r := range runs {
			res, err := st.Result(ctx, r.ID)
			if errors.Is(err, campaign.ErrNotStored) {
				return nil, fmt.Errorf("paper003: Fig. 9: closed-loop run %s did not finish (rerun to resume)", r.Name())
			}
			if err != nil {
				return nil, err
			}
			s, err := closedloop.SampleOf(r, res)
			if err != nil {
				return nil, err
			}
			samples = append(samples, s)
		}
		c := ClosedCell{Plan: p}
		if c.VsBBR, err = closedloop.Summarize(samples, closedloop.ArmBBR); err != nil {
			return nil, err
		}
		if c.VsConst, err = closedloop.Summarize(samples, closedloop.ArmConst105); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
