package field

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/leolab/leolab/endpoint"
)

// Server answers probe requests: `leolab net serve`.
type Server struct {
	// Log, when set, receives one line per probe and per refused request.
	Log func(string)
}

// Serve accepts control connections on ln, one probe each, until ctx is
// done; then it closes ln and waits for the probes in progress to end.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			if err := s.handle(ctx, c); err != nil {
				s.logf("%v: %v", c.RemoteAddr(), err)
			}
		}()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, args...))
	}
}

// handle runs one probe on a control connection.
func (s *Server) handle(ctx context.Context, c net.Conn) error {
	ctl := newControl(c)
	var req request
	if err := ctl.recv(&req, controlTimeout); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		_ = ctl.send(accept{Error: err.Error()})
		return fmt.Errorf("refused: %w", err)
	}
	// The probe's UDP socket on the address the client reached us at.
	local := c.LocalAddr().(*net.TCPAddr)
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: local.IP})
	if err == nil {
		err = endpoint.PrepareUDP(udp)
	}
	if err != nil {
		_ = ctl.send(accept{Error: err.Error()})
		return err
	}
	defer udp.Close()
	if err := ctl.send(accept{UDPPort: udp.LocalAddr().(*net.UDPAddr).Port}); err != nil {
		return err
	}
	flow := req.flow()
	s.logf("%v: %s probe, %.3g Mbit/s of %d-byte packets for %v", c.RemoteAddr(), req.Direction, req.RateBps/1e6, flow.Size, flow.Duration)
	if req.Direction == Up {
		return s.receive(ctl, udp, flow, time.Duration(req.DrainNs))
	}
	return s.send(ctx, ctl, udp, flow)
}

// flow is the request's CBR flow: sending starts lead after the epoch.
func (r *request) flow() endpoint.CBR {
	return endpoint.CBR{RateBps: r.RateBps, Size: r.Size, Start: lead, Duration: time.Duration(r.DurationNs), Trace: true}
}

// receive is the server's side of an uplink probe: it receives until the
// client says it has sent everything, waits drain, and returns the trace.
func (s *Server) receive(ctl *control, udp *net.UDPConn, flow endpoint.CBR, drain time.Duration) error {
	epoch := time.Now()
	rx := startReceiver(udp, epoch, flow)
	var sm sentMsg
	err := ctl.recv(&sm, lead+flow.Duration+2*controlTimeout)
	if err == nil && sm.Error != "" {
		err = errors.New("client: " + sm.Error)
	}
	if err == nil {
		time.Sleep(drain)
	}
	rep, rerr := rx.finish()
	if err != nil {
		return err
	}
	if rerr != nil {
		_ = ctl.send(records{Error: rerr.Error()})
		return rerr
	}
	rec := records{Packets: make([][3]int64, len(rep.Trace)), Flow: rep.Flow}
	base := epoch.UnixNano()
	for i, p := range rep.Trace {
		rec.Packets[i] = [3]int64{p.Seq, base + int64(p.Sent), base + int64(p.Recv)}
	}
	s.logf("%v: uplink probe: received %d of %d", ctl.conn.RemoteAddr(), rep.Received, sm.Sent)
	return ctl.send(rec)
}

// send is the server's side of a downlink probe: it learns the client's
// address from a hello datagram, sends the flow there and reports.
func (s *Server) send(ctx context.Context, ctl *control, udp *net.UDPConn, flow endpoint.CBR) error {
	peer, err := awaitHello(udp, helloFor+controlTimeout)
	if err == nil {
		err = endpoint.ConnectUDP(udp, peer)
	}
	if err != nil {
		_ = ctl.send(ready{Error: err.Error()})
		return err
	}
	if err := ctl.send(ready{}); err != nil {
		return err
	}
	// A client that goes away (interrupted, crashed) closes the control
	// connection: stop sending then, not at the end of the hour asked.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var any struct{}
		_ = ctl.recv(&any, 0) // nothing more is expected: EOF or an error
		cancel()
	}()
	epoch := time.Now()
	rep, err := endpoint.SendCBR(ctx, udp, epoch, flow)
	sm := newSentMsg(epoch, rep, err)
	s.logf("%v: downlink probe: sent %d to %v", ctl.conn.RemoteAddr(), sm.Sent, peer)
	return errors.Join(err, ctl.send(sm))
}

// awaitHello reads udp until a hello datagram arrives and returns its
// source.
func awaitHello(udp *net.UDPConn, wait time.Duration) (*net.UDPAddr, error) {
	defer udp.SetReadDeadline(time.Time{})
	_ = udp.SetReadDeadline(time.Now().Add(wait))
	buf := make([]byte, 64)
	for {
		n, from, err := udp.ReadFromUDP(buf)
		if err != nil {
			return nil, fmt.Errorf("no hello from the client within %v (a firewall dropping UDP to the server?): %w", wait, err)
		}
		if bytes.HasPrefix(buf[:n], helloMagic) {
			return from, nil
		}
	}
}
