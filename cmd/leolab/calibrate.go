package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/leolab/leolab/calibrate"
	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/report"
	"github.com/spf13/cobra"
)

// defaultCalibrationParams is the built-in plan: per direction, the
// parameters the real data speaks to (issue 17's leads): the allocation
// (base and multiplier: the uplink's BBR-family flows sit at 19.5–22 Mbit/s
// in every city), the i.i.d. loss (loss-based CCAs barely slow with RTT, so
// little of their loss is random), the AQM's drop probability, and the
// share of packets lost when they arrive during a reconfiguration outage
// (retransmissions cluster in the second before each boundary).
var defaultCalibrationParams = []string{
	"downlink.alloc.base=30Mbps:300Mbps:log", "downlink.alloc.multiplier=1:5",
	"downlink.random_loss=0.000001:0.001:log", "downlink.aqm.max_prob=0.001:0.5:log",
	"downlink.outage.arrival_loss=0:1",
	"uplink.alloc.base=5Mbps:60Mbps:log", "uplink.alloc.multiplier=1:3",
	"uplink.random_loss=0.000001:0.001:log", "uplink.aqm.max_prob=0.01:1:log",
	"uplink.outage.arrival_loss=0:1",
}

type calibrateFlags struct {
	params     []string
	sets       []string
	profile    string
	holdout    []string
	cities     []string
	directions []string
	kinds      []string
	ccas       []string
	cv         bool
	runs       int
	duration   time.Duration
	maxEvals   int
	weights    string
	loss       string
	out        string
	exec       execFlags
}

func newCalibrateCmd() *cobra.Command {
	var f calibrateFlags
	c := &cobra.Command{
		Use:   "calibrate [SUMMARY.csv ...]",
		Short: "Fit the Starlink model's parameters to real measurements (simulator as the forward model)",
		Long: `Fits Starlink profile parameters so that the simulator reproduces real per-cell
measurements (kind × direction × city × CCA: throughput, retransmissions per GB,
RTT inflation). Inputs are end-summary CSVs in the seed-000 dataset's layout;
without any, the embedded copy of the dataset (5-run means) is used. Tokyo has no
data and is never fitted.

Each evaluation runs the seed-000 experiment on the simulator through a campaign
store (DIR/store.db, or --store): kill the fit and run the same command again, and it replays
its path from the stored runs. Parameters are fitted per direction (downlink
parameters on downlink cells, then uplink). Output in DIR: fitted.yaml (profile
overrides with the fit in comments), report.html, residuals.csv, evaluations.csv.

  --param PATH=LO:HI[:log]   a parameter and its bounds (repeatable; default: the built-in plan)
  --profile NAME             starlink (the Melbourne site, default) or starlink-seed001
  --set PATH=VALUE           hold a parameter at a value in every evaluation (repeatable; a
                             number, or a name for a choice such as aqm.mode=linear); a
                             fitted parameter that is also set starts from that value
  --holdout CITY             leave a city out of the fit and report its prediction
  --cv                       leave-one-city-out cross-validation over the fitted cities`,
		Example: `  leolab calibrate --out fit                                   # the built-in plan on the embedded data
  leolab calibrate --directions uplink --duration 120s --out fit-ul
  leolab calibrate --param uplink.alloc.base=5Mbps:60Mbps:log --holdout london --out fit-lon
  leolab calibrate my_summaries.csv --cv --out fit-cv
  leolab calibrate --directions downlink --param downlink.aqm.min_packets=0:400 --set downlink.random_loss=1e-5 --out fit-dl`,
		RunE: func(cmd *cobra.Command, args []string) error { return runCalibrate(cmd, args, &f) },
	}
	fl := c.Flags()
	fl.StringSliceVar(&f.params, "param", nil, "parameter to fit, PATH=LO:HI[:log] (repeatable)")
	fl.StringVar(&f.profile, "profile", profile.NameStarlink, "the Starlink profile the fit starts from and overrides: "+profile.NameStarlink+" or "+profile.NameStarlinkSeed001)
	fl.StringSliceVar(&f.sets, "set", nil, "parameter held at a value (start value when also fitted), PATH=VALUE (repeatable)")
	fl.StringSliceVar(&f.holdout, "holdout", nil, "city left out of the fit and predicted (repeatable)")
	fl.StringSliceVar(&f.cities, "cities", nil, "cities to fit (default: every city with real data)")
	fl.StringSliceVar(&f.directions, "directions", nil, "directions to fit (default: downlink, uplink)")
	fl.StringSliceVar(&f.kinds, "kinds", nil, "scenario kinds (default: dedicated, concurrent)")
	fl.StringSliceVar(&f.ccas, "ccas", nil, "CCAs (default: the dataset's; ccp only with the concurrent kind, whose real runs had its flow, and never fitted)")
	fl.BoolVar(&f.cv, "cv", false, "leave-one-city-out cross-validation")
	fl.IntVar(&f.runs, "runs", 1, "simulated runs (seeds) per cell")
	fl.DurationVar(&f.duration, "duration", campaign.FullDuration, "length of each simulated run")
	fl.IntVar(&f.maxEvals, "max-evals", calibrate.DefaultMaxEvals, "forward-model evaluations per fit")
	fl.StringVar(&f.weights, "weights", "1,0.5,0.5", "objective weights of throughput,retransmissions,RTT inflation")
	fl.StringVar(&f.loss, "loss", "cauchy", "robust loss: "+strings.Join(calibrate.Losses, ", "))
	fl.StringVar(&f.out, "out", "calibrate-out", "output directory")
	f.exec.register(c)
	return c
}

