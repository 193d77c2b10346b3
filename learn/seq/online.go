package seq

import (
	"slices"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/learn"
)

// Online-step constants.
const (
	// StepInterval is one step of the sequence: the pool's rows are
	// iperf3's 1 s reporting intervals (scenario.DefaultInterval), so a
	// policy that acts on another grid would see other features.
	StepInterval = time.Second
	// rateSteps and rttSteps are learn.RowInputs' filter windows
	// (RateWindow 5 s, MinRTTWindow 10 s) in steps.
	rateSteps = int(learn.RateWindow / StepInterval)
	rttSteps  = int(learn.MinRTTWindow / StepInterval)
	// maxGapSteps bounds the steps closed at once after a silence (an
	// outage, an RTO): beyond a window's worth they only pad the window.
	maxGapSteps = maxWindow + 1
)

// Online is the sequence policy of one flow: a bbr.GainPolicy and an
// lmbbr.Observer. From the flow's sends and ACKs it builds 1 s steps as
// the pool builds rows from iperf3 intervals (throughput, retransmits,
// cwnd, smoothed RTT and its variance, the online filters of
// learn.RowInputs), encodes each once when it closes, and keeps the last
// W−1 in a ring with the action it took. A decision encodes the current
// step (the last closed step's measurements with BBR's online b_norm,
// RTT excess and loss, and the phase asked about), runs the plain-Go pass
// over the window conditioned on the model's target return (as Evaluate
// does offline) and answers the most probable feasible gain; a second
// decision in the same second reuses the first's keys and values and
// runs only the current step's state token. Nothing on these paths
// allocates.
type Online struct {
	fw       *Forward
	downlink bool

	// ring of the last W−1 closed steps: encodings [W−1, d] and actions
	ring    []float32
	ringAct []int32
	n, head int // steps in the ring; index of the oldest
	// fresh: the ring changed since the last full pass, whose keys and
	// values a decision otherwise reuses (Forward.LogitsLast)
	fresh bool

	// recent steps' throughput (bits/s) and RTT for the online filters
	rates [rateSteps]float64
	rtts  [rttSteps]time.Duration
	hist  int // steps closed so far

	// the open interval
	started        bool
	start          time.Duration
	bytes, retrans int64
	cwnd           int
	srtt, rttvar   time.Duration
	phase          learn.Phase
	act            int32
	last           learn.Sample // the last closed step's measurements
	haveLast       bool
	win            Window
	pad            []float32 // the encoding of a padding step (zero features)
	logits         [NumActions]float32
	cruise         int32
}

var (
	_ bbr.GainPolicy = (*Online)(nil)
	_ lmbbr.Observer = (*Online)(nil)
)

// NewOnline makes the policy of one flow (downlink: its stream flag).
func NewOnline(f *Forward, downlink bool) *Online {
	d, w := f.cfg.Width, f.cfg.Window
	o := &Online{fw: f, downlink: downlink, ring: make([]float32, (w-1)*d), ringAct: make([]int32, max(w-1, 1)),
		pad: make([]float32, d), act: -1, phase: learn.Cruise, fresh: true}
	o.win = Window{States: make([]float32, w*d), Return: make([]float32, w), Action: make([]int32, w)}
	var zero Features
	f.EncodeState(o.pad, &zero)
	o.cruise = int32(slices.Index(learn.Actions[:], 1.0))
	return o
}

// ObserveSend counts retransmissions (iperf3's retransmits).
func (o *Online) ObserveSend(now time.Duration, s cc.SentInfo) {
	o.advance(now)
	if s.Retrans {
		o.retrans++
	}
}

// ObserveAck accumulates the interval's delivered bytes, the last cwnd
// and smoothed RTT, and the RTT variation (RFC 6298 §2.3: rttvar ←
// 3/4·rttvar + 1/4·|srtt − rtt|).
func (o *Online) ObserveAck(now time.Duration, rs *cc.RateSample, cwnd int) {
	o.advance(now)
	o.bytes += int64(rs.AckedBytes)
	o.cwnd = cwnd
	if rs.SRTT > 0 {
		o.srtt = rs.SRTT
	}
	if rs.RTT > 0 && o.srtt > 0 {
		dev := o.srtt - rs.RTT
		if dev < 0 {
			dev = -dev
		}
		o.rttvar = (3*o.rttvar + dev) / 4
	}
}

// advance closes the intervals that ended by now.
func (o *Online) advance(now time.Duration) {
	if !o.started {
		o.started, o.start = true, now
		return
	}
	for k := 0; now >= o.start+StepInterval; k++ {
		if k == maxGapSteps {
			o.start += (now - o.start) / StepInterval * StepInterval
			break
		}
		o.closeStep()
		o.start += StepInterval
	}
}

