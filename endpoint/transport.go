package endpoint

import (
	"context"
	"fmt"
	"maps"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/sim"
	"github.com/leolab/leolab/transport"
)

// Real-time driver of leolab's transport over UDP.
const (
	// DefaultTransportSpin is how long before a wake-up (pacing release or
	// timer) the driver stops sleeping and spins. ppoll wake-ups on a busy
	// host are 10–100 µs late; the pacer forgives up to half a gap of
	// lateness (transport.Sender.pace, as Linux tcp_update_skb_after_send),
	// so a short spin keeps pacing up to a few hundred Mbit/s without
	// holding a core when the flow is slow.
	DefaultTransportSpin = 20 * time.Microsecond
	// maxIdle bounds one sleep, so a stop request is seen within it.
	maxIdle = 5 * time.Millisecond
	// initialCWndSegs is RFC 6928's initial window, as in netsim.
	initialCWndSegs = 10
	// txBatch bounds the datagrams of one sendmmsg(2): a 64 KiB TSO burst
	// (transport gsoMaxBytes) is 45 segments.
	txBatch = 64
	// wakeSpan is the linear range of the wake-lateness histogram.
	wakeSpan = 5 * time.Millisecond
)

// Transport is a bulk flow of leolab's own TCP-like transport (package
// transport, controller cc.New(CCA)) carried in UDP datagrams from
// namespace From to Addr in namespace To. Sender and receiver state
// machines are the simulator's; only their clock is real: monotonic time
// since the epoch passed to RunTransport.
type Transport struct {
	ID     int
	CCA    string             // any registered leolab controller
	Params map[string]float64 // controller knobs
	Files  map[string]string  // controller file parameters (cc.Config.Files)
	// Seed seeds the controller's random stream (as netsim: stream
	// "cc/<ID>").
	Seed uint64
	// Schedule, when the path reconfigures on a schedule, in times since
	// the epoch (LeoCC, SaTCP).
	Schedule cc.Schedule
	// Start and Duration of sending relative to the epoch; Interval of the
	// series (0: one second).
	Start, Duration, Interval time.Duration
	From, To                  string
	Addr                      netip.AddrPort
	Spin                      time.Duration // 0: DefaultTransportSpin
	// SndBuf caps the unacknowledged data (0: transport.DefaultSndBuf).
	SndBuf int
	// KeepOff lists CPUs the sender and receiver loops stay off: the
	// emulator's pump CPU (emu.Emulator.KeepOff).
	KeepOff []int
}

// TransportReport is a transport flow's outcome, with the driver's own
// instrument: how late it woke for pacing releases and timers, and the
// datagrams the local socket refused or the receiver could not parse.
type TransportReport struct {
	Flow     result.Flow
	Sender   transport.SenderStats
	Receiver transport.ReceiverStats
	RTT      *Hist // every RTT sample the transport gave the controller
	WakeLate *Hist
	// AckLate: how long each ACK waited in the sender's socket before it
	// was read (read time minus kernel receive timestamp).
	AckLate *Hist
	// LocalDrops counts datagrams the sender's or receiver's socket
	// refused (full buffer); BadDatagrams those that did not decode.
	LocalDrops, BadDatagrams int64
	// Realtime: the sender's thread ran SCHED_FIFO (transportPriority).
	Realtime bool
}

func (f *Transport) validate() error {
	if f.Interval <= 0 {
		f.Interval = time.Second
	}
	if f.Spin <= 0 {
		f.Spin = DefaultTransportSpin
	}
	if f.Duration <= 0 {
		return fmt.Errorf("transport flow %d: duration %v: must be > 0", f.ID, f.Duration)
	}
	return nil
}

// RunTransport runs the flow and blocks until it is done.
func RunTransport(ctx context.Context, epoch time.Time, f Transport) (*TransportReport, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	ctrl, err := cc.New(f.CCA, cc.Config{
		MSS:         packet.MSS,
		InitialCWnd: initialCWndSegs,
		Rand:        sim.Stream(f.Seed, "cc/"+strconv.Itoa(f.ID)),
		Params:      f.Params,
		Files:       f.Files,
		Schedule:    f.Schedule,
	})
	if err != nil {
		return nil, fmt.Errorf("transport flow %d: %w", f.ID, err)
	}
	sock, rsock, err := udpPair(f.From, f.To, f.Addr)
	if err != nil {
		return nil, fmt.Errorf("transport flow %d: %w", f.ID, err)
	}
	defer sock.close()
	defer rsock.close()
	rep := &TransportReport{RTT: NewHist(0), WakeLate: NewHist(wakeSpan), AckLate: NewHist(wakeSpan)}
	var stop, senderDone atomic.Bool
	cancel := context.AfterFunc(ctx, func() { stop.Store(true) })
	defer cancel()

	tx := newTxLoop(&f, epoch, sock, &rttRecorder{Controller: ctrl, h: rep.RTT}, rep)
	rx := newRxLoop(&f, epoch, rsock)
	rxDone := make(chan struct{})
	go func() {
		rx.run(&senderDone)
		close(rxDone)
	}()
	tx.run(&stop)
	senderDone.Store(true)
	<-rxDone
	rep.Sender, rep.Receiver = tx.snd.Stats(), rx.rcv.Stats()
	rep.LocalDrops += rx.localDrops
	rep.BadDatagrams += rx.badDatagrams
	rep.Flow = tx.flow()
	return rep, ctx.Err()
}

// rttRecorder passes everything to the controller and records the RTT
// samples the transport hands it.
type rttRecorder struct {
	cc.Controller
	h *Hist
}

func (r *rttRecorder) OnAck(now time.Duration, rs *cc.RateSample) {
	if rs.RTT > 0 {
		r.h.Add(rs.RTT)
	}
	r.Controller.OnAck(now, rs)
}

// Unwrap gives the recorded controller back (cc.Wrapper).
func (r *rttRecorder) Unwrap() cc.Controller { return r.Controller }

// inspect returns a copy of the controller's state, or nil.
func (r *rttRecorder) inspect() map[string]float64 {
	if in, ok := r.Controller.(cc.Inspector); ok {
		return maps.Clone(in.Inspect())
	}
	return nil
}

// flow summarises the sender's run in the result schema.
func (l *txLoop) flow() result.Flow {
	st := l.snd.Stats()
	f := result.Flow{
		ID:          l.f.ID,
		CCA:         l.f.CCA,
		StartS:      l.f.Start.Seconds(),
		EndS:        (l.f.Start + l.f.Duration).Seconds(),
		BytesAcked:  st.BytesAcked,
		Retransmits: st.Retransmits,
		RTOs:        st.RTOs,
		MinRTTMs:    ms(l.rep.RTT.Min()),
		MeanRTTMs:   ms(l.rep.RTT.Mean()),
		P95RTTMs:    ms(l.rep.RTT.Quantile(0.95)),
		Intervals:   l.intervals,
	}
	f.ThroughputMbps = float64(f.BytesAcked) * 8 / l.f.Duration.Seconds() / 1e6
	if f.BytesAcked > 0 {
		f.RetransPerGB = float64(f.Retransmits) / (float64(f.BytesAcked) / 1e9)
	}
	if f.MinRTTMs > 0 {
		f.RTTInflation = f.MeanRTTMs / f.MinRTTMs
	}
	return f
}
