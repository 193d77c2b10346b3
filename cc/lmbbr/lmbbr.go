package lmbbr

import (
	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
)

func init() {
	cc.Register(cc.Info{
		Name: "lmbbr",
		Description: "BBRv3 whose ProbeBW UP/DOWN pacing gain a learned policy picks each round " +
			"(seed 003 with logistic regression for the SLM)",
		Source: "paper 003 (SLM-chosen BBR pacing gain, eqs. 2–3, 14–15); google/bbr v3 tcp_bbr.c",
		// The model is the embedded one: Params hold numbers only, so a
		// model file cannot be named here.
		Params: map[string]float64{},
		New:    func(cfg cc.Config) (cc.Controller, error) { return New(cfg, DefaultModel()) },
	})
}

// New builds BBRv3 driven by model m.
func New(cfg cc.Config, m *Model) (cc.Controller, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	p := &Policy{Model: m}
	inner, err := bbr.NewV3WithPolicy(cfg, p)
	if err != nil {
		return nil, err
	}
	return &controller{Controller: inner, pol: p}, nil
}

// Policy is the learned bbr.GainPolicy: features of the state, then the
// model's most probable gain for the phase. It counts its choices for
// Inspect.
type Policy struct {
	Model *Model
	// Calls and GainSum per phase (0 UP, 1 DOWN).
	Calls   [2]int
	GainSum [2]float64
	Last    float64
}

var _ bbr.GainPolicy = (*Policy)(nil)

// OnlineInputs maps BBR's online state to the feature inputs: the latest
// round's largest delivery-rate sample (this ACK's when the round has none
// yet) against the max-bw filter, the smoothed RTT against min_rtt, and
// the loss rate of the last round.
func OnlineInputs(s bbr.GainState) Inputs {
	rate := s.RoundBw
	if rate <= 0 {
		rate = s.SampleBw
	}
	if rate <= 0 {
		rate = s.MaxBw // no sample yet: call it saturated
	}
	return Inputs{Rate: rate, MaxRate: s.MaxBw, RTT: s.SRTT, MinRTT: s.MinRTT, LossRate: s.LossRate}
}

// Gain implements bbr.GainPolicy.
func (p *Policy) Gain(s bbr.GainState) float64 {
	ph, i := PhaseUp, 0
	if s.Phase == bbr.GainDown {
		ph, i = PhaseDown, 1
	}
	g := p.Model.Predict(ph, Features(OnlineInputs(s)))
	p.Calls[i]++
	p.GainSum[i] += g
	p.Last = g
	return g
}

// controller adds the policy's statistics to BBR's Inspect keys.
type controller struct {
	cc.Controller
	pol *Policy
}

// Unwrap gives BBR back, so its optional extensions (the app-limited
// marker of PROBE_RTT) stay reachable (cc.Wrapper).
func (c *controller) Unwrap() cc.Controller { return c.Controller }

// Inspect reports bbr3's keys plus lm_up_calls and lm_down_calls (policy
// decisions so far), lm_up_gain_mean and lm_down_gain_mean (their mean
// gain, present once there was one) and lm_gain_last.
func (c *controller) Inspect() map[string]float64 {
	m := c.Controller.(cc.Inspector).Inspect()
	p := c.pol
	for i, name := range []string{"up", "down"} {
		m["lm_"+name+"_calls"] = float64(p.Calls[i])
		if p.Calls[i] > 0 {
			m["lm_"+name+"_gain_mean"] = p.GainSum[i] / float64(p.Calls[i])
		}
	}
	if p.Last > 0 {
		m["lm_gain_last"] = p.Last
	}
	return m
}
