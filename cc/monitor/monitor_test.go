package monitor

import (
	"math"
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

// A 20 ms period of 14480 B acked and 1448 B lost, RTT samples averaging
// 50 ms over a 40 ms min_rtt, a 14480 B window: loss 1448/15928 = 1/11,
// queueing delay (50 − 40)/40 = 0.25, and against a 1 MB/s peak a BDP of
// 1e6·0.04 = 40000 B, so cwnd/BDP = 0.362. Without a min_rtt or a peak the
// normalised features are 0, and a mean RTT below min_rtt is no queue.
func TestIntervalNormalisation(t *testing.T) {
	iv := Interval{Start: 0, End: 20 * time.Millisecond, AckedBytes: 14480, LostBytes: 1448,
		RTTs: 2, RTTSum: 100 * time.Millisecond, MinRTT: 40 * time.Millisecond, CWnd: 14480}
	const tol = 1e-12 // a few float64 roundings of numbers near 1
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"loss fraction", iv.LossFraction(), 1.0 / 11},
		{"queue delay", iv.QueueDelay(), 0.25},
		{"cwnd/bdp", iv.CWndBDP(1e6), 0.362},
		{"cwnd/bdp without a peak", iv.CWndBDP(0), 0},
		{"delay factor at 1.25·min_rtt", DelayFactor(1.25, 40*time.Millisecond, 50*time.Millisecond), 1},
		{"delay factor at 2·min_rtt", DelayFactor(1.25, 40*time.Millisecond, 80*time.Millisecond), 0.625},
		{"delay factor without min_rtt", DelayFactor(1.25, 0, 80*time.Millisecond), 1},
	} {
		if d := c.got - c.want; d > tol || d < -tol {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	low := iv
	low.RTTSum = 70 * time.Millisecond // mean 35 ms < min_rtt 40 ms
	noMin := iv
	noMin.MinRTT = 0
	if low.QueueDelay() != 0 || noMin.QueueDelay() != 0 || noMin.CWndBDP(1e6) != 0 || (&Interval{}).LossFraction() != 0 {
		t.Errorf("queue delay %v below min_rtt, %v and cwnd/bdp %v without one, loss %v of nothing",
			low.QueueDelay(), noMin.QueueDelay(), noMin.CWndBDP(1e6), (&Interval{}).LossFraction())
	}
}

// Peak normalises each period by the largest so far, its own included:
// 0.5 MB/s then 1 MB/s then 0.25 MB/s give ratios 1, 1, 0.25; an empty
// first period gives 0.
func TestPeak(t *testing.T) {
	var p Peak
	period := func(bytes int64) *Interval {
		return &Interval{End: 20 * time.Millisecond, AckedBytes: bytes}
	}
	if thr, r := p.Observe(period(0)); thr != 0 || r != 0 || p.Max() != 0 {
		t.Fatalf("empty period: thr %v ratio %v max %v", thr, r, p.Max())
	}
	for _, c := range []struct {
		bytes            int64
		thr, ratio, peak float64
	}{{10000, 5e5, 1, 5e5}, {20000, 1e6, 1, 1e6}, {5000, 2.5e5, 0.25, 1e6}} {
		thr, r := p.Observe(period(c.bytes))
		if math.Abs(thr-c.thr) > 1e-6 || math.Abs(r-c.ratio) > 1e-12 || math.Abs(p.Max()-c.peak) > 1e-6 {
			t.Errorf("%d B in 20 ms: thr %v ratio %v max %v, want %v %v %v", c.bytes, thr, r, p.Max(), c.thr, c.ratio, c.peak)
		}
	}
}
