package scenario_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/scenario"
)

// ackCounter counts the data segments the receiver takes in and the ACKs
// it sends.
type ackCounter struct{ segs, acks int }

func (c *ackCounter) Packet(_ time.Duration, at netsim.Point, p *packet.Packet) {
	switch {
	case at == netsim.ReceiverIn && p.Kind == packet.Data:
		c.segs++
	case at == netsim.ReceiverOut:
		c.acks++
	}
}

// tdma.gro_segments: the receiver ACKs each frame's batch in pieces of up
// to that many segments, as Linux GRO merges a NAPI poll's in-order
// segments into one skb. A window of 600 segments on Sydney's downlink
// (~210 Mbit/s at its 33 ms RTT, below the allocation; the outages hold
// their arrivals, the AQM, the random and the terrestrial loss are off, so nothing is lost and every segment
// arrives in order, ~23 a 1.33 ms frame) gets an ACK per two
// segments without it (RFC 1122 delayed ACKs, Linux __tcp_ack_snd_check)
// and about one per five with 5: floor(b/5) ACKs per batch of b, plus one
// for a rest of two or more, 0.20–0.25 per segment for batches of 15–30.
func TestStarlinkGRO(t *testing.T) {
	for _, c := range []struct {
		gro      int
		min, max float64 // ACKs per data segment
	}{{0, 0.49, 0.51}, {5, 0.20, 0.25}} {
		yaml := fmt.Sprintf("version: 1\nname: gro\nduration: 10s\npath: {profile: starlink, city: sydney, direction: downlink, overrides: {tdma.gro_segments: %d, downlink.outage.arrival_loss: 0, downlink.aqm.min_packets: 1499, downlink.random_loss: 0, terrestrial.downlink_loss: 0}}\nflows: [{cca: fixed, params: {cwnd: 600}}]\n", c.gro)
		_, spec, err := scenario.ParseSpec("gro.yaml", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		n := &ackCounter{}
		spec.Tap = n
		res, err := netsim.Run(spec)
		if err != nil {
			t.Fatal(err)
		}
		if r := float64(n.acks) / float64(n.segs); r < c.min || r > c.max {
			t.Errorf("gro_segments %d: %d ACKs for %d segments (%d retransmitted), %.3f per segment; want %.2f–%.2f",
				c.gro, n.acks, n.segs, res.Flows[0].Retransmits, r, c.min, c.max)
		}
	}
}
