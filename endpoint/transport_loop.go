package endpoint

import (
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/transport"
)

// clock is monotonic time since the epoch, with the sleep-then-spin wait
// both loops use.
type clock struct {
	epoch time.Time
	spin  time.Duration
}

func (c clock) now() time.Duration { return time.Since(c.epoch) }

// until waits until t, or until u is readable or maxIdle passes: ppoll
// on u until spin before t, then a spin.
func (c clock) until(u *rawUDP, t time.Duration) {
	d := t - c.now()
	if d <= 0 {
		return
	}
	if d > c.spin {
		if u.wait(min(d-c.spin, maxIdle)) || d-c.spin > maxIdle {
			return
		}
	}
	for c.now() < t {
	}
}

// txLoop drives a transport.Sender: ACKs in, data out, at pacing and timer
// times.
type txLoop struct {
	f    *Transport
	clk  clock
	sock *rawUDP
	pool packet.Pool
	ctrl *rttRecorder
	snd  *transport.Sender
	rep  *TransportReport
	in   []byte
	out  []byte
	ack  packet.Packet

	last       transport.SenderStats // at the previous interval boundary
	nextSample time.Duration
	intervals  []result.Interval
}

func newTxLoop(f *Transport, epoch time.Time, s *rawUDP, ctrl *rttRecorder, rep *TransportReport) *txLoop {
	l := &txLoop{
		f: f, clk: clock{epoch: epoch, spin: f.Spin}, sock: s, ctrl: ctrl, rep: rep,
		in: make([]byte, 1<<16), out: make([]byte, packet.MTU),
		nextSample: f.Start + f.Interval,
	}
	l.snd = transport.NewSender(transport.SenderConfig{Flow: packet.FlowID(f.ID)}, ctrl, &l.pool)
	return l
}

// run sends from Start to Start+Duration or until stop is set.
func (l *txLoop) run(stop *atomic.Bool) {
	restore, rt := lockFIFO()
	defer restore()
	l.rep.Realtime = rt
	end := l.f.Start + l.f.Duration
	for l.clk.now() < l.f.Start && !stop.Load() {
		l.clk.until(l.sock, min(l.f.Start, l.clk.now()+maxIdle))
	}
	for !stop.Load() {
		now := l.clk.now()
		if now >= end {
			break
		}
		l.readAcks()
		l.send()
		if now >= l.nextSample {
			l.sample(l.nextSample)
			l.nextSample += l.f.Interval
		}
		wake := min(l.snd.NextWake(), l.nextSample, end)
		l.clk.until(l.sock, wake)
		if late := l.clk.now() - wake; wake > now && late >= 0 {
			l.rep.WakeLate.Add(late)
		}
	}
	if t := min(l.clk.now(), end); t > l.nextSample-l.f.Interval {
		l.sample(t)
	}
}

// readAcks feeds every queued ACK to the sender, sending what each allows.
// The clock is read for every ACK and every packet: a burst of writes takes
// long enough (each one crosses the TUN) that a stale time would shorten
// the RTT samples of the ACKs read after it.
func (l *txLoop) readAcks() {
	for {
		n, ok := l.sock.recv(l.in)
		if !ok {
			return
		}
		l.ack = packet.Packet{}
		if decode(l.in[:n], &l.ack) != nil || l.ack.Kind != packet.Ack {
			l.rep.BadDatagrams++
			continue
		}
		l.snd.OnAck(l.clk.now(), &l.ack)
		l.send()
	}
}

// send writes every packet the sender releases now.
func (l *txLoop) send() {
	for p := l.snd.Next(l.clk.now()); p != nil; p = l.snd.Next(l.clk.now()) {
		if !l.sock.send(encode(l.out, p)) {
			l.rep.LocalDrops++
		}
		l.pool.Put(p)
	}
}

// sample closes the interval ending at t from the sender's counters.
func (l *txLoop) sample(t time.Duration) {
	st := l.snd.Stats()
	l.intervals = append(l.intervals, result.Interval{
		T:             t.Seconds(),
		Bytes:         st.BytesAcked - l.last.BytesAcked,
		Retransmits:   st.Retransmits - l.last.Retransmits,
		CWndBytes:     st.CWnd,
		SRTTMs:        ms(st.SRTT),
		RTTVarMs:      ms(st.RTTVar),
		PacingRateBps: st.PacingRate * 8,
		CC:            l.ctrl.inspect(),
	})
	l.last = st
}

// rxLoop drives a transport.Receiver: data in, ACKs out.
type rxLoop struct {
	clk  clock
	sock *rawUDP
	pool packet.Pool
	rcv  *transport.Receiver
	in   []byte
	out  []byte
	data packet.Packet
	// Counted here and merged into the report after the loop ends (the
	// sender's loop writes the report concurrently).
	localDrops, badDatagrams int64
}

func newRxLoop(f *Transport, epoch time.Time, s *rawUDP) *rxLoop {
	l := &rxLoop{
		clk: clock{epoch: epoch, spin: f.Spin}, sock: s,
		in: make([]byte, 1<<16), out: make([]byte, packet.MTU),
	}
	l.rcv = transport.NewReceiver(transport.ReceiverConfig{Flow: packet.FlowID(f.ID)}, &l.pool)
	return l
}

// run receives until done is set. Each segment is handed to the receiver
// and its ACKs sent before the next is read, so the ACK policy (every
// second segment, quick ACKs, delayed-ACK timer) is the simulator's.
func (l *rxLoop) run(done *atomic.Bool) {
	restore, _ := lockFIFO()
	defer restore()
	for !done.Load() {
		now := l.clk.now()
		for {
			n, ok := l.sock.recv(l.in)
			if !ok {
				break
			}
			l.data = packet.Packet{}
			if decode(l.in[:n], &l.data) != nil || l.data.Kind != packet.Data {
				l.badDatagrams++
				continue
			}
			l.rcv.OnData(now, &l.data)
			l.flush(now)
			now = l.clk.now()
		}
		l.flush(now)
		l.sock.wait(min(l.rcv.NextWake()-now, maxIdle))
	}
}

func (l *rxLoop) flush(now time.Duration) {
	for a := l.rcv.Next(now); a != nil; a = l.rcv.Next(now) {
		if !l.sock.send(encode(l.out, a)) {
			l.localDrops++
		}
		l.pool.Put(a)
	}
}
