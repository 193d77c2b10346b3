package report

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func synthetic(name, key string, n int, f func(t float64) float64) Series {
	s := Series{Name: name, Key: key, Unit: "Mbit/s"}
	for i := range n {
		t := float64(i + 1)
		s.T = append(s.T, t)
		s.V = append(s.V, f(t))
	}
	return s
}

func TestTimeSeries(t *testing.T) {
	a := synthetic("bbr3 #1", "bbr3", 60, func(t float64) float64 { return 150 + 50*math.Sin(t/5) })
	b := synthetic("bbr3 #2", "bbr3", 60, func(t float64) float64 { return 100 + 40*math.Cos(t/7) })
	c := synthetic("cubic", "", 60, func(t float64) float64 { return 30 })
	c.Name = "cubic"
	f, err := TimeSeries("Per-interval throughput", "throughput", []Series{a, b, c},
		SeriesOptions{Boundaries: []float64{11, 26, 41, 56, 71}})
	if err != nil {
		t.Fatal(err)
	}
	renderBoth(t, f, "throughput (Mbit/s)", DefaultBoundaryLabel, "bbr3 #1", "bbr3 #2", "cubic")
	if got, want := f.LegendEntries(), 4; got != want {
		t.Errorf("legend entries = %d, want %d (3 series + boundaries)", got, want)
	}
	if f.plot.Y.Min != 0 {
		t.Errorf("non-negative series: y axis starts at %v, want 0", f.plot.Y.Min)
	}
	// The x range is the data's: boundaries beyond it (71 s) must not widen it.
	if f.plot.X.Max != 60 {
		t.Errorf("x max = %v, want 60 (the data's last time)", f.plot.X.Max)
	}
}

func TestTimeSeriesSameKeyGetsDistinctDashes(t *testing.T) {
	a := synthetic("bbr3 #1", "bbr3", 5, func(float64) float64 { return 1 })
	b := synthetic("bbr3 #2", "BBR-v3", 5, func(float64) float64 { return 2 })
	f, err := TimeSeries("two bbr3 flows", "throughput", []Series{a, b}, SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	// One solid and one dashed stroke in the bbr3 red.
	s := string(svg)
	if !strings.Contains(s, "stroke-dasharray:6,3") {
		t.Error("second bbr3 series is not dashed")
	}
}

func TestSegments(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		v    []float64
		want []int // lengths of the segments
	}{
		{[]float64{1, 2, 3}, []int{3}},
		{[]float64{1, nan, 3, 4}, []int{1, 2}},
		{[]float64{nan, nan}, nil},
		{[]float64{nan, 1, 2, nan}, []int{2}},
	} {
		ts := make([]float64, len(tc.v))
		for i := range ts {
			ts[i] = float64(i)
		}
		segs := segments(ts, tc.v)
		if len(segs) != len(tc.want) {
			t.Errorf("segments(%v): %d segments, want %d", tc.v, len(segs), len(tc.want))
			continue
		}
		for i, s := range segs {
			if len(s) != tc.want[i] {
				t.Errorf("segments(%v)[%d] has %d points, want %d", tc.v, i, len(s), tc.want[i])
			}
		}
	}
}

func TestTimeSeriesRejects(t *testing.T) {
	ok := synthetic("a", "", 3, func(float64) float64 { return 1 })
	for _, tc := range []struct {
		name string
		s    []Series
		want string
	}{
		{"none", nil, "no series"},
		{"length", []Series{{Name: "x", T: []float64{1, 2}, V: []float64{1}}}, "2 times but 1 values"},
		{"backwards", []Series{{Name: "x", T: []float64{2, 1}, V: []float64{1, 1}}}, "before"},
		{"units", []Series{ok, {Name: "ms", Unit: "ms", T: []float64{1}, V: []float64{1}}}, "one axis needs one unit"},
		{"inf", []Series{{Name: "x", T: []float64{1}, V: []float64{math.Inf(1)}}}, "infinite"},
	} {
		if _, err := TimeSeries("t", "q", tc.s, SeriesOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := QueueOverTime("q", []Series{ok}, SeriesOptions{}); err == nil || !strings.Contains(err.Error(), QueueUnit) {
		t.Errorf("queue plot with Mbit/s series: err = %v, want a unit error", err)
	}
}

func TestQueueOverTime(t *testing.T) {
	// rho_max = 0.995 with c_s² = 1 gives Q = rho²/(1-rho) ≈ 198 packets
	// (seed 000 §4.3); the reference line must land in the legend.
	const rho = 0.995
	sat := rho * rho / (1 - rho)
	q := synthetic("Sydney", "bbr3", 120, func(t float64) float64 { return math.Mod(t*7, sat) })
	q.Unit = QueueUnit
	f, err := QueueOverTime("M/G/1 queue, BBRv3 downlink", []Series{q},
		SeriesOptions{Refs: []RefLine{{Y: sat, Label: "saturation at ρ = 0.995"}}})
	if err != nil {
		t.Fatal(err)
	}
	renderBoth(t, f, QueueQuantity+" ("+QueueUnit+")", "saturation at ρ = 0.995")
	if f.plot.Y.Max < sat {
		t.Errorf("y max %v below the saturation line %v", f.plot.Y.Max, sat)
	}
}

// TestTimeSeriesRealTraces plots the two Sydney downlink traces of
// ../shared/data (when present) with their reconfiguration boundaries, for
// a look at a real figure with -dump.
func TestTimeSeriesRealTraces(t *testing.T) {
	dir := "../../shared/data/starlink-iperf3/traces/"
	var all []Series
	for _, cca := range []string{"bbr", "cubic"} {
		s, start, err := readTrace(dir + "downlink_Sydney_" + cca + "_run1.csv")
		if err != nil {
			t.Skipf("real trace unavailable: %v", err)
		}
		s.Name, s.Key = cca+" (run 1)", cca
		all = append(all, s)
		_ = start
	}
	// Both logs start at second :31 of the minute; boundaries at :42/:57/:12/:27
	// fall 11 s after the start and every 15 s after that.
	var bs []float64
	for b := 11.0; b < 300; b += SlotSeconds {
		bs = append(bs, b)
	}
	f, err := TimeSeries("Sydney downlink, per-second throughput", "throughput", all, SeriesOptions{Boundaries: bs})
	if err != nil {
		t.Fatal(err)
	}
	renderBoth(t, f)
}

// readTrace reads the throughput column of a trace CSV of ../shared/data.
func readTrace(path string) (Series, string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Series{}, "", err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	s := Series{Unit: "Mbit/s"}
	var first string
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			first = line
			continue
		}
		cols := strings.Split(line, ",")
		end, err1 := strconv.ParseFloat(cols[1], 64)
		bps, err2 := strconv.ParseFloat(cols[4], 64)
		if err1 != nil || err2 != nil {
			continue // header
		}
		s.T = append(s.T, end)
		s.V = append(s.V, bps/1e6)
	}
	return s, first, sc.Err()
}
