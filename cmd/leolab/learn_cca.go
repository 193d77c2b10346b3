package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/learn/rlenv"
	"github.com/leolab/leolab/learn/td3"
	"github.com/spf13/cobra"
)

type trainCCAFlags struct {
	seed                      uint64
	rounds, episodes, updates int
	workers                   int
	val                       int
	episode                   time.Duration
	out                       string
	leo                       bool
}

// trainableCCAs are the learned controllers `learn train-cca` retrains.
var trainableCCAs = []string{"orca", "astraea", "sage"}

// trainSetup is one trainable controller: its task, distribution and
// default run.
type trainSetup struct {
	task rlenv.Task
	dist rlenv.Dist
	tc   td3.TrainConfig
}

func trainSetupOf(name string) (trainSetup, bool) {
	switch name {
	case "orca":
		return trainSetup{rlenv.OrcaTask(), rlenv.DefaultDist(), td3.DefaultTrainConfig()}, true
	case "astraea":
		return trainSetup{rlenv.AstraeaTask(), rlenv.AstraeaDist(), td3.AstraeaTrainConfig()}, true
	}
	return trainSetup{}, false
}

func newLearnTrainCCACmd() *cobra.Command {
	var f trainCCAFlags
	d := td3.DefaultTrainConfig()
	c := &cobra.Command{
		Use:   "train-cca NAME",
		Short: "Retrain a learned congestion controller's weights in the simulator (orca, astraea, sage)",
		Long: `Train a learned controller in leolab's simulator and write its weights.

orca: TD3 (learn/td3) over learn/rlenv's randomised dumbbells (10–100 Mbit/s,
10–100 ms, ½–4 BDP drop-tail, random loss up to 0.1 % in a quarter of the
episodes, at most one competing CUBIC flow, 10 s episodes), in rounds of
parallel episodes with exploration noise followed by TD3 updates; the actor
scoring best on validation episodes is written as a leolab-actor JSON (learn/actor).

astraea: the same TD3 over self-play episodes: 2–4 astraea flows sharing the
policy (the second to fourth starting in the first half) on 10–50 Mbit/s,
10–80 ms, ½–2 BDP dumbbells, 8 s episodes, each flow's reward scoring the
flows' utilisation, its delay and loss and its deviation from the mean rate.
Its defaults differ (learn/td3 AstraeaTrainConfig; flags left unset take them).

--leo (orca, astraea; default off) draws every episode on the simulated
Starlink downlink (profile starlink) of a city drawn uniformly from the
calibration cities (sydney, mumbai, ohio, london, saopaulo; Tokyo is held
out) instead of a dumbbell: the access link's 15 s reconfigurations, its
allocation and head-drop queue replace the drawn rate, RTT, buffer and loss
(learn/rlenv Dist.LEO); competitors are drawn as without it. Astraea's reward
then measures utilisation against the largest aggregate seen in the episode,
the path having no fixed rate. Sage does not take it: its pool's reward is
against the link's rate.

sage: offline, no interaction while learning (learn/sage): a pool of runs of
leolab's heuristic controllers (cubic, reno, vegas, bbr1, bbr3, hybla, copa;
--episodes runs of each, default 8) on the same dumbbells without competitors,
then --updates CRR steps (default 2000) of the GRU policy and its critic over
the pool; every 500 steps and at the end the policy runs greedily on
--validation held-out links (default 6) and the one with the best mean reward
is written as a leolab-sage-policy JSON; --rounds does not apply.

Same flags → same bytes. The defaults rebuild the embedded weights:

  leolab learn train-cca orca --out cc/orca/actor.json
  leolab learn train-cca astraea --out cc/astraea/actor.json
  leolab learn train-cca sage --out cc/sage/policy.json

Progress goes to stderr; the weights to --out (- for stdout).`,
		Example: `  leolab learn train-cca orca --out cc/orca/actor.json
  leolab learn train-cca sage --episodes 2 --updates 200 --out /tmp/policy.json
  leolab learn train-cca orca --rounds 4 --episodes 4 --out /tmp/actor.json
  leolab learn train-cca orca --leo --out /tmp/orca-leo.json`,
		RunE: func(cmd *cobra.Command, args []string) error { return runTrainCCA(cmd, args, &f) },
	}
	c.Flags().Uint64Var(&f.seed, "seed", d.Seed, "training seed")
	c.Flags().IntVar(&f.rounds, "rounds", d.Rounds, "collection+update rounds")
	c.Flags().IntVar(&f.episodes, "episodes", d.EpisodesPerRound, "episodes collected per round")
	c.Flags().IntVar(&f.updates, "updates", d.UpdatesPerRound, "TD3 updates per round")
	c.Flags().IntVar(&f.workers, "workers", d.Workers, "simulations run at once")
	c.Flags().IntVar(&f.val, "validation", d.ValEpisodes, "validation episodes (every 5 rounds and at the end; 0: keep the last actor)")
	c.Flags().DurationVar(&f.episode, "episode", rlenv.DefaultDist().Duration, "episode length")
	c.Flags().StringVar(&f.out, "out", "-", "write the weights to `FILE` (- for stdout)")
	c.Flags().BoolVar(&f.leo, "leo", false, "episodes on the Starlink downlink of a calibration city instead of dumbbells (orca, astraea)")
	return c
}

