package pcckernel

// Interval constants (PCC-Kernel master src/tcp_pcc.c, file scope).
const (
	// numIntervals: decision making runs two pairs of intervals, one at
	// r(1+ε) and one at r(1−ε) each (pcc_intervals).
	numIntervals = 4
	// ignoreSegs: the first and last five segments of an interval are not
	// accounted to it, as their results may belong to its neighbours
	// (pcc_ignore_packets).
	ignoreSegs = 5
	// minIntervalSegs: an interval holds at least 40 segments, ignored
	// ones included, enough to see 5 % loss (pcc_interval_min_segs).
	minIntervalSegs = 40
)

// interval is one experiment (the module's struct pcc_interval): a range
// of segments sent at one rate and the delivered and lost segments
// accounted to it.
type interval struct {
	rate      int64 // bytes/s
	start     int64 // data_segs_out when it began (at least 1); 0: not begun
	end       int64 // data_segs_out when it stopped sending; 0: still sending
	utility   int64
	lost      int64
	delivered int64
}

// setupIntervals plans the next round (pcc_setup_intervals): four probes
// in decision making, one interval at the central rate in slow start and
// rate adjustment (nothing in the loss state).
func (p *PCC) setupIntervals() {
	switch p.mode {
	case ModeDecision:
		p.setupProbes()
	case ModeSlowStart, ModeAdjust:
		p.iv[0].rate = p.rate
	}
	p.sendIdx, p.recvIdx, p.wait = 0, 0, false
}

// setupProbes lays out r(1+ε) and r(1−ε), truncated to whole bytes/s,
// each pair in random order (pcc_setup_decision_making_intervals: bit
// j of one random byte puts pair j's lower rate first).
func (p *PCC) setupProbes() {
	hi := p.rate * (epsilonPart + p.eps) / epsilonPart
	lo := p.rate * (epsilonPart - p.eps) / epsilonPart
	bits := p.rng.Uint32()
	for i := 0; i < numIntervals; i += 2 {
		if bits>>(i/2)&1 != 0 {
			p.iv[i].rate, p.iv[i+1].rate = lo, hi
		} else {
			p.iv[i].rate, p.iv[i+1].rate = hi, lo
		}
		p.iv[i].start, p.iv[i+1].start = 0, 0
	}
}

// startInterval is pcc_start_interval: begin sending the interval at
// sendIdx (or, waiting, hold the central rate) and set pacing and window.
func (p *PCC) startInterval() {
	rate := p.rate
	if !p.wait {
		iv := &p.iv[p.sendIdx]
		iv.end, iv.lost, iv.delivered = 0, 0, 0
		iv.start = max(p.segsOut, 1)
		rate = iv.rate
	}
	p.pacing = max(rate, minPacingRate)
	p.setCWnd()
}

// sendEnded is send_interval_ended: an interval stops sending once it
// holds minIntervalSegs segments (counting the ignored head as sent
// outside decision making) and the accounting has passed its first
// segment, about one RTT after it began.
func (p *PCC) sendEnded(iv *interval) bool {
	segs := p.segsOut - iv.start
	if p.mode != ModeDecision {
		segs += ignoreSegs
	}
	if segs < minIntervalSegs || p.counted <= iv.start {
		return false
	}
	iv.end = p.segsOut
	return true
}

// startNextSend is start_next_send_interval: after the last planned
// interval (the fourth, or the only one outside decision making) the
// sender waits at the central rate for the results.
func (p *PCC) startNextSend() {
	p.sendIdx++
	if p.sendIdx == numIntervals || p.mode != ModeDecision {
		p.wait = true
	}
	p.startInterval()
}

// processSample is the module's per-ACK cong_control hook
// (pcc_process_sample): set the window, end the interval being sent when
// its time has come, account the ACK's deliveries and losses to the
// interval receiving results (past its first ignoreSegs segments), and
// decide once that interval's results are in (all four in decision
// making).
func (p *PCC) processSample() {
	p.process()
	p.lostBase, p.deliveredBase = p.lost, p.delivered
}

func (p *PCC) process() {
	p.setCWnd()
	if p.mode == ModeLoss {
		return
	}
	if !p.wait && p.sendEnded(&p.iv[p.sendIdx]) {
		p.startNextSend()
	}
	iv := &p.iv[p.recvIdx]
	before := p.counted
	p.counted = p.delivered + p.lost - p.doubleCounted
	if iv.start == 0 {
		return
	}
	if before > ignoreSegs+iv.start {
		iv.lost += p.lost - p.lostBase
		iv.delivered += p.delivered - p.deliveredBase
	}
	if iv.end == 0 || iv.end-ignoreSegs >= p.counted {
		return
	}
	p.recvIdx++
	switch p.mode {
	case ModeSlowStart:
		p.decideSlowStart()
	case ModeAdjust:
		p.decideAdjust()
	case ModeDecision:
		if p.recvIdx < numIntervals {
			return
		}
		p.decide()
	}
	p.setupIntervals()
	p.startInterval()
}
