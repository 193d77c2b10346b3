package netsim

import (
	"strconv"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
	"github.com/leolab/leolab/transport"
)

// flow is one flow in a run: a transport sender/receiver pair driven by a
// congestion controller, or a constant-bit-rate probe source.
type flow struct {
	n    *net
	idx  int
	spec *FlowSpec

	started bool
	// route is what the flow's packets take now; moves are the routes it
	// switches to at its spec's Moves times, nextMove the next of them.
	route    flowRoute
	moves    []flowRoute
	nextMove int
	// groAt and groSegs count the segments of the GRO batch arriving at
	// groAt (Spec.GROSegments).
	groAt   time.Duration
	groSegs int
	// TCP
	snd  *transport.Sender
	rcv  *transport.Receiver
	ctrl *recorder
	// CBR
	cbrGap      time.Duration
	cbrSent     int64
	cbrRecv     int64
	cbrSeq      uint64
	owd         hist
	dropped     int64 // packets of this flow (data, probes or ACKs) dropped by a link
	lastArrival time.Duration
	records     []probeRecord // per-packet records when spec.Record

	// interval bookkeeping
	lastBytes   int64
	lastRetrans int64
	lastOWDN    int64
	lastOWDSum  float64
	lastDropped int64
	samples     []flowSample
}

type flowSample struct {
	t          time.Duration
	bytes      int64
	retrans    int64
	cwnd       int
	srtt       time.Duration
	rttvar     time.Duration
	pacingRate float64
	cc         map[string]float64
	owd        time.Duration // probes: mean one-way delay in the interval
	lost       int64         // probes: packets dropped in the interval
}

func newFlow(n *net, idx int, fs *FlowSpec) (*flow, error) {
	f := &flow{n: n, idx: idx, spec: fs}
	switch fs.Kind {
	case CBR:
		f.cbrGap = time.Duration(float64(fs.PacketSize) * 8 / fs.RateBps * float64(time.Second))
		if f.cbrGap <= 0 {
			f.cbrGap = 1
		}
	default:
		cfg := cc.Config{
			MSS:         packet.MSS,
			InitialCWnd: 10, // RFC 6928
			Rand:        sim.Stream(n.spec.Seed, "cc/"+strconv.Itoa(idx)),
			Params:      fs.Params,
			Files:       fs.Files,
			Schedule:    n.spec.Schedule,
		}
		build := func(cfg cc.Config) (cc.Controller, error) { return cc.New(fs.CCA, cfg) }
		if fs.Controller != nil {
			build = fs.Controller
		}
		ctrl, err := build(cfg)
		if err != nil {
			return nil, err
		}
		f.ctrl = &recorder{Controller: ctrl}
		f.snd = transport.NewSender(transport.SenderConfig{
			Flow:         packet.FlowID(idx),
			Bytes:        fs.Bytes,
			SndBuf:       fs.SndBuf,
			MaxRateBps:   fs.MaxRateBps,
			MaxRateBurst: fs.MaxRateBurst,
			InitialRwnd:  transport.InitialRwnd(packet.MSS), // the receiver below autotunes
			ECN:          n.spec.ECN,
		}, f.ctrl, &n.pool)
		f.rcv = transport.NewReceiver(transport.ReceiverConfig{Flow: packet.FlowID(idx), Rwnd: fs.Rwnd}, &n.pool)
	}
	n.loop.Schedule(fs.Start, n, arg(evStart, idx))
	return f, nil
}

func (f *flow) start(now time.Duration) {
	f.started = true
	if f.spec.Kind == CBR {
		f.sendCBR(now)
		return
	}
	f.pollSender(now)
}

func (f *flow) stopped(now time.Duration) bool {
	return f.spec.Stop > 0 && now >= f.spec.Stop
}

func (f *flow) pollSender(now time.Duration) {
	if f.stopped(now) {
		return
	}
	for p := f.snd.Next(now); p != nil; p = f.snd.Next(now) {
		f.n.send(now, p, f.route.data)
	}
	f.n.ensure(evSender, f.idx, f.snd.NextWake())
}

func (f *flow) pollReceiver(now time.Duration) {
	for a := f.rcv.Next(now); a != nil; a = f.rcv.Next(now) {
		f.n.send(now, a, f.route.ack)
	}
	f.n.ensure(evReceiver, f.idx, f.rcv.NextWake())
}

// arrive delivers a forward-link packet to this flow's receiving end.
func (f *flow) arrive(now time.Duration, p *packet.Packet) {
	if p.Kind == packet.Probe {
		f.cbrRecv++
		f.lastArrival = now
		if f.records != nil {
			f.records[p.Seq].arrival = now
		}
		f.owd.add(now - p.SentAt)
		return
	}
	f.rcv.OnData(now, p)
	if g := f.n.spec.GROSegments; g > 0 {
		// The receiver event at now runs after this instant's other
		// deliveries (the hop's Dequeue loop), so they share one ACK,
		// unless the batch already holds a full GRO skb.
		if f.groAt != now {
			f.groAt, f.groSegs = now, 0
		}
		if f.groSegs++; f.groSegs < g {
			f.n.ensure(evReceiver, f.idx, now)
			return
		}
		f.groSegs = 0
	}
	f.pollReceiver(now)
}

// ack delivers a reverse-link ACK to this flow's sender.
func (f *flow) ack(now time.Duration, p *packet.Packet) {
	if t := f.n.spec.Tap; t != nil {
		t.Packet(now, SenderIn, p)
	}
	f.snd.OnAck(now, p)
	f.pollSender(now)
}

func (f *flow) sendCBR(now time.Duration) {
	if f.stopped(now) {
		return
	}
	p := f.n.pool.Get()
	p.Flow = packet.FlowID(f.idx)
	p.Kind = packet.Probe
	p.Size = f.spec.PacketSize
	p.Seq = f.cbrSeq
	p.SentAt = now
	f.cbrSeq++
	if f.spec.Record {
		f.records = append(f.records, probeRecord{sent: now})
	}
	f.cbrSent++
	f.n.send(now, p, f.route.data)
	f.n.ensure(evCBR, f.idx, now+f.cbrGap)
}

// recorder wraps a controller to record every RTT sample the transport
// hands it (for min/mean/p95 RTT) without the transport knowing.
type recorder struct {
	cc.Controller
	rtt hist
}

func (r *recorder) OnAck(now time.Duration, rs *cc.RateSample) {
	if rs.RTT > 0 {
		r.rtt.add(rs.RTT)
	}
	r.Controller.OnAck(now, rs)
}

// Unwrap gives the recorded controller back (cc.Wrapper).
func (r *recorder) Unwrap() cc.Controller { return r.Controller }

func (r *recorder) inspect() map[string]float64 {
	if in, ok := r.Controller.(cc.Inspector); ok {
		return in.Inspect()
	}
	return nil
}

// probeRecord is one recorded probe packet: arrival -1 means lost, 0 in flight.
type probeRecord struct {
	sent, arrival time.Duration
}
