package paper003

import (
	"fmt"
	"math"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

type boxStats = metrics.BoxStats

// claim is one statement of seed 003's §II.B with a number we can check:
// sim evaluates it on the simulator's boxes (per-second, as the paper's),
// real on the real data where the data has the same statistic.
type claim struct {
	fig, says, paper string
	sim              func(Data) (float64, bool)
	real             func(Data) (float64, string) // value and what it is; NaN: no such real statistic
}

var (
	dlDed = panels[0]
	ulDed = panels[1]
	dlCon = panels[2]
	ulCon = panels[3]
)

func stat(d Data, p panel, city, cca string, m Metric, src string, f func(b boxStats) float64) float64 {
	b := d.Box(Cell{p.kind, p.direction, city, cca}, m, src)
	if b.N == 0 {
		return math.NaN()
	}
	return f(b)
}

func median(b boxStats) float64  { return b.Median }
func q3(b boxStats) float64      { return b.Q3 }
func whiskHi(b boxStats) float64 { return b.WhiskHi }
func maxOf(b boxStats) float64   { return b.Max }

// maxCity is the largest of f over the cities, and the city.
func maxCity(d Data, p panel, cca string, m Metric, src string, f func(boxStats) float64) (float64, string) {
	best, at := math.NaN(), ""
	for _, c := range d.cities() {
		if v := stat(d, p, c, cca, m, src, f); !math.IsNaN(v) && (math.IsNaN(best) || v > best) {
			best, at = v, c
		}
	}
	return best, at
}

// topShare is the share of cities where BBR's median is the highest.
func topShare(p panel, m Metric, src string) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		top, n := d.topCount(p, m, src, "bbr")
		if n == 0 {
			return math.NaN(), false
		}
		return float64(top) / float64(n), top == n
	}
}

func noReal(Data) (float64, string) { return math.NaN(), "" }

func realTop(p panel, m Metric) func(Data) (float64, string) {
	return func(d Data) (float64, string) {
		top, n := d.topCount(p, m, realRun, "bbr")
		if n == 0 {
			return math.NaN(), ""
		}
		return float64(top) / float64(n), fmt.Sprintf("share of %d cities, per-run medians", n)
	}
}

// above is a claim "stat of cca in city > x" on the simulated boxes.
func above(p panel, city, cca string, m Metric, f func(boxStats) float64, x float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v := stat(d, p, city, cca, m, simSec, f)
		return v, v > x
	}
}

// near is a claim "stat ≈ x" (within ±20 %, our reading of "≈" and
// "approach").
func near(p panel, city, cca string, m Metric, f func(boxStats) float64, x float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v := stat(d, p, city, cca, m, simSec, f)
		return v, math.Abs(v/x-1) <= nearTolerance
	}
}

// nearTolerance is how close "≈ x" or "approaches x" must come.
const nearTolerance = 0.2

// realTrace is the same statistic on the real Sydney per-second trace.
func realTrace(p panel, cca string, m Metric, f func(boxStats) float64) func(Data) (float64, string) {
	return func(d Data) (float64, string) {
		v := stat(d, p, "sydney", cca, m, realSec, f)
		return v, "Sydney per-second trace, run 1"
	}
}

// realRunMedian is the median over the real runs' values (a different
// statistic from a per-second median: said in the table).
func realRunMedian(p panel, city, cca string, m Metric) func(Data) (float64, string) {
	return func(d Data) (float64, string) {
		b := d.Box(Cell{p.kind, p.direction, city, cca}, m, realRun)
		if b.N == 0 {
			return math.NaN(), ""
		}
		if b.N == 1 {
			return b.Median, "the one run's mean"
		}
		return b.Median, fmt.Sprintf("median of %d run means", b.N)
	}
}

// allCCAMedian is the median over the four CCAs' medians in one city.
func (d Data) allCCAMedian(p panel, city string, m Metric, src string) float64 {
	var ms []float64
	for _, c := range CCAs {
		if v := stat(d, p, city, c, m, src, median); !math.IsNaN(v) {
			ms = append(ms, v)
		}
	}
	if len(ms) == 0 {
		return math.NaN()
	}
	return metrics.Box(ms).Median
}

