package lmbbr

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
)

// Parameters of the registered controller.
const (
	// ParamModel names the model file (cc.Config.Files); without it the
	// embedded linear model runs.
	ParamModel = "model"
	// ParamDownlink is the flow's data direction, 1 downlink (the
	// default: the embedded model's training runs are downlink) or 0
	// uplink; sequence models read it as their stream feature.
	ParamDownlink = "downlink"
)

func init() {
	cc.Register(cc.Info{
		Name: "lmbbr",
		Description: "BBRv3 whose ProbeBW UP/DOWN pacing gain a learned policy picks each round " +
			"(seed 003; the embedded model is a logistic regression, params.model loads another)",
		Source: "paper 003 (SLM-chosen BBR pacing gain, eqs. 2–3, 14–15); google/bbr v3 tcp_bbr.c",
		Params: map[string]float64{ParamDownlink: 1},
		Files: map[string]string{ParamModel: "trained gain model: a leolab learn train output " +
			"(leolab-linear JSON or leolab-seq safetensors)"},
		New: newFromConfig,
	})
}

// newFromConfig builds lmbbr from a scenario's params: the model file if
// one is named, the embedded model otherwise.
func newFromConfig(cfg cc.Config) (cc.Controller, error) {
	m, err := cc.LoadModel(cfg, "lmbbr", ParamModel, embeddedModelName, defaultModelJSON, Load)
	if err != nil {
		return nil, err
	}
	down := cfg.Param(ParamDownlink, 1)
	if down != 0 && down != 1 {
		return nil, fmt.Errorf("lmbbr: params.%s %g (allowed: 1 downlink, 0 uplink)", ParamDownlink, down)
	}
	// The rest of the knobs are BBR's (none today: lmbbr declares only
	// its own), so BBR sees a config without lmbbr's.
	bcfg := cfg
	bcfg.Params, bcfg.Files = nil, nil
	return NewWith(bcfg, m, FlowInfo{Downlink: down == 1})
}

// New builds BBRv3 driven by the linear model m.
func New(cfg cc.Config, m *Model) (cc.Controller, error) {
	return NewWith(cfg, m, FlowInfo{Downlink: true})
}

// NewWith builds BBRv3 whose gain policy model m makes for flow f.
func NewWith(cfg cc.Config, m GainModel, f FlowInfo) (cc.Controller, error) {
	if lm, ok := m.(*Model); ok {
		if err := lm.Validate(); err != nil {
			return nil, err
		}
	}
	p, err := m.NewPolicy(f)
	if err != nil {
		return nil, err
	}
	st := &stats{GainPolicy: p}
	st.obs, _ = p.(Observer)
	inner, err := bbr.NewV3WithPolicy(cfg, st)
	if err != nil {
		return nil, err
	}
	return &controller{Controller: inner, st: st}, nil
}

// NewPolicy implements GainModel: the linear model keeps no history, so
// every flow's policy is the model itself behind a feature function.
func (m *Model) NewPolicy(FlowInfo) (bbr.GainPolicy, error) { return &Policy{Model: m}, nil }

// Policy is the linear model's bbr.GainPolicy: features of the state,
// then the model's most probable gain for the phase.
type Policy struct {
	Model *Model
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
	ph := PhaseUp
	if s.Phase == bbr.GainDown {
		ph = PhaseDown
	}
	return p.Model.Predict(ph, Features(OnlineInputs(s)))
}

// stats counts a policy's choices for Inspect.
type stats struct {
	bbr.GainPolicy
	obs Observer // the policy's, nil when it keeps no history
	// Calls and GainSum per phase (0 UP, 1 DOWN).
	Calls   [2]int
	GainSum [2]float64
	Last    float64
}

func (s *stats) Gain(st bbr.GainState) float64 {
	g := s.GainPolicy.Gain(st)
	i := 0
	if st.Phase == bbr.GainDown {
		i = 1
	}
	s.Calls[i]++
	s.GainSum[i] += g
	s.Last = g
	return g
}

// controller adds the policy's statistics to BBR's Inspect keys and
// feeds an Observer policy.
type controller struct {
	cc.Controller
	st *stats
}

func (c *controller) OnSend(now time.Duration, s cc.SentInfo) {
	c.Controller.OnSend(now, s)
	if c.st.obs != nil {
		c.st.obs.ObserveSend(now, s)
	}
}

func (c *controller) OnAck(now time.Duration, rs *cc.RateSample) {
	c.Controller.OnAck(now, rs)
	if c.st.obs != nil {
		c.st.obs.ObserveAck(now, rs, c.Controller.CWnd())
	}
}

// Unwrap gives BBR back, so its optional extensions (the app-limited
// marker of PROBE_RTT) stay reachable (cc.Wrapper).
func (c *controller) Unwrap() cc.Controller { return c.Controller }

// Inspect reports bbr3's keys plus lm_up_calls and lm_down_calls (policy
// decisions so far), lm_up_gain_mean and lm_down_gain_mean (their mean
// gain, present once there was one) and lm_gain_last.
func (c *controller) Inspect() map[string]float64 {
	m := c.Controller.(cc.Inspector).Inspect()
	p := c.st
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
