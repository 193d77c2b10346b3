package metrics

import (
	"fmt"
	"math"
	"time"
)

// Constants of seed 000's BBRv3 fluid model (its §BBRv3 model, Eq. 6–12),
// with the Linux values they come from (tcp_bbr.c of BBRv3).
const (
	fluidUpGain   = 5.0 / 4 // ProbeBW_UP pacing/inflight gain (bbr_bw_probe_pif_gain)
	fluidDownGain = 3.0 / 4 // ProbeBW_DOWN pacing gain (seed 000 Eq. 6)
	fluidLossTrig = 0.02    // I_dwn on loss rate > 2% (bbr_loss_thresh)
	fluidHeadroom = 0.15    // β: cruise at (1−β)·BDP_hi (bbr_inflight_headroom)
	fluidBeta     = 0.7     // inflight_hi ≥ 0.7·BDP after loss (bbr_beta = 30% cut)
	// fluidProbeRounds and fluidProbeWall give the mean ProbeBW spacing
	// t̄_pbw = min(62·RTT_min, 2.5 s): seed 000 quotes 62 round trips for
	// low-RTT flows and a uniform 2–3 s wait otherwise (Linux: 63 rounds,
	// bbr_bw_probe_base_us 2 s + bbr_bw_probe_rand_us 1 s).
	fluidProbeRounds = 62
	fluidProbeWall   = 2500 * time.Millisecond
	// fluidBwWindow and fluidRTTWindow are the filter windows of x_btl
	// (max delivery rate; BBRv3 keeps two ProbeBW cycles, ~5 s) and RTT_min
	// (bbr_min_rtt_win_sec = 10 s).
	fluidBwWindow  = 5 * time.Second
	fluidRTTWindow = 10 * time.Second
	// fluidStep is the integration step of the relaxation.
	fluidStep = 5 * time.Millisecond
)

// FluidSample is one measured interval: delivery rate x = Bytes/Dur, RTT,
// retransmitted segments, and the measured inflight (0: use x·RTT, seed
// 000's quasi-steady v_actual).
type FluidSample struct {
	T           time.Duration // end of the interval
	Dur         time.Duration
	Bytes       int64
	RTT         time.Duration
	Retransmits int64
	Inflight    float64 // bytes
}

// FluidPoint is the model's state over one interval.
type FluidPoint struct {
	T        time.Duration
	Actual   float64 // v_actual, bytes
	Model    float64 // mean v_model over the interval, bytes
	BDP      float64 // BDP̄ = x_btl·RTT_min, bytes
	BDPHi    float64 // inflight_hi; +Inf before the first loss
	Loss     float64 // p_tot estimate: retransmits·MSS / bytes
	DownFrac float64 // fraction of the interval with I_dwn = 1
}

// FluidFit is the model fitted to a trace.
type FluidFit struct {
	Tau    time.Duration // relaxation time constant minimising RMSE
	RMSE   float64       // bytes
	NRMSE  float64       // RMSE / mean v_actual
	Corr   float64       // Pearson correlation of model and actual
	Points []FluidPoint
}

type fluidState int

const (
	fluidCruise fluidState = iota
	fluidUp
	fluidDown
)

// FluidModel runs seed 000's BBRv3 fluid model over a trace with
// relaxation time tau and segment size mss (bytes, for the loss estimate):
//
//	BDP̄ = x_btl·RTT_min; BDP_hi set on loss > 2% to max(v_actual, 0.7·BDP̄),
//	  raised to v_actual when more is in flight without loss (inflight_hi
//	  is unset, +Inf, before the first loss)
//	ProbeBW_UP every t̄_pbw: v_target = min(5/4·BDP̄, BDP_hi)
//	I_dwn on v > 5/4·BDP̄ (reaching the up target) or p_tot > 2%:
//	  v_target = BDP̂ = min(BDP̄, 0.85·BDP_hi); off once v ≤ BDP̂ → cruise
//	cruise: v_target = min(BDP̄, (1−β)·BDP_hi), β = 0.15
//	dv/dt = (v_target − v)/τ   (seed 000's first-order relaxation)
//
// The seed's pacing rule (5/4 or 3/4 of x_btl) is the rate at which the
// exact fluid dv/dt = x_pcg − x moves; the relaxation replaces it, as in the
// seed. Its equations for the transitions were lost from the text; the
// rules above are its prose.
func FluidModel(samples []FluidSample, tau time.Duration, mss int) ([]FluidPoint, error) {
	if tau <= 0 || mss <= 0 {
		return nil, fmt.Errorf("fluid model: tau %v and mss %d must be > 0", tau, mss)
	}
	pts := make([]FluidPoint, len(samples))
	for i := range samples {
		pts[i] = measure(samples, i, mss)
	}
	var v float64
	state, lastProbe := fluidCruise, time.Duration(0)
	hi := math.Inf(1)
	for i, s := range samples {
		p := &pts[i]
		if p.Loss > fluidLossTrig {
			hi = math.Max(p.Actual, fluidBeta*p.BDP)
		} else if p.Actual > hi {
			hi = p.Actual
		}
		p.BDPHi = hi
		if i == 0 {
			v = p.Actual
		}
		pbw := min(time.Duration(fluidProbeRounds)*minRTT(samples, i), fluidProbeWall)
		var sum float64
		var down, steps int
		for t := s.T - s.Dur; t < s.T; t += fluidStep {
			state, lastProbe = fluidNext(state, lastProbe, t, pbw, v, p)
			target := fluidTarget(state, p)
			v += (target - v) * (1 - math.Exp(-float64(fluidStep)/float64(tau)))
			sum += v
			steps++
			if state == fluidDown {
				down++
			}
		}
		if steps > 0 {
			p.Model, p.DownFrac = sum/float64(steps), float64(down)/float64(steps)
		}
	}
	return pts, nil
}

