package reno

import (
	"testing"

	"github.com/leolab/leolab/cc"
)

// sendFlight sends n segments one by one into a window of cwnd bytes, the
// k-th leaving k segments in flight.
func sendFlight(u *Usage, n, cwnd int, appLimited bool) {
	for i := 1; i <= n; i++ {
		u.OnSend(cc.SentInfo{Bytes: testMSS, Inflight: i * testMSS, AppLimited: appLimited}, cwnd, testMSS)
	}
}

func TestUsageWithoutSendsIsLimited(t *testing.T) {
	var u Usage
	if !u.Limited(10*testMSS, false) {
		t.Fatal("fresh tracker must allow growth")
	}
}

func TestUsageFullWindow(t *testing.T) {
	var u Usage
	cwnd := 10 * testMSS
	sendFlight(&u, 10, cwnd, false)
	if !u.Limited(cwnd, false) {
		t.Fatal("a window sent in full must count as cwnd-limited")
	}
}

func TestUsageAppLimitedBlocksAvoidanceGrowth(t *testing.T) {
	var u Usage
	cwnd := 100 * testMSS
	// The application keeps only 30 segments in flight.
	sendFlight(&u, 30, cwnd, true)
	if u.Limited(cwnd, false) {
		t.Fatal("30 of 100 segments in flight: avoidance must not grow")
	}
	// Slow start may grow while cwnd < 2·max flight (60 segments).
	if !u.Limited(50*testMSS, true) || u.Limited(60*testMSS, true) {
		t.Fatal("slow start must grow up to twice the largest flight, not beyond")
	}
}

func TestUsageForgetsAfterWindow(t *testing.T) {
	var u Usage
	cwnd := 10 * testMSS
	sendFlight(&u, 10, cwnd, false)
	// Everything sent so far is delivered; the next window is app-limited.
	u.OnAck(&cc.RateSample{TotalDelivered: 10 * testMSS})
	u.OnSend(cc.SentInfo{Bytes: testMSS, Inflight: testMSS}, cwnd, testMSS)
	if u.Limited(cwnd, false) {
		t.Fatal("limited state must end with its window of data")
	}
}

func TestRenoAppLimitedDoesNotGrow(t *testing.T) {
	r := newReno(testMSS, 100*testMSS, 100*testMSS)
	var a acker
	for range 5 {
		for i := 1; i <= 20; i++ {
			r.OnSend(a.now, cc.SentInfo{Bytes: testMSS, Inflight: i * testMSS, AppLimited: true})
		}
		for range 20 {
			a.ack(r, 1, false, false)
		}
	}
	if r.CWnd() != 100*testMSS {
		t.Fatalf("app-limited flow grew its window to %.1f segments", segs(r))
	}
}