func runTrainCCA(cmd *cobra.Command, args []string, f *trainCCAFlags) error {
	if len(args) != 1 {
		return badInput("learn train-cca: want one NAME (allowed: %s)", strings.Join(trainableCCAs, ", "))
	}
	if args[0] == "sage" {
		return runTrainSage(cmd, f)
	}
	setup, ok := trainSetupOf(args[0])
	if !ok {
		return badInput("learn train-cca: %q cannot be trained here (allowed: %s)", args[0], strings.Join(trainableCCAs, ", "))
	}
	// flags left at their (Orca) defaults take the controller's own
	fl := cmd.Flags()
	for name, p := range map[string]*int{"rounds": &f.rounds, "episodes": &f.episodes, "updates": &f.updates, "workers": &f.workers, "validation": &f.val} {
		if !fl.Changed(name) {
			*p = map[string]int{"rounds": setup.tc.Rounds, "episodes": setup.tc.EpisodesPerRound, "updates": setup.tc.UpdatesPerRound,
				"workers": setup.tc.Workers, "validation": setup.tc.ValEpisodes}[name]
		}
	}
	if !fl.Changed("episode") {
		f.episode = setup.dist.Duration
	}
	if f.rounds < 1 || f.episodes < 1 || f.updates < 0 || f.workers < 1 || f.val < 0 || f.rounds > 100_000 || f.episodes > 10_000 {
		return badInput("learn train-cca: --rounds %d --episodes %d --updates %d --workers %d --validation %d: want rounds in 1..100000, episodes 1..10000, updates ≥ 0, workers ≥ 1, validation ≥ 0",
			f.rounds, f.episodes, f.updates, f.workers, f.val)
	}
	dist := setup.dist
	dist.Duration = f.episode
	dist.LEO = f.leo
	if err := dist.Validate(); err != nil {
		return badInput("learn train-cca: --episode %v: %v", f.episode, err)
	}
	tc := setup.tc
	tc.Seed, tc.Rounds, tc.EpisodesPerRound, tc.UpdatesPerRound, tc.Workers, tc.ValEpisodes = f.seed, f.rounds, f.episodes, f.updates, f.workers, f.val
	stderr := cmd.ErrOrStderr()
	start := time.Now()
	tc.Log = func(l td3.RoundLog) { fmt.Fprintf(stderr, "%s [%v]\n", l, time.Since(start).Round(time.Second)) }
	res, err := td3.Train(tc, rlenv.Collector{Dist: dist, Task: setup.task})
	if err != nil {
		return err
	}
	meta := map[string]string{
		"trained_by": "leolab learn train-cca " + args[0],
		"seed":       strconv.FormatUint(f.seed, 10),
		"rounds":     strconv.Itoa(f.rounds),
		"episodes":   strconv.Itoa(f.episodes),
		"updates":    strconv.Itoa(f.updates),
		"validation": strconv.Itoa(f.val),
		"episode":    f.episode.String(),
		"best_round": strconv.Itoa(res.BestRound),
		"note":       "retrained here; the authors' weights are not used",
	}
	if f.leo { // absent by default, so default runs rebuild the embedded files
		meta["leo"] = "true"
	}
	b, err := json.Marshal(res.Agent.ActorFileOf(res.Actor, meta))
	if err != nil {
		return err
	}
	b = append(b, '\n')
	fmt.Fprintf(stderr, "trained in %v; best validation round %d (reward %.3f)\n", time.Since(start).Round(time.Second), res.BestRound, res.BestVal)
	if f.out == "-" {
		_, err = cmd.OutOrStdout().Write(b)
		return err
	}
	return writeFileAtomic(f.out, b, stderr)
}

// writeFileAtomic writes b to path through a temporary file.
func writeFileAtomic(path string, b []byte, log io.Writer) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return badInput("learn train-cca: --out: %v", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("learn train-cca: %w", err)
	}
	fmt.Fprintf(log, "wrote %s (%d bytes)\n", path, len(b))
	return nil
}
