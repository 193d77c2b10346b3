package calibrate

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/campaign"
)

// Weights weigh the three metrics of a cell in the objective.
type Weights struct {
	Throughput, Retrans, Inflation float64
}

// DefaultWeights count throughput most: it is the metric seed 000 ranks
// CCAs by, and retransmission counts are the noisiest (up to 2× between
// runs of one cell in the real data).
var DefaultWeights = Weights{Throughput: 1, Retrans: 0.5, Inflation: 0.5}

// ParseWeights reads "t,r,i", e.g. "1,0.5,0.5".
func ParseWeights(s string) (Weights, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return Weights{}, fmt.Errorf("weights %q: want three numbers throughput,retrans,inflation", s)
	}
	var w [3]float64
	for i, p := range parts {
		v, err := parseFloat(p)
		if err != nil || v < 0 {
			return Weights{}, fmt.Errorf("weights %q: %q must be a number >= 0", s, p)
		}
		w[i] = v
	}
	if w[0]+w[1]+w[2] == 0 {
		return Weights{}, fmt.Errorf("weights %q: at least one must be > 0", s)
	}
	return Weights{w[0], w[1], w[2]}, nil
}

// Losses are the robust losses ρ(z) of a residual z in band units.
var Losses = []string{"cauchy", "huber", "l2"}

// rho is the loss of residual z: l2 z²; huber quadratic within 1 band,
// linear beyond; cauchy log(1+z²), which saturates, so a cell the model
// cannot reach costs little more at 4 bands than at 2 (the acceptance counts
// cells within their band, whatever the miss beyond it).
func rho(loss string, z float64) float64 {
	switch loss {
	case "l2":
		return z * z
	case "huber":
		if a := math.Abs(z); a > 1 {
			return 2*a - 1
		}
		return z * z
	}
	return math.Log1p(z * z)
}

// Objective scores simulated rows against the real data.
type Objective struct {
	Weights Weights
	Loss    string
}

// Residual is one cell's misfit, each metric as log(sim/real) divided by
// its acceptance band (1 = at the band's edge).
type Residual struct {
	campaign.Key
	Sim, Real                      campaign.Metrics
	Throughput, Retrans, Inflation float64
	Cost                           float64
}

// bands in log units: ±25 % throughput, 2× retransmissions, ±15 % RTT
// inflation (campaign's magnitude bands).
var (
	bandThroughput = math.Log(1 + campaign.ThroughputBand)
	bandRetrans    = math.Log(campaign.RetransFactor)
	bandInflation  = math.Log(1 + campaign.InflationBand)
)

// retransFloor keeps log ratios of retransmissions finite when a run has
// none: 10 per GB is ~1.5e-5 of packets, below every real cell (vegas's 417).
const retransFloor = 10

// missingCost is the cost of a cell that has real data but no simulated
// flow with throughput: as if every metric missed by 4 bands.
const missingCost = 4

// Score returns the mean cost over the comparable cells of rows and each
// cell's residual. Rows without real data are ignored.
func (o Objective) Score(rows []campaign.Row) (float64, []Residual) {
	var res []Residual
	total, n := 0.0, 0
	for _, r := range rows {
		if r.CCA == "ccp" || r.Real.N == 0 || !(r.Real.ThroughputMbps > 0) {
			continue
		}
		e := Residual{Key: r.Key, Sim: r.Sim, Real: r.Real}
		if !campaign.Comparable(r) {
			e.Cost = (o.Weights.Throughput + o.Weights.Retrans + o.Weights.Inflation) * rho(o.Loss, missingCost)
		} else {
			e.Throughput = math.Log(r.Sim.ThroughputMbps/r.Real.ThroughputMbps) / bandThroughput
			e.Retrans = math.Log((r.Sim.RetransPerGB+retransFloor)/(r.Real.RetransPerGB+retransFloor)) / bandRetrans
			if r.Sim.RTTInflation > 0 && r.Real.RTTInflation > 0 {
				e.Inflation = math.Log(r.Sim.RTTInflation/r.Real.RTTInflation) / bandInflation
			}
			e.Cost = o.Weights.Throughput*rho(o.Loss, e.Throughput) + o.Weights.Retrans*rho(o.Loss, e.Retrans) +
				o.Weights.Inflation*rho(o.Loss, e.Inflation)
		}
		total += e.Cost
		n++
		res = append(res, e)
	}
	if n == 0 {
		return math.Inf(1), nil
	}
	return total / float64(n), res
}

// Residuals returns the residuals of rows under the objective.
func (o Objective) Residuals(rows []campaign.Row) []Residual {
	_, r := o.Score(rows)
	return r
}

func parseFloat(s string) (float64, error) {
	var v float64
	_, err := fmt.Sscan(strings.TrimSpace(s), &v)
	if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		err = fmt.Errorf("not finite")
	}
	return v, err
}

// validLoss reports whether name is one of Losses.
func validLoss(name string) bool { return slices.Contains(Losses, name) }
