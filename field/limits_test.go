package field

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestRequestNumbers: the wire's rate goes through the shared check, so a
// NaN, an infinite or a vanishing rate is refused with the allowed range
// (1e-9 bit/s once passed and made the packet gap overflow).
func TestRequestNumbers(t *testing.T) {
	ok := request{Version: version, Direction: Down, RateBps: 8e6, Size: 1000, DurationNs: int64(time.Minute)}
	if err := ok.validate(); err != nil {
		t.Fatalf("a default request refused: %v", err)
	}
	for _, r := range []float64{math.NaN(), math.Inf(1), 1e-9, 1e300, -1} {
		req := ok
		req.RateBps = r
		err := req.validate()
		if err == nil || !strings.Contains(err.Error(), "rate") || !strings.Contains(err.Error(), "allowed: 1kbps..1Gbps") {
			t.Errorf("rate %g: %v, want a refusal naming the allowed range", r, err)
		}
	}
}
