package field

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/endpoint"
)

// Server answers probe requests: `leolab net serve`. Its zero value (apart
// from Log) is a public server with the default caps.
type Server struct {
	// Log, when set, receives one line per probe and per refused request.
	Log func(string)
	// Limits are the server's caps (zero fields: DefaultLimits).
	Limits Limits
	// Token, when set, is the shared secret every request must be signed
	// with (auth.go); without it anyone may probe, within the caps.
	Token string

	once   sync.Once
	key    []byte // the challenges' key, fresh per server
	adm    *admission
	replay *replayGuard
}

// errClientGone ends a handshake whose client closed its connection.
var errClientGone = errors.New("client gone (or out of turn) during the handshake")

// Accept back-off after an error (EMFILE, ENFILE, ENOBUFS...): what
// net/http's Server does.
const (
	acceptBackoffMin = 5 * time.Millisecond
	acceptBackoffMax = time.Second
)

// shutdownNotice is how long a session's last words to its client may
// take when the server stops.
const shutdownNotice = 300 * time.Millisecond

func (s *Server) init() {
	s.once.Do(func() {
		s.Limits = s.Limits.withDefaults()
		s.key = make([]byte, serverKeyLen)
		_, _ = rand.Read(s.key)
		s.adm = newAdmission(s.Limits)
		s.replay = newReplayGuard()
	})
}

// Serve accepts control connections on ln, one probe each, until ctx is
// done; then it closes ln, ends the probes in progress (each within
// shutdownNotice plus a receiver's poll) and returns. Accept errors back
// off from acceptBackoffMin to acceptBackoffMax and are retried.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.init()
	var wg sync.WaitGroup
	var pending, active atomic.Int64
	var stopping atomic.Int64 // Unix ns
	// Sessions end on their own context, cancelled once the shutdown
	// has been logged (and counted).
	sctx, endSessions := context.WithCancel(context.WithoutCancel(ctx))
	defer endSessions()
	stop := context.AfterFunc(ctx, func() {
		stopping.Store(time.Now().UnixNano())
		s.logf("shutting down: ending %d sessions", active.Load())
		ln.Close()
		endSessions()
	})
	defer stop()
	var backoff time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, net.ErrClosed) {
				wg.Wait()
				return err
			}
			backoff = min(max(2*backoff, acceptBackoffMin), acceptBackoffMax)
			s.logf("accept: %v; retrying in %v", err, backoff)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			continue
		}
		backoff = 0
		if pending.Load() >= maxPending {
			c.Close() // a flood of silent connections: no goroutine for it
			continue
		}
		pending.Add(1)
		active.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer active.Add(-1)
			defer c.Close()
			err := s.session(sctx, c, &pending)
			switch {
			case sctx.Err() != nil:
				s.logf("%v: ended: server shutting down", c.RemoteAddr())
			case err != nil:
				s.logf("%v: %v", c.RemoteAddr(), err)
			}
		}()
	}
	wg.Wait()
	s.logf("stopped: all sessions ended %v after the signal", time.Since(time.Unix(0, stopping.Load())).Round(time.Millisecond))
	return nil
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, args...))
	}
}

// session runs one control connection: request, admission, handshake,
// probe. A panic in it ends this session only, logged as a bug.
func (s *Server) session(ctx context.Context, c net.Conn, pending *atomic.Int64) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error, session ended (a leolab bug: please report it with this line): %v", v)
		}
	}()
	ctl := newControl(c)
	stop := context.AfterFunc(ctx, func() {
		ctl.notify(ready{Error: "server shutting down"}, shutdownNotice)
		c.Close()
	})
	defer stop()
	var req request
	err = ctl.recv(&req, requestTimeout, s.Limits.LineBytes)
	pending.Add(-1)
	if err != nil {
		if errors.Is(err, errLineTooLong) {
			_ = ctl.send(accept{Error: fmt.Sprintf("request line over %d bytes (the server's --max-line)", s.Limits.LineBytes)})
			ctl.linger()
		}
		return err
	}
	if s.Token != "" {
		if err := s.replay.verify(s.Token, &req, time.Now()); err != nil {
			return s.refuse(ctl, err)
		}
	}
	if err := req.validate(); err != nil {
		return s.refuse(ctl, err)
	}
	if req.Direction == Up && req.packets() > s.Limits.TracePackets {
		return s.refuse(ctl, fmt.Errorf("uplink probe of %d packets: this server keeps traces of at most %d (its --max-trace); send fewer (a lower rate or a shorter duration)",
			req.packets(), s.Limits.TracePackets))
	}
	ip := remoteIP(c)
	ticket, err := s.adm.admit(ip, req.bytes(), time.Now())
	if err != nil {
		return s.refuse(ctl, err)
	}
	var used int64
	defer func() { s.adm.release(ticket, used) }()
	return s.probe(ctx, ctl, &req, &used)
}

