package report

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// sydneyConcurrent is run 1 of the downlink competitive scenario to Sydney
// from ../shared/data/starlink-iperf3/run1_summary.csv (end summaries of the
// iperf3 logs; ccp left out as a broken deployment), turned into
// FlowSummaries the way the metrics package defines them.
func sydneyConcurrent() []FlowSummary {
	rows := []struct {
		cca             string
		bytes           float64
		bps             float64
		retr            float64
		minRTT, meanRTT float64 // µs
		maxRTT          float64 // µs, stands in for the p95 delay here
	}{
		{"bbr", 756940800, 20182144.37, 29576, 29975, 37832, 172316},
		{"bbr1", 3694788608, 98517311.83, 200924, 29405, 69749, 269696},
		{"bbr2", 297926656, 7851610.74, 9805, 28009, 35527, 115615},
		{"cubic", 158859264, 4235853.54, 4701, 31958, 38677, 60971},
		{"hybla", 116785152, 3113871.30, 3879, 31952, 39865, 61920},
		{"leocc", 4375707648, 116673448.36, 262627, 30596, 74430, 227238},
		{"vegas", 128974848, 3438978.54, 3694, 30605, 38327, 72767},
		{"pcc", 1661468672, 44301104.18, 1583846, 30851, 118056, 407126},
	}
	var sum float64
	for _, r := range rows {
		sum += r.bps / 1e6
	}
	out := make([]FlowSummary, len(rows))
	for i, r := range rows {
		out[i] = FlowSummary{
			Group: "downlink/sydney/concurrent", Label: "run1", CCA: r.cca, City: "Sydney", Direction: "downlink",
			ThroughputMbps: r.bps / 1e6,
			RetransPerGB:   r.retr / (r.bytes / 1e9),
			RTTInflation:   r.meanRTT / r.minRTT,
			P95DelayMs:     r.maxRTT / 1e3,
			FairShareMbps:  sum / float64(len(rows)),
		}
	}
	return out
}

// circleFills returns the fill colours of the SVG paths drawn translucent
// (the scatter markers), in document order.
func circleFills(svg string) []string {
	re := regexp.MustCompile(`fill:(#[0-9A-Fa-f]{6});fill-opacity:0\.70`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		out = append(out, strings.ToLower(m[1]))
	}
	return out
}

func TestThroughputInflation(t *testing.T) {
	flows := sydneyConcurrent()
	f, err := ThroughputInflation("Downlink Sydney, concurrent flows (run 1)", flows)
	if err != nil {
		t.Fatal(err)
	}
	share := 0.0
	for _, fl := range flows {
		share += fl.ThroughputMbps
	}
	share /= float64(len(flows))
	wantShare := fmt.Sprintf("fair share %.1f Mbit/s", share)
	renderBoth(t, f, wantShare, "bbr", "pcc", "leocc")
	// 8 CCAs + 1 fair-share line + sizeSteps size references.
	if got, want := f.LegendEntries(), len(flows)+1+sizeSteps; got != want {
		t.Errorf("legend has %d entries, want %d", got, want)
	}
	svg, _ := f.SVG()
	fills := circleFills(string(svg))
	for _, fl := range flows {
		c := CCAColor(fl.CCA)
		found := false
		for _, h := range fills {
			var r, g, b int
			fmt.Sscanf(h, "#%02x%02x%02x", &r, &g, &b)
			// NRGBA → RGBA → NRGBA costs up to 1/255 per channel.
			found = found || (abs(r-int(c.R)) <= 2 && abs(g-int(c.G)) <= 2 && abs(b-int(c.B)) <= 2)
		}
		if !found {
			t.Errorf("no marker in %s's colour %v among %v", fl.CCA, c, fills)
		}
	}
}

func TestThroughputInflationDedicatedHasNoFairShare(t *testing.T) {
	flows := sydneyConcurrent()
	for i := range flows {
		flows[i].FairShareMbps = 0
	}
	f, err := ThroughputInflation("dedicated", flows)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range f.legendNames {
		if strings.HasPrefix(n, "fair share") {
			t.Errorf("dedicated flows got a fair-share line %q", n)
		}
	}
}

func TestRadiusAreaProportional(t *testing.T) {
	// Marker area above the minimum grows linearly with the value:
	// (r(v)-rmin)² ∝ v.
	const max = 4000.0
	for _, v := range []float64{0, 10, 250, 1000, 4000} {
		r := radius(v, max).Points() - minRadius
		want := (maxRadius - minRadius) * math.Sqrt(v/max)
		if math.Abs(r-want) > 1e-9 {
			t.Errorf("radius(%v) - min = %v, want %v", v, r, want)
		}
	}
	if radius(5, 0).Points() != minRadius {
		t.Errorf("radius with zero max = %v, want the minimum %v", radius(5, 0).Points(), minRadius)
	}
}

