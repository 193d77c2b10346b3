package calibrate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/profile"
	"gonum.org/v1/gonum/optimize"
)

// Defaults of a fit.
const (
	// DefaultMaxEvals bounds the forward-model evaluations of one fit:
	// Nelder–Mead needs roughly 10–20 per parameter to settle.
	DefaultMaxEvals = 60
	// simplexSize is the initial simplex edge in logit units: 0.5 moves a
	// parameter in the middle of its bounds by ~12 % of their span, enough
	// to see past the run-to-run noise of one cell.
	simplexSize = 0.5
	// convergeAbs and convergeIters stop the fit once the best cost has
	// improved by less than convergeAbs over convergeIters iterations
	// (a weakly identified parameter, such as an AQM probability seen
	// through a few cells, moves the cost by ~1e-3 per step near the optimum).
	convergeAbs = 1e-4
	// maxRestarts bounds the restarts of a stagnated simplex.
	maxRestarts   = 3
	convergeIters = 20
)

// Evaluation is one call of the forward model.
type Evaluation struct {
	N      int       // 1-based
	Values []float64 // as run (canonical)
	Cost   float64
	// Infeasible says why the candidate is not a valid profile (its
	// parameters break a constraint between them, such as an AQM
	// probability below its floor); its cost is +Inf and nothing ran.
	Infeasible string
}

// Result is a finished fit.
type Result struct {
	Space              Space
	Start, Best        []float64
	StartCost          float64
	BestCost           float64
	StartRows, BestRow []campaign.Row
	BestTied           map[string]any // Tie's overrides at Best
	Evals              []Evaluation
	Status             string // the optimiser's reason to stop
}

// Options configure Fit.
type Options struct {
	Objective Objective
	MaxEvals  int // 0: DefaultMaxEvals
	// Eval, if set, sees every evaluation as it finishes.
	Eval func(Evaluation)
	// Tie, if set, gives overrides that follow the candidate's values
	// (DriftTie), applied under them.
	Tie func(values []float64) map[string]any
}

// StartValues reads the parameters' current values from the Starlink
// profile of city with overrides (the defaults a fit starts from).
func StartValues(s Space, city string, overrides map[string]any) ([]float64, error) {
	return StartValuesIn(profile.NameStarlink, s, city, overrides)
}

// StartValuesIn is StartValues in the named Starlink profile.
func StartValuesIn(name string, s Space, city string, overrides map[string]any) ([]float64, error) {
	sp, err := profile.StarlinkNamed(name, city, overrides)
	if err != nil {
		return nil, err
	}
	v := make([]float64, len(s))
	for i, p := range s {
		if v[i], err = sp.Get(p.Path); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// Fit minimises the objective over the space from start, each evaluation
// running fwd against real. The optimiser is deterministic, and so is the
// simulator: the same inputs give the same fit, and a fit resumed from a
// store replays its path without running again what is stored.
func Fit(ctx context.Context, fwd *Forward, real map[campaign.Key]campaign.Metrics, s Space, start []float64, opt Options) (*Result, error) {
	if len(s) == 0 {
		return nil, errors.New("calibrate: no parameters to fit")
	}
	if opt.MaxEvals <= 0 {
		opt.MaxEvals = DefaultMaxEvals
	}
	if !validLoss(opt.Objective.Loss) {
		return nil, fmt.Errorf("calibrate: loss %q (allowed: %s)", opt.Objective.Loss, strings.Join(Losses, ", "))
	}
	res := &Result{Space: s, Start: s.Canonical(start), BestCost: math.Inf(1)}
	var failed error
	eval := func(values []float64) (float64, []campaign.Row, error) {
		values = s.Canonical(values)
		ov := s.Overrides(values)
		var tied map[string]any
		if opt.Tie != nil {
			tied = opt.Tie(values)
			for k, v := range tied {
				if _, own := ov[k]; !own {
					ov[k] = v
				}
			}
		}
		if err := fwd.Feasible(ov); err != nil && len(res.Evals) > 0 {
			// Bounds are per parameter; a point inside them can still
			// break a constraint between two. The optimiser moves away
			// from it as from any worse point (the start must be valid).
			e := Evaluation{N: len(res.Evals) + 1, Values: values, Cost: math.Inf(1), Infeasible: err.Error()}
			res.Evals = append(res.Evals, e)
			if opt.Eval != nil {
				opt.Eval(e)
			}
			return e.Cost, nil, nil
		}
		rows, err := fwd.Eval(ctx, ov, real)
		if err != nil {
			return 0, nil, err
		}
		cost, _ := opt.Objective.Score(rows)
		e := Evaluation{N: len(res.Evals) + 1, Values: values, Cost: cost}
		res.Evals = append(res.Evals, e)
		if opt.Eval != nil {
			opt.Eval(e)
		}
		if cost < res.BestCost {
			res.BestCost, res.Best, res.BestRow, res.BestTied = cost, values, rows, tied
		}
		return cost, rows, nil
	}
	var err error
	if res.StartCost, res.StartRows, err = eval(res.Start); err != nil {
		return nil, err
	}
	problem := optimize.Problem{Func: func(x []float64) float64 {
		if failed != nil {
			return math.Inf(1) // a failed forward model ends the fit: nothing more runs
		}
		cost, _, err := eval(s.Decode(x))
		if err != nil {
			failed = err
			return math.Inf(1)
		}
		return cost
	}}
	// Nelder–Mead restarted from the best point with a fresh simplex
	// while evaluations remain and the restart found something better:
	// the simulator's cost is rugged at small scales (a parameter step can
	// move one loss event across a boundary), and a collapsed simplex
	// stops in such a dent (Kelley 1999, "Detection and remediation of
	// stagnation in the Nelder–Mead algorithm").
	for restart := 0; restart <= maxRestarts && len(res.Evals) < opt.MaxEvals; restart++ {
		before := res.BestCost
		settings := &optimize.Settings{
			FuncEvaluations: opt.MaxEvals - len(res.Evals),
			Converger:       &optimize.FunctionConverge{Absolute: convergeAbs, Iterations: convergeIters},
			Concurrent:      1, // each evaluation already runs its runs on every core
		}
		method := &optimize.NelderMead{SimplexSize: simplexSize}
		out, err := optimize.Minimize(problem, s.Encode(res.Best), settings, method)
		if failed != nil {
			return res, failed
		}
		if out != nil {
			res.Status = out.Status.String()
		}
		if err != nil && !errors.Is(err, optimize.ErrLinesearcherFailure) {
			res.Status += ": " + err.Error()
		}
		if restart > 0 {
			res.Status += fmt.Sprintf(" (restart %d)", restart)
		}
		if !(res.BestCost < before-convergeAbs) {
			break
		}
	}
	return res, nil
}