func (s *Server) refuse(ctl *control, err error) error {
	_ = ctl.send(accept{Error: err.Error()})
	return fmt.Errorf("refused: %w", err)
}

func remoteIP(c net.Conn) netip.Addr {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.AddrPort().Addr().Unmap()
	}
	return netip.Addr{}
}

// probe runs an admitted request: a UDP socket, the client's address
// proven, then the flow; *used gets the probe's bytes.
func (s *Server) probe(ctx context.Context, ctl *control, req *request, used *int64) error {
	// The probe's UDP socket on the address the client reached us at.
	local := ctl.conn.LocalAddr().(*net.TCPAddr)
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: local.IP})
	if err == nil {
		err = endpoint.PrepareUDP(udp)
	}
	if err != nil {
		_ = ctl.send(accept{Error: err.Error()})
		return err
	}
	defer udp.Close()
	t := newToken()
	port := udp.LocalAddr().(*net.UDPAddr).Port
	flow := req.flow()
	flow.TraceLimit = int(s.Limits.TracePackets)
	s.logf("%v: %s probe on UDP port %d, %.3g Mbit/s of %d-byte packets for %v", ctl.conn.RemoteAddr(), req.Direction, port, req.RateBps/1e6, flow.Size, flow.Duration)
	if err := ctl.send(accept{UDPPort: port, Session: t.String()}); err != nil {
		return err
	}
	var st handshakeStats
	vctx, gone := context.WithCancelCause(ctx)
	stopWatch := ctl.watchPeer(func() { gone(errClientGone) })
	peer, err := validatePeer(vctx, udp, s.key, t, helloFor+controlTimeout, &st)
	stopWatch()
	gone(nil)
	if err == nil {
		err = connectPeer(udp, peer)
	}
	if st.Ignored > 0 || err != nil {
		s.logf("%v: handshake: %d hellos, %d challenges (%d bytes), %d datagrams ignored", ctl.conn.RemoteAddr(), st.Hellos, st.Challenges, st.ChallengeBytes, st.Ignored)
	}
	if err != nil {
		_ = ctl.send(ready{Error: err.Error()})
		return err
	}
	if req.Direction == Up {
		return s.receive(ctx, ctl, udp, flow, time.Duration(req.DrainNs), used)
	}
	return s.send(ctx, ctl, udp, peer, flow, used)
}

// flow is the request's CBR flow: sending starts lead after the epoch.
func (r *request) flow() endpoint.CBR {
	return endpoint.CBR{RateBps: r.RateBps, Size: r.Size, Start: lead, Duration: time.Duration(r.DurationNs), Trace: true}
}

// receive is the server's side of an uplink probe: it receives until the
// client says it has sent everything, waits drain, and returns the trace.
func (s *Server) receive(ctx context.Context, ctl *control, udp *net.UDPConn, flow endpoint.CBR, drain time.Duration, used *int64) error {
	epoch := time.Now()
	rx := startReceiver(udp, epoch, flow)
	defer rx.finish()
	err := ctl.send(ready{})
	var sm sentMsg
	if err == nil {
		err = ctl.recv(&sm, lead+flow.Duration+2*controlTimeout, s.Limits.LineBytes)
	}
	if err == nil && sm.Error != "" {
		err = errors.New("client: " + sm.Error)
	}
	if err == nil {
		select {
		case <-time.After(drain):
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	rep, rerr := rx.finish()
	if rep != nil {
		*used = rep.RecvBytes
	}
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

// send is the server's side of a downlink probe to the validated peer: it
// waits for the client's receiver, sends the flow and reports.
func (s *Server) send(ctx context.Context, ctl *control, udp *net.UDPConn, peer *net.UDPAddr, flow endpoint.CBR, used *int64) error {
	if err := ctl.send(ready{}); err != nil {
		return err
	}
	var rd ready
	if err := ctl.recv(&rd, controlTimeout, s.Limits.LineBytes); err != nil || rd.Error != "" {
		return errors.Join(err, errorIf(rd.Error))
	}
	// A client that goes away (interrupted, crashed) closes the control
	// connection: stop sending then, not at the end of the hour asked.
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var any struct{}
		_ = ctl.recv(&any, 0, s.Limits.LineBytes) // nothing more is expected: EOF or an error
		cancel()
	}()
	epoch := time.Now()
	rep, err := endpoint.SendCBR(sctx, udp, epoch, flow)
	sm := newSentMsg(epoch, rep, err)
	if ctx.Err() != nil && sm.Error == "" {
		// Cut short: a count without an error would pass for a whole probe.
		sm.Error = fmt.Sprintf("server shutting down (the probe was cut short after %d packets)", sm.Sent)
	}
	*used = sm.Sent * int64(flow.Size)
	s.logf("%v: downlink probe: sent %d to %v", ctl.conn.RemoteAddr(), sm.Sent, peer)
	return errors.Join(err, ctl.send(sm))
}

// errorIf is the peer's error message as an error (nil for none).
func errorIf(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New("client: " + msg)
}
