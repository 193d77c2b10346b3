package qdisc

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// BenchmarkEnqueueDequeue: per-packet cost of each discipline, one enqueue
// and one dequeue per op with 8 flows and a standing queue of ~100
// packets (so the AQMs are active).
func BenchmarkEnqueueDequeue(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			var pool packet.Pool
			drop := func(_ time.Duration, p *packet.Packet, _ link.DropCause) { pool.Put(p) }
			q, err := New(Config{Discipline: name, Limit: link.QueueLimit{Packets: 1000}, ECN: false, RateBps: 100e6}, rng(1), drop)
			if err != nil {
				b.Fatal(err)
			}
			now := time.Duration(0)
			push := func(i int) {
				p := pool.Get()
				p.Flow, p.Size = packet.FlowID(i%8), packet.MTU
				q.Enqueue(now, p)
			}
			for i := range 100 {
				push(i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				now += 120 * time.Microsecond // one MTU at 100 Mbit/s
				push(i)
				if p := q.Dequeue(now); p != nil {
					pool.Put(p)
				}
			}
		})
	}
}
