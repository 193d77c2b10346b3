package irtt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// convert checks irtt's document field by field and turns it into a
// Capture.
func convert(j *jsonCapture) (*Capture, error) {
	if j.RoundTrips == nil || j.Config == nil {
		return nil, errors.New("round_trips and config: missing (want the output of irtt client -o FILE)")
	}
	c := &Capture{Version: j.Version.IRTT, PacketsSent: j.Stats.PacketsSent, PacketsReceived: j.Stats.PacketsReceived}
	p := j.Config.Params
	if p.Interval <= 0 || time.Duration(p.Interval) > maxSpan {
		return nil, fmt.Errorf("config.params.interval %d ns: want (0, %v]", p.Interval, maxSpan)
	}
	if p.Length < 0 || p.Length > maxLength {
		return nil, fmt.Errorf("config.params.length %d: want [0, %d] bytes", p.Length, maxLength)
	}
	c.Interval, c.Length = time.Duration(p.Interval), int(p.Length)
	switch j.Config.IPVersion {
	case "IPv4":
	case "IPv6":
		c.IPv6 = true
	default:
		return nil, fmt.Errorf("config.ip_version %q: want IPv4 or IPv6", j.Config.IPVersion)
	}
	rts := *j.RoundTrips
	if len(rts) == 0 {
		return nil, errors.New("round_trips: empty (the client sent nothing)")
	}
	epoch := rts[0].Timestamps.Client.Send.Wall
	if epoch <= 0 {
		return nil, fmt.Errorf("round_trips[0].timestamps.client.send.wall %d: want the client's wall-clock send time (ns since 1970)", epoch)
	}
	c.Epoch = time.Unix(0, epoch).UTC()
	c.Packets = make([]Packet, len(rts))
	for i := range rts {
		if err := c.packet(i, &rts[i], epoch); err != nil {
			return nil, fmt.Errorf("round_trips[%d].%w", i, err)
		}
	}
	return c, nil
}

// packet converts and checks one round trip.
func (c *Capture) packet(i int, rt *jsonRoundTrip, epoch int64) error {
	p := &c.Packets[i]
	if rt.Seqno == nil || *rt.Seqno != int64(i) {
		return fmt.Errorf("seqno %s: want %d (irtt numbers its round trips 0, 1, 2, …)", ptrStr(rt.Seqno), i)
	}
	p.Seq = i
	loss, err := parseLoss(rt.Lost)
	if err != nil {
		return err
	}
	p.Loss = loss
	ts := &rt.Timestamps
	var ok bool
	if p.ClientSend, ok, err = rel("timestamps.client.send.wall", ts.Client.Send.Wall, epoch); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("timestamps.client.send.wall: missing (want the client's wall-clock send time)")
	}
	if p.ClientRecv, p.HasRecv, err = rel("timestamps.client.receive.wall", ts.Client.Receive.Wall, epoch); err != nil {
		return err
	}
	if p.ServerRecv, _, err = rel("timestamps.server.receive.wall", ts.Server.Receive.Wall, epoch); err != nil {
		return err
	}
	if p.ServerSend, p.HasServerSend, err = rel("timestamps.server.send.wall", ts.Server.Send.Wall, epoch); err != nil {
		return err
	}
	if p.Up, p.HasUp, err = delay("delay.send", rt.Delay.Send, false); err != nil {
		return err
	}
	if p.Down, p.HasDown, err = delay("delay.receive", rt.Delay.Receive, false); err != nil {
		return err
	}
	if p.RTT, p.HasRTT, err = delay("delay.rtt", rt.Delay.RTT, true); err != nil {
		return err
	}
	if loss == Delivered && !p.HasRecv {
		return errors.New("timestamps.client.receive.wall: missing for a packet not lost")
	}
	return nil
}

func ptrStr(v *int64) string {
	if v == nil {
		return "missing"
	}
	return fmt.Sprint(*v)
}

// parseLoss reads "lost": a bool (older irtt) or irtt 0.9's strings.
func parseLoss(raw json.RawMessage) (Loss, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "false", `"false"`:
		return Delivered, nil
	case "true", `"true"`:
		return Lost, nil
	case `"true_up"`:
		return LostUp, nil
	case `"true_down"`:
		return LostDown, nil
	}
	return 0, fmt.Errorf("lost %s: want false, true, \"true_up\" or \"true_down\"", clip(raw))
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	if len(b) == 0 {
		return "missing"
	}
	return string(b)
}

// rel turns a wall-clock stamp (ns since 1970; 0: absent) into a time since
// epoch, within ±maxSpan.
func rel(field string, wall, epoch int64) (time.Duration, bool, error) {
	if wall == 0 {
		return 0, false, nil
	}
	bad := fmt.Errorf("%s %d: want a wall-clock time within %v of the first send", field, wall, maxSpan)
	if wall < 0 {
		return 0, false, bad
	}
	d := wall - epoch // both positive: no overflow
	if d < -int64(maxSpan) || d > int64(maxSpan) {
		return 0, false, bad
	}
	return time.Duration(d), true, nil
}

// delay checks a delay in ns: |d| ≤ maxDelay, and ≥ 0 for an RTT.
func delay(field string, v *int64, nonNegative bool) (time.Duration, bool, error) {
	if v == nil {
		return 0, false, nil
	}
	d := *v
	if d > int64(maxDelay) || d < -int64(maxDelay) || (nonNegative && d < 0) {
		lo := -maxDelay
		if nonNegative {
			lo = 0
		}
		return 0, false, fmt.Errorf("%s %d ns: want [%v, %v]", field, d, lo, maxDelay)
	}
	return time.Duration(d), true, nil
}
