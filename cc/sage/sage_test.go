package sage

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/monitor"
)

// A GRU of one unit computed by hand: with every weight 0 but the
// candidate's input weight w on feature 0 and the head's v, each step is
// z = r = ½, n = tanh(w·x0), h ← ½n + ½h, and a = 2·tanh(v·h + c).
func TestPolicyByHand(t *testing.T) {
	const w, v, c = 0.8, 1.5, -0.1
	k := NumFeatures + 1
	f := &PolicyFile{Format: PolicyFormat, Version: PolicyVersion, In: NumFeatures, Hidden: 1, Window: Window,
		Wz: make([]float32, k), Bz: []float32{0}, Wr: make([]float32, k), Br: []float32{0},
		Wn: make([]float32, k), Bn: []float32{0}, V: []float32{v}, C: c}
	f.Wn[0] = w
	p, err := NewPolicy("test", f)
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float32, Window*NumFeatures)
	h := 0.0
	for i := range Window {
		x := 0.1 * float64(i)
		s[i*NumFeatures] = float32(x)
		h = 0.5*math.Tanh(float64(float32(w))*float64(float32(x))) + 0.5*h
	}
	want := 2 * math.Tanh(float64(float32(v))*h+float64(float32(c)))
	if got := float64(p.Act(s)); math.Abs(got-want) > 1e-6 {
		t.Fatalf("Act = %v, want %v", got, want)
	}
}

// Bad files are refused naming what is wrong.
func TestParsePolicyErrors(t *testing.T) {
	var good PolicyFile
	if err := json.Unmarshal(DefaultPolicyFile(), &good); err != nil {
		t.Fatal(err)
	}
	enc := func(mod func(*PolicyFile)) []byte {
		f := good
		mod(&f)
		b, _ := json.Marshal(f)
		return b
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"syntax": {[]byte("{"), "unexpected end"},
		"format": {enc(func(f *PolicyFile) { f.Format = "x" }), "format"},
		"in":     {enc(func(f *PolicyFile) { f.In = 3 }), "in 3"},
		"window": {enc(func(f *PolicyFile) { f.Window = 50 }), "window 50"},
		"hidden": {enc(func(f *PolicyFile) { f.Hidden = 100000 }), "hidden 100000"},
		"wz":     {enc(func(f *PolicyFile) { f.Wz = f.Wz[:3] }), "wz: 3 values"},
		"v":      {enc(func(f *PolicyFile) { f.V = nil }), "v: 0 values"},
	} {
		if _, err := ParsePolicy(name, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one naming %q", name, err, c.want)
		}
	}
}

// Ratio is the log2 window ratio within [−2, 2].
func TestRatio(t *testing.T) {
	for _, c := range []struct{ w, prev, want float64 }{{20, 10, 1}, {10, 20, -1}, {100, 1, 2}, {1, 100, -2}, {5, 0, 0}} {
		if got := Ratio(c.w, c.prev); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Ratio(%v, %v) = %v, want %v", c.w, c.prev, got, c.want)
		}
	}
}

// Sage's reward (sage.cc): 50 Mbit/s of 100 with nothing lost and the
// RTT within 1.25·min_rtt scores 25·0.5² = 6.25; losing 10 Mbit/s makes
// it 25·0.3² = 2.25; an RTT of twice min_rtt halves that; losing more
// than half the throughput makes it negative.
func TestReward(t *testing.T) {
	bw := 100e6 / 8
	iv := monitor.Interval{End: 20 * time.Millisecond, AckedBytes: int64(50e6 / 8 * 0.02), MinRTT: 40 * time.Millisecond, SRTT: 45 * time.Millisecond}
	if r := Reward(&iv, bw); math.Abs(r-6.25) > 1e-9 {
		t.Fatalf("reward %v, want 6.25", r)
	}
	iv.LostBytes = int64(10e6 / 8 * 0.02)
	if r := Reward(&iv, bw); math.Abs(r-2.25) > 1e-9 {
		t.Fatalf("reward %v, want 2.25", r)
	}
	iv.SRTT = 80 * time.Millisecond
	if r := Reward(&iv, bw); math.Abs(r-1.125) > 1e-9 {
		t.Fatalf("reward %v, want 1.125", r)
	}
	iv.LostBytes = int64(30e6 / 8 * 0.02)
	if r := Reward(&iv, bw); r >= 0 {
		t.Fatalf("reward %v, want < 0", r)
	}
	iv.LostBytes = int64(1e9 / 8 * 0.02) // ten times the link: floored
	if r := Reward(&iv, bw); math.Abs(r+25*0.5) > 1e-9 {
		t.Fatalf("reward %v, want the floor −25 times the RTT factor ½", r)
	}
}

