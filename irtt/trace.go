package irtt

import (
	"fmt"
	"sort"
	"time"

	"github.com/leolab/leolab/probe"
)

// Directions of a capture: the client sits behind the link (a dish), so
// the server's replies cross the downlink and its requests the uplink.
const (
	Downlink = "downlink" // server → client: irtt's receive delays
	Uplink   = "uplink"   // client → server: irtt's send delays
)

// IP and UDP header sizes: a packet's size on the wire is irtt's length
// (UDP payload) plus these (RFC 791, RFC 8200, RFC 768).
const (
	ipv4UDP = 20 + 8
	ipv6UDP = 40 + 8
)

// Size is a packet's IP size in bytes.
func (c *Capture) Size() int {
	if c.IPv6 {
		return c.Length + ipv6UDP
	}
	return c.Length + ipv4UDP
}

// Trace returns the probe trace of one direction for the prober.
//
// Uplink: each request at its client send time with irtt's send delay;
// lost when irtt says true_up or true (direction unknown); a true_down
// packet reached the server at an unknown time and is left out.
// Downlink: each reply at its server send time (client receive − receive
// delay, on the server's clock) with the receive delay; lost when irtt
// says true_down or true, sent (estimated) one client interval after the
// previous reply as the client spaced the requests; true_up packets had no
// reply and are left out. The trace's epoch is its first send: the
// client's clock up, the server's down.
func (c *Capture) Trace(direction string) (*probe.Trace, error) {
	var s []probe.Sample
	var epoch time.Time
	switch direction {
	case Uplink:
		s = c.upSamples()
		epoch = c.Epoch
	case Downlink:
		var first time.Duration
		s, first = c.downSamples()
		epoch = c.Epoch.Add(first)
	default:
		return nil, fmt.Errorf("direction %q: want %s or %s", direction, Downlink, Uplink)
	}
	delivered := 0
	for _, x := range s {
		if !x.Lost {
			delivered++
		}
	}
	if delivered == 0 {
		return nil, fmt.Errorf("no %s one-way delays: every packet was lost, or the server sent no timestamps (run the client with --tstamp=both --clock=both, irtt's defaults)", direction)
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].Sent < s[j].Sent })
	return &probe.Trace{Epoch: epoch, Size: c.Size(), Spacing: c.Interval, Samples: s}, nil
}

func (c *Capture) upSamples() []probe.Sample {
	s := make([]probe.Sample, 0, len(c.Packets))
	for _, p := range c.Packets {
		switch {
		case p.Loss == LostUp || p.Loss == Lost:
			s = append(s, probe.Sample{Sent: p.ClientSend, Lost: true})
		case p.Loss == Delivered && p.HasUp:
			s = append(s, probe.Sample{Sent: p.ClientSend, OWD: p.Up})
		}
	}
	return s
}

// downSamples returns the downlink samples with their send times rebased
// to the first (which may be an estimate), and that first send time.
func (c *Capture) downSamples() ([]probe.Sample, time.Duration) {
	s := make([]probe.Sample, 0, len(c.Packets))
	var last *Packet // the last reply received
	lastSent := time.Duration(0)
	for i := range c.Packets {
		p := &c.Packets[i]
		switch {
		case p.Loss == Delivered && p.HasDown:
			lastSent, last = p.ClientRecv-p.Down, p
			s = append(s, probe.Sample{Sent: lastSent, OWD: p.Down})
		case p.Loss == LostDown || p.Loss == Lost:
			sent := p.ClientSend // before any reply: the client's clock
			if last != nil {
				sent = lastSent + (p.ClientSend - last.ClientSend)
			}
			s = append(s, probe.Sample{Sent: sent, Lost: true})
		}
	}
	if len(s) == 0 {
		return s, 0
	}
	first := s[0].Sent
	for _, x := range s {
		first = min(first, x.Sent)
	}
	for i := range s {
		s[i].Sent -= first
	}
	return s, first
}
