package cc

import "time"

// Controller is one flow's congestion control.
//
// Units: bytes and bytes per second; times are durations since the run's
// epoch. The transport calls OnSend for every transmission, OnAck once per
// arriving ACK that acknowledges or marks anything (with everything the
// transport learned from it), and OnRTO when its retransmission timer fires.
type Controller interface {
	OnSend(now time.Duration, s SentInfo)
	OnAck(now time.Duration, rs *RateSample)
	OnRTO(now time.Duration)
	// CWnd is the congestion window in bytes (at least 2·MSS for window
	// based algorithms, see MinCWnd).
	CWnd() int
	// PacingRate is the sending rate in bytes/s; 0 means unpaced (the
	// transport then sends in TSO-sized bursts as Linux does).
	PacingRate() float64
}

// Inspector is implemented by controllers that expose their internal state
// for traces: phase, gains and model (btlbw, min_rtt, inflight_hi, ...).
// Keys are snake_case; values are numbers (phases as small integers with the
// mapping documented by the algorithm). It is called once per result
// interval, not per ACK, so it may allocate.
type Inspector interface {
	Controller
	Inspect() map[string]float64
}

// AppLimitedMarker is an optional Controller extension. After each ACK
// the transport asks it, and while it answers true marks the data in
// flight application-limited (C.app_limited = C.delivered + inflight,
// draft-cheng-iccrg-delivery-rate-estimation §3.4), so the rate samples
// of that data carry IsAppLimited. BBR asks for it in PROBE_RTT, to keep
// the mode's low rates out of its max-bw filter ("Ignore low rate samples
// during this mode": Linux tcp_bbr.c and google/bbr v3,
// bbr_update_min_rtt). Transports find it with MarkerOf.
type AppLimitedMarker interface {
	MarkAppLimited() bool
}

// Wrapper is a Controller that decorates another (an RTT recorder, say)
// and gives it back with Unwrap, so optional extensions stay reachable.
type Wrapper interface {
	Unwrap() Controller
}

// MarkerOf returns c's AppLimitedMarker, looking through Wrappers, or nil.
func MarkerOf(c Controller) AppLimitedMarker {
	for c != nil {
		if m, ok := c.(AppLimitedMarker); ok {
			return m
		}
		w, ok := c.(Wrapper)
		if !ok {
			return nil
		}
		c = w.Unwrap()
	}
	return nil
}

// Flag is an Inspect value for a boolean: 1 or 0.
func Flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// SentInfo describes one transmission.
type SentInfo struct {
	Bytes      int  // payload bytes of the segment
	Inflight   int  // bytes in flight after this send (RFC 6675 pipe)
	AppLimited bool // the sender had nothing more to send (draft-cheng §3.3)
	Retrans    bool // the segment is a retransmission
}

// RateSample is what the transport learned from one ACK. Field names follow
// draft-cheng-iccrg-delivery-rate-estimation ("rs.") and Linux's struct
// rate_sample, so BBR code reads like its sources. The transport reuses the
// value between calls: controllers must not retain the pointer.
type RateSample struct {
	// Acknowledged and lost bytes newly accounted by this ACK (cumulative
	// plus SACKed; lost by RACK/dupthresh marking).
	AckedBytes int
	LostBytes  int
	// AckedPackets and LostPackets are the same in segments.
	AckedPackets int
	LostPackets  int

	// RTT is the round-trip time measured by this ACK from a segment that
	// was not retransmitted (Karn), or 0 when none. MinRTT and SRTT are the
	// transport's running estimators (RFC 6298).
	RTT    time.Duration
	MinRTT time.Duration
	SRTT   time.Duration

	// Delivery-rate sample (draft-cheng §3.3): DeliveryRate in bytes/s over
	// Interval; 0 when the ACK produced no valid sample.
	DeliveryRate float64
	Interval     time.Duration
	// Delivered is the sample's delivered-bytes delta (rs.delivered);
	// PriorDelivered is C.delivered when the newest acked segment was sent
	// (rs.prior_delivered), the key that marks round trips for BBR.
	Delivered      int64
	PriorDelivered int64
	// TotalDelivered and TotalLost are the connection totals after this ACK
	// (C.delivered, C.lost), in bytes.
	TotalDelivered int64
	TotalLost      int64
	// IsAppLimited tells that the sample was taken while application limited
	// and may underestimate the bottleneck (draft-cheng §3.3).
	IsAppLimited bool
	// TxInFlight is the bytes in flight when the newest acked segment was
	// sent; Lost is C.lost's growth since then (Linux rs->tx_in_flight,
	// rs->lost). BBRv2/v3 derive the loss rate of a round from them.
	TxInFlight int
	Lost       int64

	// Inflight is the bytes in flight after processing this ACK; PriorInflight
	// before it.
	Inflight      int
	PriorInflight int

	// ECE counts bytes acknowledged with ECN-Echo (RFC 3168 / L4S style
	// accounting; 0 when ECN is off).
	ECEBytes int

	// Recovery state, owned by the transport (RFC 6675 / RFC 8985):
	// NewLossEpisode is true on the first loss marking since the last
	// recovery ended (the moment Reno/CUBIC reduce once), or on an
	// ECN-Echo of an ECN connection outside recovery (RFC 3168 §6.1.2:
	// respond as to a loss, once per window); InRecovery while the loss
	// episode is not repaired; InCWR while the window reduced for an
	// ECN-Echo is held until the data sent before it is acknowledged
	// (Linux TCP_CA_CWR: no retransmission, and BBR does not enter its
	// packet conservation for it).
	NewLossEpisode bool
	InRecovery     bool
	InCWR          bool
}

// Reducing reports whether the transport is already reducing the window
// this round: in loss recovery (RFC 6675 §5, RFC 8985 §7) or in CWR after
// an ECN-Echo (RFC 3168 §6.1.2). Both are the one reduction a window of
// data may take, so a loss-based controller holds its growth and stays in
// its recovery phase until neither holds.
func (rs *RateSample) Reducing() bool { return rs.InRecovery || rs.InCWR }

// MinCWnd is the smallest window any window-based controller uses: two
// segments, as Linux's tcp_cwnd_min and RFC 5681 §3.1's loss window floor.
func MinCWnd(mss int) int { return 2 * mss }
