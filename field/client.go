package field

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
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
	c, err := dial(ctx, spec.Server)
	if err != nil {
		return nil, fmt.Errorf("server %s: %w (is `leolab net serve` running there?)", spec.Server, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	ctl := newControl(c)
	// The downlink's receiving socket exists before the request, so its
	// hellos can go out as soon as the server answers.
	var rx *net.UDPConn
	if spec.Direction == Down {
		if rx, err = net.ListenUDP("udp4", nil); err == nil {
			err = endpoint.PrepareUDP(rx)
		}
		if err != nil {
			return nil, err
		}
		defer rx.Close()
	}
	if err := ctl.send(req); err != nil {
		return nil, err
	}
	var acc accept
	if err := ctl.recv(&acc, controlTimeout); err != nil {
		return nil, fmt.Errorf("server %s: %w", spec.Server, err)
	}
	if acc.Error != "" {
		return nil, fmt.Errorf("server %s refused the probe: %s", spec.Server, acc.Error)
	}
	peer := &net.UDPAddr{IP: c.RemoteAddr().(*net.TCPAddr).IP, Port: acc.UDPPort}
	began := time.Now()
	var res *result.Result
	if spec.Direction == Up {
		res, err = probeUp(ctx, ctl, peer, req)
	} else {
		res, err = probeDown(ctl, rx, peer, req)
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

// probeUp sends the flow to the server's UDP port and fetches the trace.
func probeUp(ctx context.Context, ctl *control, peer *net.UDPAddr, req request) (*result.Result, error) {
	tx, err := net.DialUDP("udp4", nil, peer)
	if err == nil {
		err = endpoint.PrepareUDP(tx)
	}
	if err != nil {
		return nil, err
	}
	defer tx.Close()
	flow := req.flow()
	epoch := time.Now()
	sent, err := endpoint.SendCBR(ctx, tx, epoch, flow)
	sm := newSentMsg(epoch, sent, err)
	if serr := ctl.send(sm); err != nil || serr != nil {
		return nil, errors.Join(err, serr)
	}
	var rec records
	if err := ctl.recv(&rec, time.Duration(req.DrainNs)+2*controlTimeout); err != nil {
		return nil, err
	}
	if rec.Error != "" {
		return nil, fmt.Errorf("server: %s", rec.Error)
	}
	// The server's stamps onto this (the sender's) epoch.
	rep := &endpoint.CBRReport{Trace: make([]endpoint.PacketTimes, len(rec.Packets))}
	base := epoch.UnixNano()
	for i, p := range rec.Packets {
		rep.Trace[i] = endpoint.PacketTimes{Seq: p[0], Sent: time.Duration(p[1] - base), Recv: time.Duration(p[2] - base)}
	}
	f := rec.Flow
	f.Packets = endpoint.ProbeRecords(rep, sm.Sent, flow.Start, gap(req), 0)
	return newResult(Up, epoch, flow, f, int64(len(rec.Packets)), sm), nil
}

// probeDown opens the NAT towards the server with hellos, receives the
// flow and puts it on the server's epoch.
func probeDown(ctl *control, rx *net.UDPConn, peer *net.UDPAddr, req request) (*result.Result, error) {
	flow := req.flow()
	epoch := time.Now()
	recv := startReceiver(rx, epoch, flow)
	defer recv.finish() // an early return: the receiver must let go of rx first
	// Hellos until the server has one (or helloFor passes).
	helloStop, helloDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(helloDone)
		tick := time.NewTicker(helloEvery)
		defer tick.Stop()
		for end := time.After(helloFor); ; {
			if _, err := rx.WriteToUDP(helloMagic, peer); err != nil {
				return
			}
			select {
			case <-helloStop:
				return
			case <-end:
				return
			case <-tick.C:
			}
		}
	}()
	var rd ready
	err := ctl.recv(&rd, helloFor+2*controlTimeout)
	close(helloStop)
	<-helloDone
	if err == nil && rd.Error != "" {
		err = fmt.Errorf("server: %s", rd.Error)
	}
	if err != nil {
		return nil, err
	}
	var sm sentMsg
	if err := ctl.recv(&sm, lead+flow.Duration+2*controlTimeout); err != nil {
		return nil, err
	}
	if sm.Error != "" {
		return nil, fmt.Errorf("server: %s", sm.Error)
	}
	time.Sleep(time.Duration(req.DrainNs))
	rep, err := recv.finish()
	if err != nil {
		return nil, err
	}
	f := rep.Flow
	// From this host's epoch to the sender's (server's) one.
	shift := time.Duration(epoch.UnixNano() - sm.EpochUnixNs)
	f.Packets = endpoint.ProbeRecords(rep, sm.Sent, flow.Start, gap(req), shift)
	return newResult(Down, time.Unix(0, sm.EpochUnixNs), flow, f, rep.Received, sm), nil
}

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

func gap(req request) time.Duration {
	return time.Duration(float64(req.Size*8) / req.RateBps * float64(time.Second))
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
