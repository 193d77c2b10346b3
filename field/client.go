package field

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
)

// Spec is one probe, as the client asks for it.
type Spec struct {
	// Server is host or host:port (DefaultPort when none).
	Server    string
	Direction Direction
	RateBps   float64 // IP-level
	Size      int     // IP packet bytes (0: packet.MTU)
	Duration  time.Duration
	// Drain is how long the receiver keeps listening after the sender is
	// done (0: endpoint.DefaultDrain).
	Drain time.Duration
	// Token, when set, signs the request with the server's shared secret.
	Token string
}

func (s *Spec) defaults() {
	if s.Size == 0 {
		s.Size = packet.MTU
	}
	if s.Drain <= 0 {
		s.Drain = endpoint.DefaultDrain
	}
	if _, _, err := net.SplitHostPort(s.Server); err != nil {
		s.Server = net.JoinHostPort(s.Server, strconv.Itoa(DefaultPort))
	}
}

// Validate reports what a server would refuse in the spec (after its
// defaults), naming the field and the allowed values.
func (s Spec) Validate() error {
	s.defaults()
	req := s.request()
	return req.validate()
}

func (s *Spec) request() request {
	return request{Version: version, Direction: s.Direction, RateBps: s.RateBps, Size: s.Size,
		DurationNs: int64(s.Duration), DrainNs: int64(s.Drain)}
}

