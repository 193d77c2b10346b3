package monitor

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// drive feeds m the ACK rs at now the way a controller does: it closes
// every due period first (recording them) and then adds the ACK.
func drive(m *Monitor, now time.Duration, rs *cc.RateSample, cwnd int, out *[]Interval) {
	for m.Due(now) {
		*out = append(*out, *m.Close(now, cwnd))
	}
	m.Add(now, rs)
}

// An ACK every 2 ms of 1448 B with a 50 ms RTT: a 20 ms monitor opened
// by the ACK at 0 closes [0, 20) at the ACK of 20 ms with the ten ACKs
// 0..18 ms (10·1448 B over 20 ms) and their mean RTT, and the next
// period starts where the last ended.
func TestMonitorPeriods(t *testing.T) {
	m := New(20 * time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 50 * time.Millisecond, MinRTT: 40 * time.Millisecond,
		SRTT: 55 * time.Millisecond, Inflight: 9000}
	var got []Interval
	for i := range 21 {
		rs.LostBytes = 0
		if i == 5 {
			rs.LostBytes = 1448
		}
		drive(m, time.Duration(i)*2*time.Millisecond, &rs, 14480, &got)
	}
	if len(got) != 2 || m.Closed() != 2 {
		t.Fatalf("%d periods closed (%d counted), want 2", len(got), m.Closed())
	}
	if iv := got[0]; iv.Start != 0 || iv.End != 20*time.Millisecond || iv.Acks != 10 || iv.LostBytes != 1448 {
		t.Fatalf("first period %+v", iv)
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
	if iv.AvgRTT() != 50*time.Millisecond || iv.MinRTT != 40*time.Millisecond || iv.CWnd != 14480 || iv.Inflight != 9000 {
		t.Errorf("avg RTT %v, min %v, cwnd %d, inflight %d", iv.AvgRTT(), iv.MinRTT, iv.CWnd, iv.Inflight)
	}
}

// A 200 ms gap in the ACKs (an outage, an RTT step) closes on time: the
// ACK after it closes the period that held the last ACKs and the nine
// empty ones after it, each exactly 20 ms long, with zero delivery,
// the estimators of the last ACK and the window as it stands when each
// closes. A monitor that waited for an ACK to close a period would give
// one period of 200 ms instead.
func TestGapClosesOnTime(t *testing.T) {
	m := New(20 * time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 50 * time.Millisecond, MinRTT: 40 * time.Millisecond, SRTT: 60 * time.Millisecond}
	var got []Interval
	for i := range 10 { // ACKs at 0..18 ms, then nothing until 218 ms
		drive(m, time.Duration(i)*2*time.Millisecond, &rs, 10000, &got)
	}
	if len(got) != 0 {
		t.Fatalf("%d periods before the gap ended", len(got))
	}
	cwnd := 10000
	now := 218 * time.Millisecond
	for m.Due(now) {
		got = append(got, *m.Close(now, cwnd))
		cwnd /= 2 // a controller acting on each
	}
	if len(got) != 10 {
		t.Fatalf("%d periods closed by the ACK at %v, want 10 ([0, 200) ms)", len(got), now)
	}
	for k, iv := range got {
		if iv.Start != time.Duration(k)*20*time.Millisecond || iv.Duration() != 20*time.Millisecond {
			t.Fatalf("period %d: [%v, %v)", k, iv.Start, iv.End)
		}
		if k == 0 {
			if iv.Acks != 10 || iv.CWnd != 10000 {
				t.Errorf("period 0: %d ACKs, cwnd %d", iv.Acks, iv.CWnd)
			}
			continue
		}
		if iv.Acks != 0 || iv.AckedBytes != 0 || iv.Throughput() != 0 || iv.SRTT != rs.SRTT || iv.AvgRTT() != rs.SRTT ||
			iv.MinRTT != rs.MinRTT || iv.CWnd != 10000>>k {
			t.Errorf("empty period %d: %+v", k, iv)
		}
	}
	m.Add(now, &rs)
	if m.Due(now) || m.cur.Start != 200*time.Millisecond || m.cur.Acks != 1 {
		t.Errorf("open period %+v after the gap's ACK", m.cur)
	}
}

// A gap of an hour closes the period before it and the last MaxCatchUp
// periods of the gap, skipping the rest; the periods stay on the grid
// of the first.
func TestLongGapBounded(t *testing.T) {
	const p = 20 * time.Millisecond
	m := New(p)
	rs := cc.RateSample{AckedBytes: 1448}
	m.Add(5*time.Millisecond, &rs)
	now := time.Hour + 5*time.Millisecond + 7*time.Millisecond
	n := 0
	for m.Due(now) {
		m.Close(now, 1)
		n++
	}
	due := int64((now - 5*time.Millisecond) / p)
	if n != MaxCatchUp+1 || m.Skipped() != due-MaxCatchUp-1 || m.Closed()+m.Skipped() != due {
		t.Fatalf("%d closed, %d skipped, want %d and %d", n, m.Skipped(), MaxCatchUp+1, due-MaxCatchUp-1)
	}
	if iv := m.Last(); iv.End != 5*time.Millisecond+time.Duration(due)*p || iv.Duration() != p {
		t.Fatalf("last period [%v, %v), want to end at %v", iv.Start, iv.End, 5*time.Millisecond+time.Duration(due)*p)
	}
}

// Nothing is due before the first ACK opens the first period.
func TestNothingBeforeFirstAck(t *testing.T) {
	m := New(20 * time.Millisecond)
	if m.Due(time.Hour) {
		t.Fatal("due before any ACK")
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

// One ACK a millisecond, with the due check and a close every 20.
func BenchmarkMonitorOnAck(b *testing.B) {
	m := New(20 * time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 50 * time.Millisecond}
	b.ReportAllocs()
	for i := range b.N {
		now := time.Duration(i) * time.Millisecond
		for m.Due(now) {
			m.Close(now, 14480)
		}
		m.Add(now, &rs)
	}
}
