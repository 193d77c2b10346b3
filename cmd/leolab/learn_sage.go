package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	lsage "github.com/leolab/leolab/learn/sage"
	"github.com/spf13/cobra"
)

// runTrainSage is `learn train-cca sage`: the pool's collection, then
// CRR offline (learn/sage).
func runTrainSage(cmd *cobra.Command, f *trainCCAFlags) error {
	fl := cmd.Flags()
	if fl.Changed("rounds") {
		return badInput("learn train-cca sage: --rounds does not apply (sage learns offline: --episodes pool runs per heuristic, --updates CRR steps)")
	}
	if f.leo {
		return badInput("learn train-cca sage: --leo does not apply (the pool's reward and the validation's utilisation are against the link's rate, which the Starlink path does not have; --leo: orca, astraea)")
	}
	tc := lsage.DefaultTrainConfig()
	tc.CRR.Seed = f.seed
	if fl.Changed("episodes") {
		tc.Episodes = f.episodes
	}
	if fl.Changed("updates") {
		tc.CRR.Steps = f.updates
	}
	if fl.Changed("validation") {
		tc.ValEpisodes = f.val
	}
	if fl.Changed("workers") {
		tc.Workers = f.workers
	}
	if fl.Changed("episode") {
		tc.Dist.Duration = f.episode
	}
	if tc.Episodes < 1 || tc.Episodes > 10_000 || tc.CRR.Steps < 0 || tc.CRR.Steps > 10_000_000 || tc.Workers < 1 || tc.ValEpisodes < 0 || tc.ValEpisodes > 10_000 {
		return badInput("learn train-cca sage: --episodes %d --updates %d --workers %d --validation %d: want episodes in 1..10000, updates in 0..10000000, workers ≥ 1, validation in 0..10000",
			tc.Episodes, tc.CRR.Steps, tc.Workers, tc.ValEpisodes)
	}
	if err := tc.Dist.Validate(); err != nil {
		return badInput("learn train-cca sage: --episode %v: %v", tc.Dist.Duration, err)
	}
	stderr := cmd.ErrOrStderr()
	start := time.Now()
	tc.Progress = func(s string) { fmt.Fprintf(stderr, "%s [%v]\n", s, time.Since(start).Round(time.Second)) }
	tc.CRR.Log = func(l lsage.StepLog) { fmt.Fprintf(stderr, "%s [%v]\n", l, time.Since(start).Round(time.Second)) }
	pf, _, err := lsage.Train(tc)
	if err != nil {
		return err
	}
	pf.Meta = map[string]string{
		"trained_by": "leolab learn train-cca sage",
		"seed":       strconv.FormatUint(tc.CRR.Seed, 10),
		"episodes":   strconv.Itoa(tc.Episodes),
		"updates":    strconv.Itoa(tc.CRR.Steps),
		"episode":    tc.Dist.Duration.String(),
		"validation": strconv.Itoa(tc.ValEpisodes),
		"pool":       fmt.Sprint(tc.CCAs),
		"note":       "retrained here; the authors' weights are not used",
	}
	b, err := json.Marshal(pf)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	fmt.Fprintf(stderr, "trained in %v\n", time.Since(start).Round(time.Second))
	if f.out == "-" {
		_, err = cmd.OutOrStdout().Write(b)
		return err
	}
	return writeFileAtomic(f.out, b, stderr)
}
