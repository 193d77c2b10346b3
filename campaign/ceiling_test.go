package campaign

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/iperf"
)

// TestRealSpreads: two cities' runs with known log deviations pool to
// their root mean square; a one-run city adds nothing; a repeated run is
// counted once.
func TestRealSpreads(t *testing.T) {
	run := func(city string, n int, mbps float64) iperf.Summary {
		return iperf.Summary{Direction: "downlink", Concurrent: true, City: city, CCA: "cubic", Run: n,
			SenderBps: mbps * 1e6, SenderBytes: 1e9, Retransmits: 1000, MinRTT: 100 * time.Millisecond, MeanRTT: 110 * time.Millisecond}
	}
	// Sydney: log throughput ±a around its mean (sample variance 2a²);
	// London: ±b (2b²); Ohio has one run.
	a, b := 0.1, 0.3
	runs := []iperf.Summary{
		run("Sydney", 1, 10*math.Exp(a)), run("Sydney", 2, 10*math.Exp(-a)), run("Sydney", 2, 10*math.Exp(-a)),
		run("London", 1, 5*math.Exp(b)), run("London", 2, 5*math.Exp(-b)),
		run("Ohio", 1, 50),
	}
	s, ok := RealSpreads(runs)[SpreadKey{Concurrent, "downlink", "cubic"}]
	if !ok {
		t.Fatal("no spread for downlink concurrent cubic")
	}
	want := math.Sqrt((2*a*a + 2*b*b) / 2)
	if math.Abs(s.Throughput-want) > 1e-12 || s.Cities != 2 {
		t.Errorf("throughput spread %.6f over %d cities, want %.6f over 2", s.Throughput, s.Cities, want)
	}
	if s.Retrans != 0 || s.Inflation != 0 {
		t.Errorf("constant retransmissions and RTT give spreads %g, %g, want 0", s.Retrans, s.Inflation)
	}
}

// TestProbWithin: the band of one deviation holds 68.27 % of a normal.
func TestProbWithin(t *testing.T) {
	if p := probWithin(0.5, -0.5, 0.5); math.Abs(p-0.682689) > 1e-6 {
		t.Errorf("P(|X| ≤ σ) = %.6f, want 0.682689", p)
	}
	if probWithin(0, -0.1, 0.1) != 1 || probWithin(0, 0.1, 0.2) != 0 {
		t.Error("a zero spread must put the cell inside a band around 0 and outside any other")
	}
}

