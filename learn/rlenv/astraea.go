package rlenv

import (
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/astraea"
	"github.com/leolab/leolab/cc/monitor"
)

// AstraeaTask is Astraea (cc/astraea) as the environment trains it: every
// flow of a self-play episode is an agent, and each period's reward is
// astraea.FairReward over the flows active on the board, against the
// link's rate (the largest aggregate seen on the Starlink path).
func AstraeaTask() Task {
	return Task{Name: "astraea", StateDim: astraea.StateDim,
		New: func(cfg cc.Config, d Decider) (cc.Controller, error) { return astraea.New(cfg, d) },
		Reward: func(f int, iv *monitor.Interval, _ float32, b *Board) float32 {
			var buf [17]float64
			c := b.Capacity
			if c <= 0 {
				c = b.MaxSum
			}
			return astraea.FairReward(iv, b.Thr[f], b.Active(buf[:0], iv.End, astraea.ActiveWindow), c)
		}}
}

// AstraeaDist is Astraea's training distribution: 2–4 flows of the agent
// (one to three self-play competitors starting in the first half) on
// 10–50 Mbit/s, 10–80 ms, ½–2 BDP drop-tail dumbbells, random loss up to
// 0.01 % in a tenth of the episodes, 8 s episodes. Ours: narrowed to
// what trains in minutes on one core (the paper's ranges were not
// available here).
func AstraeaDist() Dist {
	return Dist{
		RateMbps:       [2]float64{10, 50},
		RTT:            [2]time.Duration{10 * time.Millisecond, 80 * time.Millisecond},
		BufferBDP:      [2]float64{0.5, 2},
		LossProb:       0.1,
		LossMax:        0.0001,
		MinCompetitors: 1,
		Competitors:    3,
		SelfPlay:       true,
		Duration:       8 * time.Second,
	}
}
