package paper003

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/learn/closedloop"
	"github.com/leolab/leolab/result"
)

// steadyFlow is a flow of n 1 s intervals at mbps with retrans
// retransmissions per second, cwnd bytes, srtt and rttvar, then a 0.2 s
// tail interval that must be dropped.
func steadyFlow(n int, mbps float64, retrans int64, cwnd int, srtt, rttvar float64) result.Flow {
	f := result.Flow{StartS: 0, EndS: float64(n), ThroughputMbps: mbps, Retransmits: retrans * int64(n), MeanRTTMs: srtt}
	for i := 1; i <= n; i++ {
		// Every tenth second the cwnd doubles: the run's maximum.
		c := cwnd
		if i%10 == 0 {
			c = 2 * cwnd
		}
		f.Intervals = append(f.Intervals, result.Interval{T: float64(i), Bytes: int64(mbps * 1e6 / 8), Retransmits: retrans,
			CWndBytes: c, SRTTMs: srtt, RTTVarMs: rttvar})
	}
	f.Intervals = append(f.Intervals, result.Interval{T: float64(n) + 0.2, Bytes: 1, SRTTMs: 999, RTTVarMs: 999})
	return f
}

func TestCollectSortsEverySource(t *testing.T) {
	cell := Cell{campaign.Dedicated, "downlink", "sydney", "bbr"}
	noEnd := steadyFlow(300, 100, 10, 2_000_000, 60, 6)
	noEnd.EndS = 0 // as read back from a campaign store; the last interval (300.2 s) ends the run
	sim := []Flow{{Cell: cell, Seed: 1, Flow: steadyFlow(300, 200, 30, 4_000_000, 40, 4)}, {Cell: cell, Seed: 2, Flow: noEnd}}
	real := []iperf.Summary{
		{Direction: "downlink", City: "Sydney", CCA: "bbr", Run: 1, Seconds: 300, SenderBps: 240e6, Retransmits: 9000,
			MaxSndCwnd: 5_000_000, MeanRTT: 52 * time.Millisecond},
		{Direction: "downlink", City: "Sydney", CCA: "bbr1", Run: 1, Seconds: 300, SenderBps: 1e6}, // not a seed-003 CCA
	}
	traces := []Flow{{Cell: cell, Flow: steadyFlow(300, 250, 100, 3_000_000, 50, 5)}}
	d := Collect(sim, real, traces)
	if len(d) != 1 {
		t.Fatalf("%d cells, want 1 (bbr1 ignored)", len(d))
	}
	sec := d.Box(cell, Throughput, simSec)
	if sec.N != 600 || math.Abs(sec.Q1-100) > 1e-9 || math.Abs(sec.Q3-200) > 1e-9 {
		t.Errorf("sim per-second throughput: n %d, Q1 %g, Q3 %g; want 600 seconds (tails dropped), 100 and 200", sec.N, sec.Q1, sec.Q3)
	}
	if b := d.Box(cell, RTTVar, simSec); b.Max != 6 {
		t.Errorf("sim rttvar max %g: the 999 ms tail interval was not dropped", b.Max)
	}
	run := d.Box(cell, CWnd, simRun)
	if run.N != 2 || run.Min != 4 || run.Max != 8 {
		t.Errorf("sim per-run cwnd: %+v, want the two runs' maxima 4 and 8 MB", run)
	}
	if b := d.Box(cell, Retransmits, simRun); b.N != 2 || math.Abs(b.Min-3000/300.2) > 1e-9 || b.Max != 30 {
		t.Errorf("sim per-run retransmissions per second %g..%g, want 3000/300.2 and 30", b.Min, b.Max)
	}
	for m, want := range map[Metric]float64{Throughput: 240, Retransmits: 30, CWnd: 5, RTT: 52} {
		if b := d.Box(cell, m, realRun); b.N != 1 || math.Abs(b.Median-want) > 1e-9 {
			t.Errorf("real %s: %+v, want one run of %g", metricInfos[m].key, b, want)
		}
	}
	if b := d.Box(cell, RTTVar, realRun); b.N != 0 {
		t.Errorf("real rttvar from an end summary: %+v, want none", b)
	}
	if b := d.Box(cell, Retransmits, realSec); b.N != 300 || b.Median != 100 {
		t.Errorf("real per-second retransmissions: n %d median %g, want 300 and 100", b.N, b.Median)
	}
}

// synthetic is a full data set: every panel, city and CCA, with BBR four
// times the others' throughput; no real Tokyo.
func synthetic() Data {
	var sim, traces []Flow
	var real []iperf.Summary
	for _, p := range panels {
		for _, city := range Cities {
			for i, cca := range CCAs {
				mbps := 50.0
				if i == 0 {
					mbps = 200
				}
				c := Cell{p.kind, p.direction, city, cca}
				sim = append(sim, Flow{Cell: c, Seed: 1, Flow: steadyFlow(60, mbps, int64(4-i), 1_000_000*(4-i), 40, 4)})
				if city == HeldOut {
					continue
				}
				real = append(real, iperf.Summary{Direction: p.direction, Concurrent: p.kind == campaign.Concurrent, City: city,
					CCA: cca, Run: 1, Seconds: 300, SenderBps: mbps * 0.9e6, Retransmits: 300, MaxSndCwnd: 2_000_000, MeanRTT: 45 * time.Millisecond})
			}
		}
	}
	for _, c := range traceCells {
		traces = append(traces, Flow{Cell: c, Flow: steadyFlow(300, 220, 5, 2_000_000, 45, 5)})
	}
	return Collect(sim, real, traces)
}

