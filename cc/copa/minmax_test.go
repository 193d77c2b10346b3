package copa

import (
	"math/rand/v2"
	"testing"
	"time"
)

// bruteMin is the exact minimum of the samples within win of t.
func bruteMin(ts, vs []time.Duration, win, t time.Duration) time.Duration {
	m := time.Duration(1 << 62)
	for i := range ts {
		if t-ts[i] <= win {
			m = min(m, vs[i])
		}
	}
	return m
}

// The filter's minimum is always a sample from inside the window and never
// below the true windowed minimum; whenever the true minimum is a recent
// sample (within the last quarter window) it is found exactly.
func TestWindowMinAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var f windowMin
	var ts, vs []time.Duration
	win := 100 * time.Millisecond
	now := time.Duration(0)
	for i := range 20000 {
		now += time.Duration(rng.IntN(3000)) * time.Microsecond
		v := time.Duration(50+rng.IntN(50)) * time.Millisecond
		if i%500 < 50 {
			v -= 20 * time.Millisecond // occasional dips
		}
		ts, vs = append(ts, now), append(vs, v)
		got := f.update(win, now, v)
		want := bruteMin(ts, vs, win, now)
		if got < want {
			t.Fatalf("sample %d: filter %v below the true windowed minimum %v", i, got, want)
		}
		if f.s[0].t < now-win {
			t.Fatalf("sample %d: reported minimum from %v, outside the window ending %v", i, f.s[0].t, now)
		}
		if bruteMin(ts, vs, win/4, now) == want && got != want {
			t.Fatalf("sample %d: recent minimum %v missed (filter %v)", i, want, got)
		}
	}
}

func TestWindowMax(t *testing.T) {
	var f windowMax
	f.update(time.Second, 0, 5)
	f.update(time.Second, 100*time.Millisecond, 9)
	f.update(time.Second, 500*time.Millisecond, 7) // after win/4: kept as second choice
	if f.get() != 9 {
		t.Fatalf("max %v, want 9", f.get())
	}
	if got := f.update(time.Second, 1200*time.Millisecond, 3); got != 7 {
		t.Fatalf("after the 9 expired: max %v, want 7", got)
	}
}

func BenchmarkWindowMin(b *testing.B) {
	var f windowMin
	b.ReportAllocs()
	for i := range b.N {
		f.update(50*time.Millisecond, time.Duration(i)*time.Microsecond, time.Duration(60000+i%1000)*time.Microsecond)
	}
}
