package transport

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// Pacing constants (Linux net/ipv4/tcp_output.c, tcp_update_skb_after_send).
const (
	// unpacedSegs: Linux starts pacing only once data_segs_out >= 10, so
	// the initial window leaves in one burst.
	unpacedSegs = 10
	// pacingShift: a TSO burst carries about 1 ms of data at the pacing
	// rate, rate >> sk_pacing_shift (10) bytes (tcp_tso_autosize).
	pacingShift = 10
	// gsoMaxBytes caps a burst at GSO_LEGACY_MAX_SIZE (64 KiB).
	gsoMaxBytes = 65536
	// minTSOSegs: sysctl_tcp_min_tso_segs and bbr_min_tso_segs above
	// 1.2 Mbit/s (2).
	minTSOSegs = 2
)

// Sender is one flow's TCP-like sender. It is not safe for concurrent use.
type Sender struct {
	cfg    SenderConfig
	ctrl   cc.Controller
	marker cc.AppLimitedMarker // ctrl's, or nil
	pool   *packet.Pool

	ring    segRing
	sb      rangeSet       // SACK scoreboard: union of SACKed segments (RFC 6675 §3)
	scratch []packet.Block // reused by SACK processing

	sndUna, sndNxt uint64 // RFC 793 SND.UNA, SND.NXT
	limit          uint64 // end of the data to send
	written        uint64 // end of the data the application has put in the send buffer (sendbuf.go)
	peerRwnd       int    // last window advertised by the receiver
	txID           uint64
	segsOut        int64

	// Pipe accounting (RFC 6675 §4 "pipe"; Linux tcp_packets_in_flight), in
	// payload bytes: pipe = out - sacked - lost + retrans.
	sackedBytes, lostBytes, retransBytes int
	sackedSegs                           int
	lostPending                          int   // lost segments not yet retransmitted
	rtxCursor                            int64 // no lost-pending segment below it

	rtt  rttEstimator
	rate rateState
	rack rackState

	inRecovery bool
	// inCWR: the window was reduced for an ECN-Echo and is held until
	// cwrPoint is acknowledged (Linux TCP_CA_CWR); sendCWR: the next new
	// segment carries CWR (RFC 3168 §6.1.2).
	inCWR, sendCWR bool
	cwrPoint       uint64
	recoveryPoint  uint64 // RFC 6675 §2 RecoveryPoint

	rtoAt, tlpAt, reoAt time.Duration
	tlpHighSeq          uint64 // RFC 8985 TLP.end_seq; 0 when no probe is outstanding
	tlpRetrans          bool   // the outstanding probe was a retransmission
	probePending        bool   // PTO fired: Next sends a probe regardless of cwnd

	nextSend  time.Duration // earliest departure time of the next packet (EDT)
	host      hostRate      // the sending host's egress limit (cfg.MaxRateBps)
	burstAt   time.Duration // start of the current TSO burst
	burstLeft int           // segments the burst may still carry at burstAt
	now       time.Duration // latest time seen

	ack   ackScratch
	rs    cc.RateSample
	stats SenderStats
}

// SenderStats are cumulative counters and current estimator values.
type SenderStats struct {
	// BytesSent counts payload bytes put on the wire, retransmissions
	// included (Linux tcpi_bytes_sent).
	BytesSent int64
	// BytesAcked is snd.una: payload bytes cumulatively acknowledged (Linux
	// tcpi_bytes_acked).
	BytesAcked int64
	// Retransmits counts retransmitted segments, probes included (Linux
	// tcpi_total_retrans, iperf3's "retransmits").
	Retransmits int64
	RTOs        int64 // retransmission timer expiries
	// DataSegsOut counts data segments put on the wire, retransmissions
	// and probes included (Linux tcpi_data_segs_out).
	DataSegsOut int64
	TLPs        int64 // tail loss probes sent
	SRTT        time.Duration
	RTTVar      time.Duration
	MinRTT      time.Duration
	RTO         time.Duration // current, backoff included
	CWnd        int           // bytes, from the controller
	PacingRate  float64       // payload bytes/s, from the controller
	Inflight    int           // RFC 6675 pipe, bytes
	Done        bool          // a Bytes-limited flow has all its data acknowledged
}

// NewSender returns a sender driven by ctrl, taking packets from pool.
func NewSender(cfg SenderConfig, ctrl cc.Controller, pool *packet.Pool) *Sender {
	cfg = cfg.withDefaults()
	s := &Sender{
		cfg:      cfg,
		ctrl:     ctrl,
		pool:     pool,
		ring:     newSegRing(),
		limit:    math.MaxUint64,
		peerRwnd: math.MaxInt, // until the first ACK, unless cfg.InitialRwnd
		rtt:      newRTTEstimator(cfg),
		rtoAt:    sim.Never,
		tlpAt:    sim.Never,
		reoAt:    sim.Never,
		host:     newHostRate(cfg.MaxRateBps, cfg.MaxRateBurst),
	}
	if cfg.Bytes > 0 {
		s.limit = uint64(cfg.Bytes)
	}
	if cfg.InitialRwnd > 0 {
		s.peerRwnd = cfg.InitialRwnd
	}
	s.marker = cc.MarkerOf(ctrl)
	return s
}