// calibration is one fit's inputs, resolved from the flags.
type calibration struct {
	space      calibrate.Space
	held       map[string]any // --set: overrides under every evaluation
	obj        calibrate.Objective
	real       map[campaign.Key]campaign.Metrics
	spreads    map[campaign.SpreadKey]campaign.Spread // the real runs' spread, for the noise ceiling
	cities     []string
	directions []string
	kinds      []string
	ccas       []string
	seeds      []uint64
	// builtin: the measurements are the built-in seed-000 dataset, whose
	// servers the forward model runs (campaign.DatasetServerLimits).
	builtin bool
}

func (f *calibrateFlags) resolve(args []string) (*calibration, error) {
	c := &calibration{}
	var runs []iperf.Summary
	var err error
	if len(args) == 0 {
		c.builtin = true
		runs, err = campaign.RealRuns()
	} else {
		runs, err = campaign.ReadRealRuns(args)
	}
	if err != nil {
		return nil, usageError{err}
	}
	c.real, c.spreads = campaign.RealMeans(runs), campaign.RealSpreads(runs)
	params := f.params
	if len(params) == 0 {
		params = defaultCalibrationParams
	}
	for _, p := range params {
		q, err := calibrate.ParseParam(p)
		if err != nil {
			return nil, badInput("calibrate: --param %s: %v", p, err)
		}
		c.space = append(c.space, q)
	}
	if !profile.IsStarlink(f.profile) {
		return nil, badInput("calibrate: --profile %q (allowed: %s, %s)", f.profile, profile.NameStarlink, profile.NameStarlinkSeed001)
	}
	if c.held, err = parseSets(f.sets); err != nil {
		return nil, err
	}
	w, err := calibrate.ParseWeights(f.weights)
	if err != nil {
		return nil, badInput("calibrate: --weights: %v", err)
	}
	if !slices.Contains(calibrate.Losses, f.loss) {
		return nil, badInput("calibrate: --loss %q (allowed: %s)", f.loss, strings.Join(calibrate.Losses, ", "))
	}
	c.obj = calibrate.Objective{Weights: w, Loss: f.loss}
	if f.runs < 1 || f.runs > 100 {
		return nil, badInput("calibrate: --runs %d: allowed 1..100", f.runs)
	}
	if f.duration < 10*time.Second || f.duration > time.Hour {
		return nil, badInput("calibrate: --duration %v: allowed 10s..1h", f.duration)
	}
	if f.maxEvals < 2 || f.maxEvals > 10000 {
		return nil, badInput("calibrate: --max-evals %d: allowed 2..10000", f.maxEvals)
	}
	for i := range f.runs {
		c.seeds = append(c.seeds, uint64(campaign.DefaultSeed+i))
	}
	withData := map[string]bool{}
	for k := range c.real {
		withData[k.City] = true
	}
	c.cities = f.cities
	if len(c.cities) == 0 {
		for _, city := range profile.Cities() {
			if withData[city] {
				c.cities = append(c.cities, city)
			}
		}
	}
	for _, city := range append(slices.Clone(c.cities), f.holdout...) {
		if !slices.Contains(profile.Cities(), city) {
			return nil, badInput("calibrate: city %q (allowed: %s)", city, strings.Join(profile.Cities(), ", "))
		}
		if !withData[city] {
			return nil, badInput("calibrate: city %s has no real measurements to fit or judge", city)
		}
	}
	c.cities = slices.DeleteFunc(c.cities, func(city string) bool { return slices.Contains(f.holdout, city) })
	if len(c.cities) == 0 {
		return nil, badInput("calibrate: no city left to fit")
	}
	c.directions = orAll(f.directions, []string{"downlink", "uplink"})
	c.kinds = orAll(f.kinds, campaign.Kinds())
	c.ccas = f.ccas
	if len(c.ccas) == 0 {
		// The real concurrent runs had the ccp flow beside the eight that
		// are compared (a 10-segment window, cc/fixed), so a concurrent
		// kind runs it too, as reproduce does; the objective never fits
		// ccp's own cells (calibrate/objective.go). Without a concurrent
		// kind its dedicated runs would only cost time.
		c.ccas = campaign.DatasetNames()
		if !slices.Contains(c.kinds, campaign.Concurrent) {
			c.ccas = slices.DeleteFunc(c.ccas, func(n string) bool { return n == "ccp" })
		}
	}
	return c, nil
}

