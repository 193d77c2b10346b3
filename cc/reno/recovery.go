package reno

import "github.com/leolab/leolab/cc"

// Phase is the subset of Linux's tcp_ca_state that a window-based
// controller acts on (include/net/tcp.h).
type Phase uint8

const (
	// Open: no loss being repaired; the window may grow (TCP_CA_Open).
	Open Phase = iota
	// Recovery: fast recovery after a loss episode; the window was reduced
	// once and does not grow until it ends (TCP_CA_Recovery, RFC 6582).
	Recovery
	// Loss: after a retransmission timeout; the window restarts from one
	// segment and slow-starts (TCP_CA_Loss, RFC 5681 §3.1).
	Loss
)

// Episodes turns the transport's per-ACK recovery signals into the phase
// and into the decisions "reduce now" (once per loss episode) and "recompute
// ssthresh on this RTO" (Linux tcp_enter_loss: not again while fast recovery
// or an earlier timeout of the same window is still being repaired).
//
// The zero value is in the Open phase.
type Episodes struct {
	phase Phase
	// progress records that an ACK acknowledged data since the last RTO
	// (Linux clears icsk_retransmits on forward progress).
	progress bool
}

// OnAck updates the phase from rs and reports whether this ACK starts a loss
// episode on which the controller must reduce its window. A new episode
// signalled while the phase is Loss is part of the timeout's repair and is
// ignored, as Linux stays in TCP_CA_Loss until the repair completes.
func (e *Episodes) OnAck(rs *cc.RateSample) (reduce bool) {
	if rs.AckedBytes > 0 {
		e.progress = true
	}
	switch {
	case rs.NewLossEpisode && e.phase != Loss:
		e.phase = Recovery
		return true
	case rs.Reducing():
		if e.phase == Open {
			e.phase = Recovery
		}
	default:
		e.phase = Open
	}
	return false
}

// OnRTO enters the Loss phase and reports whether ssthresh must be
// recomputed (only from Open, or from Loss after forward progress).
func (e *Episodes) OnRTO() (reduce bool) {
	reduce = e.phase == Open || (e.phase == Loss && e.progress)
	e.phase = Loss
	e.progress = false
	return reduce
}

// Phase returns the current phase.
func (e *Episodes) Phase() Phase { return e.phase }

// MayGrow tells whether the window may grow: everywhere but in fast recovery
// (Linux calls cong_avoid in Open and Loss, tcp_cwnd_reduction in Recovery).
func (e *Episodes) MayGrow() bool { return e.phase != Recovery }