func TestCompact(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{950000, "950k"}, {1200, "1200"}, {12000, "12k"}, {0.5, "0.5"}} {
		if got := compact(tc.in); got != tc.want {
			t.Errorf("compact(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRoundSig(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{{0, 0}, {1234, 1200}, {0.0456, 0.046}, {99.6, 100}, {7, 7}} {
		if got := roundSig(tc.in); math.Abs(got-tc.want) > 1e-12*math.Max(1, tc.want) {
			t.Errorf("roundSig(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestDelayThroughputAxisReversed(t *testing.T) {
	f, err := DelayThroughput("Pantheon view: Sydney downlink", sydneyConcurrent())
	if err != nil {
		t.Fatal(err)
	}
	texts := renderBoth(t, f, "bbr1", "vegas")
	// x tick labels are the largest set of numeric texts on one row; their
	// values must fall from left to right.
	rows := map[float64][]svgText{}
	var row float64
	for _, tx := range texts {
		if _, err := fmt.Sscanf(tx.S, "%g", new(float64)); err == nil {
			rows[tx.Y] = append(rows[tx.Y], tx)
			if len(rows[tx.Y]) > len(rows[row]) {
				row = tx.Y
			}
		}
	}
	var xs, vs []float64
	for _, tx := range rows[row] {
		var v float64
		fmt.Sscanf(tx.S, "%g", &v)
		xs = append(xs, tx.X)
		vs = append(vs, v)
	}
	if len(xs) < 3 {
		t.Fatalf("found %d x tick labels, want >= 3", len(xs))
	}
	for i := 1; i < len(xs); i++ {
		if (xs[i]-xs[i-1])*(vs[i]-vs[i-1]) >= 0 {
			t.Errorf("x ticks %v at %v and %v at %v: delay axis not reversed", vs[i-1], xs[i-1], vs[i], xs[i])
		}
	}
}

func TestScatterRejectsBadInput(t *testing.T) {
	good := sydneyConcurrent()
	for _, tc := range []struct {
		name  string
		edit  func(*FlowSummary)
		delay bool
		want  string
	}{
		{"nan throughput", func(f *FlowSummary) { f.ThroughputMbps = math.NaN() }, false, "throughput_mbps"},
		{"negative retrans", func(f *FlowSummary) { f.RetransPerGB = -1 }, false, "retrans_per_gb"},
		{"inf delay", func(f *FlowSummary) { f.P95DelayMs = math.Inf(1) }, true, "p95_delay_ms"},
		{"no cca", func(f *FlowSummary) { f.CCA = "" }, false, "empty cca"},
	} {
		flows := append([]FlowSummary(nil), good...)
		tc.edit(&flows[3])
		var err error
		if tc.delay {
			_, err = DelayThroughput("x", flows)
		} else {
			_, err = ThroughputInflation("x", flows)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "flow 3") {
			t.Errorf("%s: err = %v, want one naming flow 3 and %q", tc.name, err, tc.want)
		}
	}
	if _, err := ThroughputInflation("x", nil); err == nil {
		t.Error("no flows: want an error")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Many concurrent groups share one fair-share legend row naming their range,
// so the size legend still fits beside the axes.
func TestThroughputInflationManyGroupsOneFairShareRow(t *testing.T) {
	flows := sydneyConcurrent()
	for i := range flows {
		flows[i].FairShareMbps = float64(20 + i%5*5) // five groups
	}
	f, err := ThroughputInflation("five groups", flows)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, n := range f.legendNames {
		if strings.HasPrefix(n, "fair share") {
			rows = append(rows, n)
		}
	}
	if len(rows) != 1 || !strings.Contains(rows[0], "5 groups: 20.0–40.0 Mbit/s") {
		t.Fatalf("fair-share legend rows %q; want one naming 5 groups and their range", rows)
	}
}

// The outermost markers of both flow scatters lie inside the x axis: on the
// rendered canvas, each extreme point ± the largest marker radius stays
// within the axis line's ends (before the margin, the last point sat on the
// end and half its marker hung over). One flow alone gets the same margin.
func TestScatterMarkersInsideXAxis(t *testing.T) {
	cases := []struct {
		name  string
		build func(string, []FlowSummary) (*Figure, error)
		x     func(FlowSummary) float64
		r     vg.Length // largest marker radius the figure draws
	}{
		{"inflation", ThroughputInflation, rttInflation, vg.Points(maxRadius)},
		{"delay", DelayThroughput, p95Delay, vg.Points(plainRadius + 1)},
	}
	for _, c := range cases {
		for _, flows := range [][]FlowSummary{sydneyConcurrent(), sydneyConcurrent()[:1]} {
			f, err := c.build("markers", flows)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := xRange(flows, c.x)
			p := f.Plot()
			if !(p.X.Min < lo && p.X.Max > hi) {
				t.Errorf("%s, %d flows: x axis [%v, %v] does not extend beyond the data [%v, %v]", c.name, len(flows), p.X.Min, p.X.Max, lo, hi)
			}
			w, h := f.size()
			axes, _, _ := f.layout(draw.New(vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))))
			dc := p.DataCanvas(axes)
			trX, _ := p.Transforms(&dc)
			left, right := min(trX(p.X.Min), trX(p.X.Max)), max(trX(p.X.Min), trX(p.X.Max))
			for _, v := range []float64{lo, hi} {
				if px := trX(v); px-c.r < left || px+c.r > right {
					t.Errorf("%s, %d flows: marker at x=%v spans [%.1f, %.1f] pt, axis [%.1f, %.1f] pt", c.name, len(flows), v, px-c.r, px+c.r, left, right)
				}
			}
		}
	}
}
