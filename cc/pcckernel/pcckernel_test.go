package pcckernel

import (
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// TestRegistered: "pcc-kernel" with ε up to 5 % and 524,288 B/s to start;
// out-of-range or fractional parameters are refused naming the parameter.
func TestRegistered(t *testing.T) {
	cctest.Registered(t, "pcc-kernel", map[string]float64{"epsilon_max": 5, "initial_rate": 524288},
		map[string]float64{"epsilon_max": 0}, map[string]float64{"epsilon_max": 2.5},
		map[string]float64{"epsilon_max": 51}, map[string]float64{"initial_rate": 100},
		map[string]float64{"initial_rate": 1e11}, map[string]float64{"epsilon": 0.05})
	_, err := cc.New("pcc-kernel", cc.Config{Params: map[string]float64{"epsilon_max": 60}})
	if err == nil || !strings.Contains(err.Error(), "[1, 50]") {
		t.Errorf("epsilon_max 60: error %v, want one giving the allowed range [1, 50]", err)
	}
}

// Before any RTT sample the window is four segments (pcc_get_rtt's 1 ms)
// and the pacing rate the initial 524,288 B/s; the first SRTT sets the
// window to 2·rate·SRTT.
func TestStart(t *testing.T) {
	p := newTest(t, 1)
	if p.CWnd() != 4*1448 || p.PacingRate() != 524288 || p.mode != ModeSlowStart {
		t.Fatalf("initial cwnd %d pacing %v mode %d", p.CWnd(), p.PacingRate(), p.mode)
	}
	p.OnSend(0, cc.SentInfo{Bytes: 1448})
	p.OnAck(50*time.Millisecond, &cc.RateSample{AckedPackets: 1, AckedBytes: 1448, SRTT: 50 * time.Millisecond})
	if want := 2 * (524288 * 50000 / 1448 / 1_000_000) * 1448; p.CWnd() != want {
		t.Errorf("cwnd %d, want %d", p.CWnd(), want)
	}
}

// steady feeds p n segments sent and n ACKs of one segment each, lost
// every lossEvery-th (0: none), one RTT behind the sends.
func steady(p *PCC, n, lossEvery int) {
	rs := cc.RateSample{SRTT: 50 * time.Millisecond}
	for i := range n {
		p.OnSend(0, cc.SentInfo{Bytes: 1448})
		rs.AckedPackets, rs.LostPackets = 1, 0
		if lossEvery > 0 && i%lossEvery == 0 {
			rs.AckedPackets, rs.LostPackets = 0, 1
		}
		rs.TotalDelivered += int64(rs.AckedPackets * 1448)
		p.OnAck(0, &rs)
	}
}

// An RTO keeps the rate, the pacing and the window, and freezes the
// accounting; when the loss state ends the segments the counters lost
// track of are written off and decision making restarts at the same rate
// with fresh intervals.
func TestRTO(t *testing.T) {
	p := newTest(t, 1)
	steady(p, 3000, 50)
	if p.mode == ModeLoss || p.counted == 0 {
		t.Fatalf("mode %d counted %d before the RTO", p.mode, p.counted)
	}
	rate, pacing, cwnd := p.rate, p.PacingRate(), p.CWnd()
	p.OnSend(0, cc.SentInfo{Bytes: 1448})
	p.OnRTO(time.Second)
	if p.mode != ModeLoss || p.rate != rate || p.PacingRate() != float64(rate) || p.CWnd() != cwnd {
		t.Fatalf("after RTO: mode %d rate %d pacing %v cwnd %d, want loss, %d, %v (was %v), %d", p.mode, p.rate, p.PacingRate(), p.CWnd(), rate, float64(rate), pacing, cwnd)
	}
	// In the loss state ACKs (retransmissions, losses) change nothing.
	snap := p.iv
	counted := p.counted
	for range 100 {
		p.OnSend(0, cc.SentInfo{Bytes: 1448, Retrans: true})
		p.OnAck(0, &cc.RateSample{AckedPackets: 1, LostPackets: 2, SRTT: 60 * time.Millisecond, InRecovery: true})
	}
	if p.iv != snap || p.counted != counted || p.rate != rate {
		t.Fatalf("accounting or rate changed in the loss state")
	}
	// The loss state ends: 10 segments still in flight.
	p.OnSend(0, cc.SentInfo{Bytes: 1448})
	p.OnAck(0, &cc.RateSample{AckedPackets: 1, SRTT: 60 * time.Millisecond, Inflight: 10 * 1448})
	if p.mode != ModeDecision || p.rate != rate || p.recvIdx != 0 || p.sendIdx != 0 {
		t.Fatalf("after the loss state: mode %d rate %d recv %d send %d, want decision at %d from interval 0", p.mode, p.rate, p.recvIdx, p.sendIdx, rate)
	}
	if iv := p.iv[0]; iv.start != p.segsOut || iv.lost != 0 || iv.delivered != 0 || iv.end != 0 {
		t.Errorf("first interval after the loss state %+v, want a fresh one from segment %d", iv, p.segsOut)
	}
	if p.counted != p.segsOut-10 {
		t.Errorf("counted %d, want segments sent %d less the 10 in flight", p.counted, p.segsOut)
	}
	if hi := p.iv[0].rate; hi != rate*(100+p.eps)/100 && hi != rate*(100-p.eps)/100 {
		t.Errorf("first probe at %d, want %d·(1±%d %%)", hi, rate, p.eps)
	}
}

// Loss-free, the controller leaves slow start within two intervals and
// then ratchets up: the higher probe always wins and adjustment keeps
// stepping up.
func TestRatchetsWithoutLoss(t *testing.T) {
	p := newTest(t, 3)
	steady(p, 200_000, 0)
	if p.rate < 50*defaultInitialRate {
		t.Errorf("after 200000 loss-free segments the rate is %d B/s, want ≥ 50× the initial", p.rate)
	}
	if p.lastDecision != decisionUp {
		t.Errorf("last decision %d, want up", p.lastDecision)
	}
}

// The per-ACK path allocates nothing.
func TestNoAllocs(t *testing.T) {
	ack := cctest.SteadyAcks(newTest(t, 1))
	if n := testing.AllocsPerRun(1000, ack); n != 0 {
		t.Errorf("%v allocations per ACK", n)
	}
	p := newTest(t, 1)
	if n := testing.AllocsPerRun(1000, func() { p.OnSend(0, cc.SentInfo{Bytes: 1448}) }); n != 0 {
		t.Errorf("%v allocations per send", n)
	}
}

func BenchmarkOnAck(b *testing.B) {
	cctest.BenchAcks(b, newTest(b, 1), "")
}
