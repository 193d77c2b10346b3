package td3

import (
	"fmt"

	"github.com/leolab/leolab/learn/actor"
	"github.com/leolab/leolab/learn/rlenv"
)

// TrainConfig is a training run: rounds of collecting episodes with the
// current actor plus exploration noise, then updates from the replay.
type TrainConfig struct {
	Seed             uint64
	Rounds           int
	EpisodesPerRound int
	UpdatesPerRound  int
	// Noise is the exploration σ of the first round, decaying linearly
	// to NoiseEnd at the last (Soheil-ab/Orca params.json stddev 0.2,
	// decayed over noise_exp steps).
	Noise, NoiseEnd float64
	Replay          int // replay capacity, transitions
	// Warmup transitions are collected before the first update.
	Warmup  int
	Agent   Config
	Workers int
	// ValEpisodes greedy episodes, drawn from validation seeds
	// (ValidationSeed), score the actor every ValEvery rounds and at the
	// last; the best-scoring actor is the run's result. 0: the last.
	ValEpisodes, ValEvery int
	// Log, when set, receives each round's summary.
	Log func(RoundLog)
}

// ValidationSeed is the seed of the validation episodes of a run of seed:
// other episodes than training's (and than any test's, which use their
// own seeds).
func ValidationSeed(seed uint64) uint64 { return seed + 1<<32 }

// DefaultTrainConfig is the run that built cc/orca's embedded actor
// (23 min on a shared 2-core VM).
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{
		Seed: 1, Rounds: 200, EpisodesPerRound: 8, UpdatesPerRound: 500,
		Noise: 0.2, NoiseEnd: 0.05, Replay: 200_000, Warmup: 10_000,
		Agent: DefaultConfig(), Workers: 2, ValEpisodes: 8, ValEvery: 5,
	}
}

// AstraeaTrainConfig is the run that built cc/astraea's embedded actor:
// Orca's TD3 on fewer, shorter rounds with one worker, to fit a training
// of about five minutes on one core (4 m 43 s – 6 m on a shared 2-core
// VM; a fresh default run rebuilds the embedded actor byte for byte).
func AstraeaTrainConfig() TrainConfig {
	return TrainConfig{
		Seed: 1, Rounds: 100, EpisodesPerRound: 4, UpdatesPerRound: 300,
		Noise: 0.2, NoiseEnd: 0.05, Replay: 100_000, Warmup: 5_000,
		Agent: DefaultConfig(), Workers: 1, ValEpisodes: 4, ValEvery: 5,
	}
}

// RoundLog summarises one round.
type RoundLog struct {
	Round, Transitions, Replay, Updates int
	MeanReward                          float64 // per period
	Utilisation                         float64 // mean over episodes of all flows' throughput / link rate (fixed links)
	AgentShare                          float64 // mean agent throughput / link rate
	QueueMs                             float64 // mean over episodes of the agent's mean − min RTT
	CriticLoss, ActorQ                  float64
	Noise                               float64
	// Val is the validation score (mean reward per period of the greedy
	// actor) when the round was validated, with its utilisation and
	// queueing delay; Validated tells.
	Validated          bool
	Val, ValUtil, ValQ float64
}

// String is the log line.
func (l RoundLog) String() string {
	s := fmt.Sprintf("round %3d: %5d transitions (replay %6d, %6d updates), reward %.3f, utilisation %.3f (agent %.3f), queue %.1f ms, critic loss %.4f, Q %.2f, noise %.3f",
		l.Round, l.Transitions, l.Replay, l.Updates, l.MeanReward, l.Utilisation, l.AgentShare, l.QueueMs, l.CriticLoss, l.ActorQ, l.Noise)
	if l.Validated {
		s += fmt.Sprintf("; validation reward %.3f, utilisation %.3f, queue %.1f ms", l.Val, l.ValUtil, l.ValQ)
	}
	return s
}

// Result is a training run's outcome: the agent after the last round and
// the actor chosen by validation.
type Result struct {
	Agent     *Agent
	Actor     []actor.Layer
	BestRound int
	BestVal   float64
}

