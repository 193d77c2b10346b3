package bbr

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

func testCore() core {
	return newCore(cc.Config{MSS: 1000, InitialCWnd: 10}, 2)
}

// TestCoreSaveRestore: in the open state outside PROBE_RTT saveCwnd takes
// the current window; inside recovery it keeps the larger of the saved and
// the current one, so a second cut does not lose the pre-recovery window.
// restoreCwnd never lowers cwnd.
func TestCoreSaveRestore(t *testing.T) {
	c := testCore()
	c.cwnd = 50_000
	c.enterLoss()
	if c.priorCwnd != 50_000 || !c.inLoss || c.prevState != caLoss {
		t.Fatalf("after enterLoss prior %d inLoss %v state %d, want 50000, true, loss", c.priorCwnd, c.inLoss, c.prevState)
	}
	c.cwnd = 2000
	c.saveCwnd()
	if c.priorCwnd != 50_000 {
		t.Errorf("second save in loss: prior %d, want the 50000 saved first", c.priorCwnd)
	}
	c.restoreCwnd()
	if c.cwnd != 50_000 {
		t.Errorf("restored cwnd %d, want 50000", c.cwnd)
	}
	c.priorCwnd = 10_000
	c.restoreCwnd()
	if c.cwnd != 50_000 {
		t.Errorf("restore lowered cwnd to %d", c.cwnd)
	}
}

// TestCoreAckState: the first ACK of fast recovery saves cwnd; one inside
// recovery does not overwrite the saved window with a smaller one.
func TestCoreAckState(t *testing.T) {
	c := testCore()
	c.cwnd = 30_000
	if st := c.ackState(&cc.RateSample{InRecovery: true}); st != caRecovery || c.priorCwnd != 30_000 {
		t.Fatalf("state %d prior %d, want recovery and 30000", st, c.priorCwnd)
	}
	c.prevState, c.cwnd = caRecovery, 20_000
	c.ackState(&cc.RateSample{InRecovery: true})
	if c.priorCwnd != 30_000 {
		t.Errorf("prior %d inside recovery, want 30000 kept", c.priorCwnd)
	}
}

// TestCoreNoteAck: the first RTT sample re-derives the startup pacing rate
// from cwnd/SRTT (10 kB per 10 ms at gain 2 = 2 MB/s less 1%); later
// samples do not.
func TestCoreNoteAck(t *testing.T) {
	c := testCore()
	c.noteAck(&cc.RateSample{TotalDelivered: 7000, TotalLost: 1000, SRTT: 10 * time.Millisecond}, 2)
	if want := 2 * 10_000 / 0.01 * 0.99; c.pacing < want*0.9999 || c.pacing > want*1.0001 || c.delivered != 7000 || c.lost != 1000 {
		t.Fatalf("pacing %v delivered %d lost %d, want %v, 7000, 1000", c.pacing, c.delivered, c.lost, want)
	}
	p := c.pacing
	c.noteAck(&cc.RateSample{SRTT: time.Millisecond}, 2)
	if c.pacing != p {
		t.Errorf("second RTT sample moved pacing %v → %v", p, c.pacing)
	}
}

// TestCoreNoteSend: only the first send after an application-limited one
// with nothing else in flight is an idle restart; in PROBE_BW it paces at
// the version's bandwidth estimate (gain 1, less the 1% margin), in
// PROBE_RTT it leaves the mode once the timer has run out; handing the
// version over as an interface allocates nothing.
func TestCoreNoteSend(t *testing.T) {
	b := newTest("bbr1", 1, nil).(*V1)
	b.mode, b.fullReached = modeProbeBW, true
	b.bw.Update(10, 0, 1e6)
	b.noteSend(0, cc.SentInfo{Bytes: 1448, Inflight: 1448, AppLimited: true}, b)
	if b.idleRestart {
		t.Fatal("first send counted as an idle restart")
	}
	b.noteSend(time.Second, cc.SentInfo{Bytes: 1448, Inflight: 5 * 1448, AppLimited: true}, b)
	if b.idleRestart {
		t.Fatal("send with data in flight counted as an idle restart")
	}
	b.noteSend(2*time.Second, cc.SentInfo{Bytes: 1448, Inflight: 1448}, b)
	if !b.idleRestart || b.pacing != 0.99e6 {
		t.Fatalf("idle restart %v, pacing %v: want a restart paced at 0.99e6 B/s", b.idleRestart, b.pacing)
	}
	b.mode, b.appLimited, b.probeArmed, b.probeRTTDone = modeProbeRTT, true, true, 2500*time.Millisecond
	b.noteSend(3*time.Second, cc.SentInfo{Bytes: 1448, Inflight: 1448}, b)
	if b.mode != modeProbeBW {
		t.Errorf("mode %d after the PROBE_RTT timer, want PROBE_BW", b.mode)
	}
	s := cc.SentInfo{Bytes: 1448, Inflight: 1448}
	if n := testing.AllocsPerRun(100, func() { b.noteSend(4*time.Second, s, b) }); n != 0 {
		t.Errorf("noteSend allocates %v times per call, want 0", n)
	}
}