// pipe is the RFC 6675 estimate of bytes in flight.
func (s *Sender) pipe() int {
	return int(s.sndNxt-s.sndUna) - s.sackedBytes - s.lostBytes + s.retransBytes
}

func (s *Sender) hasNewData() bool { return s.sndNxt < s.limit }

func (s *Sender) newLen() int { return int(min(uint64(s.cfg.MSS), s.limit-s.sndNxt)) }

// cwndAllows reports whether n more bytes fit in the congestion window. An
// empty pipe always allows one segment so that a window below one MSS cannot
// stall the flow.
func (s *Sender) cwndAllows(n int) bool {
	p := s.pipe()
	return p == 0 || p+n <= s.ctrl.CWnd()
}

// windowAllows applies the peer's receive window (RFC 793 §3.7, Linux
// tcp_snd_wnd_test) and the sender's own buffer: only data the application
// has written can be sent, and it writes no further than the buffer holds
// (Linux sk_wmem_queued ≤ sk_sndbuf, autotuned up to tcp_wmem[2];
// sendbuf.go).
func (s *Sender) windowAllows(n int) bool {
	end := s.sndNxt + uint64(n)
	return end <= s.sndUna+uint64(s.peerRwnd) && end <= s.written
}

func (s *Sender) paced() bool {
	return s.ctrl.PacingRate() > 0 && s.segsOut >= unpacedSegs
}

// Next returns the next packet to send at now, or nil when the congestion
// window, the receive window, pacing or lack of data forbid sending. It first
// processes expired timers. Callers loop until nil.
func (s *Sender) Next(now time.Duration) *packet.Packet {
	s.now = now
	s.fireTimers(now)
	s.refillSendBuffer()
	if !s.host.allows(now) {
		return s.endBurst()
	}
	if s.probePending {
		return s.sendProbe(now)
	}
	if s.paced() && s.nextSend > now && !s.inBurst(now) {
		return nil
	}
	// Retransmissions of lost segments go before new data (RFC 6675 §5
	// NextSeg rule 1; Linux tcp_xmit_retransmit_queue).
	if s.lostPending > 0 {
		i := s.nextLost()
		if !s.cwndAllows(s.ring.at(i).len()) {
			return s.endBurst()
		}
		return s.transmit(now, i, true, false)
	}
	if s.hasNewData() {
		n := s.newLen()
		if !s.cwndAllows(n) || !s.windowAllows(n) {
			return s.endBurst()
		}
		return s.sendNew(now)
	}
	s.checkAppLimited()
	return s.endBurst()
}

// endBurst closes the current TSO burst when the windows or the
// application stop it, and returns nil for Next. A Linux burst is one skb,
// sized by the congestion window's quota when tcp_write_xmit builds it
// (tcp_cwnd_test, tcp_mss_split_point); once it is sent the pacer sets
// the next departure. Segments freed by a later ACK wait for that
// departure even when the ACK arrives at the burst's instant, as every
// ACK of a link's frame batch does here (a kernel processes them one by
// one, microseconds apart, and finds the pacer armed).
func (s *Sender) endBurst() *packet.Packet {
	s.burstLeft = 0
	return nil
}

// NextWake returns the earliest time at which Next may return a packet or a
// timer must be processed; sim.Never if none.
func (s *Sender) NextWake() time.Duration {
	w := min(s.rtoAt, s.tlpAt, s.reoAt)
	if s.probePending {
		return s.host.readyAt(s.now)
	}
	if s.canSend() {
		t := s.host.readyAt(s.now)
		if s.paced() && !s.inBurst(t) {
			t = max(t, s.nextSend)
		}
		w = min(w, t)
	}
	return w
}

// canSend reports whether windows and data allow a transmission, pacing
// aside.
func (s *Sender) canSend() bool {
	if s.lostPending > 0 {
		return s.cwndAllows(s.ring.at(s.nextLost()).len())
	}
	if s.hasNewData() {
		n := s.newLen()
		return s.cwndAllows(n) && s.windowAllows(n)
	}
	return false
}

// nextLost returns the lowest segment that is lost and not retransmitted.
// lostPending must be > 0.
func (s *Sender) nextLost() int64 {
	i := max(s.rtxCursor, s.ring.head)
	for ; i < s.ring.tail; i++ {
		if sg := s.ring.at(i); sg.lost && !sg.retransOut {
			break
		}
	}
	if i == s.ring.tail {
		panic("leolab BUG: transport: lostPending > 0 but no lost segment")
	}
	s.rtxCursor = i
	return i
}

