package netsim

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/result"
)

// Run simulates spec and returns its result. The same spec always gives the
// same result (WallS aside).
func Run(spec Spec) (*result.Result, error) {
	return RunProgress(spec, nil)
}

// Progress receives the simulated time after each interval.
type Progress func(simulated, total time.Duration)

// RunProgress is Run with a progress callback (nil for none).
func RunProgress(spec Spec, progress Progress) (*result.Result, error) {
	if err := spec.Validate(); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", spec.Name, err)
	}
	n, err := newNet(&spec)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", spec.Name, err)
	}
	n.loop.Schedule(spec.Interval, n, arg(evInterval, 0))
	for t := spec.Interval; ; t += spec.Interval {
		end := min(t, spec.Duration)
		n.loop.RunUntil(end)
		if progress != nil {
			progress(end, spec.Duration)
		}
		if end >= spec.Duration {
			break
		}
	}
	if n.loop.Now() > n.lastSample() {
		n.sample(n.loop.Now()) // a final partial interval
	}
	res := n.result()
	res.Instrument = map[string]float64{
		"events":            float64(n.loop.Fired()),
		"packets_delivered": float64(n.packetsDelivered()),
		"packets_allocated": float64(n.pool.Allocated),
	}
	return res, nil
}

func (n *net) lastSample() time.Duration {
	s := n.hops[0].samples
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].t
}

// packetsDelivered counts the packets every hop released (a packet that
// crosses three hops counts three times).
func (n *net) packetsDelivered() int64 {
	var sum int64
	for _, h := range n.hops {
		sum += h.packets
	}
	return sum
}

// sample records one interval of every flow and link.
func (n *net) sample(now time.Duration) {
	if now > n.lastSample() {
		for _, f := range n.flows {
			f.sample(now)
		}
		for _, h := range n.hops {
			h.sample(now)
		}
	}
	if next := now + n.spec.Interval; next <= n.spec.Duration {
		n.loop.Schedule(next, n, arg(evInterval, 0))
	}
}

func (f *flow) sample(now time.Duration) {
	s := flowSample{t: now}
	if f.snd != nil {
		st := f.snd.Stats()
		s.bytes = st.BytesAcked - f.lastBytes
		s.retrans = st.Retransmits - f.lastRetrans
		f.lastBytes, f.lastRetrans = st.BytesAcked, st.Retransmits
		s.cwnd = st.CWnd
		s.srtt, s.rttvar = st.SRTT, st.RTTVar
		s.pacingRate = st.PacingRate * 8
		if f.started {
			s.cc = f.ctrl.inspect()
		}
	} else {
		recvBytes := f.cbrRecv * int64(f.spec.PacketSize)
		s.bytes = recvBytes - f.lastBytes
		f.lastBytes = recvBytes
		if n := f.owd.n - f.lastOWDN; n > 0 {
			s.owd = time.Duration((f.owd.sum - f.lastOWDSum) / float64(n) * float64(time.Second))
		}
		f.lastOWDN, f.lastOWDSum = f.owd.n, f.owd.sum
		s.lost = f.dropped - f.lastDropped
		f.lastDropped = f.dropped
	}
	f.samples = append(f.samples, s)
}

func (l *linkState) sample(now time.Duration) {
	s := linkSample{t: now, delivered: l.delivered - l.lastDeliv}
	l.lastDeliv = l.delivered
	for c := range l.drops {
		s.drops[c] = l.drops[c] - l.lastDrops[c]
	}
	l.lastDrops = l.drops
	if o, ok := l.stage.(link.Observable); ok {
		s.snap = o.Snapshot(now)
	}
	l.samples = append(l.samples, s)
}
