package main

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/learn"
	"github.com/spf13/cobra"
)

// runLearnTrainState is learn train --features all: the linear policy over
// every numeric state field of the pool (learn.TrainState), evaluated as
// the lmbbr model is.
func runLearnTrainState(cmd *cobra.Command, rows []learn.Row, args []string, f *learnTrainFlags, what string,
	train, held []learn.Example, cfg learn.TrainConfig) error {
	trS, heS := learn.StateExamples(rows, train), learn.StateExamples(rows, held)
	m, err := learn.TrainState(trS, cfg)
	if err != nil {
		return badInput("%v", err)
	}
	stderr := cmd.ErrOrStderr()
	trEv := learn.EvaluateState(m, trS)
	var names []string
	for _, e := range train {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+e.Source.Location+" ") {
			names = append(names, e.Source.Location)
		}
	}
	info := learn.TrainingInfo{Label: what, Config: cfg, Locations: names, Holdout: f.holdout,
		Train: map[string]int{"UP": trEv[0].N, "DOWN": trEv[1].N}, TrainAcc: learn.EvalJSON(trEv),
		Regen: "leolab learn train " + strings.Join(args, " ") + " --labels " + f.labels + " --features all"}
	report := func(set string, evs []learn.PhaseEval) {
		for _, e := range evs {
			fmt.Fprintf(stderr, "leolab: learn train: %s %v: %d rows, accuracy %.3f (majority %.3f), mean |gain error| %.4f\n",
				set, e.Phase, e.N, e.Accuracy(), e.Majority, e.MAE)
		}
	}
	report("train (features all)", trEv)
	if len(held) > 0 {
		heEv := learn.EvaluateState(m, heS)
		info.HeldAcc = learn.EvalJSON(heEv)
		report("held-out "+f.holdout+" (features all)", heEv)
		learn.SetPrior(heEv, train, held)
		for _, e := range heEv {
			fmt.Fprintf(stderr, "leolab: learn train: held-out %s %v: cross-entropy %.4f nats (training label prior %.4f); confusion (label × predicted, gains %v) %v\n",
				f.holdout, e.Phase, e.CE, e.PriorCE, learn.Feasible(e.Phase), e.Confusion)
		}
	}
	data, err := learn.MarshalStateModel(m, info)
	if err != nil {
		return err
	}
	return writeLearnOutput(cmd.OutOrStdout(), f.out, data)
}