// checkAppLimited marks the flow application limited when it has no new data,
// is not cwnd limited and has no retransmission pending (draft-cheng §3.4;
// Linux tcp_rate_check_app_limited).
func (s *Sender) checkAppLimited() {
	if s.hasNewData() || s.lostPending > 0 || s.pipe() >= s.ctrl.CWnd() {
		return
	}
	if s.rate.appLimited == 0 {
		s.rate.markAppLimited(s.pipe())
	}
}

func (s *Sender) sendNew(now time.Duration) *packet.Packet {
	idle := s.ring.count() == 0
	n := uint64(s.newLen())
	i := s.ring.push(s.sndNxt, s.sndNxt+n)
	s.sndNxt += n
	return s.transmit(now, i, false, idle)
}

// transmit puts segment i on the wire: bookkeeping, rate snapshot, the
// controller's OnSend, pacing and timers.
func (s *Sender) transmit(now time.Duration, i int64, retrans, idle bool) *packet.Packet {
	sg := s.ring.at(i)
	n := sg.len()
	if retrans {
		if sg.lost && !sg.retransOut {
			s.lostPending--
		}
		if !sg.retransOut {
			sg.retransOut = true
			s.retransBytes += n
		}
		sg.everRetrans = true
		s.stats.Retransmits++
		s.ring.tsRemove(i)
	}
	sg.xmit = now
	s.ring.tsAppend(i)
	inflight := s.pipe()
	s.rate.onSend(now, sg, idle, inflight)

	s.txID++
	s.segsOut++
	s.stats.BytesSent += int64(n)
	p := s.pool.Get()
	p.Flow, p.Kind = s.cfg.Flow, packet.Data
	p.Seq, p.Len, p.Size = sg.start, n, n+packet.HeaderSize
	p.TxID, p.Retrans, p.SentAt = s.txID, retrans, now
	s.host.charge(now, p.Size)
	if s.cfg.ECN {
		// RFC 3168 §6.1.5: retransmissions are not ECN-capable.
		p.ECT = !retrans
		if !retrans && s.sendCWR {
			p.CWR, s.sendCWR = true, false
		}
	}

	s.ctrl.OnSend(now, cc.SentInfo{Bytes: n, Inflight: inflight, AppLimited: s.rate.appLimited != 0, Retrans: retrans})
	s.pace(now, n)
	if s.rtoAt == sim.Never || (retrans && i == s.ring.head) {
		// RFC 6298 §5.1; and Linux tcp_xmit_retransmit_queue re-arms the
		// timer when it retransmits the head of the queue, so a recovery
		// that outlasts RTO − RTT on a long path does not time out.
		s.rtoAt = now + s.rtt.current()
	}
	if !retrans {
		s.scheduleTLP(now) // RFC 8985 §7.2: (re)start PTO on new data
	}
	return p
}

// pace advances the earliest departure time by n bytes at the controller's
// rate (Linux tcp_update_skb_after_send): when the sender fell behind
// schedule, up to half a packet's gap is forgiven, so the pacer never bursts
// to catch up more than that. Unless NoTSO, segments leave in bursts as
// Linux's skbs do: the first segment sent at or after the departure time
// opens a burst of tsoSegs segments that may all leave at that instant
// unless the windows stop it first (endBurst), and the burst's total gap
// is added to the departure time.
func (s *Sender) pace(now time.Duration, n int) {
	rate := s.ctrl.PacingRate()
	if rate <= 0 || s.segsOut < unpacedSegs {
		return
	}
	gap := time.Duration(float64(n) / rate * float64(time.Second))
	if s.inBurst(now) {
		s.burstLeft--
		s.nextSend += gap
		return
	}
	var credit time.Duration
	if s.nextSend < now {
		credit = now - s.nextSend
		s.nextSend = now
	}
	gap -= min(gap/2, credit)
	s.nextSend += gap
	if !s.cfg.NoTSO {
		s.burstAt, s.burstLeft = now, s.tsoSegs(rate)-1
	}
}

// inBurst tells whether a TSO burst opened at now may carry another segment.
func (s *Sender) inBurst(now time.Duration) bool {
	return s.burstLeft > 0 && now == s.burstAt
}

// tsoSegs is Linux's tcp_tso_autosize: about 1 ms of data at the pacing
// rate (rate >> sk_pacing_shift), at most 64 KiB, at least 2 segments.
func (s *Sender) tsoSegs(rate float64) int {
	bytes := min(int(rate)>>pacingShift, gsoMaxBytes)
	return max(bytes/s.cfg.MSS, minTSOSegs)
}

// Stats returns the sender's counters.
func (s *Sender) Stats() SenderStats {
	st := s.stats
	st.BytesAcked = int64(s.sndUna)
	st.DataSegsOut = s.segsOut
	st.SRTT, st.RTTVar, st.MinRTT = s.rtt.srtt, s.rtt.rttvar, s.rtt.minRTT
	st.RTO = s.rtt.current()
	st.CWnd, st.PacingRate = s.ctrl.CWnd(), s.ctrl.PacingRate()
	st.Inflight = s.pipe()
	st.Done = s.cfg.Bytes > 0 && s.sndUna >= s.limit
	return st
}