// TestCeilingsMatchMonteCarlo: a model exact in the mean, drawn with the
// spread the ceiling assumes, fills the bands as often as the ceiling
// says. 40 cells (half with 5 real runs, half with 1), 400 trials: the
// mean count's standard error is about 3/√400 = 0.15 cells.
func TestCeilingsMatchMonteCarlo(t *testing.T) {
	sd := [3]float64{0.3, 0.5, 0.05}
	spreads := map[SpreadKey]Spread{}
	var cells []Row
	ccas := []string{"bbr", "bbr1", "bbr2", "cubic", "hybla", "leocc", "pcc", "vegas"}
	cities := []string{"sydney", "mumbai", "ohio", "london", "saopaulo"}
	for i, cca := range ccas {
		spreads[SpreadKey{Dedicated, "uplink", cca}] = Spread{sd[0], sd[1], sd[2], 2}
		for j, city := range cities {
			n := 1
			if j%2 == 0 {
				n = 5
			}
			truth := Metrics{float64(1+i) * float64(1+j), 1e4 * float64(1+i), 1 + 0.05*float64(1+j), n}
			cells = append(cells, Row{Key: Key{Dedicated, "uplink", city, cca}, Sim: Metrics{truth.ThroughputMbps, truth.RetransPerGB, truth.RTTInflation, 1}, Real: truth})
		}
	}
	c := Ceilings(cells, spreads)
	if len(c) != 1 || c[0].Cells != 40 || c[0].SimRuns != 1 {
		t.Fatalf("ceilings %+v, want one of 40 cells with 1 simulated run", c)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 400
	var got [3]float64
	draw := make([]Row, len(cells))
	for range trials {
		for i, r := range cells {
			noisy := func(v float64, s float64, n int) float64 {
				return v * math.Exp(s*rng.NormFloat64()/math.Sqrt(float64(n)))
			}
			draw[i] = Row{Key: r.Key,
				Sim:  Metrics{noisy(r.Real.ThroughputMbps, sd[0], 1), noisy(r.Real.RetransPerGB, sd[1], 1), noisy(r.Real.RTTInflation, sd[2], 1), 1},
				Real: Metrics{noisy(r.Real.ThroughputMbps, sd[0], r.Real.N), noisy(r.Real.RetransPerGB, sd[1], r.Real.N), noisy(r.Real.RTTInflation, sd[2], r.Real.N), r.Real.N}}
		}
		m := Magnitudes(draw)[0]
		got[0] += float64(m.ThroughputWithin) / trials
		got[1] += float64(m.RetransWithin) / trials
		got[2] += float64(m.InflationWithin) / trials
	}
	want := [3]float64{c[0].Throughput, c[0].Retrans, c[0].Inflation}
	for i, name := range []string{"throughput", "retrans", "inflation"} {
		if math.Abs(got[i]-want[i]) > 0.6 {
			t.Errorf("%s: Monte Carlo %.2f cells within, ceiling says %.2f", name, got[i], want[i])
		}
	}
	// More simulated runs raise the ceiling.
	for i := range cells {
		cells[i].Sim.N = 10
	}
	if c10 := Ceilings(cells, spreads); c10[0].Throughput <= c[0].Throughput {
		t.Errorf("10 runs per cell: throughput ceiling %.2f, not above 1 run's %.2f", c10[0].Throughput, c[0].Throughput)
	}
	if c[0].Rho < 0.5 || c[0].Rho > 1 {
		t.Errorf("Spearman ceiling %.2f for CCAs 8× apart in the mean", c[0].Rho)
	}
}

// TestCeilingsOnRealData: the embedded dataset gives every kind a
// spread, and its ceilings lie between 0 and the number of cells.
func TestCeilingsOnRealData(t *testing.T) {
	runs, err := RealRuns()
	if err != nil {
		t.Fatal(err)
	}
	spreads := RealSpreads(runs)
	var rows []Row
	for k, m := range RealMeans(runs) {
		if k.City == "tokyo" {
			continue
		}
		rows = append(rows, Row{Key: k, Sim: Metrics{m.ThroughputMbps, m.RetransPerGB, m.RTTInflation, 1}, Real: m})
	}
	slices.SortFunc(rows, func(a, b Row) int { return compareKeys(a.Key, b.Key) })
	cs := Ceilings(rows, spreads)
	if len(cs) != 4 {
		t.Fatalf("%d ceilings, want 4 (two kinds × two directions)", len(cs))
	}
	for _, c := range cs {
		for _, v := range []float64{c.Throughput, c.Retrans, c.Inflation} {
			if !(v > 0 && v <= float64(c.Cells)) {
				t.Errorf("%s: ceiling %.2f outside (0, %d]", c, v, c.Cells)
			}
		}
	}
}

// TestPairsUngrouped: cells of one (kind, direction) split by another's
// (calibrate --cv appends each held-out city's cells in turn) are scored
// once, over all of them.
func TestPairsUngrouped(t *testing.T) {
	cell := func(kind, city string) Row {
		m := Metrics{10, 1000, 1.1, 1}
		return Row{Key: Key{kind, "uplink", city, "cubic"}, Sim: m, Real: m}
	}
	rows := []Row{cell(Dedicated, "london"), cell(Concurrent, "london"), cell(Dedicated, "ohio"), cell(Concurrent, "ohio")}
	mags := Magnitudes(rows)
	if len(mags) != 2 || mags[0].Cells != 2 || mags[1].Cells != 2 {
		t.Fatalf("magnitudes %+v, want two kinds of 2 cells each", mags)
	}
	if c := Ceilings(rows, nil); len(c) != 2 {
		t.Errorf("%d ceilings, want 2", len(c))
	}
}
