package qdisc

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// TestPerPacketAllocationFree turns the benchmark's "0 allocs/op" (issue
// 19 acceptance 1) into a check that can fail: every discipline, with
// the limit in packets and in bytes and with ECN off and (where it marks) on, at a 2×
// overload of 64 flows (so the AQM drops or marks and the limit is hit),
// enqueues and dequeues without allocating once its buffers have grown
// to the limit during a warm-up.
func TestPerPacketAllocationFree(t *testing.T) {
	limits := []link.QueueLimit{{Packets: 500}, {Bytes: 500 * packet.MTU}}
	for _, name := range Names() {
		for _, lim := range limits {
			for _, ecn := range []bool{false, true} {
				if in, _ := Lookup(name); ecn && !in.ECN {
					continue
				}
				var pool packet.Pool
				drops := 0
				drop := func(_ time.Duration, p *packet.Packet, _ link.DropCause) { drops++; pool.Put(p) }
				q, err := New(Config{Discipline: name, Limit: lim, ECN: ecn, RateBps: 100e6}, rng(3), drop)
				if err != nil {
					t.Fatal(err)
				}
				now, i := time.Duration(0), 0
				push := func() {
					p := pool.Get()
					p.Flow, p.Size, p.ECT, p.Kind = packet.FlowID(i%64), packet.MTU-(i%3)*500, i%2 == 0, packet.Data
					p.Host = uint32(i % 5) // a few hosts, for CAKE's host isolation
					i++
					q.Enqueue(now, p)
				}
				op := func() {
					now += 120 * time.Microsecond // one MTU at 100 Mbit/s
					push()
					push()
					if p := q.Dequeue(now); p != nil {
						pool.Put(p)
					}
				}
				for range 20000 {
					op()
				}
				if n := testing.AllocsPerRun(5000, op); n != 0 {
					t.Errorf("%s limit %+v ecn %v: %.2f allocations per packet pair", name, lim, ecn, n)
				}
				if drops == 0 {
					t.Errorf("%s limit %+v ecn %v: no drop at a 2× overload; the test did not reach the limit", name, lim, ecn)
				}
			}
		}
	}
}