var claims = []claim{
	{"2(a)", "BBR has the highest median throughput in every city", "every city", topShare(dlDed, Throughput, simSec), realTop(dlDed, Throughput)},
	{"2(a)", "São Paulo: BBR's median throughput exceeds 100 Mbit/s", "> 100", above(dlDed, "saopaulo", "bbr", Throughput, median, 100), realRunMedian(dlDed, "saopaulo", "bbr", Throughput)},
	{"2(a)", "Sydney: BBR's upper whisker approaches 350 Mbit/s", "≈ 350", near(dlDed, "sydney", "bbr", Throughput, whiskHi, 350), realTrace(dlDed, "bbr", Throughput, whiskHi)},
	{"2(b)", "BBR has the highest median retransmissions in every city", "every city", topShare(dlDed, Retransmits, simSec), realTop(dlDed, Retransmits)},
	{"2(b)", "Tokyo: BBR's retransmissions Q3 > 300 per second", "> 300", above(dlDed, "tokyo", "bbr", Retransmits, q3, 300), noReal},
	{"2(b)", "Mumbai: BBR's retransmissions Q3 > 100 per second", "> 100", above(dlDed, "mumbai", "bbr", Retransmits, q3, 100), noReal},
	{"2(c)", "BBR has the largest median cwnd in every city", "every city", topShare(dlDed, CWnd, simSec), noReal},
	{"2(e)", "São Paulo: median RTT ≈ 350 ms", "≈ 350", nearAll(dlDed, "saopaulo", RTT, 350), realAll(dlDed, "saopaulo", RTT)},
	{"2(e)", "Sydney: median RTT ≈ 50 ms", "≈ 50", nearAll(dlDed, "sydney", RTT, 50), realAll(dlDed, "sydney", RTT)},
	{"3(a)", "BBR has the highest median uplink throughput in every city", "every city", topShare(ulDed, Throughput, simSec), realTop(ulDed, Throughput)},
	{"3(a)", "BBR's uplink upper whisker exceeds 80 Mbit/s (largest over cities)", "> 80", maxAbove(ulDed, "bbr", Throughput, whiskHi, 80), realTrace(ulDed, "bbr", Throughput, whiskHi)},
	{"3(b)", "BBR's uplink median retransmissions reach 20–30 per second (largest over cities)", "20–30", maxIn(ulDed, "bbr", Retransmits, median, 20, 30), realTrace(ulDed, "bbr", Retransmits, median)},
	{"3(b)", "BBR's uplink retransmissions reach maxima near 70 per second (largest over cities)", "≈ 70", maxNear(ulDed, "bbr", Retransmits, maxOf, 70), realTrace(ulDed, "bbr", Retransmits, maxOf)},
	{"3(c)", "Sydney: BBR's uplink median cwnd exceeds 0.4 MB", "> 0.4", above(ulDed, "sydney", "bbr", CWnd, median, 0.4), realTrace(ulDed, "bbr", CWnd, median)},
	{"4(a)", "BBR has the highest median throughput in every city (competing)", "every city", topShare(dlCon, Throughput, simSec), realTop(dlCon, Throughput)},
	{"4(a)", "Sydney: BBR's competing median exceeds 240 Mbit/s", "> 240", above(dlCon, "sydney", "bbr", Throughput, median, 240), realRunMedian(dlCon, "sydney", "bbr", Throughput)},
	{"4(a)", "London: BBR's competing median exceeds 130 Mbit/s", "> 130", above(dlCon, "london", "bbr", Throughput, median, 130), realRunMedian(dlCon, "london", "bbr", Throughput)},
	{"4(a)", "Vegas's competing median is near zero (below 5 Mbit/s; largest over cities)", "≈ 0", maxBelow(dlCon, "vegas", Throughput, median, 5), realRunMedianMax(dlCon, "vegas", Throughput)},
	{"4(b)", "Mumbai: BBR's competing retransmissions' upper whisker exceeds 400 per second", "> 400", above(dlCon, "mumbai", "bbr", Retransmits, whiskHi, 400), noReal},
	{"4(b)", "Tokyo: BBR's competing upper whisker exceeds 200 per second", "> 200", above(dlCon, "tokyo", "bbr", Retransmits, whiskHi, 200), noReal},
	{"4(c)", "BBR's competing median cwnd exceeds 5 MB (largest over cities)", "> 5", maxAbove(dlCon, "bbr", CWnd, median, 5), noReal},
	{"5(a)", "BBR's competing uplink upper whisker exceeds 35 Mbit/s (largest over cities)", "> 35", maxAbove(ulCon, "bbr", Throughput, whiskHi, 35), noReal},
	{"5(b)", "BBR's competing uplink median retransmissions exceed 6 per second (largest over cities)", "> 6", maxAbove(ulCon, "bbr", Retransmits, median, 6), noReal},
}

