package link

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
)

// keyedLosses sends one packet every gap for d through a keyed loss of
// probability p and returns the (bin, position) of each arrival and
// whether it was lost.
func keyedLosses(t *testing.T, p float64, gap, d time.Duration) map[[2]int64]bool {
	t.Helper()
	var lost bool
	l, err := NewKeyedLoss(p, 42, time.Millisecond, func(time.Duration, *packet.Packet, DropCause) { lost = true })
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]int64]bool{}
	var pk packet.Packet
	last, pos := int64(-1), int64(0)
	for now := time.Duration(0); now < d; now += gap {
		lost = false
		l.Enqueue(now, &pk)
		l.Dequeue(now)
		b := int64(now / time.Millisecond)
		if b != last {
			last, pos = b, 0
		}
		out[[2]int64{b, pos}] = lost
		pos++
	}
	return out
}

// A keyed loss loses the n-th arrival of a bin in every run of one key,
// whatever the arrival rate, and still at rate p: 5 and 8 arrivals per
// 1 ms bin for 10 s at p = 0.1 share 50 000 positions, all with one fate,
// and the first run's loss share is 0.1 within 5 sd (sd 0.0013).
func TestKeyedLossIsCommon(t *testing.T) {
	a := keyedLosses(t, 0.1, 200*time.Microsecond, 10*time.Second)
	b := keyedLosses(t, 0.1, 125*time.Microsecond, 10*time.Second)
	shared, nLost := 0, 0
	for k, fa := range a {
		if fa {
			nLost++
		}
		if fb, ok := b[k]; ok {
			shared++
			if fa != fb {
				t.Fatalf("bin %d position %d: lost %v in one run, %v in the other", k[0], k[1], fa, fb)
			}
		}
	}
	if shared != len(a) {
		t.Errorf("%d shared positions, want all %d of the slower run", shared, len(a))
	}
	f := float64(nLost) / float64(len(a))
	if sd := math.Sqrt(0.1 * 0.9 / float64(len(a))); math.Abs(f-0.1) > 5*sd {
		t.Errorf("loss share %.4f, want 0.1 ± %.4f", f, 5*sd)
	}
}

// Draws of distinct processes, bins and positions are uncorrelated
// uniforms: the mean of 1e5 draws is 1/2 within 5 sd (sd 1/sqrt(12e5)),
// and two processes' draws at the same keys have a correlation within 5
// sd of 0 (sd 1/sqrt(1e5)).
func TestDrawUniform(t *testing.T) {
	const n = 100000
	var sa, sb, sab, saa, sbb float64
	for i := range n {
		a, b := Draw(7, 1, int64(i/10), i%10), Draw(7, 2, int64(i/10), i%10)
		if a < 0 || a >= 1 {
			t.Fatalf("draw %v outside [0, 1)", a)
		}
		sa, sb, sab, saa, sbb = sa+a, sb+b, sab+a*b, saa+a*a, sbb+b*b
	}
	if m := sa / n; math.Abs(m-0.5) > 5/math.Sqrt(12*n) {
		t.Errorf("mean %v, want 0.5", m)
	}
	ma, mb := sa/n, sb/n
	r := (sab/n - ma*mb) / math.Sqrt((saa/n-ma*ma)*(sbb/n-mb*mb))
	if math.Abs(r) > 5/math.Sqrt(n) {
		t.Errorf("correlation of two processes' draws %v, want 0", r)
	}
}

func BenchmarkDraw(b *testing.B) {
	b.ReportAllocs()
	s := 0.0
	for i := 0; b.Loop(); i++ {
		s += Draw(7, 1, int64(i>>4), i&15)
	}
	_ = s
}
