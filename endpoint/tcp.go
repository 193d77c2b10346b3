package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"time"

	"github.com/leolab/leolab/result"
)

// Bulk TCP defaults.
const (
	// DefaultWriteSize is iperf3's default TCP write (128 KiB), so the
	// sender is never application-limited (DESIGN.md "Fidelity notes").
	DefaultWriteSize = 128 << 10
	// rttSampleEvery is how often TCP_INFO is read for the RTT statistics
	// (min/mean/p95), finer than the reporting interval.
	rttSampleEvery = 10 * time.Millisecond
)

// TCP is a kernel TCP bulk flow: the sender in namespace From connects to
// Addr in namespace To with congestion control CCA and writes for Duration.
type TCP struct {
	ID  int
	CCA string // reno, cubic, bbr, ... as the kernel offers
	// Start and Duration relative to the epoch; Interval of the series
	// (0: one second).
	Start, Duration, Interval time.Duration
	From, To                  string
	Addr                      netip.AddrPort
	WriteSize                 int // 0: DefaultWriteSize
}

// TCPReport is a bulk flow's outcome.
type TCPReport struct {
	Flow     result.Flow
	Received int64 // bytes the receiver read
	RTT      *Hist // smoothed RTT samples every rttSampleEvery
}

func (f *TCP) validate() error {
	if f.Interval <= 0 {
		f.Interval = time.Second
	}
	if f.WriteSize <= 0 {
		f.WriteSize = DefaultWriteSize
	}
	if f.CCA == "" {
		return fmt.Errorf("tcp flow %d: no congestion control", f.ID)
	}
	if f.Duration <= 0 {
		return fmt.Errorf("tcp flow %d: duration %v: must be > 0", f.ID, f.Duration)
	}
	return nil
}

// RunTCP runs the flow and blocks until it is done.
func RunTCP(ctx context.Context, epoch time.Time, f TCP) (*TCPReport, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	ln, err := listenTCP(f.To, f.Addr)
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	rep := &TCPReport{RTT: NewHist(0)}
	rxDone := make(chan error, 1)
	go func() { rxDone <- receiveTCP(ln, &rep.Received) }()

	if wait := time.Until(epoch.Add(f.Start)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	conn, err := dialTCP(ctx, f.From, f.Addr, f.CCA)
	if err != nil {
		return nil, fmt.Errorf("tcp flow %d: %w", f.ID, err)
	}
	end := epoch.Add(f.Start + f.Duration)
	if err := conn.SetWriteDeadline(end); err != nil {
		conn.Close()
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { conn.SetWriteDeadline(time.Now()) })
	defer stop()
	wrDone := make(chan error, 1)
	go func() { wrDone <- writeBulk(conn, f.WriteSize) }()
	s := newSampler(conn, epoch, f)
	werr := s.run(ctx, wrDone, rep.RTT)
	rep.Flow = s.flow(rep.RTT)
	conn.Close()
	rerr := <-rxDone
	if werr != nil {
		return rep, fmt.Errorf("tcp flow %d: %w", f.ID, werr)
	}
	return rep, rerr
}

// writeBulk writes until the write deadline.
func writeBulk(c *net.TCPConn, size int) error {
	buf := make([]byte, size)
	for {
		if _, err := c.Write(buf); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil
			}
			return err
		}
	}
}

// receiveTCP accepts one connection and discards what it reads.
func receiveTCP(ln *net.TCPListener, n *int64) error {
	c, err := ln.Accept()
	if err != nil {
		return fmt.Errorf("tcp accept: %w", err)
	}
	defer c.Close()
	buf := make([]byte, 1<<20)
	for {
		m, err := c.Read(buf)
		*n += int64(m)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // a reset at the end of the flow is not an error
		}
	}
}
