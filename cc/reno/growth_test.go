package reno

import "testing"

func TestSlowStart(t *testing.T) {
	tests := []struct {
		name                 string
		cwnd, ssthresh, ackd int
		wantCWnd, wantLeft   int
	}{
		{"below threshold", 10, 100, 2, 12, 0},
		{"stretch ACK counts fully", 10, 100, 8, 18, 0},
		{"reaches threshold with leftover", 98, 100, 5, 100, 3},
		{"exactly at threshold", 99, 100, 1, 100, 0},
		{"above threshold is a no-op", 120, 100, 4, 120, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, left := SlowStart(tt.cwnd, tt.ssthresh, tt.ackd)
			if got != tt.wantCWnd || left != tt.wantLeft {
				t.Fatalf("SlowStart(%d,%d,%d) = %d,%d; want %d,%d", tt.cwnd, tt.ssthresh, tt.ackd, got, left, tt.wantCWnd, tt.wantLeft)
			}
		})
	}
}

// TestAIGrowth reproduces tcp_cong_avoid_ai's behaviour with MSS 1 (so the
// numbers read as Linux's segment counts): w = 10, a stretch ACK of 20
// grows the window by 2, remainders carry over, and credit earned at a
// larger w is paid out as a single segment when w shrinks.
func TestAIGrowth(t *testing.T) {
	var a AI
	if got := a.Grow(10, 10, 20, 1); got != 12 || a.Credit() != 0 {
		t.Fatalf("w=10 acked=20: cwnd %d credit %d, want 12, 0", got, a.Credit())
	}
	if got := a.Grow(12, 10, 7, 1); got != 12 || a.Credit() != 7 {
		t.Fatalf("partial: cwnd %d credit %d, want 12, 7", got, a.Credit())
	}
	if got := a.Grow(12, 10, 3, 1); got != 13 || a.Credit() != 0 {
		t.Fatalf("completion: cwnd %d credit %d, want 13, 0", got, a.Credit())
	}
	a.Grow(13, 100, 60, 1) // credit 60 at w = 100
	if got := a.Grow(13, 5, 1, 1); got != 14 || a.Credit() != 1 {
		t.Fatalf("shrunk w: cwnd %d credit %d, want 14 (one gentle step), 1", got, a.Credit())
	}
	a.Reset()
	if a.Credit() != 0 {
		t.Fatal("Reset kept credit")
	}
}

// TestAIBytesMatchSegments checks that byte counting with full segments
// grows exactly as Linux's per-segment counter.
func TestAIBytesMatchSegments(t *testing.T) {
	const mss = 1448
	var seg, byt AI
	cs, cb := 50, 50*mss
	for range 10000 {
		cs = seg.Grow(cs, cs, 1, 1)
		cb = byt.Grow(cb, cb, mss, mss)
	}
	if cb != cs*mss {
		t.Fatalf("bytes %d (= %.2f segments) vs segments %d", cb, float64(cb)/mss, cs)
	}
}

func BenchmarkAIGrow(b *testing.B) {
	var a AI
	cwnd := 100 * 1448
	b.ReportAllocs()
	for range b.N {
		cwnd = a.Grow(cwnd, cwnd, 1448, 1448)
		if cwnd > 1<<30 {
			cwnd = 100 * 1448
		}
	}
}