func orAll(v, all []string) []string {
	if len(v) == 0 {
		return all
	}
	return v
}

// stageSpec is one stage of a calibration: parameters and the directions
// whose cells they are fitted on.
type stageSpec struct {
	dirs  []string
	space calibrate.Space
}

// stagesOf groups the space by direction: a parameter under "downlink." or
// "uplink." is fitted on that direction's cells alone (the other
// direction's packets are ACKs, which these parameters barely touch), the
// rest on every direction.
func stagesOf(s calibrate.Space, directions []string) []stageSpec {
	var out []stageSpec
	add := func(dirs []string, sel func(calibrate.Param) bool) {
		var sub calibrate.Space
		for _, p := range s {
			if sel(p) {
				sub = append(sub, p)
			}
		}
		if len(sub) > 0 && len(dirs) > 0 {
			out = append(out, stageSpec{dirs, sub})
		}
	}
	for _, d := range directions {
		add([]string{d}, func(p calibrate.Param) bool { return strings.HasPrefix(p.Path, d+".") })
	}
	add(directions, func(p calibrate.Param) bool {
		return !strings.HasPrefix(p.Path, "downlink.") && !strings.HasPrefix(p.Path, "uplink.")
	})
	return out
}

// freshExec makes an executor per evaluation (a NATS campaign is keyed by
// its runs).
type freshExec struct {
	workers      int
	url          string
	ackWait      time.Duration
	versionStamp string
}

func (e freshExec) Execute(ctx context.Context, runs []campaign.Run, done func(campaign.Outcome) error) error {
	if e.url != "" {
		return campaign.Distributed{URL: e.url, AckWait: e.ackWait, Key: campaign.CampaignKey(runs)}.Execute(ctx, runs, done)
	}
	return campaign.Pool{Workers: e.workers, Version: e.versionStamp}.Execute(ctx, runs, done)
}

