package capture

import (
	"path/filepath"
	"testing"
	"time"
)

// Packets handed over from another goroutine land in their end's file in
// order, stamped epoch + at, cut at SnapLen with their wire length kept.
func TestLiveWritesBothEnds(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLive(dir)
	if err != nil {
		t.Fatal(err)
	}
	epoch := time.Date(2026, 4, 1, 12, 0, 5, 0, time.UTC)
	l.Start(epoch)
	pkt := make([]byte, 1500)
	pkt[0] = 0x45
	const n = 3 * liveRing / 4 // more than one drain's worth, less than the ring
	done := make(chan struct{})
	go func() { // the pump's thread
		for i := range n {
			l.Packet(i%3 == 0, time.Duration(i)*time.Microsecond, pkt[:60+i%1000])
		}
		close(done)
	}()
	<-done
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	srv, cli := l.Packets()
	if l.Missed() != 0 || srv != n/3 || cli != n-n/3 {
		t.Fatalf("server %d client %d missed %d, want %d %d 0", srv, cli, l.Missed(), n/3, n-n/3)
	}
	_, cis := readAll(t, filepath.Join(dir, ServerFile))
	for k, ci := range cis {
		i := 3 * k
		if ci.Timestamp.UTC() != epoch.Add(time.Duration(i)*time.Microsecond) || ci.Length != 60+i%1000 || ci.CaptureLength != min(60+i%1000, SnapLen) {
			t.Fatalf("server packet %d: %+v", k, ci)
		}
	}
}

// A full ring counts the packet as missed instead of waiting, and the
// hand-over allocates nothing.
func TestLiveRingFull(t *testing.T) {
	l := &Live{ring: make([]record, 4)}
	b := make([]byte, 100)
	if n := testing.AllocsPerRun(100, func() { l.Packet(true, 0, b) }); n != 0 {
		t.Errorf("%.0f allocs per packet", n)
	}
	if l.head.Load() != 4 || l.Missed() != 100+1-4 {
		t.Errorf("head %d missed %d, want 4 and %d", l.head.Load(), l.Missed(), 100+1-4)
	}
}