func TestReportHasEveryPanel(t *testing.T) {
	d := synthetic()
	r, err := d.Report(nil, syntheticFig9(t))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, s := range r.Sections {
		for _, f := range s.Figures {
			names[f.Name] = f.LegendEntries()
		}
	}
	if len(names) != 30 {
		t.Errorf("%d figures, want 20 panels, 5 Sydney per-second boxes and 5 of Fig. 9: %v", len(names), names)
	}
	// Eight series per panel (four CCAs, sim and real), four for RTT
	// variance, which the end summaries lack; Fig. 9's: model and
	// majority, five policies through the surrogate, three arms.
	for name, want := range map[string]int{"fig2a-throughput": 8, "fig5f-rttvar": 4, "sydney-seconds-cwnd": 2,
		"fig9a-accuracy": 2, "fig9a-throughput": 5, "fig9a-retransmits": 5, "fig9b-throughput": 3, "fig9b-retrans": 3} {
		if names[name] != want {
			t.Errorf("%s: %d legend entries, want %d", name, names[name], want)
		}
	}
	if top, n := d.topCount(dlDed, Throughput, simSec, "bbr"); top != 6 || n != 6 {
		t.Errorf("BBR highest in %d of %d cities, want 6 of 6", top, n)
	}
	if top, n := d.topCount(dlDed, Throughput, realRun, "bbr"); top != 5 || n != 5 {
		t.Errorf("real: BBR highest in %d of %d cities, want 5 of 5 (no Tokyo)", top, n)
	}
	_, holds, n := d.claimsTable()
	if n != len(claims) || holds == 0 || holds == n {
		t.Errorf("%d of %d claims hold (of %d): want every claim evaluated, some true, some false", holds, n, len(claims))
	}
	var text strings.Builder
	for _, s := range r.Sections {
		for _, p := range s.Text {
			text.WriteString(p)
		}
	}
	for _, want := range []string{"Tokyo is held out", "nine flows", "per-run medians sim/real",
		// Fig. 9 (b), Tokyo downlink: linear 4 % above bbr on every
		// seed (a CI of 0), equal to const105 (Δ 0 ± 0).
		"Tokyo (held out) downlink, 4 seeds: the linear model against stock BBRv3 +4.0 % throughput (CI excludes 0)",
		"against const105 +0.0 % (CI holds 0)",
		"of 2 Tokyo phase sets the model equals the majority baseline on 1, falls below it on 1 and beats it on 0"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report's text lacks %q", want)
		}
	}
}

// syntheticFig9 is a Fig. 9 of known numbers: one surrogate panel (UP
// at the majority, DOWN below it) and one closed-loop cell where linear
// runs 4 % above bbr on every seed, exactly as const105.
func syntheticFig9(t *testing.T) *Fig9 {
	t.Helper()
	sp := SurrogatePanel{Kind: campaign.Dedicated, Direction: "downlink", Flows: 2, Intervals: 600,
		Evals: []learn.PhaseEval{
			{Phase: learn.Up, N: 50, Correct: 35, Majority: 0.7, Confusion: [][]int{{35, 0, 0, 0, 0}, {15, 0, 0, 0, 0}, {}, {}, {}}},
			{Phase: learn.Down, N: 40, Correct: 20, Majority: 0.6, Confusion: [][]int{{}, {}, {}, {4, 0, 0, 16, 0}, {4, 0, 0, 0, 16}}}},
		CE: []float64{0.6, 0.9}, LabelEntropy: []float64{0.61, 0.67},
		Measured: Outcome{150, 300}, Stock: Outcome{220, 120}, Model: Outcome{220, 10}, Label: Outcome{219, 20}, Const105: Outcome{220, 10}}
	var samples []closedloop.Sample
	for seed, mbps := range []float64{150, 170, 160, 190} {
		b := closedloop.Sample{Arm: closedloop.ArmBBR, Seed: uint64(seed + 1), Mbps: mbps, RetransPerGB: 20000 + mbps, MeanRTTMs: 150}
		l, c := b, b
		l.Arm, c.Arm = closedloop.ArmLinear, closedloop.ArmConst105
		l.Mbps, c.Mbps = 1.04*mbps, 1.04*mbps
		samples = append(samples, b, l, c)
	}
	cell := closedCellOf(t, HeldOut, "downlink", samples)
	return &Fig9{Model: "a test model", Surrogate: []SurrogatePanel{sp}, Closed: []ClosedCell{cell}}
}
