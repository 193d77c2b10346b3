package vivace

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// The utility of §3 worked by hand at 100 Mbit/s: 100^0.9 = 63.096; 5%
// loss costs 11.35·100·0.05 = 56.75; an RTT slope of 0.01 costs 900.
func TestUtility(t *testing.T) {
	for _, tc := range []struct {
		x, g, l, want float64
	}{
		{100, 0, 0, math.Pow(100, 0.9)},
		{100, 0, 0.05, math.Pow(100, 0.9) - 56.75},
		{100, 0.01, 0, math.Pow(100, 0.9) - 900},
		{100, -0.01, 0, math.Pow(100, 0.9) + 900},
	} {
		if got := utility(tc.x, tc.g, tc.l); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("u(%v, %v, %v) = %v, want %v", tc.x, tc.g, tc.l, got, tc.want)
		}
	}
}

// An MI fed RTTs that rise linearly at slope s reports dRTT/dT = s; slopes
// under the 0.02 noise filter count as 0.
func TestMonitorGradientAndLoss(t *testing.T) {
	for _, slope := range []float64{0.1, 0.05, -0.03, 0.01} {
		var m monitor
		m.begin(12.5e6, time.Second, 50*time.Millisecond, 0)
		for i := range 50 {
			now := time.Second + time.Duration(i)*time.Millisecond
			rtt := 50*time.Millisecond + time.Duration(slope*float64(now-time.Second))
			rs := cc.RateSample{AckedBytes: 1448, RTT: rtt}
			if i%10 == 0 {
				rs.LostBytes = 1448
			}
			m.add(now, &rs)
		}
		want := slope
		if math.Abs(slope) < rttGradientFilter {
			want = 0
		}
		if g := m.rttGradient(); math.Abs(g-want) > 1e-3 {
			t.Errorf("slope %v: gradient %v, want %v", slope, g, want)
		}
		if l := m.lossRate(); math.Abs(l-5.0/55) > 1e-12 {
			t.Errorf("loss rate %v, want 5/55", l)
		}
	}
}

func TestMonitorHolds(t *testing.T) {
	var m monitor
	if m.holds(0) {
		t.Fatal("a monitor not begun holds bytes")
	}
	m.begin(1e6, 0, time.Second, 1000)
	if m.holds(999) || !m.holds(1000) || !m.holds(1<<40) {
		t.Fatal("an open monitor holds everything from its start")
	}
	m.endOff = 5000
	if !m.holds(4999) || m.holds(5000) {
		t.Fatal("a closed monitor holds [start, end)")
	}
}
