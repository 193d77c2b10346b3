package satcp

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/cubic"
)

// every is a schedule with boundaries at offset + n·period.
type every struct{ period, offset time.Duration }

func (e every) Next(now time.Duration) time.Duration {
	if now <= e.offset {
		return e.offset
	}
	return e.offset + (now-e.offset+e.period-1)/e.period*e.period
}

func config(params map[string]float64, sched cc.Schedule) cc.Config {
	return cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(5, 6)), Params: params, Schedule: sched}
}

func newSaTCP(t testing.TB, params map[string]float64, sched cc.Schedule) *SaTCP {
	t.Helper()
	s, err := New(config(params, sched))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWarnedWindow: with boundaries at 12 s + 15 s·n the flag is up from
// 0.5 s before each boundary for 2.3 s; a prediction error of ±0.2 s moves
// the window but not its length.
func TestWarnedWindow(t *testing.T) {
	s := newSaTCP(t, nil, every{15 * time.Second, 12 * time.Second})
	for _, c := range []struct {
		at   time.Duration
		want bool
	}{
		{time.Second, false}, {11499 * time.Millisecond, false}, {11500 * time.Millisecond, true},
		{13800 * time.Millisecond, true}, {13801 * time.Millisecond, false}, {26600 * time.Millisecond, true},
	} {
		if got := s.warned(c.at); got != c.want {
			t.Errorf("warned(%v) = %v, want %v", c.at, got, c.want)
		}
	}
	s = newSaTCP(t, map[string]float64{"error_s": 0.2}, every{15 * time.Second, 12 * time.Second})
	for n := range 20 {
		b := 12*time.Second + time.Duration(n)*15*time.Second
		s.warned(b)
		if e := s.win[0] - (b - defLead); e < -200*time.Millisecond || e > 200*time.Millisecond || s.win[1]-s.win[0] != defDuration {
			t.Fatalf("boundary %v: window %v, want start within ±0.2 s of %v and length 2.3 s", b, s.win, b-defLead)
		}
	}
	if newSaTCP(t, nil, nil).warned(12 * time.Second) {
		t.Error("warned without a schedule")
	}
}

// clock drives a controller with an ACK clock on a path of fixed RTT that
// is never the bottleneck: each round the whole window is sent and
// acknowledged, one ACK per segment.
type clock struct {
	c         cc.Controller
	now       time.Duration
	rtt       time.Duration
	delivered int64
}

// round sends and acknowledges one window; inRecovery marks its ACKs.
func (k *clock) round(inRecovery bool) {
	n := max(k.c.CWnd()/1448, 1)
	for i := range n {
		k.c.OnSend(k.now, cc.SentInfo{Bytes: 1448, Inflight: (i + 1) * 1448})
	}
	for i := range n {
		k.delivered += 1448
		rs := cc.RateSample{AckedBytes: 1448, AckedPackets: 1, RTT: k.rtt, MinRTT: k.rtt, SRTT: k.rtt,
			TotalDelivered: k.delivered, Inflight: (n - i - 1) * 1448, PriorInflight: (n - i) * 1448, InRecovery: inRecovery}
		k.c.OnAck(k.now+k.rtt*time.Duration(i)/time.Duration(n), &rs)
	}
	k.now += k.rtt
}

// grownTo runs rounds until cwnd reaches w bytes, returning the count.
func (k *clock) grownTo(w, limit int) int {
	for r := 1; r <= limit; r++ {
		k.round(r == 1)
		if k.c.CWnd() >= w {
			return r
		}
	}
	return limit + 1
}

// TestWarnedRTO (keep_cwnd = 0, LeoEM's module): an RTO inside the window
// keeps CUBIC's W_max and the loss window still applies (1 segment). SaTCP regrows to 95% of the
// pre-RTO window W in the slow start to β·W (⌈log2(0.7·W)⌉ rounds) plus ~2
// rounds of K/9 cubic growth; CUBIC, whose RTO reset W_max, grows at most
// 5% per round above β·W (cnt ≤ 20 with W_max unknown): ln(0.95/0.7)/ln
// 1.05 ≈ 6 rounds more. (Fast convergence is off: with it, an RTO below
// the previous W_max lowers W_max to (1+β)/2 of the window and SaTCP's
// plateau sits there.)
func TestWarnedRTO(t *testing.T) {
	sched := every{15 * time.Second, 12 * time.Second}
	knobs := map[string]float64{"hystart": 0, "fast_convergence": 0}
	s := newSaTCP(t, map[string]float64{"hystart": 0, "fast_convergence": 0, "keep_cwnd": 0}, sched)
	c, err := cubic.New(config(knobs, nil))
	if err != nil {
		t.Fatal(err)
	}
	rounds := map[string]int{}
	var ss int
	for name, ctrl := range map[string]cc.Controller{"satcp": s, "cubic": c} {
		k := &clock{c: ctrl, rtt: 30 * time.Millisecond, now: 11300 * time.Millisecond}
		for ctrl.CWnd() < 400*1448 {
			k.round(false)
		}
		lossy := cc.RateSample{LostBytes: 1448, NewLossEpisode: true, InRecovery: true, TotalDelivered: k.delivered}
		ctrl.OnAck(k.now, &lossy) // a loss episode sets W_max
		for range 3 {
			k.round(false)
		}
		w := ctrl.CWnd()
		ctrl.OnRTO(k.now)
		if ctrl.CWnd() != 1448 || k.now < 11500*time.Millisecond {
			t.Fatalf("%s: cwnd %d after the RTO at %v, want 1 segment, in the window", name, ctrl.CWnd(), k.now)
		}
		ss = int(math.Ceil(math.Log2(0.7 * float64(w) / 1448)))
		rounds[name] = k.grownTo(int(0.95*float64(w)), 100)
		t.Logf("%s: back to 95%% of %d segments in %d rounds (slow start %d)", name, w/1448, rounds[name], ss)
	}
	if s.skipped != 1 || s.inner.Inspect()["w_max_bytes"] == 0 || c.Inspect()["w_max_bytes"] != 0 {
		t.Errorf("skipped resets %d, W_max satcp %v cubic %v: want 1, kept, reset", s.skipped,
			s.inner.Inspect()["w_max_bytes"], c.Inspect()["w_max_bytes"])
	}
	if rounds["satcp"] > ss+3 || rounds["cubic"] < ss+5 {
		t.Errorf("rounds to regrow: satcp %d (want ≤ %d), cubic %d (want ≥ %d)", rounds["satcp"], ss+3, rounds["cubic"], ss+5)
	}
}

// TestWarnedRTOKeep (keep_cwnd = 1, the default): RTOs inside the window,
// backed-off ones included, leave cwnd, ssthresh and CUBIC's W_max as they
// were; the timeout's repair (ACKs in recovery) neither grows nor shrinks
// the window, and afterwards the flow follows, ACK for ACK, the window of a
// twin flow that saw no RTO. CUBIC is back at 1 segment.
func TestWarnedRTOKeep(t *testing.T) {
	sched := every{15 * time.Second, 12 * time.Second}
	knobs := map[string]float64{"hystart": 0}
	s, twin := newSaTCP(t, knobs, sched), newSaTCP(t, knobs, sched)
	ks := &clock{c: s, rtt: 30 * time.Millisecond, now: 11300 * time.Millisecond}
	kt := &clock{c: twin, rtt: 30 * time.Millisecond, now: 11300 * time.Millisecond}
	for s.CWnd() < 400*1448 {
		ks.round(false)
		kt.round(false)
	}
	for _, k := range []*clock{ks, kt} {
		lossy := cc.RateSample{LostBytes: 1448, NewLossEpisode: true, InRecovery: true, TotalDelivered: k.delivered}
		k.c.OnAck(k.now, &lossy)
		k.round(false)
	}
	w, before := s.CWnd(), s.Inspect()
	s.OnRTO(ks.now)
	s.OnRTO(ks.now + 400*time.Millisecond) // the backed-off second timeout
	after := s.Inspect()
	if s.CWnd() != w || after["ssthresh_bytes"] != before["ssthresh_bytes"] || after["w_max_bytes"] != before["w_max_bytes"] ||
		after["rtos"] != 2 || after["rto_resets_skipped"] != 2 {
		t.Fatalf("after 2 warned RTOs: cwnd %d (was %d), inspect %v (was %v)", s.CWnd(), w, after, before)
	}
	for r := range 30 {
		ks.round(r < 3)
		kt.round(r < 3)
		if r < 3 && s.CWnd() != w {
			t.Fatalf("repair round %d: cwnd %d, want the kept %d", r, s.CWnd(), w)
		}
		if s.CWnd() != twin.CWnd() {
			t.Fatalf("round %d: cwnd %d, twin without RTO %d", r, s.CWnd(), twin.CWnd())
		}
	}
	if s.CWnd() <= w {
		t.Errorf("no growth after the repair: %d ≤ %d", s.CWnd(), w)
	}
}

// TestWarnedFastRecovery: a loss episode inside the window starts an
// epoch with K/9, K = ∛(W_max·(1−β)/C) (RFC 9438 eq. 2; the window is W_max
// at the loss, fast convergence not triggered on the first loss); the same
// loss outside the window gets K.
func TestWarnedFastRecovery(t *testing.T) {
	const rfcBeta, rfcC, betaTol = 0.7, 0.4, 0.0003 // RFC 9438 §4.6, §5.1; 717/1024 vs 0.7
	for _, c := range []struct {
		at    time.Duration
		scale float64
	}{{2 * time.Second, 1}, {11400 * time.Millisecond, 1.0 / 9}} {
		s := newSaTCP(t, map[string]float64{"hystart": 0}, every{15 * time.Second, 12 * time.Second})
		k := &clock{c: s, rtt: 30 * time.Millisecond, now: c.at}
		for s.CWnd() < 200*1448 {
			k.round(false)
		}
		w := float64(s.CWnd()) / 1448
		lossy := cc.RateSample{LostBytes: 1448, NewLossEpisode: true, InRecovery: true, TotalDelivered: k.delivered}
		s.OnAck(k.now, &lossy)
		k.round(false) // the repair is over: the first ACK starts the epoch
		want := c.scale * math.Cbrt(w*(1-rfcBeta)/rfcC)
		got := s.Inspect()["k_s"]
		if math.Abs(got/want-1) > betaTol || s.Inspect()["warned"] != cc.Flag(c.scale < 1) {
			t.Errorf("loss at %v (%.0f segments): K %.4f s, want %.4f (warned %v)", k.now, w, got, want, s.Inspect()["warned"])
		}
	}
}

// TestRTOOutsideWindow: away from boundaries SaTCP and CUBIC make the
// same decisions.
func TestRTOOutsideWindow(t *testing.T) {
	s := newSaTCP(t, map[string]float64{"hystart": 0}, every{15 * time.Second, 12 * time.Second})
	c, _ := cubic.New(config(map[string]float64{"hystart": 0}, nil))
	ks, kc := &clock{c: s, rtt: 30 * time.Millisecond, now: 2 * time.Second}, &clock{c: c, rtt: 30 * time.Millisecond, now: 2 * time.Second}
	for r := range 24 {
		if r == 10 {
			s.OnRTO(ks.now)
			c.OnRTO(kc.now)
		}
		ks.round(r == 10)
		kc.round(r == 10)
		if s.CWnd() != c.CWnd() {
			t.Fatalf("round %d: satcp cwnd %d, cubic %d", r, s.CWnd(), c.CWnd())
		}
	}
	if s.skipped != 0 || s.rtos != 1 {
		t.Errorf("skipped %d of %d RTOs, want 0 of 1", s.skipped, s.rtos)
	}
}

// TestRegistered: "satcp" accepts its own and CUBIC's knobs.
func TestRegistered(t *testing.T) {
	cctest.Registered(t, "satcp", map[string]float64{"duration_s": 2.3, "lead_s": 0.5, "keep_cwnd": 1},
		map[string]float64{"duration_s": 0}, map[string]float64{"keep_cwnd": 0.5})
	if _, err := cc.New("satcp", cc.Config{Params: map[string]float64{"hystart": 2, "error_s": 0.1}}); err != nil {
		t.Error(err)
	}
}

// BenchmarkOnAck: per-ACK cost while regrowing after a warned RTO
// (keep_cwnd = 0), the wrapper's heaviest path, without allocation.
func BenchmarkOnAck(b *testing.B) {
	s := newSaTCP(b, map[string]float64{"keep_cwnd": 0}, every{15 * time.Second, 12 * time.Second})
	k := &clock{c: s, rtt: 30 * time.Millisecond, now: 11 * time.Second}
	for range 20 {
		k.round(false)
	}
	s.OnRTO(k.now)
	rs := cc.RateSample{AckedBytes: 1448, RTT: k.rtt, SRTT: k.rtt, MinRTT: k.rtt}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		rs.TotalDelivered += 1448
		s.OnAck(k.now+time.Duration(i)*time.Microsecond, &rs)
	}
}

// BenchmarkOnAckWarned: per-ACK cost with the defaults inside a warned
// window (the K scale is handed to CUBIC on every ACK), without allocation.
func BenchmarkOnAckWarned(b *testing.B) {
	s := newSaTCP(b, nil, every{15 * time.Second, 12 * time.Second})
	k := &clock{c: s, rtt: 30 * time.Millisecond, now: 11600 * time.Millisecond}
	for range 20 {
		k.round(false)
	}
	rs := cc.RateSample{AckedBytes: 1448, RTT: k.rtt, SRTT: k.rtt, MinRTT: k.rtt}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		rs.TotalDelivered += 1448
		s.OnAck(k.now+time.Duration(i%1000)*time.Microsecond, &rs)
	}
}
