package satcp

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/reno"
)

// OnRTO: inside a warned window CUBIC never sees the RTO, so its state,
// cwnd and ssthresh are kept; with keep_cwnd = 0 the loss window applies
// to the regrowth here. Outside, CUBIC handles the RTO as always.
func (s *SaTCP) OnRTO(now time.Duration) {
	s.rtos++
	if s.flag = s.warned(now); !s.flag {
		s.active = false
		s.inner.OnRTO(now)
		return
	}
	s.skipped++
	if s.keep {
		return // the transport retransmits within the kept window
	}
	if !s.active {
		s.active = true
		s.cwnd = s.inner.CWnd()
		s.wMax = s.inner.Inspect()["w_max_bytes"] / float64(s.mss) // RTOs are rare: Inspect's map is affordable
		s.ep, s.use, s.epochSet = reno.Episodes{}, reno.Usage{}, false
	}
	if s.ep.OnRTO() {
		s.reduce()
	}
	s.cwnd = lossWindowSegs * s.mss
	s.ai.Reset()
}

// reduce ends the epoch and sets W_max (lowered by fast convergence when
// the window shrank since the last reduction, RFC 9438 §4.7) and ssthresh
// = β·cwnd (bictcp_recalc_ssthresh, which tcp_enter_loss calls before
// SaTCP's bictcp_state skips the reset).
func (s *SaTCP) reduce() {
	s.epochSet = false
	if w := float64(s.cwnd) / float64(s.mss); w < s.wMax && s.fc {
		s.wMax = w * (1 + beta) / 2
	} else {
		s.wMax = w
	}
	s.ssthresh = max(int(float64(s.cwnd)*beta), cc.MinCWnd(s.mss))
	s.ai.Reset()
}

// grow is slow start to ssthresh, then the cubic curve toward W_max whose
// K shrinks to K/9 when the epoch starts in a warned window.
func (s *SaTCP) grow(now time.Duration, acked int) {
	if s.cwnd < s.ssthresh {
		if s.cwnd, acked = reno.SlowStart(s.cwnd, s.ssthresh, acked); acked == 0 {
			return
		}
	}
	w := float64(s.cwnd) / float64(s.mss)
	if !s.epochSet {
		s.epoch, s.epochSet = now, true
		s.origin = max(s.wMax, w)
		s.k = math.Cbrt(max(s.wMax-w, 0) / cubicC)
		if s.warned(now) {
			s.k *= kScale
		}
	}
	t := (now - s.epoch + s.minRTT).Seconds() // the target one RTT ahead, as Linux
	target := s.origin + cubicC*math.Pow(t-s.k, 3)
	cnt := smallIncCnt * w
	if target > w {
		cnt = max(w/(target-w), minCnt)
	}
	s.cwnd = s.ai.Grow(s.cwnd, int(cnt*float64(s.mss)), acked, s.mss)
}

// CWnd is CUBIC's window, or the regrowing one while it is below it.
func (s *SaTCP) CWnd() int {
	if s.active {
		return min(s.cwnd, s.inner.CWnd())
	}
	return s.inner.CWnd()
}

// PacingRate is 0: SaTCP, like CUBIC, is unpaced.
func (s *SaTCP) PacingRate() float64 { return 0 }

// Inspect reports CUBIC's keys (cwnd_bytes is SaTCP's window) plus warned
// (the handover flag at the last ACK or RTO, 0/1), regrowing (0/1), regrow_cwnd_bytes, regrow_k_s, rtos and
// rto_resets_skipped (RTOs inside warned windows).
func (s *SaTCP) Inspect() map[string]float64 {
	m := s.inner.Inspect()
	m["cwnd_bytes"] = float64(s.CWnd())
	m["warned"] = cc.Flag(s.flag)
	m["regrowing"] = cc.Flag(s.active)
	m["regrow_cwnd_bytes"] = float64(s.cwnd)
	m["regrow_k_s"] = s.k
	m["rtos"] = float64(s.rtos)
	m["rto_resets_skipped"] = float64(s.skipped)
	return m
}
