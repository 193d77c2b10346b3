package transport

import (
	"testing"
	"time"
)

// A flow held by its send buffer, not its window, is application limited
// to its controller, as Linux marks it at each write
// (tcp_rate_check_app_limited in tcp_sendmsg_locked: the application found
// everything sent with the window not full). A window of 100 segments
// behind a 30-segment buffer on a 100 Mbit/s, 40 ms path: once the first
// round is acknowledged, every delivery-rate sample is taken while the
// flow waits for its application, so nearly all are marked; with a buffer
// above the window none is.
func TestSendBufferAppLimited(t *testing.T) {
	for _, c := range []struct {
		sndbuf   int
		min, max float64 // share of samples marked application limited
	}{{30 * mss, 0.9, 1}, {400 * mss, 0, 0}} {
		ctrl := &fixedCC{cwnd: 100 * mss, keep: true}
		p := newPath(t, SenderConfig{SndBuf: c.sndbuf}, ctrl, mbps(100), 20*time.Millisecond, 20*time.Millisecond)
		p.run(2 * time.Second)
		marked := 0
		for _, rs := range ctrl.samples {
			if rs.IsAppLimited {
				marked++
			}
		}
		share := float64(marked) / float64(len(ctrl.samples))
		if len(ctrl.samples) < 100 || share < c.min || share > c.max {
			t.Errorf("sndbuf %d segments: %d of %d samples application limited (%.2f), want %.2f–%.2f",
				c.sndbuf/mss, marked, len(ctrl.samples), share, c.min, c.max)
		}
	}
}
