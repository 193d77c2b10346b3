package transport

import (
	"time"

	"github.com/leolab/leolab/sim"
)

// rackState is RFC 8985 §6.1's per-connection RACK state.
type rackState struct {
	xmit       time.Duration // RACK.xmit_ts: send time of the newest delivered segment
	end        uint64        // RACK.end_seq
	rtt        time.Duration // RACK.rtt: RTT of the latest delivered segment
	advanced   bool          // xmit/end moved since the last loss detection (Linux rack.advanced)
	reordSeen  bool          // RACK.reordering_seen (RFC 8985 §6.2 step 3)
	highSacked uint64        // highest SACKed end sequence (FACK point)
}

// rackAdvance is RFC 8985 §6.2 step 2 (Linux tcp_rack_advance) for one newly
// delivered segment.
func (s *Sender) rackAdvance(now time.Duration, sg *seg) {
	rtt := now - sg.xmit
	// An ACK arriving sooner than min RTT after a retransmission most
	// likely acknowledges the original: ambiguous, ignore it.
	if sg.everRetrans && rtt < s.rtt.minRTT {
		return
	}
	s.rack.advanced = true
	s.rack.rtt = rtt
	if sentAfter(sg.xmit, sg.end, s.rack.xmit, s.rack.end) {
		s.rack.xmit, s.rack.end = sg.xmit, sg.end
	}
}

// checkReordering is RFC 8985 §6.2 step 3: a never-retransmitted segment
// delivered below the highest sequence SACKed before this ACK arrived out of
// order. The FACK point is taken before the ACK's own SACK blocks (Linux
// tcp_ack passes prior_fack to tcp_clean_rtx_queue): an ACK that
// cumulatively covers a segment held back by a delayed ACK and SACKs one
// above a fresh hole is in-order delivery, not reordering. Judging it
// against the new FACK point would set reordering_seen at every burst loss
// and keep RACK's reordering window open through recovery.
func (s *Sender) checkReordering(sg *seg) {
	if !sg.everRetrans && sg.start < s.ack.priorFack {
		s.rack.reordSeen = true
	}
}

// reoWnd is RFC 8985 §6.2 step 4 as Linux implements it
// (tcp_recovery.c tcp_rack_reo_wnd): zero while no reordering has been seen
// and either recovery is under way or DupThresh segments are SACKed (the
// dup-threshold rule folded into RACK); else min_rtt/4, capped at SRTT.
func (s *Sender) reoWnd() time.Duration {
	if !s.rack.reordSeen && (s.inRecovery || s.sackedSegs >= s.cfg.DupThresh) {
		return 0
	}
	return min(s.rtt.minRTT/4, s.rtt.srtt)
}

// detectLoss runs the configured loss detection after an ACK.
func (s *Sender) detectLoss(now time.Duration) {
	if s.cfg.NoRACK {
		s.dupThreshMark()
		return
	}
	if !s.rack.advanced { // Linux tcp_rack_mark_lost
		return
	}
	s.rack.advanced = false
	s.rackDetect(now)
}

// rackDetect is RFC 8985 §6.2 step 5 (Linux tcp_rack_detect_loss): every
// segment sent before the newest delivered one and outstanding for longer
// than RACK.rtt + reo_wnd is lost; the others arm the reorder timer.
func (s *Sender) rackDetect(now time.Duration) {
	reo := s.reoWnd()
	var timeout time.Duration
	for i := s.ring.tsHead; i >= 0; {
		sg := s.ring.at(i)
		next := sg.next
		if !sentAfter(s.rack.xmit, s.rack.end, sg.xmit, sg.end) {
			break // time-ordered: the rest were sent later
		}
		if remaining := sg.xmit + s.rack.rtt + reo - now; remaining <= 0 {
			s.markLost(i)
		} else {
			timeout = max(timeout, remaining)
		}
		i = next
	}
	if timeout > 0 {
		s.reoAt = now + timeout // RFC 8985 §6.3 RACK reordering timer
	} else {
		s.reoAt = sim.Never
	}
}

// dupThreshMark is RFC 6675 §4 IsLost with DupThresh segments, used when RACK
// is off: every unSACKed segment with at least DupThresh SACKed segments
// above it is lost. O(outstanding) per ACK: a fallback, not the default.
func (s *Sender) dupThreshMark() {
	above := s.sackedSegs
	for i := s.ring.head; i < s.ring.tail && above >= s.cfg.DupThresh; i++ {
		sg := s.ring.at(i)
		if sg.sacked {
			above--
			continue
		}
		if !sg.lost {
			s.markLost(i)
		}
	}
}

// markLost marks segment i lost (Linux tcp_mark_skb_lost): it leaves the
// pipe, queues for retransmission and, outside recovery, starts a loss
// episode (RFC 6675 §5: RecoveryPoint = HighData).
func (s *Sender) markLost(i int64) {
	sg := s.ring.at(i)
	n := sg.len()
	switch {
	case !sg.lost:
		sg.lost = true
		s.lostBytes += n
		if sg.retransOut { // a probe retransmission of a not-yet-lost segment
			sg.retransOut = false
			s.retransBytes -= n
		}
	case sg.retransOut: // its retransmission is lost too
		sg.retransOut = false
		s.retransBytes -= n
	default:
		return // already lost and awaiting retransmission
	}
	s.lostPending++
	s.rate.lost += int64(n)
	s.ack.lostBytes += n
	s.ack.lostPkts++
	s.ring.tsRemove(i)
	s.rtxCursor = min(s.rtxCursor, i)
	if !s.inRecovery {
		s.startEpisode()
	}
}

// startCWR reacts to an ECN-Echo (RFC 3168 §6.1.2, Linux tcp_enter_cwr):
// the controller reduces once, as it does for a loss episode, and the
// window is held until the data sent so far is acknowledged; nothing is
// retransmitted, and the next new segment carries CWR.
func (s *Sender) startCWR() {
	s.inCWR, s.sendCWR = true, true
	s.cwrPoint = s.sndNxt
	s.ack.newEpisode = true
}

// startEpisode begins a loss-recovery episode (Linux tcp_enter_recovery):
// RecoveryPoint = HighData (RFC 6675 §5), the controller reduces once, and
// tail-loss probes stop (Linux probes only in the Open state).
func (s *Sender) startEpisode() {
	s.inRecovery = true
	s.recoveryPoint = s.sndNxt
	// From CWR the window was already reduced for this window of data:
	// Linux tcp_enter_recovery keeps ssthresh while tcp_in_cwnd_reduction.
	if !s.inCWR {
		s.ack.newEpisode = true
	}
	s.inCWR = false
	s.tlpAt = sim.Never
}
