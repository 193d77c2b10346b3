package rlenv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/leolab/leolab/sim"
)

// Dist is the distribution of training episodes. Rates and buffers are
// drawn log-uniformly, RTTs and start times uniformly (scale.draw, one
// sampler for all); random loss is 0 except with
// probability LossProb, then uniform in (0, LossMax].
type Dist struct {
	RateMbps  [2]float64
	RTT       [2]time.Duration
	BufferBDP [2]float64
	LossProb  float64
	LossMax   float64
	// Competitors is the largest number of competing flows (drawn
	// uniformly in 0..Competitors) of CompetitorCCA, each starting at a
	// uniform time in the first half of the episode.
	Competitors   int
	CompetitorCCA string
	// MinCompetitors is the smallest number of competing flows (0 ≤
	// MinCompetitors ≤ Competitors).
	MinCompetitors int
	// SelfPlay makes every competitor an agent flow too, running the
	// task's controller with the same policy (shared weights): the
	// multi-flow episodes of Astraea. CompetitorCCA is then unused.
	SelfPlay bool
	Duration time.Duration
	// LEO runs every episode on the Starlink path (profile starlink,
	// downlink, a city drawn from LEOCities) instead of a fixed link: the
	// access link's reconfigurations, allocation and head-drop queue.
	// Rate, RTT, buffer and loss are then the profile's.
	LEO bool
}

// LEOCities are the cities an LEO episode is drawn from: the calibration
// cities (Tokyo is held out and never trained on).
var LEOCities = []string{"sydney", "mumbai", "ohio", "london", "saopaulo"}

// DefaultDist is the terrestrial distribution Orca is trained on here:
// 10–100 Mbit/s, 10–100 ms, ½–4 BDP of drop-tail buffer, random loss up
// to 0.1 % in a quarter of the episodes, at most one competing CUBIC
// flow, 10 s episodes. The ranges are ours, terrestrial links of the
// kind the Orca paper trains on, narrowed to what trains in minutes on
// two cores; the paper's exact training ranges were not available here
// to copy (only the authors' code was).
func DefaultDist() Dist {
	return Dist{
		RateMbps:      [2]float64{10, 100},
		RTT:           [2]time.Duration{10 * time.Millisecond, 100 * time.Millisecond},
		BufferBDP:     [2]float64{0.5, 4},
		LossProb:      0.25,
		LossMax:       0.001,
		Competitors:   1,
		CompetitorCCA: "cubic",
		Duration:      10 * time.Second,
	}
}

// Validate checks the ranges.
func (d Dist) Validate() error {
	switch {
	case !(d.RateMbps[0] >= 1 && d.RateMbps[1] >= d.RateMbps[0] && d.RateMbps[1] <= 10000):
		return fmt.Errorf("rlenv: rate range %v Mbit/s: want 1 ≤ lo ≤ hi ≤ 10000", d.RateMbps)
	case !(d.RTT[0] >= time.Millisecond && d.RTT[1] >= d.RTT[0] && d.RTT[1] <= 2*time.Second):
		return fmt.Errorf("rlenv: RTT range %v: want 1ms ≤ lo ≤ hi ≤ 2s", d.RTT)
	case !(d.BufferBDP[0] > 0 && d.BufferBDP[1] >= d.BufferBDP[0] && d.BufferBDP[1] <= 100):
		return fmt.Errorf("rlenv: buffer range %v BDP: want 0 < lo ≤ hi ≤ 100", d.BufferBDP)
	case !(d.LossProb >= 0 && d.LossProb <= 1 && d.LossMax >= 0 && d.LossMax < 1):
		return fmt.Errorf("rlenv: loss probability %v and max %v: want both in [0, 1)", d.LossProb, d.LossMax)
	case d.Competitors < 0 || d.Competitors > 16:
		return fmt.Errorf("rlenv: competitors %d: want 0..16", d.Competitors)
	case d.MinCompetitors < 0 || d.MinCompetitors > d.Competitors:
		return fmt.Errorf("rlenv: min competitors %d: want 0..%d (competitors)", d.MinCompetitors, d.Competitors)
	case d.Competitors > 0 && d.CompetitorCCA == "" && !d.SelfPlay:
		return fmt.Errorf("rlenv: competitors without a competitor cca")
	case !(d.Duration >= time.Second && d.Duration <= time.Hour):
		return fmt.Errorf("rlenv: episode duration %v: want 1s..1h", d.Duration)
	}
	return nil
}

