package pcckernel

// Step constants (PCC-Kernel master src/tcp_pcc.c, file scope).
const (
	// epsilonMin and defaultEpsilonMax bound ε, the probe offset and rate
	// step, in percent: 1 % to 5 % in steps of 1 % (pcc_epsilon_min,
	// pcc_epsilon_max); epsilonPart is the percent base
	// (pcc_epsilon_part).
	epsilonMin        = 1
	defaultEpsilonMax = 5
	epsilonPart       = 100
	// maxEpsilonMax bounds the epsilon_max parameter (ours): probes at
	// r(1−ε) must stay positive and far from it.
	maxEpsilonMax = 50
)

// Decisions (the module's enum PCC_DECISION), reported by Inspect.
const (
	decisionUp   = 0
	decisionDown = 1
	decisionStay = 2
)

// decideSlowStart is pcc_decide_slow_start: while the interval's utility
// per unit of rate beats the previous one's, add what the interval
// delivered (at most the rate itself) to the rate; otherwise go back to
// the previous rate and to decision making. Two loss-free intervals score
// the same, so slow start ends after the second at the latest unless
// loss fell.
func (p *PCC) decideSlowStart() {
	iv := &p.iv[0]
	prev := slowStartScore(iv.utility, p.lastRate)
	iv.utility = utility(iv.rate, iv.lost, iv.delivered)
	if slowStartScore(iv.utility, p.rate) > prev {
		p.lastRate = p.rate
		p.setRate(p.rate + min(iv.delivered*int64(p.mss), p.rate))
		return
	}
	p.rate = p.lastRate
	p.mode = ModeDecision
}

// decide is pcc_decide with pcc_decide_rate: score the four probes; when
// both pairs favour the same rate, adopt the first pair's winner and step
// on from it by ε in that direction (rate adjustment); otherwise stay.
// ε grows when the decision repeats the previous one and returns to 1 %
// when it does not (pcc_change_epsilon_after_dicision), so repeated
// stays widen the probes.
func (p *PCC) decide() {
	for i := range p.iv {
		p.iv[i].utility = utility(p.iv[i].rate, p.iv[i].lost, p.iv[i].delivered)
	}
	first := p.iv[0].utility > p.iv[1].utility
	second := p.iv[2].utility > p.iv[3].utility
	// the pairs agree when their results match and their orders match,
	// or both differ
	agree := (first == second) == (p.iv[0].rate == p.iv[2].rate)
	next := p.rate
	if agree {
		p.mode = ModeAdjust
		next = p.iv[1].rate
		if first {
			next = p.iv[0].rate
		}
	}
	p.updateEpsilon(next)
	if p.mode != ModeAdjust {
		return
	}
	p.lastRate, p.rate = next, next
	p.step()
}

// updateEpsilon is pcc_change_epsilon_after_dicision.
func (p *PCC) updateEpsilon(next int64) {
	d := decisionStay
	switch {
	case next > p.rate:
		d = decisionUp
	case next < p.rate:
		d = decisionDown
	}
	if d == p.lastDecision {
		p.growEpsilon()
	} else {
		p.eps = epsilonMin
	}
	p.lastDecision = d
}

// growEpsilon is pcc_increase_epsilon: one percent more, up to the maximum.
func (p *PCC) growEpsilon() {
	if p.eps < p.epsMax {
		p.eps++
	}
}

// step moves the rate by ε·r in the last decision's direction (down only
// for a down decision, as in the module).
func (p *PCC) step() {
	d := p.rate * p.eps / epsilonPart
	if p.lastDecision == decisionDown {
		d = -d
	}
	p.setRate(p.rate + d)
}

// decideAdjust is pcc_decide_rate_adjusment: if this interval's utility
// beats the previous one (the previous adjustment interval's, or for the
// first the first probe's), grow ε and step on; otherwise return to the
// last rate with ε at its minimum and decide again.
func (p *PCC) decideAdjust() {
	iv := &p.iv[0]
	prev := iv.utility
	iv.utility = utility(iv.rate, iv.lost, iv.delivered)
	if prev < iv.utility {
		p.growEpsilon()
		p.lastRate = p.rate
		p.step()
		return
	}
	p.rate = p.lastRate
	p.eps = epsilonMin
	p.mode = ModeDecision
}

// setRate sets the central rate, held to maxRate (see there) and positive.
func (p *PCC) setRate(r int64) { p.rate = min(max(r, 1), int64(maxRate)) }
