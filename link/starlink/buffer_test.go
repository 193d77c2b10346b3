package starlink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
)

// flowStats returns a flow's packets sent and dropped (any cause) among
// those sent in [from, to).
func (b *bench) flowLoss(flow packet.FlowID, from, to time.Duration) (sent, lost int) {
	for _, r := range b.delivered {
		if r.flow == flow && r.sent >= from && r.sent < to {
			sent++
		}
	}
	for _, r := range b.dropped {
		if r.flow == flow && r.sent >= from && r.sent < to {
			sent++
			lost++
		}
	}
	return sent, lost
}

// Acceptance 5, downlink: an elephant at 2x the allocation and a 1 Mbps
// mouse. The mouse's p95 OWD stays within 5 ms of base, the elephant's
// exceeds 50 ms, and the mouse's loss rate is within 2x of the elephant's
// (shared buffer, per-arrival AQM: coupled loss). With isolation off the
// mouse's OWD follows the elephant's.
func TestFlowQueueingDownlink(t *testing.T) {
	// The elephant (680 Mbps) would meet the 500 Mbps PoP limiter first;
	// this test is about the satellite queue, so the PoP is off.
	from, to := time.Second, 4*time.Second // after the ramp, before the 12 s boundary
	for _, iso := range []bool{true, false} {
		p := mustProfile(t, "", map[string]any{"pop.enabled": false, "downlink.queue.isolation": iso})
		b := newBench(t, "downlink", p, 0)
		b.cbr(0, 2*p.Downlink.MaxRate(), 1500, 0, to)
		b.cbr(1, 1e6, 1500, 3*time.Millisecond, to)
		b.loop.RunUntil(to + time.Second)
		base := p.Downlink.BaseOWD + p.TDMA.Frame
		mouse := percentile(b.owds(1, from, to), 0.95)
		eleph := percentile(b.owds(0, from, to), 0.95)
		es, el := b.flowLoss(0, from, to)
		ms, ml := b.flowLoss(1, from, to)
		eLoss, mLoss := float64(el)/float64(es), float64(ml)/float64(ms)
		t.Logf("isolation %v: p95 OWD mouse %v elephant %v; loss mouse %.3f (%d/%d) elephant %.3f",
			iso, mouse, eleph, mLoss, ml, ms, eLoss)
		if iso {
			if mouse > base+5*time.Millisecond {
				t.Errorf("mouse p95 OWD %v, want within 5 ms of %v", mouse, base)
			}
			if eleph <= 50*time.Millisecond {
				t.Errorf("elephant p95 OWD %v, want > 50 ms", eleph)
			}
			if mLoss > 2*eLoss || mLoss < eLoss/2 {
				t.Errorf("mouse loss %.3f not within 2x of the elephant's %.3f", mLoss, eLoss)
			}
			continue
		}
		mouse50 := percentile(b.owds(1, from, to), 0.5)
		eleph50 := percentile(b.owds(0, from, to), 0.5)
		if r := float64(mouse50) / float64(eleph50); r < 0.8 || r > 1.2 {
			t.Errorf("isolation off: mouse median OWD %v vs elephant's %v, want them equal", mouse50, eleph50)
		}
	}
}

// Acceptance 5, uplink: per-flow AQM isolates loss: the mouse loses < 0.1 %.
func TestFlowQueueingUplink(t *testing.T) {
	// Random loss (0.02 %) is off here: the point is the AQM's isolation.
	p := mustProfile(t, "", map[string]any{"uplink.random_loss": 0})
	b := newBench(t, "uplink", p, 0)
	from, to := time.Second, 6*time.Second
	b.cbr(0, 2*p.Uplink.MaxRate(), 1500, 0, to)
	b.cbr(1, 1e6, 100, 3*time.Millisecond, to) // 1250 packets/s
	b.loop.RunUntil(to + time.Second)
	ms, ml := b.flowLoss(1, from, to)
	es, el := b.flowLoss(0, from, to)
	t.Logf("uplink loss mouse %d/%d, elephant %d/%d; mouse p95 OWD %v", ml, ms, el, es, percentile(b.owds(1, from, to), 0.95))
	if float64(ml) >= 0.001*float64(ms) {
		t.Errorf("mouse lost %d of %d, want < 0.1 %%", ml, ms)
	}
	if float64(el) < 0.3*float64(es) {
		t.Errorf("elephant at 2x lost only %d of %d", el, es)
	}
}

// DRR shares a frame budget equally between backlogged flows of equal
// packet size, and dropOldest takes the packet that waited longest.
func TestBufferDRR(t *testing.T) {
	b := newBuffer(true, 1500)
	var pool packet.Pool
	for i := range 300 {
		p := pool.Get()
		p.Flow, p.Size, p.EnqueuedAt = packet.FlowID(i%3), 1500, time.Duration(i)
		if i%3 == 2 {
			p.Size = 500 // flow 2 sends small packets: equal bytes, 3x the packets
		}
		b.push(p)
	}
	bytes := map[packet.FlowID]int{}
	for range 90 {
		p := b.next(1 << 30)
		bytes[p.Flow] += p.Size
	}
	// A round serves 1500 B of each flow: one packet of flows 0 and 1, three
	// of flow 2; 90 packets are 18 rounds.
	if bytes[0] != bytes[1] || bytes[0] != bytes[2] {
		t.Errorf("DRR bytes per flow %v, want equal", bytes)
	}
	old := b.dropOldest()
	// Flow 0's 19th packet (enqueued at 3 x 18) is the oldest left.
	if old == nil || old.EnqueuedAt != 54 {
		t.Errorf("dropOldest = %+v, want the packet enqueued at 54", old)
	}
	if got := b.next(1000); got != nil && got.Size > 1000 {
		t.Errorf("next(1000) returned %d bytes", got.Size)
	}
}
