package pcckernel

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
)

// Rate and window constants.
const (
	// defaultInitialRate is the first rate, 1024·512 bytes/s = 4.19
	// Mbit/s (PCC-Kernel master src/tcp_pcc.c pcc_init: pcc_rate_minimum
	// × 512).
	defaultInitialRate = 1024 * 512
	// minPacingRate is the pacing floor in bytes/s (pcc_rate_minimum,
	// applied in pcc_start_interval; its comment says "1Kbps", the unit
	// is bytes).
	minPacingRate = 1024
	// maxRate bounds our rate in bytes/s (720 Tbit/s). The module has no
	// bound: its rate grows until its s64 fixed point overflows
	// (pcc_calc_utility multiplies a utility of up to the rate by 10^5,
	// past 2^63 at 9.2e13 B/s), after which its decisions are garbage. We
	// stop just below, where the arithmetic is still exact; the window
	// there is far beyond any receive window.
	maxRate = 9e13
	// minCWndSegs and cwndGain: the window is 2·pacing rate·SRTT, at least
	// four segments (pcc_set_cwnd).
	minCWndSegs = 4
	cwndGain    = 2
	// noRTT is the RTT pcc_get_rtt uses before a sample: 1 ms.
	noRTT = time.Millisecond
	// maxInitialRate bounds the initial_rate parameter (80 Gbit/s).
	maxInitialRate = 1e10
)

// Modes reported by Inspect under "mode" (the module's enum PCC_MODE).
const (
	ModeSlowStart = 0
	ModeDecision  = 1 // four intervals at r(1±ε)
	ModeAdjust    = 2 // stepping the rate while utility improves
	ModeLoss      = 3 // after an RTO until the loss state ends
)

var (
	_ cc.Controller = (*PCC)(nil)
	_ cc.Inspector  = (*PCC)(nil)
)

