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
	// A stable RTT leaves RTTVAR near zero: the variance term is floored at
	// MinRTO as in Linux, so RTO = SRTT + 200 ms; backoff doubles and caps
	// at MaxRTO.
	for i := 0; i < 200; i++ {
		e.sample(10 * time.Millisecond)
	}
	if e.srtt != 10*time.Millisecond || e.current() != 10*time.Millisecond+DefaultMinRTO {
		t.Fatalf("srtt %v RTO %v; want 10ms and 210ms (SRTT + the 200 ms floor)", e.srtt, e.current())
	}
	for k, want := range []time.Duration{420 * time.Millisecond, 840 * time.Millisecond, 1680 * time.Millisecond} {
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

// On a long, stable path the RTO leaves room for Starlink's 45–68 ms
// reconfiguration outages: SRTT 250 ms → RTO ≥ 450 ms.
func TestRTOLongStablePath(t *testing.T) {
	e := newRTTEstimator(SenderConfig{InitialRTO: DefaultInitialRTO, MinRTO: DefaultMinRTO, MaxRTO: DefaultMaxRTO})
	for i := 0; i < 100; i++ {
		e.sample(250*time.Millisecond + time.Duration(i%3)*100*time.Microsecond)
	}
	if got := e.current(); got < 450*time.Millisecond || got > 460*time.Millisecond {
		t.Fatalf("RTO %v on a stable 250 ms path; want ≈ 450 ms (SRTT + 200 ms)", got)
	}
}