// Episode is one drawn episode.
type Episode struct {
	Index       int
	Seed        uint64 // the scenario's seed
	RateMbps    float64
	RTT         time.Duration
	BufferPkts  int
	Loss        float64
	Competitors []time.Duration // start times
	Duration    time.Duration
	City        string // LEO episodes: the Starlink path's city
	cca         string
}

// packetBits is the wire size of a full segment (1500 B), the unit of the
// drop-tail limit.
const packetBits = 1500 * 8

// Draw draws episode i of seed.
func (d Dist) Draw(seed uint64, i int) Episode {
	r := sim.Stream(seed, fmt.Sprintf("rlenv/episode/%d", i))
	e := Episode{Index: i, Seed: r.Uint64()>>1 + 1, Duration: d.Duration, cca: d.CompetitorCCA}
	if d.LEO {
		e.City = LEOCities[r.IntN(len(LEOCities))]
	} else {
		e.RateMbps = logScale.draw(r, d.RateMbps[0], d.RateMbps[1])
		e.RTT = linear.duration(r, d.RTT[0], d.RTT[1])
		bdp := e.RateMbps * 1e6 * e.RTT.Seconds() / packetBits
		e.BufferPkts = max(2, int(math.Round(logScale.draw(r, d.BufferBDP[0], d.BufferBDP[1])*bdp)))
		if r.Float64() < d.LossProb {
			e.Loss = d.LossMax * (1 - r.Float64()) // (0, LossMax]
		}
	}
	if d.SelfPlay {
		e.cca = ""
	}
	for range d.MinCompetitors + r.IntN(d.Competitors-d.MinCompetitors+1) {
		e.Competitors = append(e.Competitors, linear.duration(r, 0, d.Duration/2))
	}
	return e
}

// scale is how a range is sampled: linear (uniform) or logScale
// (log-uniform, for quantities spanning a decade or more: rates and
// buffers, so each octave is drawn as often).
type scale bool

const (
	linear   scale = false
	logScale scale = true
)

// draw is a value from [lo, hi] on scale s (logScale: lo > 0, as
// Validate checks); lo == hi gives lo without drawing.
func (s scale) draw(r *rand.Rand, lo, hi float64) float64 {
	if lo == hi {
		return lo
	}
	if s == logScale {
		return math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	return lo + r.Float64()*(hi-lo)
}

// duration is draw for times, rounded to the millisecond (scenario
// files give times in ms).
func (s scale) duration(r *rand.Rand, lo, hi time.Duration) time.Duration {
	return time.Duration(s.draw(r, float64(lo), float64(hi))).Round(time.Millisecond)
}

// BDPs is the buffer in bandwidth-delay products (fixed links).
func (e Episode) BDPs() float64 {
	return float64(e.BufferPkts) * packetBits / (e.RateMbps * 1e6 * e.RTT.Seconds())
}

// YAML is the episode's scenario: flow 0, the agent's, under the name
// agentCCA, then the competitors.
func (e Episode) YAML(agentCCA string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nname: rlenv-%d\nduration: %v\nseed: %d\ninterval: 1s\n", e.Index, e.Duration, e.Seed)
	if e.City != "" {
		fmt.Fprintf(&b, "path: {profile: starlink, city: %s, direction: downlink}\n", e.City)
	} else {
		fmt.Fprintf(&b, "path:\n  profile: fixed\n  rate: %gMbps\n  rtt: %v\n", e.RateMbps, e.RTT)
		fmt.Fprintf(&b, "  queue: {discipline: droptail, limit_packets: %d}\n  loss: %g\n", e.BufferPkts, e.Loss)
	}
	fmt.Fprintf(&b, "flows:\n  - {cca: %s, start: 0s}\n", agentCCA)
	cca := e.cca
	if cca == "" { // self-play
		cca = agentCCA
	}
	for _, s := range e.Competitors {
		fmt.Fprintf(&b, "  - {cca: %s, start: %v}\n", cca, s)
	}
	return b.String()
}

// String describes the episode in one line.
func (e Episode) String() string {
	if e.City != "" {
		return fmt.Sprintf("episode %d: starlink %s, %d competitors", e.Index, e.City, len(e.Competitors))
	}
	return fmt.Sprintf("episode %d: %.1f Mbit/s, %v, %.2f BDP (%d pkts), loss %.4f%%, %d competitors",
		e.Index, e.RateMbps, e.RTT, e.BDPs(), e.BufferPkts, 100*e.Loss, len(e.Competitors))
}
