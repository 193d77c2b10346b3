package main

import (
	"testing"
	"time"
)

// The default queue is one bandwidth-delay product in 1500-byte packets:
// 100 Mbit/s × 50 ms = 625 000 B = 416.7 packets (truncated to 416; DESIGN.md
// rounds the same product up to 417); a given --queue is kept.
func TestQueueLimit(t *testing.T) {
	cases := []struct {
		rate  float64
		rtt   time.Duration
		queue int
		want  int
	}{
		{100e6, 50 * time.Millisecond, 0, 416},
		{20e6, 20 * time.Millisecond, 0, 33}, // 50 000 B / 1500 = 33.3
		{1e3, time.Millisecond, 0, 1},        // under one packet: at least one
		{100e6, 50 * time.Millisecond, 40, 40},
	}
	for _, c := range cases {
		l := linkFlags{rtt: c.rtt, queue: c.queue}
		if got := l.queueLimit(c.rate); got != c.want {
			t.Errorf("%g bit/s, %v, --queue %d: limit %d, want %d", c.rate, c.rtt, c.queue, got, c.want)
		}
	}
}