func init() {
	cc.Register(cc.Info{
		Name:        "pcc-kernel",
		Description: "PCC Allegro as the PCC-Kernel Linux module runs it (the dataset's deployed \"pcc\"): loss-sigmoid utility on target rates, 1–5 % rate steps",
		Source:      "PCCproject/PCC-Kernel master src/tcp_pcc.c (PCC Allegro, Dong et al., NSDI 2015)",
		Params:      map[string]float64{"epsilon_max": defaultEpsilonMax, "initial_rate": defaultInitialRate},
		New:         func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// PCC is one flow's PCC-Kernel (Allegro) controller. Rates are integer
// bytes/s and counts are segments, as in the module.
type PCC struct {
	mss    int
	epsMax int64
	rng    *rand.Rand
	srtt   time.Duration

	mode         int
	rate         int64 // the central rate (pcc->rate)
	lastRate     int64 // the rate to fall back to (pcc->last_rate)
	eps          int64 // probing and step size in percent
	lastDecision int

	// intervals: in slow start and rate adjustment only iv[0] is used
	// (the module's single_interval); its utility survives a restart and
	// is what the next interval is compared with.
	iv        [numIntervals]interval
	sendIdx   int
	recvIdx   int
	wait      bool // all planned intervals sent: hold the central rate
	pacing    int64
	cwndBytes int

	// the socket's counters, in segments: data_segs_out, delivered, lost,
	// their values at the previous ACK, what the module has accounted
	// (packets_counted) and the correction made when the loss state ends
	// (double_counted).
	segsOut       int64
	delivered     int64
	lost          int64
	deliveredBase int64
	lostBase      int64
	counted       int64
	doubleCounted int64

	// newBytes is the new data sent (snd_nxt); lossEnd its value at the
	// RTO: the loss state ends once everything below it is delivered.
	newBytes int64
	lossEnd  int64
}

// New builds a controller from cfg (MSS and Rand set, as cc.New does).
// Params: epsilon_max a whole percentage in [1, 50], initial_rate in
// bytes/s in [1024, 1e10].
func New(cfg cc.Config) (*PCC, error) {
	if cfg.MSS <= 0 || cfg.Rand == nil {
		return nil, fmt.Errorf("pcc-kernel: mss %d and a random stream are required", cfg.MSS)
	}
	em := cfg.Param("epsilon_max", defaultEpsilonMax)
	if !(em >= epsilonMin && em <= maxEpsilonMax && em == float64(int64(em))) {
		return nil, fmt.Errorf("congestion control pcc-kernel: parameter epsilon_max = %v: must be a whole percentage in [%d, %d]", em, epsilonMin, maxEpsilonMax)
	}
	r0 := cfg.Param("initial_rate", defaultInitialRate)
	if !(r0 >= minPacingRate && r0 <= maxInitialRate) {
		return nil, fmt.Errorf("congestion control pcc-kernel: parameter initial_rate = %v bytes/s: must be in [%d, %g]", r0, minPacingRate, float64(maxInitialRate))
	}
	p := &PCC{mss: cfg.MSS, epsMax: int64(em), rng: cfg.Rand}
	p.init(int64(r0))
	return p, nil
}

// init is pcc_init: slow start at the initial rate, ε at its minimum, the
// first interval started at once.
func (p *PCC) init(rate int64) {
	p.mode = ModeSlowStart
	p.rate, p.lastRate = rate, rate
	p.eps = epsilonMin
	p.lastDecision = decisionUp // the zeroed enum's first value, PCC_RATE_UP
	p.iv[0].utility = noUtility
	p.setupIntervals()
	p.startInterval()
}

// OnSend counts the segments sent, retransmissions included, as Linux's
// data_segs_out does.
func (p *PCC) OnSend(_ time.Duration, s cc.SentInfo) {
	p.segsOut += int64(max(1, (s.Bytes+p.mss-1)/p.mss))
	if !s.Retrans {
		p.newBytes += int64(s.Bytes)
	}
}

// OnAck takes the ACK's delivered and lost segments into the socket
// counters, ends the loss state when it is over and runs the module's
// per-ACK processing.
func (p *PCC) OnAck(_ time.Duration, rs *cc.RateSample) {
	switch {
	case rs.SRTT > 0:
		p.srtt = rs.SRTT
	case rs.RTT > 0 && p.srtt == 0:
		p.srtt = rs.RTT
	}
	p.delivered += int64(rs.AckedPackets)
	p.lost += int64(rs.LostPackets)
	if p.mode == ModeLoss && (!rs.InRecovery || rs.TotalDelivered >= p.lossEnd) {
		p.leaveLoss((rs.Inflight + p.mss - 1) / p.mss)
	}
	p.processSample()
}

// OnRTO enters the loss state (PCC-Kernel master src/tcp_pcc.c
// pcc_set_state, new state TCP_CA_Loss): accounting stops and the rate,
// pacing and window stay as they are (tcp_enter_loss's window of one is
// overwritten by pcc_set_cwnd at once).
func (p *PCC) OnRTO(time.Duration) {
	p.lossEnd = p.newBytes
	if p.mode == ModeLoss {
		p.setCWnd()
		return
	}
	p.mode = ModeLoss
	p.wait = true
	p.startInterval()
}

// leaveLoss is pcc_set_state leaving TCP_CA_Loss: the segments that the
// counters no longer match (marked lost by the RTO, retransmitted and
// delivered) are written off so that delivered + lost − doubleCounted is
// again the segments sent and no longer in flight; then decision making
// starts afresh at the same rate.
func (p *PCC) leaveLoss(inflightSegs int) {
	p.doubleCounted = p.delivered + p.lost + int64(inflightSegs) - p.segsOut
	p.mode = ModeDecision
	p.setupIntervals()
	p.startInterval()
}

// PacingRate is the rate of the interval being sent, else the central
// rate, at least 1024 bytes/s.
func (p *PCC) PacingRate() float64 { return float64(p.pacing) }

// CWnd is 2·pacing rate·SRTT, at least four segments.
func (p *PCC) CWnd() int { return p.cwndBytes }

// setCWnd is pcc_set_cwnd: pacing rate × SRTT in µs (1 ms before a
// sample) / MSS / 10^6 × 2, at least 4, in the module's u64 arithmetic
// and then truncated to u32 segments (snd_cwnd is a u32; the clamp is
// its maximum). The truncation wraps a window past 2^32 segments, which
// is where the dataset's absurd max_snd_cwnd comes from; we keep the
// floor of four after it, where the module puts it before (a window of
// zero would stall our transport until an RTO).
func (p *PCC) setCWnd() {
	rtt := p.srtt
	if rtt <= 0 {
		rtt = noRTT
	}
	us := uint64(max(rtt.Microseconds(), 1))
	c := uint64(p.pacing) * us / uint64(p.mss) / 1e6 * cwndGain
	segs := max(uint64(uint32(max(c, minCWndSegs))), minCWndSegs)
	p.cwndBytes = int(segs) * p.mss
}

// Inspect reports the mode (ModeSlowStart … ModeLoss), the central and
// pacing rates in Mbit/s, ε in percent and the last decision (0 up, 1
// down, 2 stay).
func (p *PCC) Inspect() map[string]float64 {
	return map[string]float64{
		"mode": float64(p.mode), "rate_mbps": float64(p.rate) * 8 / 1e6,
		"pacing_mbps": float64(p.pacing) * 8 / 1e6, "epsilon": float64(p.eps),
		"last_decision": float64(p.lastDecision),
	}
}
