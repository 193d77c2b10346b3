package counterfactual

import (
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
)

// Counters are a flow's running totals as its controller sees them, with
// BBR's model at the moment they were read. Two snapshots of one run
// differ only by what happened between them; two runs that agree on every
// field at a point in time behaved identically to that point.
type Counters struct {
	T           time.Duration // the ACK's time
	Acks        int64         // ACKs processed
	SentBytes   int64         // payload bytes sent, retransmissions included
	RetransSegs int64         // segments retransmitted
	Delivered   int64         // bytes newly acknowledged (cumulative + SACK)
	Lost        int64         // bytes marked lost
	RTTSum      time.Duration // sum of the RTT samples
	RTTCount    int64         // RTT samples (Karn: none from retransmissions)
	// BBR's state on the ACK (bbr.GainState).
	MaxBw, BwEst float64
	MinRTT, SRTT time.Duration
	Inflight     int
}

// Window is what happened between two snapshots of a run.
type Window struct {
	Start, End Counters
	// Truncated says the cycle did not end before the replay's horizon
	// or the run's end: End is the last ACK's snapshot.
	Truncated bool
}

// Duration of the window.
func (w Window) Duration() time.Duration { return w.End.T - w.Start.T }

// Delivered bytes in the window.
func (w Window) Delivered() int64 { return w.End.Delivered - w.Start.Delivered }

// Retransmits in the window, segments.
func (w Window) Retransmits() int64 { return w.End.RetransSegs - w.Start.RetransSegs }

// MeanRTT over the window's RTT samples, 0 when there were none.
func (w Window) MeanRTT() time.Duration {
	n := w.End.RTTCount - w.Start.RTTCount
	if n <= 0 {
		return 0
	}
	return (w.End.RTTSum - w.Start.RTTSum) / time.Duration(n)
}

// Entry is one ProbeBW UP or DOWN entry: the Visit-th visit (from 0) of
// Phase, and the counters on the entering ACK.
type Entry struct {
	Phase bbr.GainPhase
	Visit int
	At    Counters
}

// Override holds Gain for the whole of the Visit-th visit of Phase; the
// zero Phase overrides nothing (stock BBRv3 throughout).
type Override struct {
	Phase bbr.GainPhase
	Visit int
	Gain  float64
}

// probe wraps BBRv3 built with itself as the gain policy: it counts the
// flow's sends and ACKs, records every UP and DOWN entry, answers the
// stock gain (GainState.Default) except during the override's visit, and
// cuts the window from the override's entry to the next UP entry.
type probe struct {
	cc.Controller
	ov       Override
	c        Counters
	visits   [3]int // by bbr.GainPhase
	inTarget bool
	entries  []Entry
	win      Window
	started  bool
	ended    bool
	interval time.Duration // the run's sampling interval, set after it
}

var (
	_ bbr.GainPolicy = (*probe)(nil)
	_ cc.Wrapper     = (*probe)(nil)
)

// entriesCap is the entry log's first capacity: a minute of ProbeBW
// (2–3 s cycles, an UP and a DOWN entry each) in one allocation; longer
// runs grow it by doubling.
const entriesCap = 64

// newProbe builds BBRv3 (bbr3 with cfg) under the probe.
func newProbe(cfg cc.Config, ov Override) (*probe, error) {
	p := &probe{ov: ov, entries: make([]Entry, 0, entriesCap)}
	inner, err := bbr.NewV3WithPolicy(cfg, p)
	if err != nil {
		return nil, err
	}
	p.Controller = inner
	return p, nil
}

func (p *probe) OnSend(now time.Duration, s cc.SentInfo) {
	p.c.SentBytes += int64(s.Bytes)
	if s.Retrans {
		p.c.RetransSegs++
	}
	p.Controller.OnSend(now, s)
}

func (p *probe) OnAck(now time.Duration, rs *cc.RateSample) {
	p.c.T = now
	p.c.Acks++
	p.c.Delivered += int64(rs.AckedBytes)
	p.c.Lost += int64(rs.LostBytes)
	if rs.RTT > 0 {
		p.c.RTTSum += rs.RTT
		p.c.RTTCount++
	}
	p.Controller.OnAck(now, rs)
}

// Gain implements bbr.GainPolicy; BBR calls it from OnAck, after the
// counters took this ACK.
func (p *probe) Gain(s bbr.GainState) float64 {
	p.c.MaxBw, p.c.BwEst, p.c.MinRTT, p.c.SRTT, p.c.Inflight = s.MaxBw, s.BwEst, s.MinRTT, s.SRTT, s.Inflight
	if s.Enter {
		v := p.visits[s.Phase]
		p.visits[s.Phase]++
		p.entries = append(p.entries, Entry{Phase: s.Phase, Visit: v, At: p.c})
		p.inTarget = s.Phase == p.ov.Phase && v == p.ov.Visit
		switch {
		case p.inTarget:
			p.win.Start, p.started = p.c, true
		case s.Phase == bbr.GainUp && p.started && !p.ended:
			p.win.End, p.ended = p.c, true
		}
	}
	if p.inTarget {
		return p.ov.Gain
	}
	return s.Default
}

// window returns the override's window once the run is over.
func (p *probe) window() (Window, bool) {
	if !p.started {
		return Window{}, false
	}
	w := p.win
	if !p.ended {
		w.End, w.Truncated = p.c, true
	}
	return w, true
}

// Unwrap gives BBR back (cc.Wrapper), so its app-limited marker is found
// as under the registered bbr3.
func (p *probe) Unwrap() cc.Controller { return p.Controller }

// Inspect reports BBR's keys, so a probed run's result is stock BBR's.
func (p *probe) Inspect() map[string]float64 {
	if in, ok := p.Controller.(cc.Inspector); ok {
		return in.Inspect()
	}
	return nil
}
