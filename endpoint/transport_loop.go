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

// nowWall returns now and the offset that maps a CLOCK_REALTIME reading in
// ns (a kernel timestamp) onto the same time base: t = ns - off. Read
// together, so a wall-clock step or slew between calls does not skew it.
func (c clock) nowWall() (now time.Duration, off int64) {
	t := time.Now()
	now = t.Sub(c.epoch)
	return now, t.UnixNano() - int64(now)
}

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
	acks *rbatch
	out  *batch
	ack  packet.Packet
	// lastAck is the receive time of the latest ACK.
	lastAck time.Duration

	last       transport.SenderStats // at the previous interval boundary
	nextSample time.Duration
	intervals  []result.Interval
}

func newTxLoop(f *Transport, epoch time.Time, s *rawUDP, ctrl *rttRecorder, rep *TransportReport) *txLoop {
	l := &txLoop{
		f: f, clk: clock{epoch: epoch, spin: f.Spin}, sock: s, ctrl: ctrl, rep: rep,
		acks: newRBatch(txBatch, packet.MTU, oobSize), out: newBatch(txBatch, packet.MTU),
		nextSample: f.Start + f.Interval,
	}
	l.snd = transport.NewSender(transport.SenderConfig{Flow: packet.FlowID(f.ID), SndBuf: f.SndBuf}, ctrl, &l.pool)
	return l
}

// run sends from Start to Start+Duration or until stop is set.
func (l *txLoop) run(stop *atomic.Bool) {
	restore, rt := lockFIFO(l.f.KeepOff)
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

// readAcks feeds every queued ACK to the sender at its kernel receive time
// (SO_TIMESTAMPNS: when the emulator wrote it to the sender's namespace),
// then sends what they allow. ACKs that waited in the socket while this
// thread was writing a burst or was not scheduled keep their spacing: read
// times would bunch them, and the ACK phase of the delivery-rate samples
// (transport rate.go, draft-cheng §3.3) would shrink with it.
func (l *txLoop) readAcks() {
	for n := l.acks.recv(l.sock.fd); n > 0; n = l.acks.recv(l.sock.fd) {
		now, off := l.clk.nowWall()
		for i := range n {
			data, oob := l.acks.msg(i)
			l.ack = packet.Packet{}
			if decode(data, &l.ack) != nil || l.ack.Kind != packet.Ack {
				l.rep.BadDatagrams++
				continue
			}
			t := now
			if ns, ok := rxTimestamp(oob); ok {
				// Kernel and loop clocks are read apart: keep ACK times
				// ordered and never ahead of the loop's.
				t = min(max(time.Duration(ns-off), l.lastAck), now)
			}
			l.lastAck = t
			l.rep.AckLate.Add(now - t)
			l.snd.OnAck(t, &l.ack)
		}
		l.send()
	}
}

// send writes what the sender releases now. All of it is asked for at one
// instant, so a TSO burst (transport.Sender.pace: about 1 ms of data at the
// pacing rate) comes out whole, as in the simulator and in Linux, and leaves
// in one sendmmsg(2): one system call and one wake-up per burst instead of
// per packet, which keeps this real-time thread from saturating a core and
// starving the emulator's runtime threads.
func (l *txLoop) send() {
	for {
		now := l.clk.now()
		l.out.reset()
		for l.out.n < txBatch {
			p := l.snd.Next(now)
			if p == nil {
				break
			}
			l.out.setLen(len(encode(l.out.next(), p)))
			l.pool.Put(p)
		}
		if l.out.n == 0 {
			return
		}
		l.rep.LocalDrops += int64(l.out.sendRaw(l.sock.fd))
		if l.out.n < txBatch {
			return
		}
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
	keepOff                  []int // Transport.KeepOff
}

func newRxLoop(f *Transport, epoch time.Time, s *rawUDP) *rxLoop {
	l := &rxLoop{
		clk: clock{epoch: epoch, spin: f.Spin}, sock: s, keepOff: f.KeepOff,
		in: make([]byte, 1<<16), out: make([]byte, packet.MTU),
	}
	l.rcv = transport.NewReceiver(transport.ReceiverConfig{Flow: packet.FlowID(f.ID)}, &l.pool)
	return l
}

// run receives until done is set. Each segment is handed to the receiver
// and its ACKs sent before the next is read, so the ACK policy (every
// second segment, quick ACKs, delayed-ACK timer) is the simulator's.
func (l *rxLoop) run(done *atomic.Bool) {
	restore, _ := lockFIFO(l.keepOff)
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
