package main

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/learn"
	"github.com/spf13/cobra"
)

// runLearnTrainCurve is learn train --target curve: the reward-curve
// regression of the counterfactual rows (learn.TrainCurve), scored per
// phase by accuracy, cross-entropy and regret against the training
// majority.
func runLearnTrainCurve(cmd *cobra.Command, rows []learn.Row, args []string, f *learnTrainFlags, features string) error {
	ex, err := learn.CurveExamples(rows, features)
	if err != nil {
		return badInput("learn train: %v", err)
	}
	if len(ex) == 0 {
		return badInput("learn train: --target curve: no row of %s has label_source counterfactual (write the pool with learn label)", strings.Join(args, " "))
	}
	train, held := ex, []learn.CurveExample(nil)
	if f.holdout != "" {
		train, held = learn.Split(ex, func(e learn.CurveExample) bool { return e.Source.Location == strings.ToLower(f.holdout) })
		if len(held) == 0 {
			return badInput("learn train: no counterfactual UP or DOWN rows at --holdout %s", f.holdout)
		}
	}
	var cfg learn.CurveConfig
	if cmd.Flags().Changed("l2") {
		cfg.L2 = f.l2
		if !(f.l2 > 0) {
			return badInput("learn train: --target curve: --l2 %g must be above 0 (leave it unset to choose it by leaving a training city out)", f.l2)
		}
	}
	m, err := learn.TrainCurve(train, learn.CurveFeatureNames(features), cfg)
	if err != nil {
		return badInput("%v", err)
	}
	stderr := cmd.ErrOrStderr()
	for _, ph := range []learn.Phase{learn.Up, learn.Down} {
		pm := m.Phases[map[learn.Phase]string{learn.Up: "UP", learn.Down: "DOWN"}[ph]]
		fmt.Fprintf(stderr, "leolab: learn train: curve %v: l2 %g, temperature %g (chosen by leaving one training city out)\n", ph, pm.L2, pm.Temperature)
	}
	report := func(set string, evs []learn.CurveEval) {
		for _, e := range evs {
			fmt.Fprintf(stderr, "leolab: learn train: %s %v: %d rows, accuracy %.3f (majority %.3f), cross-entropy %.4f nats (training label prior %.4f), mean regret %.4f (always %g: %.4f; oracle reward %.4f); confusion (label × predicted, gains %v) %v\n",
				set, e.Phase, e.N, e.Accuracy(), e.Majority, e.CE, e.PriorCE, e.Regret, e.MajorityGain, e.MajorityRegret, e.Oracle, learn.Feasible(e.Phase), e.Confusion)
		}
	}
	trEv := learn.EvaluateCurve(m, train, train)
	report("train (target curve)", trEv)
	var names []string
	for _, e := range train {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+e.Source.Location+" ") {
			names = append(names, e.Source.Location)
		}
	}
	info := learn.TrainingInfo{Label: "reward curve (gain_rewards) of the counterfactual rows, ridge regression; answer its argmax",
		Config: learn.TrainConfig{L2: cfg.L2}, Locations: names, Holdout: f.holdout,
		Train: map[string]int{"UP": trEv[0].N, "DOWN": trEv[1].N}, TrainAcc: learn.EvalJSON(learn.CurvePhaseEvals(trEv)),
		Regen: "leolab learn train " + strings.Join(args, " ") + " --labels counterfactual --target curve --features " + features}
	if cfg.L2 > 0 {
		info.Regen += fmt.Sprintf(" --l2 %g", cfg.L2)
	}
	if len(held) > 0 {
		heEv := learn.EvaluateCurve(m, train, held)
		info.HeldAcc = learn.EvalJSON(learn.CurvePhaseEvals(heEv))
		report("held-out "+f.holdout+" (target curve)", heEv)
	}
	data, err := learn.MarshalCurveModel(m, info)
	if err != nil {
		return err
	}
	return writeLearnOutput(cmd.OutOrStdout(), f.out, data)
}
