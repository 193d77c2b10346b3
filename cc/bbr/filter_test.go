package bbr

import "testing"

// TestMaxFilterWindow checks the filter's guarantees on a noisy signal
// that later drops: the maximum is never below the newest sample and is
// always one of the last 2·win samples (Nichols' filter is approximate
// inside that span: sub-window refreshes may forget a runner-up).
func TestMaxFilterWindow(t *testing.T) {
	const win = 10
	var f maxFilter
	vals := make([]float64, 0, 200)
	for i := range 200 {
		v := float64((i*7)%23) + float64(i%40)/4
		if i > 120 {
			v /= 3 // a lasting drop: the maximum must decay within win ticks
		}
		vals = append(vals, v)
		got := f.update(win, int64(i), v)
		if got < v {
			t.Fatalf("tick %d: max %v below the sample %v", i, got, v)
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

// TestMaxFilterExpiry: a single spike expires after the window.
func TestMaxFilterExpiry(t *testing.T) {
	var f maxFilter
	f.update(10, 0, 100)
	for i := int64(1); i <= 10; i++ {
		if got := f.update(10, i, 1); got != 100 {
			t.Fatalf("tick %d: spike expired early (%v)", i, got)
		}
	}
	if got := f.update(10, 11, 1); got != 1 {
		t.Fatalf("tick 11: spike still held (%v), window is 10 ticks", got)
	}
}
