package bbr

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// mode is BBR's top-level state (Linux enum bbr_mode).
type mode uint8

const (
	modeStartup  mode = iota // ramp up sending rate rapidly to fill the pipe
	modeDrain                // drain the queue built in STARTUP
	modeProbeBW              // discover and share bandwidth
	modeProbeRTT             // cut inflight to refresh min_rtt
)

// Phase numbers reported by Inspect under "phase": Linux's uapi
// enum tcp_bbr_phase (include/uapi/linux/inet_diag.h, BBRv3), used for
// every version so traces compare directly. v1's eight-phase cycle maps
// its 1.25 phase to UP, 0.75 to DOWN and the six 1.0 phases to CRUISE.
const (
	PhaseStartup  = 1 // BBR_PHASE_STARTUP
	PhaseDrain    = 2 // BBR_PHASE_DRAIN
	PhaseUp       = 3 // BBR_PHASE_PROBE_BW_UP
	PhaseDown     = 4 // BBR_PHASE_PROBE_BW_DOWN
	PhaseCruise   = 5 // BBR_PHASE_PROBE_BW_CRUISE
	PhaseRefill   = 6 // BBR_PHASE_PROBE_BW_REFILL
	PhaseProbeRTT = 7 // BBR_PHASE_PROBE_RTT
)

// phase is the mode's Phase* number; in PROBE_BW it is probeBW, the
// cycle phase's.
func (m mode) phase(probeBW int) int {
	switch m {
	case modeStartup:
		return PhaseStartup
	case modeDrain:
		return PhaseDrain
	case modeProbeRTT:
		return PhaseProbeRTT
	}
	return probeBW
}

// caState is the transport's loss-recovery state as BBR sees it (the
// subset of Linux's TCP_CA_* states that BBR reacts to).
type caState uint8

const (
	caOpen     caState = iota // TCP_CA_Open/Disorder
	caRecovery                // TCP_CA_Recovery: fast recovery
	caLoss                    // TCP_CA_Loss: after an RTO
)

// recoveryState derives this ACK's state. After OnRTO the controller stays
// in caLoss until an ACK reports that the transport's recovery is over.
func recoveryState(inLoss bool, rs *cc.RateSample) caState {
	switch {
	case inLoss && rs.InRecovery:
		return caLoss
	case rs.InRecovery:
		return caRecovery
	default:
		return caOpen
	}
}

// roundCounter marks packet-timed round trips: a round ends when an ACK
// acknowledges data sent after the previous round ended (rs.prior_delivered
// ≥ the connection's delivered count at the round's start; Linux
// bbr_update_round_start).
type roundCounter struct {
	nextDelivered int64 // C.delivered at the end of the current round
	count         int64 // rounds so far
	start         bool  // this ACK started a new round
}

// update processes one ACK and reports whether it starts a round.
func (r *roundCounter) update(rs *cc.RateSample) bool {
	r.start = false
	if rs.Interval > 0 && rs.PriorDelivered >= r.nextDelivered {
		r.nextDelivered = rs.TotalDelivered
		r.count++
		r.start = true
	}
	return r.start
}

// restart makes the current round end with the data sent from now on.
func (r *roundCounter) restart(delivered int64) { r.nextDelivered = delivered }

// secs converts a duration parameter given in seconds.
func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// ms is a duration in milliseconds for Inspect.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
