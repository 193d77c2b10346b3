package vivace

import "math"

// Rate-control constants (Vivace §4).
const (
	// defaultEpsilon is the probing step: MIs at r(1±ε) (§4.1: ε = 0.05).
	defaultEpsilon = 0.05
	// defaultTheta0 is the conversion factor from utility gradient to rate
	// change, in (Mbit/s)² per utility unit (§4.2 θ0; PCC-Uspace
	// kUtilityGradientToRateChangeFactor = 1).
	defaultTheta0 = 1
	// boundaryInitial and boundaryStep define the dynamic change boundary
	// ω = ω0 + k·δ as a fraction of the rate (§4.2: ω0 = 0.05, δ = 0.1;
	// PCC-Uspace uses 0.05 for both). k grows each time a change is
	// clipped and shrinks when one fits; it resets when probing starts.
	boundaryInitial = 0.05
	boundaryStep    = 0.1
	// minRateChange is the smallest move, 0.5 Mbit/s in bytes/s
	// (pcc_vivace_sender.cpp kMinRateChange), itself within the boundary.
	minRateChange = 0.5e6 / 8
)

// learner is Vivace's decision state between rounds.
type learner struct {
	prevU       float64 // starting: utility of the last doubled rate
	prevRate    float64 // starting: that rate
	refU        float64 // moving: utility of the last MI in this direction
	refRate     float64 // moving: its rate
	dir         int     // +1 increasing, −1 decreasing
	moves       int     // consecutive moves in dir (the confidence amplifier m)
	steps       int     // change-boundary steps k
	lastUtility float64
}

func newLearner() learner { return learner{prevU: math.Inf(-1)} }

func (l *learner) resetMoves() { l.moves, l.steps = 0, 0 }

// decide scores the finished round and sets the next rate and plan. A
// round in which some MI carried no data (the sender was window limited or
// idle) says nothing and is repeated.
func (v *Vivace) decide() {
	var u [4]float64
	for i := range v.nPlan {
		if v.mis[i].resolved() == 0 {
			v.planRound()
			return
		}
		u[i] = v.mis[i].utility()
	}
	v.lastUtility = u[0]
	switch v.mode {
	case ModeStarting:
		if u[0] > v.prevU {
			v.prevU, v.prevRate = u[0], v.mis[0].rate
			v.rate = 2 * v.mis[0].rate
		} else {
			v.rate = max(v.prevRate, minRate)
			v.mode = ModeProbing
		}
	case ModeProbing:
		v.decideProbes(&u)
	case ModeMoving:
		if u[0] > v.refU {
			gamma := 0.0
			if dr := mbps(v.mis[0].rate - v.refRate); dr != 0 {
				gamma = (u[0] - v.refU) / dr
			}
			v.refU, v.refRate = u[0], v.mis[0].rate
			v.moves++
			v.rate = max(v.refRate+float64(v.dir)*v.rateChange(math.Abs(gamma)), minRate)
		} else {
			v.rate = v.refRate // utility fell: back to the last good rate
			v.mode = ModeProbing
			v.resetMoves()
		}
	}
	v.planRound()
}

// decideProbes acts on two pairs of probes: if both say the higher rate
// (or both the lower) scored better, move from the winning probe rate by
// θ0·γ, γ the mean utility gradient of the pairs; otherwise probe again.
func (v *Vivace) decideProbes(u *[4]float64) {
	var up [2]bool
	gamma := 0.0
	for j := range 2 {
		hi, lo := 2*j, 2*j+1
		if v.mis[hi].rate < v.mis[lo].rate {
			hi, lo = lo, hi
		}
		up[j] = u[hi] > u[lo]
		gamma += (u[hi] - u[lo]) / mbps(v.mis[hi].rate-v.mis[lo].rate) / 2
	}
	if up[0] != up[1] {
		return // no agreement: probe again at the same rate
	}
	v.dir = -1
	if up[0] {
		v.dir = 1
	}
	v.resetMoves()
	v.moves = 1
	v.refRate = v.rate * (1 + float64(v.dir)*v.eps)
	v.refU = v.meanAt(u, v.refRate)
	v.rate = max(v.refRate+float64(v.dir)*v.rateChange(math.Abs(gamma)), minRate)
	v.mode = ModeMoving
}

// meanAt is the mean utility of the probes sent at rate.
func (v *Vivace) meanAt(u *[4]float64, rate float64) float64 {
	sum, n := 0.0, 0
	for i := range v.nPlan {
		if v.mis[i].rate == rate {
			sum += u[i]
			n++
		}
	}
	return sum / float64(n)
}

// rateChange is Δr = m·θ0·γ (bytes/s, γ in utility per Mbit/s) clipped to
// the dynamic boundary ω·r, no smaller than minRateChange within it.
func (v *Vivace) rateChange(gamma float64) float64 {
	d := float64(v.moves) * v.theta0 * gamma * bitsPerMbit / 8
	bound := v.rate * (boundaryInitial + float64(v.steps)*boundaryStep)
	switch {
	case d > bound:
		d = bound
		v.steps++
	case v.steps > 0:
		v.steps--
	}
	return min(max(d, minRateChange), bound)
}

// mbps converts bytes/s to Mbit/s.
func mbps(rate float64) float64 { return rate * 8 / bitsPerMbit }
