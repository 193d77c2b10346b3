package bbrfilter

import "testing"

// TestMaxFilterWindow checks the filter's guarantees on a noisy signal
// that later drops: the maximum is never below the newest sample and is
// always one of the last 2·win samples (Nichols' filter is approximate
// inside that span: sub-window refreshes may forget a runner-up).
func TestMaxFilterWindow(t *testing.T) {
	const win = 10
	var f MaxFilter
	vals := make([]float64, 0, 200)
	for i := range 200 {
		v := float64((i*7)%23) + float64(i%40)/4
		if i > 120 {
			v /= 3 // a lasting drop: the maximum must decay within win ticks
		}
		vals = append(vals, v)
		got := f.Update(win, int64(i), v)
		if got < v {
			t.Fatalf("tick %d: max %v below the sample %v", i, got, v)
		}
		if got != f.Get() {
			t.Fatalf("tick %d: Update returned %v, Get %v", i, got, f.Get())
		}
		// Nichols' filter returns the maximum over a window of win..2·win
		// ticks at worst (it tracks sub-window champions); it never invents
		// a value and never keeps one older than 2·win.
		lo := max(0, i-2*win)
		found := false
		for _, w := range vals[lo : i+1] {
			if w == got {
				found = true
			}
		}
		if !found {
			t.Fatalf("tick %d: max %v not among the last %d samples", i, got, 2*win)
		}
	}
}

// TestMaxFilterExpiry: a maximum survives win ticks and then gives way to
// the best of the later samples; a larger sample or a reset replaces it
// at once.
func TestMaxFilterExpiry(t *testing.T) {
	var f MaxFilter
	f.Reset(0, 0)
	f.Update(10, 1, 100)
	for i := int64(2); i <= 11; i++ {
		if got := f.Update(10, i, 50); got != 100 {
			t.Fatalf("tick %d: max %v, want 100 within the 10-tick window", i, got)
		}
	}
	if got := f.Update(10, 12, 50); got != 50 {
		t.Errorf("tick 12: max %v, want 50 once 100 (tick 1) is older than 10 ticks", got)
	}
	if got := f.Update(10, 13, 70); got != 70 {
		t.Errorf("max %v after a new maximum, want 70", got)
	}
	f.Reset(14, 20)
	if f.Get() != 20 {
		t.Errorf("max %v after reset, want 20", f.Get())
	}
}

// TestMaxFilterFollowsDecline: with a declining input the estimate lags
// the input by at most the window.
func TestMaxFilterFollowsDecline(t *testing.T) {
	var f MaxFilter
	for r := int64(0); r < 100; r++ {
		got := f.Update(10, r, float64(1000-r))
		if lagged := float64(1000 - max(r-10, 0)); got > lagged || got < float64(1000-r) {
			t.Fatalf("tick %d: max %v outside [%v, %v]", r, got, 1000-r, lagged)
		}
	}
}

func BenchmarkMaxFilterUpdate(b *testing.B) {
	b.ReportAllocs()
	var f MaxFilter
	for i := range b.N {
		f.Update(10, int64(i/8), float64(i%37))
	}
}
