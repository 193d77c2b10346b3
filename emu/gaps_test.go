package emu

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leolab/leolab/internal/sched"
)

// Time away from the loop counts beyond the sleep asked for, and only
// above gapMin.
func TestGapMeter(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	var g gapMeter
	g.loop(ms(1)) // first top: nothing to compare
	g.sleep(ms(1))
	g.loop(ms(2.1)) // 0.1 ms beyond the sleep: a normal iteration
	g.loop(ms(4.5)) // 2.4 ms without a sleep: a gap
	g.sleep(ms(0.5))
	g.loop(ms(5.5)) // 0.5 ms beyond a 0.5 ms sleep
	g.sleep(ms(1))
	g.loop(ms(9.5)) // woke 3 ms after a 1 ms sleep: a gap
	if g.n != 2 || g.max != ms(3) || g.total != ms(5.4) {
		t.Errorf("gaps %d, max %v, total %v; want 2, 3ms, 5.4ms", g.n, g.max, g.total)
	}
}

// A real-time thread above the pump's priority takes the pump's CPU for
// 5 ms: the pump must report one gap of about that length.
func TestPumpGapFromHog(t *testing.T) {
	needEmu(t)
	const hog = 5 * time.Millisecond
	e, err := Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cpu := e.PumpCPU()
	if cpu < 0 {
		t.Skip("skipping: the pump is not pinned (one CPU)")
	}
	time.Sleep(200 * time.Millisecond)
	// A garbage collection would stop the hog's goroutine mid-loop and
	// hand the CPU back to the pump, splitting the gap.
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	done := make(chan error, 1)
	go func() {
		// Never unlocked: the thread exits with its pin and policy.
		runtime.LockOSThread()
		if _, err := sched.Pin(cpu); err != nil {
			done <- err
			return
		}
		if err := sched.Set(unix.SCHED_FIFO, pumpPriority+1); err != nil {
			done <- err
			return
		}
		for t0 := time.Now(); time.Since(t0) < hog; {
		}
		done <- nil
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	st, err := e.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("gaps %d, max %v, total %v", st.Gaps, st.GapMax, st.GapTotal)
	// The pump may have asked for up to maxSleepMs when the hog started;
	// a host on a VM may add its own gaps, never shorten this one.
	if st.Gaps < 1 || st.GapMax < hog-maxSleepMs*time.Millisecond-time.Millisecond || st.GapMax > hog+50*time.Millisecond {
		t.Errorf("gaps %d, longest %v; want one of about %v", st.Gaps, st.GapMax, hog)
	}
}