func maxAbove(p panel, cca string, m Metric, f func(boxStats) float64, x float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v, _ := maxCity(d, p, cca, m, simSec, f)
		return v, v > x
	}
}

func maxBelow(p panel, cca string, m Metric, f func(boxStats) float64, x float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v, _ := maxCity(d, p, cca, m, simSec, f)
		return v, v < x
	}
}

func maxIn(p panel, cca string, m Metric, f func(boxStats) float64, lo, hi float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v, _ := maxCity(d, p, cca, m, simSec, f)
		return v, v >= lo && v <= hi
	}
}

func maxNear(p panel, cca string, m Metric, f func(boxStats) float64, x float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v, _ := maxCity(d, p, cca, m, simSec, f)
		return v, math.Abs(v/x-1) <= nearTolerance
	}
}

func realRunMedianMax(p panel, cca string, m Metric) func(Data) (float64, string) {
	return func(d Data) (float64, string) {
		v, _ := maxCity(d, p, cca, m, realRun, median)
		return v, "largest median of run means over cities"
	}
}

// nearAll: the median over the four CCAs' per-second medians ≈ x.
func nearAll(p panel, city string, m Metric, x float64) func(Data) (float64, bool) {
	return func(d Data) (float64, bool) {
		v := d.allCCAMedian(p, city, m, simSec)
		return v, math.Abs(v/x-1) <= nearTolerance
	}
}

func realAll(p panel, city string, m Metric) func(Data) (float64, string) {
	return func(d Data) (float64, string) {
		return d.allCCAMedian(p, city, m, realRun), "median over the CCAs of their run-mean medians"
	}
}

// claimsTable evaluates every claim whose cells have simulated data.
func (d Data) claimsTable() (report.Table, int, int) {
	t := report.Table{Title: "Seed 003's statements, checked on the simulated boxes", Name: "claims", Columns: []report.Column{
		{Key: "figure", Title: "figure", Kind: report.Text},
		{Key: "statement", Title: "the paper says", Kind: report.Text},
		{Key: "paper", Title: "paper", Kind: report.Text},
		{Key: "sim", Title: "sim", Kind: report.Float, Digits: 3},
		{Key: "sim_holds", Title: "holds in sim", Kind: report.Text},
		{Key: "real", Title: "real", Kind: report.Float, Digits: 3},
		{Key: "real_is", Title: "real value is", Kind: report.Text},
	}}
	holds, n := 0, 0
	for _, c := range claims {
		v, ok := c.sim(d)
		if math.IsNaN(v) {
			continue
		}
		n++
		h := "no"
		if ok {
			h = "yes"
			holds++
		}
		rv, what := c.real(d)
		t.Rows = append(t.Rows, []report.Cell{report.Str(c.fig), report.Str(c.says), report.Str(c.paper), report.Num(v),
			report.Str(h), report.Num(rv), report.Str(what)})
	}
	return t, holds, n
}

// ClaimsHeld counts the seed's statements that hold on the simulated
// boxes, of those with simulated data.
func (d Data) ClaimsHeld() (holds, n int) {
	_, holds, n = d.claimsTable()
	return holds, n
}
