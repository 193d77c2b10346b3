package td3

import (
	"fmt"

	"github.com/leolab/leolab/cc/orca"
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
	// Log, when set, receives each round's summary.
	Log func(RoundLog)
}

// DefaultTrainConfig is the run that built cc/orca's embedded actor.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{
		Seed: 1, Rounds: 40, EpisodesPerRound: 8, UpdatesPerRound: 250,
		Noise: 0.2, NoiseEnd: 0.05, Replay: 200_000, Warmup: 10_000,
		Agent: DefaultConfig(), Workers: 2,
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
}

// String is the log line.
func (l RoundLog) String() string {
	return fmt.Sprintf("round %3d: %5d transitions (replay %6d, %6d updates), reward %.3f, utilisation %.3f (agent %.3f), queue %.1f ms, critic loss %.4f, Q %.2f, noise %.3f",
		l.Round, l.Transitions, l.Replay, l.Updates, l.MeanReward, l.Utilisation, l.AgentShare, l.QueueMs, l.CriticLoss, l.ActorQ, l.Noise)
}

// Train runs tc over collector c (whose Noise it sets per round) and
// returns the agent. The same config and collector give the same weights:
// episodes are collected deterministically (rlenv), added to the replay in
// episode order, and updates draw from one seeded stream.
func Train(tc TrainConfig, c rlenv.Collector) (*Agent, error) {
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
	for round := range tc.Rounds {
		frac := 0.0
		if tc.Rounds > 1 {
			frac = float64(round) / float64(tc.Rounds-1)
		}
		c.Noise = tc.Noise + (tc.NoiseEnd-tc.Noise)*frac
		layers := a.ActorLayers()
		eps, err := c.Collect(tc.Seed, round*tc.EpisodesPerRound, tc.EpisodesPerRound, func() rlenv.Policy {
			p, err := orca.NewActor("td3", layers)
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
		if tc.Log != nil {
			tc.Log(log)
		}
	}
	return a, nil
}

// Utilisation is the episode's link utilisation: all flows' throughput
// over the bottleneck rate (0 on the Starlink path, whose rate varies).
func Utilisation(e rlenv.EpisodeResult) float64 {
	if e.Episode.RateMbps <= 0 {
		return 0
	}
	sum := 0.0
	for _, f := range e.Result.Flows {
		sum += f.ThroughputMbps
	}
	return sum / e.Episode.RateMbps
}

// ActorFile is the agent's actor as cc/orca stores it, with meta.
func (a *Agent) ActorFile(meta map[string]string) orca.ActorFile {
	return orca.ActorFile{Format: orca.ActorFormat, Version: orca.ActorVersion, Layers: a.ActorLayers(), Meta: meta}
}
