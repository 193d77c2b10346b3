package starlink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
)

// Above the PoP rate the excess waits upstream (then is policed); below it
// the limiter adds only serialisation.
func TestPoPLimiter(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"pop.limit_packets": 100})
	b := newBench(t, "downlink", p, 0)
	b.cbr(0, 600e6, 1500, 0, 200*time.Millisecond) // 100 Mbps over the PoP's 500
	b.loop.RunUntil(time.Second)
	// 200 ms x 100 Mbps excess = 1667 packets, minus the 100 buffered.
	if got := b.nDrop[link.DropPolicer]; got < 1500 || got > 1600 {
		t.Errorf("policer drops %d, want ~1567", got)
	}
	l := popLimiter{rate: 500e6, limit: 10}
	pk := b.pool.Get()
	pk.Size = 1500
	l.offer(time.Millisecond, pk)
	if got := l.q.next(); got != time.Millisecond+24*time.Microsecond {
		t.Errorf("release %v, want 1.024ms", got)
	}
}