func runCalibrate(cmd *cobra.Command, args []string, f *calibrateFlags) error {
	if err := f.exec.check(cmd); err != nil {
		return err
	}
	c, err := f.resolve(args)
	if err != nil {
		return err
	}
	if err := mkdirAll(f.out); err != nil {
		return err
	}
	if f.exec.store == "" {
		f.exec.store = filepath.Join(f.out, "store.db")
	}
	st, err := campaign.OpenStore(f.exec.store)
	if err != nil {
		return storeInputError(err)
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stderr := cmd.ErrOrStderr()
	fwd := &calibrate.Forward{Profile: f.profile, CCAs: c.ccas, Kinds: c.kinds, Seeds: c.seeds, Duration: f.duration, Store: st, DatasetServers: c.builtin,
		Exec: freshExec{workers: f.exec.workers, url: f.exec.natsURL, ackWait: f.exec.ackWait, versionStamp: versionString()}, Version: versionString()}
	warned := false
	fwd.Stale = func(n int) { // once: every evaluation of a resumed fit would say it again
		if !warned {
			warned = true
			fmt.Fprintf(stderr, "leolab: calibrate: warning: %s\n", staleWarning(n, st.Path()))
		}
	}
	j := &calibrationJob{c: c, fwd: fwd, f: f, stderr: stderr}
	fits, err := j.fitAll(ctx, c.cities, "fit")
	if err != nil {
		if ctx.Err() != nil && cmd.Context().Err() == nil {
			return fmt.Errorf("%w (finished runs are in %s: run the same command to resume)", errInterrupted, st.Path())
		}
		return err
	}
	sets := map[string][]campaign.Row{"start": fits.startRows, "fitted": fits.bestRows}
	order := []string{"start", "fitted"}
	if len(f.holdout) > 0 {
		rows, err := j.predict(ctx, f.holdout, fits.overrides)
		if err != nil {
			return err
		}
		sets["held out"] = rows
		order = append(order, "held out")
	}
	if f.cv {
		rows, err := j.crossValidate(ctx)
		if err != nil {
			return err
		}
		sets["cv held out"] = rows
		order = append(order, "cv held out")
	}
	return j.write(cmd.OutOrStdout(), fits, sets, order)
}

// calibrationJob holds what every fit of one command shares.
type calibrationJob struct {
	c      *calibration
	fwd    *calibrate.Forward
	f      *calibrateFlags
	stderr io.Writer
}

// fitted is the outcome of fitting every stage on some cities.
type fitted struct {
	stages              []calibrate.Stage
	overrides           map[string]any // fitted and tied values of every stage
	tied                map[string]any
	startRows, bestRows []campaign.Row
}

// fitAll fits the stages in turn on cities, each under the values fitted
// before it.
func (j *calibrationJob) fitAll(ctx context.Context, cities []string, label string) (*fitted, error) {
	out := &fitted{overrides: map[string]any{}, tied: map[string]any{}}
	for _, stg := range stagesOf(j.c.space, j.c.directions) {
		fixed := maps.Clone(j.c.held)
		if fixed == nil {
			fixed = map[string]any{}
		}
		maps.Copy(fixed, out.overrides)
		start, err := calibrate.StartValuesIn(j.f.profile, stg.space, cities[0], fixed)
		if err != nil {
			return nil, err
		}
		sp, err := profile.StarlinkNamed(j.f.profile, cities[0], fixed)
		if err != nil {
			return nil, err
		}
		fwd := *j.fwd
		fwd.Cities, fwd.Directions, fwd.Fixed = cities, stg.dirs, fixed
		name := strings.Join(stg.dirs, "+")
		fmt.Fprintf(j.stderr, "%s %s: %d parameters, %d runs per evaluation, up to %d evaluations\n",
			label, name, len(stg.space), fwd.Runs(), j.f.maxEvals)
		began := time.Now()
		opt := calibrate.Options{Objective: j.c.obj, MaxEvals: j.f.maxEvals, Tie: calibrate.DriftTie(stg.space, sp)}
		if !j.f.exec.noProgress {
			opt.Eval = func(e calibrate.Evaluation) {
				if e.Infeasible != "" {
					fmt.Fprintf(j.stderr, "  %s %s eval %d: infeasible, not run (%s)  %s\n", label, name, e.N, e.Infeasible,
						describe(stg.space, e.Values))
					return
				}
				fmt.Fprintf(j.stderr, "  %s %s eval %d: cost %.4f  %s  (%v)\n", label, name, e.N, e.Cost,
					describe(stg.space, e.Values), time.Since(began).Round(time.Second))
			}
		}
		res, err := calibrate.Fit(ctx, &fwd, j.c.real, stg.space, start, opt)
		if err != nil {
			return nil, err
		}
		for k, v := range stg.space.Overrides(res.Best) {
			out.overrides[k] = v
		}
		for k, v := range res.BestTied {
			out.overrides[k], out.tied[k] = v, v
		}
		out.stages = append(out.stages, calibrate.Stage{Name: name, Result: res,
			Cells: fmt.Sprintf("%s %s, %v", name, strings.Join(j.c.kinds, "+"), cities)})
		out.startRows = append(out.startRows, res.StartRows...)
		out.bestRows = append(out.bestRows, res.BestRow...)
	}
	return out, nil
}

func describe(s calibrate.Space, v []float64) string {
	parts := make([]string, len(s))
	for i, p := range s {
		parts[i] = p.Path + "=" + p.Format(v[i])
	}
	return strings.Join(parts, " ")
}

// predict runs the fitted values on cities the fit did not see.
func (j *calibrationJob) predict(ctx context.Context, cities []string, overrides map[string]any) ([]campaign.Row, error) {
	fwd := *j.fwd
	fwd.Cities, fwd.Directions, fwd.Fixed = cities, j.c.directions, j.c.held
	return fwd.Eval(ctx, overrides, j.c.real)
}

// crossValidate fits without each city in turn and predicts it.
func (j *calibrationJob) crossValidate(ctx context.Context) ([]campaign.Row, error) {
	var out []campaign.Row
	for _, city := range j.c.cities {
		rest := slices.DeleteFunc(slices.Clone(j.c.cities), func(c string) bool { return c == city })
		if len(rest) == 0 {
			return nil, badInput("calibrate: --cv needs at least two cities")
		}
		fits, err := j.fitAll(ctx, rest, "cv-"+city)
		if err != nil {
			return nil, err
		}
		rows, err := j.predict(ctx, []string{city}, fits.overrides)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// write saves fitted.yaml, the CSVs and the report, and prints the summary.
func (j *calibrationJob) write(stdout io.Writer, fits *fitted, sets map[string][]campaign.Row, order []string) error {
	dir := j.f.out
	header := []string{
		"leolab calibrate " + versionString() + ": fitted Starlink parameters (profile overrides)",
		fmt.Sprintf("forward model: sim, profile %s, %v per run, seeds %v, CCAs %v, kinds %v", j.f.profile, j.f.duration, j.c.seeds, j.c.ccas, j.c.kinds),
		fmt.Sprintf("fitted on %v; held out %v", j.c.cities, j.f.holdout),
	}
	yml := calibrate.ProfileYAML(fits.stages, fits.tied, j.c.held, j.c.obj, header)
	if err := os.WriteFile(filepath.Join(dir, "fitted.yaml"), []byte(yml), 0o644); err != nil {
		return err
	}
	res := map[string][]calibrate.Residual{}
	for _, s := range order {
		res[s] = j.c.obj.Residuals(sets[s])
	}
	rt := calibrate.ResidualTable("Per-cell residuals", "residuals", res, order)
	if err := writeCSVFile(filepath.Join(dir, "residuals.csv"), func(w io.Writer) error { return report.WriteCSV(w, &rt) }); err != nil {
		return err
	}
	if err := writeCSVFile(filepath.Join(dir, "evaluations.csv"), func(w io.Writer) error {
		return writeEvaluations(w, fits.stages)
	}); err != nil {
		return err
	}
	var ceils []campaign.Ceiling
	if len(order) > 0 {
		ceils = campaign.Ceilings(sets[order[0]], j.c.spreads)
	}
	rep, err := j.report(fits, sets, order, rt, ceils)
	if err != nil {
		return err
	}
	if err := report.Write(dir, rep); err != nil {
		return err
	}
	for _, stg := range fits.stages {
		fmt.Fprintf(stdout, "stage %s: objective %.4f -> %.4f in %d evaluations (%s)\n  %s\n", stg.Name,
			stg.Result.StartCost, stg.Result.BestCost, len(stg.Result.Evals), stg.Result.Status,
			describe(stg.Result.Space, stg.Result.Best))
	}
	for _, s := range order {
		for _, m := range campaign.Magnitudes(sets[s]) {
			fmt.Fprintf(stdout, "%-11s %s\n", s+":", m)
		}
	}
	if len(order) > 0 {
		fmt.Fprintln(stdout, campaign.CeilingNote)
		for _, c := range ceils {
			fmt.Fprintf(stdout, "%-11s %s\n", "ceiling:", c)
		}
	}
	fmt.Fprintf(stdout, "wrote %s, fitted.yaml, residuals.csv, evaluations.csv\n", filepath.Join(dir, report.HTMLFile))
	return nil
}

// report lays out report.html: the magnitude table and the stages, the
// sim-vs-real scatter of every set, the residuals.
func (j *calibrationJob) report(fits *fitted, sets map[string][]campaign.Row, order []string, rt report.Table,
	ceils []campaign.Ceiling) (*report.Report, error) {
	mt := calibrate.MagnitudeTable("Magnitude agreement and noise ceiling", "magnitude", sets, order, ceils)
	rep := &report.Report{Title: "leolab calibrate: the Starlink model fitted to real measurements",
		Meta: []report.Meta{{Key: "leolab", Value: versionString()}, {Key: "real data", Value: campaign.RealProvenance()},
			{Key: "objective", Value: fmt.Sprintf("%s loss, weights %s", j.c.obj.Loss, j.f.weights)}}}
	sec := report.Section{Title: "Fit", Text: []string{"Fitted values with their bounds and the objective are in fitted.yaml; " +
		"the per-cell residuals in residuals.csv (in units of each metric's acceptance band)."},
		Tables: []report.Table{mt}}
	for _, stg := range fits.stages {
		sec.Text = append(sec.Text, fmt.Sprintf("Stage %s: objective %.4f → %.4f in %d evaluations (%s): %s.",
			stg.Name, stg.Result.StartCost, stg.Result.BestCost, len(stg.Result.Evals), stg.Result.Status,
			describe(stg.Result.Space, stg.Result.Best)))
	}
	rep.Sections = append(rep.Sections, sec)
	for _, s := range order {
		figs, err := calibrate.ScatterFigures(s, sets[s])
		if err != nil {
			return nil, err
		}
		rep.Sections = append(rep.Sections, report.Section{Title: "Simulated vs real throughput: " + s, Figures: figs})
	}
	rep.Sections = append(rep.Sections, report.Section{Title: "Residuals", Tables: []report.Table{rt}})
	return rep, nil
}

func writeEvaluations(w io.Writer, stages []calibrate.Stage) error {
	if _, err := fmt.Fprintln(w, "stage,evaluation,cost,values"); err != nil {
		return err
	}
	for _, st := range stages {
		for _, e := range st.Result.Evals {
			if _, err := fmt.Fprintf(w, "%s,%d,%.6f,%q\n", st.Name, e.N, e.Cost, describe(st.Result.Space, e.Values)); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseSets reads --set PATH=VALUE: a Starlink parameter and a value it
// allows — a number in its range or, for a choice such as aqm.mode, one of
// its names (the whole profile is checked per evaluation, after the fit's
// ties).
func parseSets(sets []string) (map[string]any, error) {
	if len(sets) == 0 {
		return nil, nil
	}
	held := map[string]any{}
	for _, s := range sets {
		path, val, ok := strings.Cut(s, "=")
		if !ok || path == "" || val == "" {
			return nil, badInput("calibrate: --set %q: want PATH=VALUE, e.g. downlink.random_loss=1e-5", s)
		}
		if err := profile.CheckValue(path, val); err != nil {
			return nil, badInput("calibrate: --set %s: %v", s, err)
		}
		held[path] = val
	}
	return held, nil
}
