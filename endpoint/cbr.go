package endpoint

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// CBR wire format and timing.
const (
	udpIPHeaders = 28 // IPv4 20 + UDP 8 (RFC 791, RFC 768)
	cbrHeader    = 16 // payload: sequence number, send time (ns, CLOCK_REALTIME)
	// DefaultDrain is how long the receiver keeps listening after the
	// sender stops, for packets still in the emulated path.
	DefaultDrain = time.Second
	// cbrSpin: the sender sleeps (nanosleep with 1 ns timer slack) until
	// this long before a send time, then spins. Short, because on a 2-core
	// host a spinning sender starves the pump it is measuring; the send
	// stamp is taken at the actual write, so lateness costs no accuracy.
	cbrSpin = 20 * time.Microsecond
	// cbrNoSpinGap: below this inter-packet gap the sender never spins. It
	// sleeps until each due time and then writes every packet that is due
	// (micro-bursts of a few packets at hundreds of Mbit/s; the link
	// serves in 1.33 ms frames anyway). A real-time thread spinning
	// through gaps this short would hold its core for good and trip the
	// kernel's RT throttling (a 50 ms stall every second).
	cbrNoSpinGap = 2 * cbrSpin
	// cbrBatch bounds the datagrams of one sendmmsg(2) (the kernel's
	// UIO_MAXIOV is 1024; 64 is ~1 ms at 1 Gbit/s).
	cbrBatch = 64
)

// CBR is a constant-bit-rate UDP flow from namespace From to Addr in To.
type CBR struct {
	ID      int
	RateBps float64 // IP-level rate, bits/s
	Size    int     // IP packet size in bytes (0: packet.MTU)
	// Start and Duration of sending, relative to the epoch; Interval of the
	// receive-side series (0: one second).
	Start, Duration, Interval time.Duration
	Drain                     time.Duration // 0: DefaultDrain
	From, To                  string
	Addr                      netip.AddrPort
	// Trace keeps every received packet's times in CBRReport.Trace, up to
	// TraceLimit packets (0: no limit; the rest are counted, not traced).
	Trace      bool
	TraceLimit int
	// KeepOff lists CPUs the sender and receiver threads stay off: the
	// emulator's pump CPU (emu.Emulator.KeepOff).
	KeepOff []int
}

// PacketTimes is one received packet: its sequence number and its send and
// kernel receive times since the epoch.
type PacketTimes struct {
	Seq        int64
	Sent, Recv time.Duration
}

// CBRReport is a CBR flow's outcome.
type CBRReport struct {
	Flow result.Flow
	// OWD holds every received packet's one-way delay (kernel receive
	// timestamp minus the sender's stamp); SendLate how late the sender
	// wrote each packet relative to its schedule.
	OWD, SendLate  *Hist
	Sent, Received int64
	RecvBytes      int64 // IP bytes received
	// Trace is filled when CBR.Trace is set, in receive order.
	Trace []PacketTimes
}

// Validate reports what RunCBR, SendCBR and ReceiveCBR would refuse in c
// (after its defaults).
func (c CBR) Validate() error { return c.validate() }

func (c *CBR) validate() error {
	if c.Size == 0 {
		c.Size = packet.MTU
	}
	if c.Interval <= 0 {
		c.Interval = time.Second
	}
	if c.Drain <= 0 {
		c.Drain = DefaultDrain
	}
	switch {
	case !(c.RateBps > 0) || math.IsInf(c.RateBps, 1): // also NaN
		return fmt.Errorf("cbr flow %d: rate %g bit/s: must be finite and > 0", c.ID, c.RateBps)
	case c.Size < udpIPHeaders+cbrHeader || c.Size > packet.MTU:
		return fmt.Errorf("cbr flow %d: size %d: must be in [%d, %d]", c.ID, c.Size, udpIPHeaders+cbrHeader, packet.MTU)
	case c.Duration <= 0:
		return fmt.Errorf("cbr flow %d: duration %v: must be > 0", c.ID, c.Duration)
	}
	// The packet gap in int64 nanoseconds: a rate so low that it
	// overflows (or so high that it rounds to 0) would send unpaced.
	if g := float64(c.Size*8) / c.RateBps * float64(time.Second); !(g >= 1 && g <= float64(maxGap)) {
		return fmt.Errorf("cbr flow %d: rate %g bit/s: %d-byte packets would be %.3g ns apart; want [1 ns, %v]", c.ID, c.RateBps, c.Size, g, maxGap)
	}
	return nil
}