// TestCoreProbeRTT: PROBE_RTT is entered once on expiry (not when
// disabled or restarting from idle), arms its timer when inflight is down
// to the floor, needs a round after that, and ends only after the timer.
func TestCoreProbeRTT(t *testing.T) {
	c := testCore()
	c.cwnd = 40_000
	if c.enterProbeRTT(true, 0) || c.enterProbeRTT(false, time.Second) {
		t.Fatal("entered PROBE_RTT while disabled or not expired")
	}
	c.idleRestart = true
	if c.enterProbeRTT(true, time.Second) {
		t.Fatal("entered PROBE_RTT while restarting from idle")
	}
	c.idleRestart = false
	if !c.enterProbeRTT(true, 200*time.Millisecond) || c.mode != modeProbeRTT || c.priorCwnd != 40_000 {
		t.Fatalf("mode %d prior %d, want PROBE_RTT and 40000 saved", c.mode, c.priorCwnd)
	}
	if c.enterProbeRTT(true, 200*time.Millisecond) {
		t.Error("entered PROBE_RTT twice")
	}
	if c.probeRTTRound(0, &cc.RateSample{Inflight: 5000}, 4000, 200*time.Millisecond) || c.probeArmed {
		t.Fatal("armed above the floor")
	}
	c.cwnd = 4000
	c.probeRTTRound(time.Second, &cc.RateSample{Inflight: 4000}, 4000, 200*time.Millisecond)
	if !c.probeArmed || c.probeRTTDone != 1200*time.Millisecond {
		t.Fatalf("armed %v until %v, want until 1.2 s", c.probeArmed, c.probeRTTDone)
	}
	if c.probeRTTRound(1100*time.Millisecond, &cc.RateSample{}, 4000, 0) {
		t.Error("round reported done without a round start")
	}
	c.round.start = true
	if !c.probeRTTRound(1100*time.Millisecond, &cc.RateSample{}, 4000, 0) {
		t.Error("round start not reported")
	}
	if c.exitProbeRTT(1200 * time.Millisecond) {
		t.Error("left PROBE_RTT at the timer's end, want after it")
	}
	if !c.exitProbeRTT(1201*time.Millisecond) || c.cwnd != 40_000 {
		t.Errorf("after the timer: cwnd %d, want 40000 restored", c.cwnd)
	}
}

// TestCoreCheckFullBw: the pipe is full after 3 round starts without 25%
// growth; 24% growth counts as none, 25% resets the count, and rounds
// that are app-limited or not round starts do not count.
func TestCoreCheckFullBw(t *testing.T) {
	c := testCore()
	rs := &cc.RateSample{}
	c.round.start = true
	c.checkFullBwRound(rs, 100)
	for i, bw := range []float64{124, 124, 155} { // 155 ≥ 1.25·124
		c.checkFullBwRound(rs, bw)
		if c.fullReached {
			t.Fatalf("full after sample %d", i)
		}
	}
	c.checkFullBwRound(&cc.RateSample{IsAppLimited: true}, 155)
	c.round.start = false
	c.checkFullBwRound(rs, 155)
	c.round.start = true
	c.checkFullBwRound(rs, 155)
	c.checkFullBwRound(rs, 155)
	if c.fullReached || c.fullBwCnt != 2 {
		t.Fatalf("count %d full %v after 2 flat rounds, want 2 and not full", c.fullBwCnt, c.fullReached)
	}
	c.checkFullBwRound(rs, 190)
	if !c.fullReached || c.fullBw != 155 {
		t.Errorf("full %v at %v after 3 flat rounds, want full at 155", c.fullReached, c.fullBw)
	}
}

// TestCoreInspect: the shared keys carry the model in their units.
func TestCoreInspect(t *testing.T) {
	c := testCore()
	c.minRTT, c.round.count, c.fullReached = 25*time.Millisecond, 7, true
	m := c.inspect(PhaseCruise, 1e6, 9)
	want := map[string]float64{"phase": PhaseCruise, "mode": 0, "btlbw_bps": 8e6, "min_rtt_ms": 25, "round": 7,
		"full_bw_reached": 1, "extra_acked": 0}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if len(m) != 9 {
		t.Errorf("%d keys, want 9", len(m))
	}
}
