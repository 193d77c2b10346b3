package leocc

import "testing"

// TestWinMax: a maximum survives win rounds and then gives way to the best
// of the later samples; a larger sample or a reset replaces it at once.
func TestWinMax(t *testing.T) {
	var w winMax
	w.reset(0, 0)
	w.add(10, 1, 100)
	for r := int64(2); r <= 11; r++ {
		w.add(10, r, 50)
		if w.best() != 100 {
			t.Fatalf("round %d: best %v, want 100 within the 10-round window", r, w.best())
		}
	}
	w.add(10, 12, 50)
	if w.best() != 50 {
		t.Errorf("round 12: best %v, want 50 once 100 (round 1) is older than 10 rounds", w.best())
	}
	w.add(10, 13, 70)
	if w.best() != 70 {
		t.Errorf("best %v after a new maximum, want 70", w.best())
	}
	w.reset(14, 20)
	if w.best() != 20 {
		t.Errorf("best %v after reset, want 20", w.best())
	}
}

// TestWinMaxFollowsDecline: with a declining input the estimate lags the
// input by at most the window.
func TestWinMaxFollowsDecline(t *testing.T) {
	var w winMax
	for r := int64(0); r < 100; r++ {
		w.add(10, r, float64(1000-r))
		if lagged := float64(1000 - max(r-10, 0)); w.best() > lagged || w.best() < float64(1000-r) {
			t.Fatalf("round %d: best %v outside [%v, %v]", r, w.best(), 1000-r, lagged)
		}
	}
}