// maxGap bounds a CBR flow's packet gap: a day, far from int64's 292
// years, so Start + k·gap cannot overflow before Duration (also bounded:
// a time.Duration) ends the flow.
const maxGap = 24 * time.Hour

// gap is a validated flow's packet spacing.
func (c *CBR) gap() time.Duration {
	return time.Duration(float64(c.Size*8) / c.RateBps * float64(time.Second))
}

// RunCBR runs the flow and blocks until its receiver has drained.
func RunCBR(ctx context.Context, epoch time.Time, c CBR) (*CBRReport, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	rx, err := listenUDP(c.To, c.Addr)
	if err != nil {
		return nil, err
	}
	defer rx.Close()
	tx, err := dialUDP(c.From, c.Addr)
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	rep := &CBRReport{OWD: NewHist(0), SendLate: NewHist(0)}
	var stop atomic.Bool
	cancel := context.AfterFunc(ctx, func() { stop.Store(true) })
	defer cancel()
	rxDone := make(chan error, 1)
	var series []result.Interval
	go func() {
		s, err := c.receive(rx, epoch, &stop, rep)
		series = s
		rxDone <- err
	}()
	serr := c.send(ctx, tx, epoch, rep)
	rerr := <-rxDone
	c.summarise(rep, series)
	return rep, errors.Join(serr, rerr)
}

// send paces packets at the flow's schedule on a locked real-time thread:
// packet k is due at Start + k·Size·8/Rate; a late sender catches up (the
// long-run rate stays exact) and its lateness is recorded. All packets due
// at a wake-up go out in one sendmmsg(2), stamped with the time of the
// call, so high rates cost one system call per wake-up, not per packet.
func (c *CBR) send(ctx context.Context, tx *net.UDPConn, epoch time.Time, rep *CBRReport) error {
	restore, _ := lockRealtime(c.KeepOff)
	defer restore()
	rc, err := tx.SyscallConn()
	if err != nil {
		return fmt.Errorf("cbr flow %d: %w", c.ID, err)
	}
	gap := c.gap()
	spin := cbrSpin
	if gap < cbrNoSpinGap {
		spin = 0
	}
	b := newBatch(cbrBatch, c.Size-udpIPHeaders)
	end := c.Start + c.Duration
	for k := int64(0); ctx.Err() == nil; {
		due := c.Start + time.Duration(k)*gap
		if due >= end {
			return nil
		}
		if wait := due - time.Since(epoch); wait > spin {
			ts := unix.NsecToTimespec(int64(wait - spin))
			_ = unix.Nanosleep(&ts, nil)
		}
		for time.Since(epoch) < due {
		}
		now := time.Now()
		b.reset()
		for ; b.n < cbrBatch && due < end && due <= now.Sub(epoch); due = c.Start + time.Duration(k)*gap {
			p := b.next()
			binary.BigEndian.PutUint64(p[0:8], uint64(k))
			binary.BigEndian.PutUint64(p[8:16], uint64(now.UnixNano()))
			rep.SendLate.Add(now.Sub(epoch) - due)
			k++
		}
		if err := b.flush(rc); err != nil {
			return fmt.Errorf("cbr flow %d: send: %w", c.ID, err)
		}
		rep.Sent += int64(b.n)
	}
	return nil
}
