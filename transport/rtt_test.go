package transport

import (
	"testing"
	"time"
)

func TestRTTEstimatorRFC6298(t *testing.T) {
	e := newRTTEstimator(SenderConfig{}.withDefaults())
	if e.current() != time.Second {
		t.Fatalf("initial RTO %v; want 1s (RFC 6298 §2.1)", e.current())
	}
	// First sample R: SRTT = R, RTTVAR = R/2, RTO = R + 4·R/2 = 3R.
	e.sample(100 * time.Millisecond)
	if e.srtt != 100*time.Millisecond || e.rttvar != 50*time.Millisecond || e.current() != 300*time.Millisecond {
		t.Fatalf("after first sample: srtt %v rttvar %v rto %v", e.srtt, e.rttvar, e.current())
	}
	// Second sample 200 ms: RTTVAR = 3/4·50 + 1/4·|100-200| = 62.5 ms,
	// SRTT = 7/8·100 + 1/8·200 = 112.5 ms, RTO = 112.5 + 250 = 362.5 ms.
	e.sample(200 * time.Millisecond)
	if e.rttvar != 62500*time.Microsecond || e.srtt != 112500*time.Microsecond || e.current() != 362500*time.Microsecond {
		t.Fatalf("after second sample: srtt %v rttvar %v rto %v", e.srtt, e.rttvar, e.current())
	}
	// Small RTTs are floored at MinRTO; backoff doubles and caps at MaxRTO.
	for i := 0; i < 50; i++ {
		e.sample(10 * time.Millisecond)
	}
	if e.current() != DefaultMinRTO {
		t.Fatalf("RTO %v; want the 200 ms floor", e.current())
	}
	for k, want := range []time.Duration{400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond} {
		e.backoff++
		if e.current() != want {
			t.Errorf("backoff %d: %v; want %v", k+1, e.current(), want)
		}
	}
	e.backoff = 20
	if e.current() != DefaultMaxRTO {
		t.Errorf("backed-off RTO %v; want the 120 s cap", e.current())
	}
}
