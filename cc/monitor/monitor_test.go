package monitor

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// An ACK every 2 ms of 1448 B with a 50 ms RTT: a 20 ms monitor closes
// after ten ACKs past the first with 10·1448 B over 20 ms, their mean RTT,
// and starts the next period where the last ended.
func TestMonitorPeriods(t *testing.T) {
	m := New(20 * time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 50 * time.Millisecond, MinRTT: 40 * time.Millisecond,
		SRTT: 55 * time.Millisecond, Inflight: 9000}
	closed := 0
	for i := range 21 {
		if i == 5 {
			rs.LostBytes = 1448
		} else {
			rs.LostBytes = 0
		}
		if m.OnAck(time.Duration(i)*2*time.Millisecond, &rs, 14480) {
			closed++
			if i != 10 && i != 20 {
				t.Fatalf("period closed at ACK %d", i)
			}
		}
	}
	if closed != 2 {
		t.Fatalf("%d periods closed, want 2", closed)
	}
	iv := m.Last()
	if iv.Start != 20*time.Millisecond || iv.End != 40*time.Millisecond || iv.Acks != 10 || iv.AckedBytes != 14480 {
		t.Fatalf("second period %+v", *iv)
	}
	if got, want := iv.Throughput(), 14480/0.02; got != want {
		t.Errorf("throughput %v B/s, want %v", got, want)
	}
	if iv.LostBytes != 0 || iv.LossRate() != 0 {
		t.Errorf("second period lost %d B", iv.LostBytes)
	}
	if iv.AvgRTT() != 50*time.Millisecond || iv.MinRTT != 40*time.Millisecond || iv.CWnd != 14480 {
		t.Errorf("avg RTT %v, min %v, cwnd %d", iv.AvgRTT(), iv.MinRTT, iv.CWnd)
	}
}

// Without RTT samples the mean falls back to SRTT; an empty interval has
// no throughput.
func TestIntervalFallbacks(t *testing.T) {
	iv := Interval{SRTT: 33 * time.Millisecond}
	if iv.AvgRTT() != 33*time.Millisecond || iv.Throughput() != 0 || iv.LossRate() != 0 {
		t.Fatalf("%+v: avg %v thr %v", iv, iv.AvgRTT(), iv.Throughput())
	}
}

func BenchmarkMonitorOnAck(b *testing.B) {
	m := New(20 * time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 50 * time.Millisecond}
	b.ReportAllocs()
	for i := range b.N {
		m.OnAck(time.Duration(i)*time.Millisecond, &rs, 14480)
	}
}
