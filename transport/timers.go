package transport

import (
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// Tail loss probe constants (Linux net/ipv4/tcp_output.c
// tcp_schedule_loss_probe; RFC 8985 §7.2).
const (
	// tlpMinSlack is Linux's TCP_TIMEOUT_MIN_US (2 ms), added to 2·SRTT
	// when more than one segment is in flight.
	tlpMinSlack = 2 * time.Millisecond
)

// fireTimers processes every timer due at now. A due probe timeout goes
// first: in Linux it occupies the retransmission timer's slot, and sending
// the probe re-arms the RTO.
func (s *Sender) fireTimers(now time.Duration) {
	if s.tlpAt <= now && s.tlpAt <= s.rtoAt {
		s.onPTO(now)
	}
	if s.rtoAt <= now {
		s.onRTO(now)
		return
	}
	if s.reoAt <= now {
		s.onReorderTimeout(now)
	}
}

// onRTO handles a retransmission timeout (RFC 6298 §5.4–5.6; Linux
// tcp_retransmit_timer and tcp_enter_loss): back off, mark every unSACKed
// segment lost, tell the controller, and retransmit from snd.una.
func (s *Sender) onRTO(now time.Duration) {
	if s.ring.count() == 0 {
		s.rtoAt = sim.Never
		return
	}
	s.stats.RTOs++
	s.rtt.backoff++
	s.rtoAt = now + s.rtt.current()
	s.tlpAt, s.reoAt = sim.Never, sim.Never
	s.tlpHighSeq, s.probePending = 0, false
	// The loss state is a recovery episode of its own; losses found while
	// it lasts do not start another (Linux TCP_CA_Loss).
	s.inRecovery, s.inCWR = true, false
	s.recoveryPoint = s.sndNxt
	s.ack = ackScratch{}
	for i := s.ring.head; i < s.ring.tail; i++ {
		if !s.ring.at(i).sacked {
			s.markLost(i)
		}
	}
	s.ring.tsClear()
	s.rtxCursor = s.ring.head
	s.ctrl.OnRTO(now)
	// The timer retransmits the head at once, unpaced (Linux calls
	// tcp_retransmit_skb from the timer).
	s.nextSend = min(s.nextSend, now)
}

// onReorderTimeout is RFC 8985 §6.3 (Linux tcp_rack_reo_timeout): re-run
// RACK detection at the timer's expiry. Segments it marks lost reach the
// controller as a rate sample with no acknowledged bytes: the controller
// contract has no other loss event.
func (s *Sender) onReorderTimeout(now time.Duration) {
	s.reoAt = sim.Never
	priorInflight := s.pipe()
	s.ack = ackScratch{}
	s.rackDetect(now)
	if s.ack.lostBytes > 0 {
		s.report(now, priorInflight, false)
	}
}

// scheduleTLP arms the probe timeout (RFC 8985 §7.2; Linux
// tcp_schedule_loss_probe) when the connection is in the Open state: data
// outstanding, nothing SACKed or lost, not in recovery.
func (s *Sender) scheduleTLP(now time.Duration) {
	s.tlpAt = sim.Never
	if s.cfg.NoTLP || s.ring.count() == 0 || s.inRecovery || s.sackedSegs > 0 || s.lostBytes > 0 {
		return
	}
	pto := s.cfg.InitialRTO // no RTT sample yet
	if s.rtt.srtt > 0 {
		pto = 2 * s.rtt.srtt
		if s.ring.count() == 1 {
			// A lone segment may wait for the peer's delayed ACK (RFC 8985
			// §7.2 WCDelAckT; Linux adds tcp_rto_min).
			pto += s.cfg.MinRTO
		} else {
			pto += tlpMinSlack
		}
	}
	if s.rtoAt != sim.Never && s.rtoAt-now > 0 {
		pto = min(pto, s.rtoAt-now) // never later than the RTO
	}
	s.tlpAt = now + pto
}

// onPTO is the probe timeout's expiry (RFC 8985 §7.3): one probe per episode.
func (s *Sender) onPTO(now time.Duration) {
	s.tlpAt = sim.Never
	if s.ring.count() == 0 {
		return
	}
	s.rtoAt = now + s.rtt.current() // Linux tcp_send_loss_probe: rearm_timer
	s.probePending = s.tlpHighSeq == 0
}

// sendProbe sends the loss probe, ignoring cwnd and pacing (RFC 8985 §7.3;
// Linux tcp_send_loss_probe): new data when the window allows, else the
// highest outstanding segment again.
func (s *Sender) sendProbe(now time.Duration) *packet.Packet {
	s.probePending = false
	s.stats.TLPs++
	var p *packet.Packet
	if s.hasNewData() && s.windowAllows(s.newLen()) {
		p = s.sendNew(now)
		s.tlpRetrans = false
	} else {
		p = s.transmit(now, s.ring.tail-1, true, false)
		s.tlpRetrans = true
	}
	s.tlpHighSeq = s.sndNxt
	s.tlpAt = sim.Never
	s.rtoAt = now + s.rtt.current()
	return p
}

// processTLPAck is RFC 8985 §7.4 (Linux tcp_process_tlp_ack): once the probe
// is acknowledged, a retransmitted probe without a DSACK means it repaired a
// real tail loss, which is a loss episode for the controller (Linux enters
// CWR and reduces cwnd).
func (s *Sender) processTLPAck(ack uint64) {
	if s.tlpHighSeq == 0 || ack < s.tlpHighSeq {
		return
	}
	if s.tlpRetrans && !s.ack.dsack && !s.inRecovery {
		s.ack.newEpisode = true
	}
	s.tlpHighSeq, s.tlpRetrans = 0, false
}