// closeStep turns the open interval into a step: its measurements, the
// filters of learn.RowInputs over the recent steps, its features, their
// encoding into the ring, and the action it took (the last decision's
// gain, 1.0 when none: CRUISE).
func (o *Online) closeStep() {
	s := learn.Sample{T: o.start + StepInterval, Throughput: float64(o.bytes) * 8 / StepInterval.Seconds(),
		Retransmits: o.retrans, CWnd: o.cwnd, RTT: o.srtt, RTTVar: o.rttvar}
	o.rates[o.hist%rateSteps] = s.Throughput
	o.rtts[o.hist%rttSteps] = s.RTT
	o.hist++
	in := lmbbr.Inputs{Rate: s.Throughput, RTT: s.RTT}
	for i := range min(o.hist, rateSteps) {
		in.MaxRate = max(in.MaxRate, o.rates[i])
	}
	for i := range min(o.hist, rttSteps) {
		if r := o.rtts[i]; r > 0 && (in.MinRTT == 0 || r < in.MinRTT) {
			in.MinRTT = r
		}
	}
	sent := float64(o.bytes)
	lost := float64(o.retrans) * learn.SegmentBytes
	if sent+lost > 0 {
		in.LossRate = lost / (sent + lost)
	}
	act := o.act
	if act < 0 {
		act = o.cruise
	}
	if w := o.fw.cfg.Window; w > 1 {
		d := o.fw.cfg.Width
		slot := (o.head + o.n) % (w - 1)
		if o.n == w-1 {
			slot, o.head = o.head, (o.head+1)%(w-1)
		} else {
			o.n++
		}
		x := RowFeatures(o.row(s, o.phase), in)
		o.fw.EncodeState(o.ring[slot*d:(slot+1)*d], &x)
		o.ringAct[slot] = act
	}
	o.last, o.haveLast, o.fresh = s, true, true
	o.bytes, o.retrans, o.phase, o.act = 0, 0, learn.Cruise, -1
}

// row is a pool row of measurements s in phase ph on this flow's stream.
func (o *Online) row(s learn.Sample, ph learn.Phase) learn.Row {
	r := learn.Row{Sample: s, Phase: ph}
	if o.downlink {
		r.Source.Stream = "downlink"
	}
	return r
}

// Gain implements bbr.GainPolicy.
func (o *Online) Gain(st bbr.GainState) float64 {
	o.advance(st.Now)
	ph := learn.Up
	if st.Phase == bbr.GainDown {
		ph = learn.Down
	}
	s := o.last
	if !o.haveLast { // the first second: what the open interval shows so far
		el := max(st.Now-o.start, time.Millisecond)
		s = learn.Sample{Throughput: float64(o.bytes) * 8 / el.Seconds(), Retransmits: o.retrans, CWnd: o.cwnd,
			RTT: o.srtt, RTTVar: o.rttvar}
	}
	s.T = st.Now
	x := RowFeatures(o.row(s, ph), lmbbr.OnlineInputs(st))
	k := o.decide(&x, ph)
	o.phase, o.act = ph, int32(k)
	return learn.Actions[k]
}

// decide runs the pass over the ring and the current step x in phase ph
// and returns the most probable feasible action.
func (o *Online) decide(x *Features, ph learn.Phase) int {
	f := o.fw
	d, w := f.cfg.Width, f.cfg.Window
	if !o.fresh { // same window but for the current step: one token's pass
		f.EncodeState(o.win.States[(w-1)*d:], x)
		o.win.Phase = ph
		f.LogitsLast(o.logits[:], &o.win)
		return o.best(ph)
	}
	o.fresh = false
	pads := w - 1 - o.n
	for k := range w - 1 {
		dst := o.win.States[k*d : (k+1)*d]
		if k < pads {
			copy(dst, o.pad)
			o.win.Return[k], o.win.Action[k] = 0, int32(NoAction)
			continue
		}
		slot := (o.head + k - pads) % (w - 1)
		copy(dst, o.ring[slot*d:(slot+1)*d])
		o.win.Return[k], o.win.Action[k] = f.target, o.ringAct[slot]
	}
	f.EncodeState(o.win.States[(w-1)*d:], x)
	o.win.Return[w-1], o.win.Action[w-1], o.win.Phase = f.target, int32(NoAction), ph
	f.Logits(o.logits[:], &o.win)
	return o.best(ph)
}

// best is the most probable feasible action of the last pass.
func (o *Online) best(ph learn.Phase) int {
	f := o.fw
	best := -1
	for k := range learn.Actions {
		if f.mask[ph][k] == 0 && (best < 0 || o.logits[k] > o.logits[best]) { // feasible (eq. 15)
			best = k
		}
	}
	return best
}
