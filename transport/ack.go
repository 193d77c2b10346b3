package transport

import (
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// ackScratch accumulates what one ACK (or one reorder-timer expiry) taught
// the sender; it is reset at the start of each.
type ackScratch struct {
	ackedBytes, ackedPkts int
	lostBytes, lostPkts   int
	// seqRTT is from the first newly cum-ACKed segment, sackRTT from the
	// first newly SACKed one, caRTT the smallest (newest sent) of all; only
	// never-retransmitted segments give samples (Karn; Linux
	// tcp_clean_rtx_queue / tcp_ack_update_rtt).
	seqRTT, sackRTT, caRTT time.Duration
	newEpisode             bool
	dsack                  bool
	// priorFack is the highest SACKed sequence before this ACK's SACK
	// blocks (Linux tcp_ack prior_fack): reordering is judged against it.
	priorFack uint64
}

// OnAck processes an ACK. The caller keeps ownership of p.
func (s *Sender) OnAck(now time.Duration, p *packet.Packet) {
	s.now = now
	if p.Kind != packet.Ack || p.Ack > s.sndNxt || p.Ack < s.sndUna && p.NSack == 0 {
		return // ACK of unsent data or stale ACK without news (RFC 793 §3.9)
	}
	s.ack = ackScratch{priorFack: s.rack.highSacked}
	s.peerRwnd = p.Rwnd
	priorInflight := s.pipe()
	priorUna := s.sndUna

	s.processSacks(now, p)
	s.processCumAck(now, p.Ack)
	s.updateRTT()
	if s.sndUna > priorUna {
		if s.ring.count() > 0 {
			s.rtoAt = now + s.rtt.current() // RFC 6298 §5.3
		} else {
			s.rtoAt = sim.Never // RFC 6298 §5.2
		}
		if s.inRecovery && s.sndUna >= s.recoveryPoint {
			s.inRecovery = false // RFC 6675 §5: recovery ends at RecoveryPoint
		}
		if s.inCWR && s.sndUna >= s.cwrPoint {
			s.inCWR = false // Linux: TCP_CA_CWR ends once high_seq is acknowledged
		}
	}
	if p.ECE && s.cfg.ECN && !s.inRecovery && !s.inCWR {
		s.startCWR()
	}
	s.detectLoss(now)
	if !s.inRecovery && s.lostBytes > 0 {
		// An episode ended with segments above its RecoveryPoint still
		// marked lost: Linux re-enters recovery on the same ACK
		// (tcp_fastretrans_alert: tcp_time_to_recover is true while
		// lost_out > 0), so the controller never sees an Open state
		// in between and reduces once more for the new episode.
		s.startEpisode()
	}
	s.processTLPAck(p.Ack)
	if s.ack.ackedBytes > 0 || s.ack.lostBytes > 0 || p.ECE || s.ack.newEpisode {
		s.report(now, priorInflight, p.ECE)
	}
	if s.sndUna > priorUna {
		s.scheduleTLP(now) // RFC 8985 §7.2: restart PTO on a cumulative ACK
	} else if s.sackedSegs > 0 || s.lostBytes > 0 {
		s.tlpAt = sim.Never // only probe in the Open state (Linux)
	}
}

// report fills the reusable rate sample and hands it to the controller.
func (s *Sender) report(now time.Duration, priorInflight int, ece bool) {
	rs := &s.rs
	*rs = cc.RateSample{}
	rs.AckedBytes, rs.AckedPackets = s.ack.ackedBytes, s.ack.ackedPkts
	rs.LostBytes, rs.LostPackets = s.ack.lostBytes, s.ack.lostPkts
	rs.RTT = s.ack.caRTT
	rs.MinRTT, rs.SRTT = s.rtt.minRTT, s.rtt.srtt
	s.rate.generate(rs, s.rtt.minRTT)
	rs.Inflight, rs.PriorInflight = s.pipe(), priorInflight
	if ece {
		rs.ECEBytes = s.ack.ackedBytes
	}
	rs.NewLossEpisode = s.ack.newEpisode
	rs.InRecovery, rs.InCWR = s.inRecovery, s.inCWR
	s.ctrl.OnAck(now, rs)
	if s.marker != nil && s.marker.MarkAppLimited() {
		s.rate.markAppLimited(s.pipe())
	}
}

// processSacks marks newly SACKed segments (RFC 2018 §3, RFC 6675 §4
// Update()). Only the parts of each block not already in the scoreboard are
// walked, so a large block repeated on every ACK costs O(new segments).
func (s *Sender) processSacks(now time.Duration, p *packet.Packet) {
	blocks := p.Sacks()
	for k, b := range blocks {
		// A first block below the cumulative ACK or inside the second block
		// reports a duplicate segment (DSACK, RFC 2883 §4).
		if k == 0 && (b.End <= p.Ack || len(blocks) > 1 && b.Start >= blocks[1].Start && b.End <= blocks[1].End) {
			s.ack.dsack = true
			continue
		}
		b.Start = max(b.Start, s.sndUna, p.Ack)
		b.End = min(b.End, s.sndNxt)
		if b.Start >= b.End {
			continue
		}
		// Align to whole segments so the scoreboard is exactly the union
		// of SACKed segments.
		first := s.ring.find(b.Start)
		last := s.ring.find(b.End) // segments [first, last) start inside b
		if last > first && s.ring.at(last-1).end > b.End {
			last-- // partly covered: not SACKed
		}
		if last <= first {
			continue
		}
		aligned := packet.Block{Start: s.ring.at(first).start, End: s.ring.at(last - 1).end}
		s.scratch = s.sb.uncovered(aligned, s.scratch[:0])
		for _, piece := range s.scratch {
			for i := s.ring.find(piece.Start); i < s.ring.tail && s.ring.at(i).end <= piece.End; i++ {
				s.markSacked(now, i)
			}
		}
		s.sb.add(aligned)
	}
}

func (s *Sender) markSacked(now time.Duration, i int64) {
	sg := s.ring.at(i)
	n := sg.len()
	sg.sacked = true
	s.sackedBytes += n
	s.sackedSegs++
	s.clearLoss(sg)
	s.ring.tsRemove(i)
	s.checkReordering(sg)
	if sg.end > s.rack.highSacked {
		s.rack.highSacked = sg.end
	}
	rtt := s.delivered(now, sg)
	if rtt > 0 && s.ack.sackRTT == 0 {
		s.ack.sackRTT = rtt
	}
}

// clearLoss removes sg's lost and retransmitted state from the pipe
// accounting when it is (S)ACKed.
func (s *Sender) clearLoss(sg *seg) {
	n := sg.len()
	if sg.lost {
		s.lostBytes -= n
		if !sg.retransOut {
			s.lostPending--
		}
		sg.lost = false
	}
	if sg.retransOut {
		s.retransBytes -= n
		sg.retransOut = false
	}
}

// processCumAck removes the segments below ack (RFC 793 SND.UNA update;
// Linux tcp_clean_rtx_queue).
func (s *Sender) processCumAck(now time.Duration, ack uint64) {
	for s.ring.count() > 0 {
		i := s.ring.head
		sg := s.ring.at(i)
		if sg.end > ack {
			break
		}
		if sg.sacked {
			s.sackedBytes -= sg.len()
			s.sackedSegs--
		} else {
			s.clearLoss(sg)
			s.checkReordering(sg)
			rtt := s.delivered(now, sg)
			if rtt > 0 && s.ack.seqRTT == 0 {
				s.ack.seqRTT = rtt
			}
		}
		s.ring.tsRemove(i)
		s.ring.popHead()
	}
	if s.ring.count() > 0 {
		s.sndUna = s.ring.at(s.ring.head).start
	} else {
		s.sndUna = s.sndNxt
	}
	s.sb.removeBelow(s.sndUna)
}

// delivered accounts a newly (S)ACKed segment for the rate sample, RACK and
// RTT; it returns the segment's RTT, or 0 when Karn's rule forbids a sample.
func (s *Sender) delivered(now time.Duration, sg *seg) time.Duration {
	s.ack.ackedBytes += sg.len()
	s.ack.ackedPkts++
	s.rate.onDelivered(now, sg)
	s.rackAdvance(now, sg)
	if sg.everRetrans {
		return 0
	}
	rtt := max(now-sg.xmit, 1)
	if s.ack.caRTT == 0 || rtt < s.ack.caRTT {
		s.ack.caRTT = rtt
	}
	return rtt
}

// updateRTT feeds this ACK's samples to the estimators (Linux
// tcp_ack_update_rtt: the cumulative sample is preferred for SRTT, the
// newest for the min RTT; a valid sample resets the RTO backoff, RFC 6298
// §5.7).
func (s *Sender) updateRTT() {
	r := s.ack.seqRTT
	if r == 0 {
		r = s.ack.sackRTT
	}
	if r == 0 {
		return
	}
	s.rtt.sample(r)
	s.rtt.updateMin(s.ack.caRTT)
	s.rtt.backoff = 0
}