func newTest(t testing.TB) *Sage {
	s, err := New(cc.Config{MSS: 1448, InitialCWnd: 10}, DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// feed sends ACKs every ms for d with the given RTT.
func feed(s *Sage, from, d time.Duration, rtt time.Duration) time.Duration {
	rs := cc.RateSample{AckedBytes: 1448, RTT: rtt, MinRTT: 40 * time.Millisecond, SRTT: rtt, Inflight: 20 * 1448}
	for now := from; now < from+d; now += time.Millisecond {
		s.OnAck(now, &rs)
	}
	return from + d
}

// Slow start grows the window by the bytes acknowledged until a period's
// RTT exceeds 1.25·min_rtt; then the policy moves it once per 20 ms.
func TestSlowStartThenPolicy(t *testing.T) {
	s := newTest(t)
	now := feed(s, 0, 100*time.Millisecond, 40*time.Millisecond)
	if !s.slow || s.CWnd() != 10*1448+100*1448 || s.steps != 0 {
		t.Fatalf("after 100 ms at min RTT: slow %v, cwnd %d, steps %d", s.slow, s.CWnd(), s.steps)
	}
	feed(s, now, 100*time.Millisecond, 60*time.Millisecond)
	if s.slow || s.steps < 3 || s.steps > 5 {
		t.Fatalf("after 100 ms at 1.5·min RTT: slow %v, steps %d (want out of slow start, 4 ± 1 steps)", s.slow, s.steps)
	}
	if w := s.CWnd(); w < 4*1448 || w > 20000*1448 {
		t.Fatalf("window %d outside [4, 20000] segments", w)
	}
}

// No allocation per ACK nor per period (a period closes every 20 ACKs).
func TestZeroAllocs(t *testing.T) {
	s := newTest(t)
	now := feed(s, 0, 300*time.Millisecond, 60*time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 60 * time.Millisecond, MinRTT: 40 * time.Millisecond, SRTT: 60 * time.Millisecond}
	steps := s.steps
	if n := testing.AllocsPerRun(200, func() {
		now += time.Millisecond
		s.OnAck(now, &rs)
	}); n != 0 {
		t.Fatalf("%v allocations per ACK", n)
	}
	if s.steps-steps < 9 {
		t.Fatalf("only %d policy steps in the measured ACKs", s.steps-steps)
	}
}

func BenchmarkOnAck(b *testing.B) {
	s := newTest(b)
	now := feed(s, 0, 300*time.Millisecond, 60*time.Millisecond)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 60 * time.Millisecond, MinRTT: 40 * time.Millisecond, SRTT: 60 * time.Millisecond}
	b.ReportAllocs()
	for b.Loop() {
		now += time.Millisecond
		s.OnAck(now, &rs)
	}
}

// BenchmarkAct is one policy decision (one per 20 ms period).
func BenchmarkAct(b *testing.B) {
	p := DefaultPolicy()
	s := make([]float32, Window*NumFeatures)
	for i := range s {
		s[i] = float32(i%7) / 7
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Act(s)
	}
}

func FuzzParsePolicy(f *testing.F) {
	f.Add(DefaultPolicyFile())
	f.Add([]byte(`{"format":"leolab-sage-policy","version":1,"in":8,"hidden":2,"window":10}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := ParsePolicy("fuzz", data); err == nil {
			p.Act(make([]float32, Window*NumFeatures))
		}
	})
}
