package main

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/paper000"
	"github.com/leolab/leolab/report"
	"github.com/spf13/cobra"
)

// paper000Flags size the runs `reproduce --paper 000` adds to the campaign
// (hidden: for tests and partial studies).
type paper000Flags struct {
	pairSeeds    int
	pairDuration time.Duration
}

func (p *paper000Flags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.IntVar(&p.pairSeeds, "pair-seeds", paper000.DefaultPairSeeds, "Fig. 15: seeds per arrival pattern")
	fl.DurationVar(&p.pairDuration, "pair-duration", paper000.DefaultPairDuration, "Fig. 15: length of each two-flow run")
	for _, n := range []string{"pair-seeds", "pair-duration"} {
		fl.MarkHidden(n)
	}
}

// reproduce000Sections runs seed 000's two-flow experiment (Fig. 15) into
// the campaign's store, then builds the sections of Figs. 9–10's panels,
// 11–15 and the slot profile from the stored runs and the real traces.
func reproduce000Sections(cmd *cobra.Command, f *reproduceFlags, runs []campaign.Run, st *campaign.Store) ([]report.Section, error) {
	ctx := cmd.Context()
	pairRuns, err := paper000.PairRuns(f.p000.pairSeeds, f.p000.pairDuration)
	if err != nil {
		return nil, usageError{err}
	}
	sum, err := executeCampaign(cmd, pairRuns, st, &f.exec)
	fmt.Fprintf(cmd.OutOrStdout(), "fig. 15 two-flow runs: %d runs: %d stored before, %d ran, %d failed in %v\n",
		sum.Total, sum.Skipped, sum.Ran, sum.Failed, sum.Wall.Round(time.Millisecond))
	if err != nil {
		return nil, err
	}
	pairs, err := paper000.LoadPairs(ctx, st, pairRuns)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(runs))
	for _, r := range runs {
		ids[r.ID] = true
	}
	flows, err := st.Flows(ctx, ids)
	if err != nil {
		return nil, err
	}
	real, err := campaign.RealData()
	if err != nil {
		return nil, err
	}
	traces, err := paper000.SimTraces(ctx, st, runs)
	if err != nil {
		return nil, err
	}
	realTraces, err := paper000.RealTraces()
	if err != nil {
		return nil, err
	}
	return paper000.Sections(paper000.Input{Rows: campaign.Compare(flows, real), Traces: append(realTraces, traces...), Pairs: pairs})
}
