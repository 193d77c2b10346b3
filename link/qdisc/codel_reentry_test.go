package qdisc

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
)

// TestCoDelReentryResumesCount checks RFC 8289 §5.5's re-entry rule: when
// CoDel enters drop state again within 16 INTERVALs of its last scheduled
// drop, it starts from count − lastcount (the drop rate that controlled the
// queue before), so its second drop comes INTERVAL/sqrt(count) after the
// first; after a longer pause it starts over at count = 1 (second drop a
// whole INTERVAL later). A 2× CBR overload with a 50-packet limit keeps the
// sojourn above TARGET for 3 s; the load pauses (the 50 ms backlog drains
// and CoDel leaves drop state) and resumes after a short pause (0.3 s) or
// a long one (3 s).
func TestCoDelReentryResumesCount(t *testing.T) {
	for _, c := range []struct {
		pause  time.Duration
		resume bool
	}{{300 * time.Millisecond, true}, {3 * time.Second, false}} {
		first := cbr(0, 1500, 2*rate12)
		first.until = 3 * time.Second
		again := cbr(1, 1500, 2*rate12)
		again.next = first.until + c.pause
		var q *CoDel
		b := newBench(t, rate12, func(drop link.DropFunc) link.Queue {
			q = NewCoDel(CoDelTarget, CoDelInterval, link.QueueLimit{Packets: 50}, false, drop)
			return q
		}, first, again)
		var (
			entries     int
			countAtExit int
			wasDropping bool
			lastAQM     int64
			entryAt     time.Duration
			entryCount  int
			second      time.Duration // the second AQM drop of the second episode
			secondDrops int
		)
		for at := time.Millisecond; at <= again.next+3*time.Second && second == 0; at += time.Millisecond {
			b.run(at)
			st := q.Stats()
			if q.vars.dropping && !wasDropping {
				entries++
				if entries == 2 {
					entryAt, entryCount = at, q.vars.count
				}
			}
			if !q.vars.dropping && wasDropping && entries == 1 {
				countAtExit = q.vars.count
			}
			if entries == 2 && st.AQMDrops > lastAQM {
				secondDrops += int(st.AQMDrops - lastAQM)
				if secondDrops >= 2 {
					second = at
				}
			}
			wasDropping, lastAQM = q.vars.dropping, st.AQMDrops
		}
		if entries != 2 || second == 0 || countAtExit < 10 {
			t.Fatalf("pause %v: %d entries into drop state, count %d at the first exit, second drop at %v", c.pause, entries, countAtExit, second)
		}
		want := 1 // first episode's lastcount is 1: it entered from count 0
		if c.resume {
			want = countAtExit - 1
		}
		gap := CoDelInterval
		if c.resume {
			gap = time.Duration(float64(CoDelInterval) / math.Sqrt(float64(want)))
		}
		t.Logf("pause %v: count %d at exit; re-entry at %v with count %d (want %d); second drop %v later (want %v, rounded up to a service start)",
			c.pause, countAtExit, entryAt, entryCount, want, second-entryAt, gap)
		if entryCount != want {
			t.Errorf("pause %v: re-entered with count %d, want %d", c.pause, entryCount, want)
		}
		if d := second - entryAt; d < gap || d > gap+time.Millisecond {
			t.Errorf("pause %v: second drop %v after re-entry, want %v (+ up to 1 ms to the next service start)", c.pause, d, gap)
		}
	}
}
