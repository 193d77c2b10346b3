package bbr

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

// Feasible ProbeBW pacing gains of a GainPolicy: paper 003's phase-
// constrained action sets (eq. 15, over the action space of eq. 14):
// S_UP = {1.05 … 1.25}, S_DOWN = {0.90 … 0.98}. CRUISE and REFILL pace at 1
// and are not handed to the policy.
const (
	UpGainMin   = 1.05
	UpGainMax   = 1.25
	DownGainMin = 0.90
	DownGainMax = 0.98
)

// GainPhase is the ProbeBW phase a GainPolicy is asked about.
type GainPhase uint8

const (
	GainUp   GainPhase = iota + 1 // ProbeBW_UP: probing for bandwidth
	GainDown                      // ProbeBW_DOWN: draining the probe's queue
)

func (p GainPhase) String() string {
	if p == GainDown {
		return "DOWN"
	}
	return "UP"
}

// GainState is what BBR knows online when it asks its GainPolicy for a
// pacing gain. Rates are bytes/s.
type GainState struct {
	Now   time.Duration
	Phase GainPhase
	// Enter is true on the first call of a visit to the phase (the ACK on
	// which ProbeBW entered UP or DOWN), false on the later round starts.
	Enter bool
	// SampleBw is this ACK's delivery-rate sample (0 when the ACK gave
	// none); RoundBw the largest sample of the latest round so far
	// (bbr_update_latest_delivery_signals' bw_latest).
	SampleBw float64
	RoundBw  float64
	// MaxBw is the max-bw filter over the last two ProbeBW cycles
	// (bbr_max_bw); BwEst the model's bandwidth, MaxBw bounded by bw_lo.
	MaxBw float64
	BwEst float64
	// MinRTT is BBR's min_rtt (10 s window); SRTT the transport's smoothed
	// RTT (RFC 6298); RTT this ACK's sample (0 when none).
	MinRTT time.Duration
	SRTT   time.Duration
	RTT    time.Duration
	// LossInRound tells that the last completed round trip (BBR's
	// packet-timed round) lost data; LossRate is the lost fraction of the
	// bytes that round delivered or lost.
	LossInRound bool
	LossRate    float64
	// Inflight is the bytes in flight after this ACK.
	Inflight int
	// Default is the gain stock BBR uses in this phase (1.25 in UP; 0.91
	// for v3 in DOWN).
	Default float64
}

// GainPolicy chooses BBR's ProbeBW pacing gain in the UP and DOWN phases.
//
// Contract: Gain is called on the ACK on which ProbeBW enters UP or DOWN
// (Enter true) and again on every later round start while the phase lasts
// (Enter false); the gain it returns is the phase's pacing gain from that
// ACK until the next call or the end of the phase. A gain outside the
// phase's feasible interval (UpGainMin–UpGainMax, DownGainMin–DownGainMax)
// is clamped into it; NaN gives the Default. The policy sets the pacing
// gain only: cwnd gain, phase transitions and the bounds stay BBR's. It is
// called from OnAck and must not keep the state beyond the call.
type GainPolicy interface {
	Gain(s GainState) float64
}

// NewV3WithPolicy builds BBRv3 (the registered bbr3, with cfg.Params as
// bbr3 reads them) whose ProbeBW UP and DOWN pacing gains come from p. A
// nil p gives stock BBRv3.
func NewV3WithPolicy(cfg cc.Config, p GainPolicy) (cc.Controller, error) {
	c, err := newVariant(variantV3(), cfg)
	if err != nil || p == nil {
		return c, err
	}
	c.(*BBR).pol = &policyState{p: p, cycle: -1}
	return c, nil
}

// policyState is the hook's bookkeeping, present only with a policy so
// stock BBR runs exactly as before.
type policyState struct {
	p     GainPolicy
	cycle int     // cycle phase the gain was chosen for; -1 outside UP/DOWN
	gain  float64 // the policy's gain for that phase
	// lost and acked accumulate the current round; lastLoss/lossRate
	// describe the previous one.
	lost, acked int64
	lastLoss    bool
	lossRate    float64
}

// applyPolicy overrides the pacing gain set by updateGains with the
// policy's in ProbeBW UP and DOWN (see GainPolicy).
func (b *BBR) applyPolicy(now time.Duration, rs *cc.RateSample) {
	ps := b.pol
	ps.lost += int64(rs.LostBytes)
	ps.acked += int64(rs.AckedBytes)
	if b.round.start {
		ps.lastLoss = ps.lost > 0
		ps.lossRate = 0
		if tot := ps.lost + ps.acked; tot > 0 {
			ps.lossRate = float64(ps.lost) / float64(tot)
		}
		ps.lost, ps.acked = 0, 0
	}
	if b.mode != modeProbeBW || (b.cycleIdx != cycleUp && b.cycleIdx != cycleDown) {
		ps.cycle = -1
		return
	}
	enter := ps.cycle != b.cycleIdx
	if enter || b.round.start {
		s := GainState{Now: now, Phase: GainUp, Enter: enter, SampleBw: b.sampleBw, RoundBw: b.bwLatest,
			MaxBw: b.maxBw(), BwEst: b.bwEst(), MinRTT: b.minRTT, SRTT: rs.SRTT, RTT: rs.RTT,
			LossInRound: ps.lastLoss, LossRate: ps.lossRate, Inflight: rs.Inflight, Default: b.p.up}
		lo, hi := UpGainMin, UpGainMax
		if b.cycleIdx == cycleDown {
			s.Phase, s.Default, lo, hi = GainDown, b.p.down, DownGainMin, DownGainMax
		}
		g := ps.p.Gain(s)
		if math.IsNaN(g) {
			g = s.Default
		}
		ps.gain, ps.cycle = min(max(g, lo), hi), b.cycleIdx
	}
	b.pacingGain = ps.gain
}
