package netsim

import (
	"errors"
	"fmt"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link"
)

// Spec is one simulated run.
type Spec struct {
	Name     string
	Seed     uint64
	Duration time.Duration
	// Interval is the sampling period of the per-flow and per-link series
	// (iperf3's 1 s by default).
	Interval time.Duration

	// Forward carries data (and probes) from senders to receivers; Reverse
	// carries ACKs back. Build receives the DropFunc the link must report
	// drops to.
	Forward, Reverse LinkSpec
	// Hops, when set, replace Forward and Reverse with a topology: one-way
	// links (either direction), each flow's Route naming the ones its data
	// and its ACKs cross (route.go).
	Hops []LinkSpec

	Flows []FlowSpec

	// BaseRTT is the idle round-trip time of the path, for reporting.
	BaseRTT time.Duration
	// Schedule, when the path reconfigures on a schedule, is handed to
	// controllers that use it (LeoCC, SaTCP).
	Schedule cc.Schedule
	// FairnessFrom starts the window over which fairness indices are
	// computed (to the end of the run); 0 means the latest flow start.
	FairnessFrom time.Duration

	// Path describes the path for the result (profile, city, direction).
	Profile, City, Direction string
	EpochUTC                 string

	// Tap, when set, sees every packet at the path's ends (tap.go).
	Tap Tap

	// SimOnly, when set, says why a live engine must refuse the spec (a
	// stage only the simulator models); the simulator ignores it.
	SimOnly string

	// GROSegments > 0: receivers ACK the segments that arrive at one
	// instant (a frame's batch) as one, up to GROSegments at a time, as
	// Linux's generic receive offload makes them one skb: the ACK decision
	// waits until the instant's deliveries are in or that many arrived.
	GROSegments int
	// ECN: some queue marks ECN-capable packets instead of dropping them.
	// The live engine then has kernel TCP negotiate ECN (tcp_ecn = 1), and
	// the simulator's TCP senders send ECN-capable segments and react to
	// ECN-Echo (transport.SenderConfig.ECN), so that its packets are
	// ECN-capable in both engines.
	ECN bool
}

// LinkSpec builds one direction of the path.
type LinkSpec struct {
	Name string
	// Hop and Direction label a topology's link in the result
	// (result.Link).
	Hop, Direction string
	Build          func(drop link.DropFunc) (link.Stage, error)
	// Timed says the link changes with run time (a schedule, a replayed
	// path): a live engine must give its stages the flows' time axis.
	Timed bool
}

// FlowKind tells a transport flow from a probe.
type FlowKind uint8

const (
	// TCP is a bulk flow of our TCP-like transport.
	TCP FlowKind = iota
	// CBR is a constant-bit-rate datagram flow (probing, demand injection).
	CBR
)

// FlowSpec is one flow.
type FlowSpec struct {
	Kind   FlowKind
	CCA    string             // congestion control (TCP)
	Params map[string]float64 // controller knobs
	Files  map[string]string  // controller file parameters (cc.Config.Files)
	// Controller, when set, builds the flow's controller in place of the
	// registry's CCA (which still names the flow in the result), from the
	// config cc.New would get: for programs that drive a controller from
	// outside, as learn/counterfactual's replays and
	// learn/rlenv's training episodes do. Scenarios never set it.
	Controller func(cc.Config) (cc.Controller, error)
	Start      time.Duration
	// Stop ends sending (0: the end of the run).
	Stop time.Duration
	// Bytes limits a TCP flow's transfer (0: unlimited bulk).
	Bytes int64
	// SndBuf caps a TCP flow's unacknowledged data, in bytes
	// (0: transport.DefaultSndBuf).
	SndBuf int
	// Rwnd is the ceiling of the receiver's autotuned window for a TCP
	// flow, in bytes (transport.ReceiverConfig.Rwnd, the largest window
	// the receiving host advertises; 0: transport.DefaultRwnd).
	Rwnd int
	// MaxRateBps limits the sending host's egress for a TCP flow, in bits
	// per second of whole packets (transport.SenderConfig.MaxRateBps;
	// 0: none).
	MaxRateBps float64
	// MaxRateBurst is that limit's burst credit in bytes
	// (transport.SenderConfig.MaxRateBurst; 0: transport.MinHostBurst).
	MaxRateBurst int
	// ExtraDelay is added to this flow's ACK path only, to give flows of
	// one bottleneck different RTTs.
	ExtraDelay time.Duration
	// CBR flows: rate in bits/s and datagram size on the wire.
	RateBps    float64
	PacketSize int
	// Record keeps a per-packet record (send time, one-way delay or loss)
	// of a CBR flow in the result.
	Record bool
	// Route and Moves place the flow on Spec.Hops (route.go); unset
	// without Hops, where data takes Forward and ACKs Reverse.
	Route Route
	Moves []Move
}

// Validate checks a spec before anything runs.
func (s *Spec) Validate() error {
	var errs []error
	if s.Duration <= 0 {
		errs = append(errs, fmt.Errorf("duration %v: must be > 0", s.Duration))
	}
	if err := quantity.Interval(s.Interval, max(s.Duration, quantity.MinInterval)); err != nil {
		errs = append(errs, fmt.Errorf("interval: %w", err)) // 1 ns: a record per flow per ns
	}
	if s.Hops == nil && (s.Forward.Build == nil || s.Reverse.Build == nil) {
		errs = append(errs, errors.New("path: forward and reverse links are required"))
	}
	errs = append(errs, s.validateRoutes()...)
	if len(s.Flows) == 0 {
		errs = append(errs, errors.New("flows: at least one flow is required"))
	}
	for i, f := range s.Flows {
		if f.Start < 0 || f.Start >= s.Duration {
			errs = append(errs, fmt.Errorf("flows[%d].start %v: must be in [0, duration)", i, f.Start))
		}
		if f.Kind == CBR && (quantity.LinkRate(f.RateBps) != nil || f.PacketSize <= 0) {
			errs = append(errs, fmt.Errorf("flows[%d]: cbr needs a rate in [1kbps, 1Tbps] and packet_size > 0", i))
		}
	}
	return errors.Join(errs...)
}