// Probe runs one probe against a server and returns its result: engine
// "net", one cbr flow with per-packet records on the sender's epoch (its
// clock's t = 0, epoch_utc), path direction "downlink" or "uplink".
func Probe(ctx context.Context, spec Spec) (*result.Result, error) {
	spec.defaults()
	req := spec.request()
	if err := req.validate(); err != nil {
		return nil, err
	}
	if spec.Token != "" {
		sign(spec.Token, &req, time.Now())
	}
	c, err := dial(ctx, spec.Server)
	if err != nil {
		return nil, fmt.Errorf("server %s: %w (is `leolab net serve` running there?)", spec.Server, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	ctl := newControl(c)
	if err := ctl.send(req); err != nil {
		return nil, err
	}
	var acc accept
	if err := ctl.recv(&acc, controlTimeout, replyLine); err != nil {
		return nil, fmt.Errorf("server %s: %w", spec.Server, err)
	}
	if acc.Error != "" {
		return nil, fmt.Errorf("server %s refused the probe: %s", spec.Server, acc.Error)
	}
	t, err := parseToken(acc.Session)
	if err != nil || acc.UDPPort <= 0 || acc.UDPPort > 65535 {
		return nil, fmt.Errorf("server %s: bad accept message (UDP port %d, %v)", spec.Server, acc.UDPPort, err)
	}
	// The probe's socket, connected to the server's: hellos and echoes go
	// from it, and it hears nobody else.
	peer := &net.UDPAddr{IP: c.RemoteAddr().(*net.TCPAddr).IP, Port: acc.UDPPort}
	udp, err := net.DialUDP("udp4", nil, peer)
	if err == nil {
		err = endpoint.PrepareUDP(udp)
	}
	if err != nil {
		return nil, err
	}
	defer udp.Close()
	if err := openPath(ctl, udp, t); err != nil {
		return nil, err
	}
	began := time.Now()
	var res *result.Result
	if spec.Direction == Up {
		res, err = probeUp(ctx, ctl, udp, &req)
	} else {
		res, err = probeDown(ctl, udp, &req)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	res.WallS = time.Since(began).Seconds()
	return res, nil
}

// openPath proves the client's UDP address (and opens the NAT in front of
// it) until the server says it is validated.
func openPath(ctl *control, udp *net.UDPConn, t token) error {
	done, proved := make(chan struct{}), make(chan struct{})
	go func() { defer close(proved); proveAddress(udp, t, done) }()
	var rd ready
	err := ctl.recv(&rd, helloFor+2*controlTimeout, replyLine)
	close(done)
	<-proved
	if err == nil && rd.Error != "" {
		err = fmt.Errorf("server: %s", rd.Error)
	}
	return err
}

// checkSent refuses a sender's count the request cannot have produced: a
// count read from the peer sizes the records.
func checkSent(sm *sentMsg, req *request) error {
	if sm.Error != "" {
		return fmt.Errorf("server: %s", sm.Error)
	}
	if sm.Sent < 0 || sm.Sent > req.packets() {
		return fmt.Errorf("server reports %d packets sent; this probe has at most %d", sm.Sent, req.packets())
	}
	return nil
}

// recordBytes bounds one uplink record's JSON ("[seq,sent,recv],", three
// int64s); recordsSlack holds the flow summary around them.
const recordBytes, recordsSlack = 3*20 + 5, 4 << 20

// probeUp sends the flow to the server's UDP port and fetches the trace.
func probeUp(ctx context.Context, ctl *control, tx *net.UDPConn, req *request) (*result.Result, error) {
	flow := req.flow()
	// The server has nothing to say while the client sends, unless it
	// stops: then stop sending and report why.
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var spoke atomic.Bool
	stopWatch := ctl.watchPeer(func() { spoke.Store(true); cancel() })
	epoch := time.Now()
	sent, err := endpoint.SendCBR(sctx, tx, epoch, flow)
	stopWatch()
	if spoke.Load() {
		var rd ready
		if e := ctl.recv(&rd, time.Second, replyLine); e == nil && rd.Error != "" {
			return nil, fmt.Errorf("server: %s", rd.Error)
		}
		return nil, errors.New("server closed the control connection during the probe")
	}
	sm := newSentMsg(epoch, sent, err)
	if serr := ctl.send(sm); err != nil || serr != nil {
		return nil, errors.Join(err, serr)
	}
	var rec records
	limit := int(min(req.packets()*recordBytes+recordsSlack, int64(maxInt)))
	if err := ctl.recv(&rec, time.Duration(req.DrainNs)+2*controlTimeout, limit); err != nil {
		return nil, err
	}
	return uplinkResult(&rec, sm, req, epoch)
}

// uplinkResult puts the server's records of an uplink (sm is what this
// client sent, on epoch) into the result, refusing records the probe
// cannot have produced.
func uplinkResult(rec *records, sm sentMsg, req *request, epoch time.Time) (*result.Result, error) {
	if rec.Error != "" {
		return nil, fmt.Errorf("server: %s", rec.Error)
	}
	if int64(len(rec.Packets)) > sm.Sent {
		return nil, fmt.Errorf("server returns %d records of the %d packets sent", len(rec.Packets), sm.Sent)
	}
	// The server's stamps onto this (the sender's) epoch.
	rep := &endpoint.CBRReport{Trace: make([]endpoint.PacketTimes, len(rec.Packets))}
	base := epoch.UnixNano()
	for i, p := range rec.Packets {
		rep.Trace[i] = endpoint.PacketTimes{Seq: p[0], Sent: time.Duration(p[1] - base), Recv: time.Duration(p[2] - base)}
	}
	flow := req.flow()
	f := rec.Flow
	f.Packets = endpoint.ProbeRecords(rep, sm.Sent, flow.Start, req.gap(), 0)
	return newResult(Up, epoch, flow, f, int64(len(rec.Packets)), sm), nil
}

// probeDown receives the flow on the validated socket and puts it on the
// server's epoch.
func probeDown(ctl *control, rx *net.UDPConn, req *request) (*result.Result, error) {
	flow := req.flow()
	epoch := time.Now()
	recv := startReceiver(rx, epoch, flow)
	defer recv.finish() // an early return: the receiver must let go of rx first
	if err := ctl.send(ready{}); err != nil {
		return nil, err
	}
	var sm sentMsg
	if err := ctl.recv(&sm, lead+flow.Duration+2*controlTimeout, replyLine); err != nil {
		return nil, err
	}
	if err := checkSent(&sm, req); err != nil {
		return nil, err
	}
	time.Sleep(time.Duration(req.DrainNs))
	rep, err := recv.finish()
	if err != nil {
		return nil, err
	}
	f := rep.Flow
	// From this host's epoch to the sender's (server's) one.
	shift := time.Duration(epoch.UnixNano() - sm.EpochUnixNs)
	f.Packets = endpoint.ProbeRecords(rep, sm.Sent, flow.Start, req.gap(), shift)
	return newResult(Down, time.Unix(0, sm.EpochUnixNs), flow, f, rep.Received, sm), nil
}

const maxInt = int(^uint(0) >> 1)

// dial connects to the server's control port, retrying a refused
// connection for dialRetry: a server started together with the client (a
// script, `leolab shell --server`) may not be listening yet.
func dial(ctx context.Context, server string) (net.Conn, error) {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, controlTimeout)
	defer cancel()
	for end := time.Now().Add(dialRetry); ; {
		c, err := d.DialContext(ctx, "tcp4", server)
		if err == nil || !errors.Is(err, syscall.ECONNREFUSED) || time.Now().After(end) {
			return c, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// seriesInterval is the result's per-flow series step (iperf3's default).
const seriesInterval = time.Second

// newResult wraps a probe flow in the result schema. The series is rebuilt
// from the records on the sender's clock, binned by send time from the
// first packet's due time: the receiver's own series is on its clock,
// which may be offset, and starts at its epoch, before the probe.
func newResult(dir Direction, epoch time.Time, flow endpoint.CBR, f result.Flow, received int64, sm sentMsg) *result.Result {
	f.ID, f.CCA = 0, "cbr"
	f.StartS, f.EndS = flow.Start.Seconds(), (flow.Start + flow.Duration).Seconds()
	f.Intervals = probeSeries(f.Packets, flow.Start, flow.Start+flow.Duration, flow.Size)
	f.SentPackets = sm.Sent
	f.LostPackets = max(0, sm.Sent-received)
	name := "downlink"
	if dir == Up {
		name = "uplink"
	}
	return &result.Result{
		Engine: "net", Scenario: "net-probe-" + name, EpochUTC: epoch.UTC().Format(time.RFC3339Nano),
		DurationS: (flow.Start + flow.Duration).Seconds(),
		Path:      result.Path{Profile: "net", Direction: name},
		Flows:     []result.Flow{f},
		Links:     []result.Link{},
		Instrument: map[string]float64{
			"send_late_p99_us": float64(sm.SendLateP99N) / 1e3,
		},
	}
}

// probeSeries bins per-packet records by send time into seriesInterval
// steps over [start, end): delivered IP bytes, mean one-way delay, losses.
func probeSeries(pk []result.ProbePacket, start, end time.Duration, size int) []result.Interval {
	var out []result.Interval
	for t := start; t < end; t += seriesInterval {
		out = append(out, result.Interval{T: min(t+seriesInterval, end).Seconds()})
	}
	owdSum := make([]float64, len(out))
	for _, p := range pk {
		k := int((time.Duration(p.SentS*float64(time.Second)) - start) / seriesInterval)
		if k < 0 || k >= len(out) {
			continue
		}
		switch {
		case p.OWDMs < 0:
			out[k].Lost++
		case p.OWDMs > 0:
			out[k].Bytes += int64(size)
			owdSum[k] += p.OWDMs
		}
	}
	for k := range out {
		if n := out[k].Bytes / int64(size); n > 0 {
			out[k].OWDMs = owdSum[k] / float64(n)
		}
	}
	return out
}
