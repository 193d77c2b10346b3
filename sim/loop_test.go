package sim

import (
	"testing"
	"time"
)

type recorder struct {
	got   []int
	times []time.Duration
}

func (r *recorder) Fire(now time.Duration, arg int) {
	r.got = append(r.got, arg)
	r.times = append(r.times, now)
}

func TestLoopOrderTiesAndCancel(t *testing.T) {
	l := NewLoop()
	r := &recorder{}
	l.Schedule(30*time.Millisecond, r, 3)
	l.Schedule(10*time.Millisecond, r, 1)
	l.Schedule(10*time.Millisecond, r, 2) // same time: after 1 (scheduling order)
	c := l.Schedule(20*time.Millisecond, r, 99)
	l.Schedule(50*time.Millisecond, r, 5)
	l.Cancel(c)
	if l.Pending(c) {
		t.Fatal("cancelled timer still pending")
	}
	l.RunUntil(40 * time.Millisecond)
	want := []int{1, 2, 3}
	if len(r.got) != len(want) {
		t.Fatalf("fired %v, want %v", r.got, want)
	}
	for i := range want {
		if r.got[i] != want[i] {
			t.Fatalf("fired %v, want %v", r.got, want)
		}
	}
	if l.Now() != 40*time.Millisecond {
		t.Fatalf("Now=%v after RunUntil(40ms)", l.Now())
	}
	// Scheduling in the past fires at now, never earlier.
	l.Schedule(time.Millisecond, r, 7)
	l.RunUntil(60 * time.Millisecond)
	if r.times[3] != 40*time.Millisecond || r.got[4] != 5 {
		t.Fatalf("past event at %v, order %v", r.times[3], r.got)
	}
}

func TestLoopHeapRandomOrder(t *testing.T) {
	l := NewLoop()
	r := &recorder{}
	rng := Stream(1, "test")
	for i := 0; i < 10000; i++ {
		l.Schedule(time.Duration(rng.IntN(1000000)), r, i)
	}
	l.RunUntil(Never - 1)
	for i := 1; i < len(r.times); i++ {
		if r.times[i] < r.times[i-1] {
			t.Fatalf("time went backwards at %d: %v < %v", i, r.times[i], r.times[i-1])
		}
	}
	if len(r.got) != 10000 {
		t.Fatalf("fired %d events, want 10000", len(r.got))
	}
}

func TestStreamsIndependentAndDeterministic(t *testing.T) {
	a1, a2 := Stream(7, "a"), Stream(7, "a")
	b := Stream(7, "b")
	same, diff := 0, 0
	for i := 0; i < 100; i++ {
		x, y, z := a1.Uint64(), a2.Uint64(), b.Uint64()
		if x == y {
			same++
		}
		if x != z {
			diff++
		}
	}
	if same != 100 || diff != 100 {
		t.Fatalf("same=%d diff=%d, want 100 100", same, diff)
	}
}

type nop struct{}

func (nop) Fire(time.Duration, int) {}

func BenchmarkLoopScheduleFire(b *testing.B) {
	l := NewLoop()
	var h nop
	for i := 0; i < 1000; i++ {
		l.Schedule(time.Duration(i), h, 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Schedule(l.Now()+time.Duration(1000+i%97), h, 0)
		l.RunUntil(l.Now() + 1)
	}
}
