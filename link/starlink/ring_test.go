package starlink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
)

// The line keeps FIFO order (a release earlier than the previous one waits
// for it) and grows past its initial size.
func TestLine(t *testing.T) {
	var l line
	var pool packet.Pool
	for i := range 200 {
		p := pool.Get()
		p.Seq = uint64(i)
		rel := time.Duration(i) * time.Millisecond
		if i == 100 {
			rel = 0 // an OWD step down must not overtake
		}
		l.push(p, rel)
	}
	if l.next() != 0 || l.pop(0) == nil || l.pop(0) != nil {
		t.Fatal("head not released exactly at its time")
	}
	for now := time.Millisecond; now < time.Second; now += time.Millisecond {
		for p := l.pop(now); p != nil; p = l.pop(now) {
			if p.Seq == 100 && now != 99*time.Millisecond {
				t.Errorf("packet 100 released at %v, want with packet 99", now)
			}
		}
	}
	if l.Len() != 0 || l.next() != never {
		t.Errorf("line not empty: %d", l.Len())
	}
}