// Train runs tc over collector c (whose Noise it sets per round). The same config and collector give the same weights:
// episodes are collected deterministically (rlenv), added to the replay in
// episode order, and updates draw from one seeded stream.
func Train(tc TrainConfig, c rlenv.Collector) (*Result, error) {
	if tc.Rounds <= 0 || tc.EpisodesPerRound <= 0 || tc.UpdatesPerRound < 0 || tc.Replay <= 0 {
		return nil, fmt.Errorf("td3: rounds %d, episodes %d, updates %d, replay %d: want positive counts",
			tc.Rounds, tc.EpisodesPerRound, tc.UpdatesPerRound, tc.Replay)
	}
	a, err := New(c.Task.StateDim, tc.Agent, tc.Seed)
	if err != nil {
		return nil, err
	}
	rb := NewReplay(tc.Replay)
	c.Workers = tc.Workers
	res := &Result{Agent: a, BestRound: -1}
	for round := range tc.Rounds {
		frac := 0.0
		if tc.Rounds > 1 {
			frac = float64(round) / float64(tc.Rounds-1)
		}
		c.Noise = tc.Noise + (tc.NoiseEnd-tc.Noise)*frac
		layers := a.ActorLayers()
		eps, err := c.Collect(tc.Seed, round*tc.EpisodesPerRound, tc.EpisodesPerRound, func() rlenv.Policy {
			p, err := actor.New("td3", c.Task.StateDim, layers)
			if err != nil {
				panic("leolab BUG: td3 actor export: " + err.Error())
			}
			return p
		})
		if err != nil {
			return nil, err
		}
		log := RoundLog{Round: round, Noise: c.Noise}
		for _, e := range eps {
			for _, tr := range e.Transitions {
				rb.Add(Sample{S: tr.S, A: tr.A, R: tr.R, S2: tr.S2})
				log.MeanReward += float64(tr.R)
				log.Transitions++
			}
			log.Utilisation += Utilisation(e) / float64(len(eps))
			if e.Episode.RateMbps > 0 {
				log.AgentShare += e.Agent.ThroughputMbps / e.Episode.RateMbps / float64(len(eps))
			}
			log.QueueMs += (e.Agent.MeanRTTMs - e.Agent.MinRTTMs) / float64(len(eps))
		}
		if log.Transitions > 0 {
			log.MeanReward /= float64(log.Transitions)
		}
		if rb.Len() >= tc.Warmup {
			for range tc.UpdatesPerRound {
				a.Update(rb)
			}
		}
		log.Replay, log.Updates, log.CriticLoss, log.ActorQ = rb.Len(), a.Updates(), a.CriticLoss, a.ActorQ
		last := round == tc.Rounds-1
		if tc.ValEpisodes > 0 && (last || (tc.ValEvery > 0 && (round+1)%tc.ValEvery == 0)) {
			layers := a.ActorLayers()
			v, err := Validate(c, ValidationSeed(tc.Seed), tc.ValEpisodes, layers)
			if err != nil {
				return nil, err
			}
			log.Validated, log.Val, log.ValUtil, log.ValQ = true, v.Reward, v.Utilisation, v.QueueMs
			if res.BestRound < 0 || v.Reward > res.BestVal {
				res.Actor, res.BestRound, res.BestVal = layers, round, v.Reward
			}
		}
		if tc.Log != nil {
			tc.Log(log)
		}
	}
	if res.Actor == nil {
		res.Actor, res.BestRound = a.ActorLayers(), tc.Rounds-1
	}
	return res, nil
}

// Score is a greedy evaluation over episodes.
type Score struct {
	Reward      float64 // mean reward per period
	Utilisation float64 // mean link utilisation
	QueueMs     float64 // mean of the agent's mean − min RTT
}

// Validate runs n greedy episodes of seed with the actor layers.
func Validate(c rlenv.Collector, seed uint64, n int, layers []actor.Layer) (Score, error) {
	c.Noise = 0
	eps, err := c.Collect(seed, 0, n, func() rlenv.Policy {
		p, err := actor.New("td3", c.Task.StateDim, layers)
		if err != nil {
			panic("leolab BUG: td3 actor export: " + err.Error())
		}
		return p
	})
	if err != nil {
		return Score{}, err
	}
	var sc Score
	periods := 0
	for _, e := range eps {
		for _, tr := range e.Transitions {
			sc.Reward += float64(tr.R)
			periods++
		}
		sc.Utilisation += Utilisation(e) / float64(n)
		sc.QueueMs += (e.Agent.MeanRTTMs - e.Agent.MinRTTMs) / float64(n)
	}
	if periods > 0 {
		sc.Reward /= float64(periods)
	}
	return sc, nil
}

// Utilisation is the episode's link utilisation: all flows' acknowledged
// bytes over what the bottleneck carries in the episode (0 on the
// Starlink path, whose rate varies). Flows that start late count only
// what they sent, so the sum of per-flow throughputs (each over its own
// lifetime) is not used.
func Utilisation(e rlenv.EpisodeResult) float64 {
	if e.Episode.RateMbps <= 0 {
		return 0
	}
	var bytes int64
	for _, f := range e.Result.Flows {
		bytes += f.BytesAcked
	}
	return float64(bytes) * 8 / (e.Episode.RateMbps * 1e6 * e.Episode.Duration.Seconds())
}

// ActorFileOf is an actor's layers as learned controllers store them
// (learn/actor's File, under its current format name), with meta.
func (a *Agent) ActorFileOf(layers []actor.Layer, meta map[string]string) actor.File {
	return actor.NewFile(layers, meta)
}