// fluidNext applies the I_dwn / I_crs / ProbeBW transitions.
func fluidNext(st fluidState, lastProbe, t, pbw time.Duration, v float64, p *FluidPoint) (fluidState, time.Duration) {
	if p.Loss > fluidLossTrig && st != fluidDown {
		return fluidDown, lastProbe
	}
	switch st {
	case fluidCruise:
		if t-lastProbe >= pbw {
			return fluidUp, t
		}
	case fluidUp:
		if up := fluidTarget(fluidUp, p); v >= 0.99*up {
			return fluidDown, lastProbe
		}
	case fluidDown:
		if v <= fluidTarget(fluidDown, p)*1.01 {
			return fluidCruise, lastProbe
		}
	}
	return st, lastProbe
}

func fluidTarget(st fluidState, p *FluidPoint) float64 {
	switch st {
	case fluidUp:
		return math.Min(fluidUpGain*p.BDP, p.BDPHi)
	case fluidDown, fluidCruise:
		// BDP̂ and the cruise target coincide: min(BDP̄, (1−β)·BDP_hi).
		return math.Min(p.BDP, (1-fluidHeadroom)*p.BDPHi)
	}
	panic("leolab BUG: unknown fluid state")
}

// measure derives interval i's inputs: v_actual, BDP̄ and the loss rate.
func measure(s []FluidSample, i, mss int) FluidPoint {
	p := FluidPoint{T: s[i].T, Actual: s[i].Inflight}
	if p.Actual == 0 && s[i].Dur > 0 {
		p.Actual = float64(s[i].Bytes) / s[i].Dur.Seconds() * s[i].RTT.Seconds()
	}
	var btl float64
	for j := i; j >= 0 && s[i].T-s[j].T < fluidBwWindow; j-- {
		if s[j].Dur > 0 {
			btl = math.Max(btl, float64(s[j].Bytes)/s[j].Dur.Seconds())
		}
	}
	p.BDP = btl * minRTT(s, i).Seconds()
	if s[i].Bytes > 0 {
		p.Loss = float64(s[i].Retransmits) * float64(mss) / float64(s[i].Bytes)
	}
	return p
}

// minRTT is the minimum RTT over the RTT_min window ending at sample i.
func minRTT(s []FluidSample, i int) time.Duration {
	m := time.Duration(math.MaxInt64)
	for j := i; j >= 0 && s[i].T-s[j].T < fluidRTTWindow; j-- {
		if s[j].RTT > 0 {
			m = min(m, s[j].RTT)
		}
	}
	if m == math.MaxInt64 {
		return 0
	}
	return m
}

// FitFluid runs the model for each candidate tau and keeps the one with
// the least RMSE between v_model and v_actual.
func FitFluid(samples []FluidSample, mss int, taus []time.Duration) (FluidFit, error) {
	if len(samples) == 0 || len(taus) == 0 {
		return FluidFit{}, fmt.Errorf("fluid fit: %d samples, %d candidate taus", len(samples), len(taus))
	}
	best := FluidFit{RMSE: math.Inf(1)}
	for _, tau := range taus {
		pts, err := FluidModel(samples, tau, mss)
		if err != nil {
			return FluidFit{}, fmt.Errorf("fluid fit: %w", err)
		}
		var se float64
		act, mod := make([]float64, len(pts)), make([]float64, len(pts))
		for i, p := range pts {
			se += (p.Model - p.Actual) * (p.Model - p.Actual)
			act[i], mod[i] = p.Actual, p.Model
		}
		rmse := math.Sqrt(se / float64(len(pts)))
		if rmse < best.RMSE {
			corr, _ := pearson(act, mod)
			best = FluidFit{Tau: tau, RMSE: rmse, NRMSE: rmse / Mean(act), Corr: corr, Points: pts}
		}
	}
	return best, nil
}

// FluidSamples extracts the model's input from a flow's series.
func FluidSamples(series []Sample) []FluidSample {
	out := make([]FluidSample, len(series))
	for i, s := range series {
		out[i] = FluidSample{T: s.T, Dur: s.Dur, Bytes: s.Bytes, RTT: s.SRTT, Retransmits: s.Retransmits}
	}
	return out
}
