package emu

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/link/starlink"
	"github.com/leolab/leolab/profile"
)

func TestStarlinkScheduleWallClock(t *testing.T) {
	at := time.Date(2026, 11, 30, 21, 7, 42, 500e6, time.FixedZone("x", 5*3600+1800))
	p := mustStarlink(t, nil)
	s := StarlinkSchedule(p, at)
	// Boundaries at :12/:27/:42/:57: the next after :42.5 is :57.
	if got := s.Next(time.Millisecond); got != 14500*time.Millisecond {
		t.Errorf("next boundary %v after t0 = :42.5, want 14.5 s", got)
	}
}

func mustStarlink(tb testing.TB, ov map[string]any) *profile.StarlinkProfile {
	tb.Helper()
	p, err := profile.Starlink("", ov)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// starlinkEmu starts an emulator on the live Starlink path of p with link
// samples every interval, and returns it with its schedule.
func starlinkEmu(tb testing.TB, p *profile.StarlinkProfile, interval time.Duration) (*Emulator, starlink.Schedule) {
	tb.Helper()
	epoch := time.Now()
	up, down := StarlinkPath(p, epoch, 1)
	e, err := Start(Config{Uplink: up, Downlink: down, Epoch: epoch, Interval: interval})
	if err != nil {
		tb.Fatal(err)
	}
	return e, StarlinkSchedule(p, epoch)
}

// quietStart returns a start time at least lead from now such that no
// reconfiguration boundary falls in [start-settle, start+span]: the ramp
// and burst tests need a slot's steady allocation (a reset regrows over
// ~600 ms, seed 001).
func quietStart(e *Emulator, s starlink.Schedule, span time.Duration) time.Duration {
	const lead, settle = 150 * time.Millisecond, 800 * time.Millisecond
	start := time.Since(e.Epoch()) + lead
	if b := s.Next(start - settle); b <= start+span {
		start = b + settle
	}
	return start
}

// cbr runs a traced CBR flow and fails the test on error.
func cbr(tb testing.TB, e *Emulator, down bool, port uint16, c endpoint.CBR) *endpoint.CBRReport {
	tb.Helper()
	c.From, c.To, c.Addr = e.Server, e.Client, netip.AddrPortFrom(ClientAddr(), port)
	if !down {
		c.From, c.To, c.Addr = e.Client, e.Server, netip.AddrPortFrom(ServerAddr(), port)
	}
	c.Trace, c.KeepOff = true, e.KeepOff()
	rep, err := endpoint.RunCBR(context.Background(), e.Epoch(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// rate is the delivery rate (bits/s) of the trace's packets (size bytes)
// received in [from, to).
func rate(tr []endpoint.PacketTimes, size int, from, to time.Duration) float64 {
	n := 0
	for _, p := range tr {
		if p.Recv >= from && p.Recv < to {
			n++
		}
	}
	return float64(n*size) * 8 / (to - from).Seconds()
}

// Acceptance 2 of issue 7 (the Starlink issue's allocation ramp, live): a
// 500 Mbit/s CBR into the downlink is delivered at ~100 Mbit/s at first,
// at >= 3.2x base within 400 ± 100 ms, and after it stops the allocation
// is back at base within 250 ms — the simulator test's tolerances, plus one
// link sample (5 ms) for the live series.
func TestLiveAllocationRamp(t *testing.T) {
	needEmu(t)
	const size, sample = 1500, 5 * time.Millisecond
	// No terrestrial leg (no city): the access link's times are the
	// receiver's. The PoP limiter's rate is 500 Mbit/s too: at exactly its
	// rate its queue is critically loaded, and a live sender's jitter (a
	// few packets late, then caught up) accumulates there and keeps
	// feeding the access link ~50 ms after the stop — real, but not what
	// this test measures; the simulator's perfectly periodic source never
	// queues there.
	p := mustStarlink(t, map[string]any{"pop.enabled": false})
	// The host can fake a ramp. A sender stalled for tens of ms offers a
	// burst instead of the load the test specifies (maxSendLate). A pump
	// kept off its CPU, or late releasing, delivers the backlog of s ms
	// in one 10 ms window and lifts its rate by (10+s)/10: beyond 3 ms a
	// window at 2.5x base (the allocation ~100 ms before the crossing)
	// reads as 3.2x (a CI run: 3.2x after 270 ms with release p99 12 ms).
	// Such a failed run is repeated; after three the test skips.
	const maxPumpStall = 3 * time.Millisecond
	livetest.Repeat(t, func(a *livetest.Attempt) {
		e, sched := starlinkEmu(t, p, sample)
		start := quietStart(e, sched, 2*time.Second)
		stop := start + time.Second
		rep := cbr(t, e, true, 5301, endpoint.CBR{RateBps: 500e6, Size: size, Start: start, Duration: stop - start, Drain: 300 * time.Millisecond})
		time.Sleep(time.Until(e.Epoch().Add(stop + 400*time.Millisecond)))
		st, err := e.Close()
		if err != nil {
			t.Fatal(err)
		}
		a.Stall("send late p99", rep.SendLate.Quantile(0.99), maxSendLate)
		a.Stall("pump gap max", st.GapMax, maxPumpStall)
		a.Stall("pump release p99", st.ReleaseP99, maxPumpStall)
		checkRamp(t, a, rep, st, size, sample)
	})
}

// checkRamp checks one ramp run (TestLiveAllocationRamp).
func checkRamp(t *testing.T, a *livetest.Attempt, rep *endpoint.CBRReport, st *Stats, size int, sample time.Duration) {
	tr := rep.Trace
	sort.Slice(tr, func(i, j int) bool { return tr[i].Recv < tr[j].Recv })
	// Times of the offered load as it was actually written (a loaded host
	// delays the sender), and the slot's idle allocation (base, scaled by
	// the slot's drift when a boundary preceded the test).
	start, stop := sentSpan(tr)
	links := st.Links[1].Intervals
	base := 0.0
	for _, s := range links {
		if time.Duration(s.T*float64(time.Second)) < start {
			base = s.AllocMbps * 1e6
		}
	}
	first := tr[0].Recv
	if r := rate(tr, size, first, first+20*time.Millisecond); r < 0.9*base || r > 1.2*base {
		a.Errorf("first 20 ms delivered at %.0f Mbit/s, want ~%.0f", r/1e6, base/1e6)
	}
	reach := time.Duration(-1)
	for w := start; w < stop; w += 5 * time.Millisecond {
		if rate(tr, size, w, w+10*time.Millisecond) >= 3.2*base {
			reach = w + 10*time.Millisecond - start
			break
		}
	}
	if reach < 300*time.Millisecond || reach > 500*time.Millisecond {
		a.Errorf("delivery reached 3.2x base %v after the start, want 400 ± 100 ms", reach)
	}
	back := time.Duration(-1)
	for _, s := range links {
		if at := time.Duration(s.T * float64(time.Second)); at >= stop && s.AllocMbps*1e6 <= base*1.001 {
			back = at - stop
			break
		}
	}
	if back < 0 || back > 250*time.Millisecond+sample {
		a.Errorf("allocation back at base %v after the stop, want <= 250 ms", back)
	}
	t.Logf("run %d: offered %.0f Mbit/s over %v; base %.1f Mbit/s; first 20 ms %.1f Mbit/s; 3.2x base after %v; back at base %v after the stop; sent %d received %d; send late p99 %v; pump release p99 %v, gaps %d (max %v)",
		a.N, float64(rep.Sent*int64(size)*8)/(stop-start).Seconds()/1e6, stop-start, base/1e6, rate(tr, size, first, first+20*time.Millisecond)/1e6, reach, back, rep.Sent, rep.Received,
		rep.SendLate.Quantile(0.99), st.ReleaseP99, st.Gaps, st.GapMax)
}

// sentSpan returns the first and last send times of a trace.
func sentSpan(tr []endpoint.PacketTimes) (first, last time.Duration) {
	first = 1 << 62
	for _, p := range tr {
		first, last = min(first, p.Sent), max(last, p.Sent)
	}
	return first, last
}

// Acceptance 2 (head-drop, live): a 3000-packet burst at line rate into
// the idle downlink (PoP limiter off, as in the simulator test) loses about
// 1500 packets — the buffer limit, counted in packets — and the losses are
// the oldest ones. Live, the link keeps serving while the sender writes the
// burst (a few ms, not the simulator's 0.3), so the count is exact only
// once the packets served during the burst are added back: lost + served
// = 3000 − limit, give or take one frame's grant and random loss. And after
// the burst the buffer holds the newest packets: nothing older than the
// newest `limit` (minus one frame's margin) is delivered after it.
func TestLiveHeadDropBurst(t *testing.T) {
	needEmu(t)
	const size, n = 1400, 3000
	p := mustStarlink(t, map[string]any{"pop.enabled": false})
	// A stall in the middle of the burst (the sender descheduled: maxBurst)
	// lets the link drain the buffer and changes the loss count; the pump
	// kept off its CPU for more than a frame delays every packet of the
	// burst beyond the least one-way delay the test allows (a CI run: 18
	// ms against 13 + 2 + a frame). A failed run with either is repeated;
	// after three the test skips.
	livetest.Repeat(t, func(a *livetest.Attempt) {
		rep, st := lineRateBurst(t, p, n, size)
		first, last := sentSpan(rep.Trace)
		a.Stall("burst write time", last-first, maxBurst)
		a.Stall("pump gap max", st.GapMax, p.TDMA.Frame)
		checkHeadDrop(a, p, rep, n, size)
		t.Logf("run %d: burst %v, drops %+v; TUN drops %v; pump gaps %d (max %v)",
			a.N, last-first, st.Links[1].Drops, st.TUNDrops, st.Gaps, st.GapMax)
	})
}

// checkHeadDrop checks one burst of n packets (TestLiveHeadDropBurst).
func checkHeadDrop(a *livetest.Attempt, p *profile.StarlinkProfile, rep *endpoint.CBRReport, n, size int) {
	_, last := sentSpan(rep.Trace)
	// A packet left the link during the burst if it arrived before the
	// burst's end plus the one-way delay of an unqueued packet: the base
	// plus the slot's OWD shift (up to owd_max when a boundary preceded the
	// burst), i.e. the least delay any packet of the burst saw.
	owd := time.Duration(math.MaxInt64)
	for _, q := range rep.Trace {
		owd = min(owd, q.Recv-q.Sent)
	}
	if owd < p.Downlink.BaseOWD || owd > p.Downlink.BaseOWD+p.Downlink.Drift.OWDMax+p.TDMA.Frame {
		a.Errorf("least one-way delay %v outside base %v + [0, owd_max %v + a frame]", owd, p.Downlink.BaseOWD, p.Downlink.Drift.OWDMax)
	}
	cut := last + owd
	limit := p.Downlink.Queue.LimitPackets
	grant := int(p.TDMA.Frame.Seconds()*p.Downlink.Alloc.Base*p.Downlink.Alloc.Multiplier/8/float64(size)) + 1
	served, lateOld := 0, 0
	for _, q := range rep.Trace {
		switch {
		case q.Recv < cut:
			served++
		case int(q.Seq) < n-limit-grant:
			lateOld++ // delivered after the burst but not among the newest
		}
	}
	lost := n - int(rep.Received)
	const random = 10 // binomial(1500, 3e-4) stays far below
	// Slack of one frame's grant either way: a packet served just before
	// the cut may still wait up to a frame for its TDMA slot.
	if d := lost + served - (n - limit); d < -grant-random || d > grant+random {
		a.Errorf("lost %d + served during the burst %d = %d, want %d ± %d (a frame's grant)", lost, served, lost+served, n-limit, grant)
	}
	if lateOld > grant {
		a.Errorf("%d packets older than the newest %d delivered after the burst: not head drop", lateOld, limit+grant)
	}
	got := make([]bool, n)
	for _, q := range rep.Trace {
		got[q.Seq] = true
	}
	aqm := p.Downlink.AQM.MaxProb // the share the AQM takes once the buffer is full
	if f := float64(count(got[n-limit+grant:])) / float64(limit-grant); f < 1-2*aqm {
		a.Errorf("only %.3f of the newest packets delivered, want >= %.3f (head drop keeps the newest)", f, 1-2*aqm)
	}
	if !got[n-1] {
		a.Errorf("the burst's last packet was lost: the tail must survive")
	}
	if a.Failed() {
		a.Errorf("(served during the burst %d, lost %d, old ones delivered after it %d)", served, lost, lateOld)
	}
}

// maxSendLate bounds the CBR sender's lateness (p99) for a ramp run to
// count: a sender stalled for tens of ms (a loaded host, a hypervisor's
// steal time) offers a burst instead of the load the test specifies.
// Observed: 3–21 ms on a quiet host (the test allows for that: it measures
// from the actual send times), 88 ms once under a full go test ./... .
const maxSendLate = 50 * time.Millisecond

// maxBurst bounds the time the host may take to write the 3000-packet
// burst for it to count as one line-rate burst: a stall in the middle
// (the sender descheduled, a hypervisor's steal time) lets the link drain
// the buffer and changes the loss count. Observed: 5–9 ms normally, ~60 ms
// on a stall.
const maxBurst = 20 * time.Millisecond

// lineRateBurst sends n back-to-back packets into the idle downlink of p and
// returns the traced flow and the pump's figures.
func lineRateBurst(t *testing.T, p *profile.StarlinkProfile, n, size int) (*endpoint.CBRReport, *Stats) {
	line := 100e9 // far above anything the host can write: back-to-back
	dur := time.Duration(float64(n*size*8) / line * float64(time.Second))
	e, sched := starlinkEmu(t, p, 0)
	start := quietStart(e, sched, time.Second)
	rep := cbr(t, e, true, 5302, endpoint.CBR{RateBps: line, Size: size, Start: start, Duration: dur, Drain: 500 * time.Millisecond})
	st, err := e.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sent != int64(n) {
		t.Fatalf("sent %d packets, want %d", rep.Sent, n)
	}
	return rep, st
}

// Acceptance 2 (reconfiguration outage, live): delivery stops for 45 ms
// (downlink) and 68 ms (uplink) at the real UTC boundary (:12, :27, :42,
// :57), within the simulator test's tolerance (one frame, one packet gap and
// the slot's OWD shift), and nowhere else for longer than half an outage.
// The host can fake a gap: a sender paused between two writes (a CI run
// under a full go test ./... once paused one for ~24 ms) or the pump kept
// off its CPU (Stats.GapMax) delays every later packet by as much. A stall
// shorter than half the shorter outage, less a frame (the batch a packet
// may wait for) and a packet gap, cannot make a gap the test flags; a run
// with a longer one is repeated (fresh emulator), and after three such
// runs the test skips, saying so.
func TestLiveReconfigurationOutage(t *testing.T) {
	needEmu(t)
	const size, gap = 1500, 500 * time.Microsecond
	p := mustStarlink(t, nil)
	maxStall := min(p.Downlink.Outage.Duration, p.Uplink.Outage.Duration)/2 - p.TDMA.Frame - gap
	var stalls []string
	for len(stalls) < 3 {
		reps, st, b := outageRun(t, p, size, gap)
		stall := st.GapMax
		for _, r := range reps {
			stall = max(stall, maxSendPause(r.Trace))
		}
		if stall > maxStall {
			stalls = append(stalls, fmt.Sprintf("%v (pump gap max %v)", stall, st.GapMax))
			t.Logf("run %d: the host stalled for %s; repeating", len(stalls), stalls[len(stalls)-1])
			continue
		}
		// A stall under maxStall cannot fake an outage, but one at the
		// boundary lengthens the outage's gap by up to its length (a CI
		// run read 49.0 ms against 45 ± 3.8 with no stall flagged), so
		// the gap's tolerance widens by the run's longest stall.
		for i, a := range []profile.Access{p.Downlink, p.Uplink} {
			checkOutage(t, i, reps[i].Trace, a, b, p.TDMA.Frame+gap+a.Drift.OWDMax+stall)
		}
		return
	}
	t.Skipf("skipping: the host stalled a sender or the pump in every run (longest stalls %v, want <= %v)", stalls, maxStall)
}

// outageRun sends a CBR flow (size-byte packets every gap) in each
// direction from just before the next reconfiguration boundary b to a
// second after it, and returns the flows (downlink first) and the pump's
// figures.
func outageRun(t *testing.T, p *profile.StarlinkProfile, size int, gap time.Duration) ([]*endpoint.CBRReport, *Stats, time.Duration) {
	e, sched := starlinkEmu(t, p, 0)
	start := time.Since(e.Epoch()) + 150*time.Millisecond
	b := sched.Next(start + 300*time.Millisecond)
	dur := b - start + time.Second
	var wg sync.WaitGroup
	reps := make([]*endpoint.CBRReport, 2)
	for i, down := range []bool{true, false} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i] = cbr(t, e, down, uint16(5303+i), endpoint.CBR{RateBps: float64(size*8) / gap.Seconds(), Size: size, Start: start, Duration: dur})
		}()
	}
	wg.Wait()
	st, err := e.Close()
	if err != nil {
		t.Fatal(err)
	}
	return reps, st, b
}

// maxSendPause returns the longest time between two consecutive writes of
// a trace's sender.
func maxSendPause(tr []endpoint.PacketTimes) time.Duration {
	sent := make([]time.Duration, len(tr))
	for k, p := range tr {
		sent[k] = p.Sent
	}
	slices.Sort(sent)
	var m time.Duration
	for k := 1; k < len(sent); k++ {
		m = max(m, sent[k]-sent[k-1])
	}
	return m
}

// checkOutage asserts that link i (access a) stopped delivering at the
// boundary b for a's outage ± tol, and nowhere else for more than half of it.
func checkOutage(t *testing.T, i int, tr []endpoint.PacketTimes, a profile.Access, b, tol time.Duration) {
	t.Helper()
	sort.Slice(tr, func(i, j int) bool { return tr[i].Recv < tr[j].Recv })
	found := false
	for k := 1; k < len(tr); k++ {
		g := tr[k].Recv - tr[k-1].Recv
		at := tr[k-1].Recv - a.BaseOWD
		switch {
		case at > b-50*time.Millisecond && at < b+50*time.Millisecond && g > 20*time.Millisecond:
			found = true
			if d := g - a.Outage.Duration; d < -tol || d > tol {
				t.Errorf("link %d: gap %v at the boundary, want %v ± %v", i, g, a.Outage.Duration, tol)
			}
			t.Logf("link %d: delivery gap %v at %v (boundary %v)", i, g, at, b)
		case g > a.Outage.Duration/2:
			t.Errorf("link %d: delivery gap %v at %v away from the boundary %v", i, g, at, b)
		}
	}
	if !found {
		t.Errorf("link %d: no delivery gap at the boundary %v", i, b)
	}
}

func count(b []bool) int {
	k := 0
	for _, x := range b {
		if x {
			k++
		}
	}
	return k
}
