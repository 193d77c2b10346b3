package schedule

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// leoemDir holds the LeoEM logs (see ../shared/data/README.md).
const leoemDir = "../../../../shared/data/leoem-paths/"

func openData(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.Open(leoemDir + name)
	if err != nil {
		t.Skipf("LeoEM data not here: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// syntheticLog is a LeoEM-format log of n seconds: a 20–30 ms delay, a
// handover every 15 s, a NULL second at 100 s.
func syntheticLog(n int) *PathLog {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i == 101 {
			fmt.Fprintf(&b, "%d$NULL\n", i)
			continue
		}
		sat := 700 + (i-1)/15
		d1, d2 := 0.01+0.00001*float64(i%1000), 0.012
		fmt.Fprintf(&b, "%d$[-1, %d, 1587, -2]$4$[%v, %v, 0.001]$%v\n", i, sat, d1, d2, d1+d2+0.001)
	}
	pl, err := ReadLeoEM("synthetic", strings.NewReader(b.String()))
	if err != nil {
		panic("leolab BUG: synthetic log: " + err.Error())
	}
	return pl
}

func TestReadLeoEMSanDiegoNewYork(t *testing.T) {
	for _, c := range []struct {
		file           string
		lines, nulls   int
		handovers      int
		minOWD, maxOWD float64
	}{
		// Counted with awk on the files: NF==2 lines, node-list changes
		// between consecutive lines (a reconnection after NULL counts).
		{"Starlink_SD_NY_15_BP_path.log", 5732, 19, 0, 0.0158, 0.0330},
		{"Starlink_SD_NY_15_ISL_path.log", 5731, 0, 262, 0.0141, 0.0745},
	} {
		pl, err := ReadLeoEM(c.file, openData(t, c.file))
		if err != nil {
			t.Fatal(err)
		}
		nulls, hos := 0, 0
		mn, mx := math.Inf(1), 0.0
		for i := range pl.OWD {
			if pl.Down[i] {
				nulls++
				continue
			}
			mn, mx = min(mn, pl.OWD[i]), max(mx, pl.OWD[i])
			if pl.Handover[i] {
				hos++
			}
		}
		if len(pl.OWD) != c.lines || nulls != c.nulls {
			t.Errorf("%s: %d lines, %d NULL; want %d, %d", c.file, len(pl.OWD), nulls, c.lines, c.nulls)
		}
		if c.handovers > 0 && hos != c.handovers {
			t.Errorf("%s: %d handovers, want %d", c.file, hos, c.handovers)
		}
		if mn < c.minOWD || mx > c.maxOWD {
			t.Errorf("%s: owd %g..%g s, want within %g..%g", c.file, mn, mx, c.minOWD, c.maxOWD)
		}
		if c.file == "Starlink_SD_NY_15_BP_path.log" {
			// first line: 0.02117912602441921 s; cycle 5 is a new route (17→19 nodes).
			if pl.OWD[0] != 0.02117912602441921 || !pl.Handover[4] || pl.Handover[1] {
				t.Errorf("BP: owd[0] %v, handover[4] %v, handover[1] %v", pl.OWD[0], pl.Handover[4], pl.Handover[1])
			}
			prof, out := pl.Delay(10*time.Second, false)
			if got := prof.Value(0); got != pl.OWD[10] {
				t.Errorf("offset 10s: delay at 0 = %v, want line 11's %v", got, pl.OWD[10])
			}
			// NULL lines 998–1001 (index 997–1000): down from 987 s to 991 s at offset 10 s.
			if !out.Down(987*time.Second) || !out.Down(991*time.Second-1) || out.Down(991*time.Second) || out.Down(987*time.Second-1) {
				t.Errorf("outage spans %v", out.Spans()[:2])
			}
		}
	}
}

func TestReadLeoEMBadInput(t *testing.T) {
	good := "1$[-1, 5, -2]$3$[0.01, 0.02]$0.03\n"
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "no path lines"},
		{"fields", "1$[-1, -2]$2$[0.01]\n", "test.log:1: 4 fields separated by $, want 5"},
		{"cycle", good + "x$NULL\n", `test.log:2: cycle "x" is not an integer`},
		{"gap", good + "3$NULL\n", "test.log:2: cycle 3 after 1: cycles must be consecutive"},
		{"count", "1$[-1, 5, -2]$4$[0.01, 0.02]$0.03\n", "test.log:1: node count \"4\": want 3"},
		{"hops", "1$[-1, 5, -2]$3$[0.01]$0.01\n", "test.log:1: hop delays"},
		{"negative", "1$[-1, 5, -2]$3$[-0.01, 0.02]$0.01\n", "out of range [0, 10]"},
		{"sum", "1$[-1, 5, -2]$3$[0.01, 0.02]$0.05\n", "not the sum of the hop delays"},
		{"absurd", "1$[-1, 5, -2]$3$[5, 6]$11\n", "want seconds in (0, 10]"},
		{"nan", "1$[-1, 5, -2]$3$[NaN, 0.02]$0.02\n", "out of range"},
		{"list", "1$-1, 5, -2$3$[0.01, 0.02]$0.03\n", "node list"},
		{"allnull", "1$NULL\n2$NULL\n", "every line is NULL"},
		{"long", "1$[" + strings.Repeat("1, ", maxPathLine/3) + "-2]$3$[]$0.1\n", "test.log:1: line longer than"},
	} {
		_, err := ReadLeoEM("test.log", strings.NewReader(c.text))
		var fe *FileError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// FuzzReadLeoEM: no input panics, and what is accepted is consistent.
func FuzzReadLeoEM(f *testing.F) {
	f.Add([]byte("1$[-1, 5, -2]$3$[0.01, 0.02]$0.03\n2$NULL\n3$[-1, 6, -2]$3$[0.01, 0.02]$0.03\n"))
	f.Add([]byte("7$NULL\n8$[-1,-2]$2$[0.02]$0.02"))
	f.Add([]byte("1$[]$0$[]$0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pl, err := ReadLeoEM("fuzz", bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(pl.OWD) != len(pl.Down) || len(pl.OWD) != len(pl.Handover) || len(pl.OWD) != len(pl.Interruption) || len(pl.OWD) > len(data) {
			t.Fatalf("inconsistent: %d/%d/%d from %d bytes", len(pl.OWD), len(pl.Down), len(pl.Handover), len(data))
		}
		for _, d := range pl.OWD {
			if !(d > 0 && d <= MaxPathOWD) {
				t.Fatalf("owd %v accepted", d)
			}
		}
		prof, _ := pl.Delay(0, true)
		if _, err := NewDelay(Profile{}, prof, Outages{}, nil); err != nil && len(pl.Down) > 0 {
			_ = err // outages without a drop func: allowed to refuse
		}
	})
}

func TestECDF(t *testing.T) {
	d, err := ReadECDF("e", strings.NewReader("0.1 0\n0.2 0.5\n# comment\n\n0.4 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ u, want float64 }{{0, 0.1}, {0.25, 0.15}, {0.5, 0.2}, {0.75, 0.3}, {0.999999, 0.4}} {
		if got := d.Sample(c.u); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("Sample(%g) = %g, want %g", c.u, got, c.want)
		}
	}
	if m := d.Mean(); math.Abs(m-0.225) > 1e-12 {
		t.Errorf("mean %g, want 0.225", m)
	}
	for _, c := range []struct{ text, want string }{
		{"0.1\n", "e:1: 1 columns, want 2"},
		{"0.1 0.5\n0.05 0.7\n", "e:2: 0.05 0.7 after 0.1 0.5"},
		{"0.1 0.5\n", "last cumulative probability 0.5, want 1"},
		{"0.1 1.5\n", "e:1: cumulative probability"},
		{"inf 1\n", "e:1: value"},
		{"", "no points"},
	} {
		if _, err := ReadECDF("e", strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

func FuzzReadECDF(f *testing.F) {
	f.Add([]byte("0.1 0\n0.2 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadECDF("fuzz", bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, u := range []float64{0, 0.3, 0.999} {
			if v := d.Sample(u); math.IsNaN(v) {
				t.Fatalf("Sample(%g) NaN", u)
			}
		}
	})
}

// LeoEM's timing errors: 1606 points from 3.6 ms to 1.58 s. The predicted
// schedule moves each handover by one of them with either sign: the mean
// |shift| matches the distribution's mean within 3 standard errors.
func TestPredictedHandovers(t *testing.T) {
	d, err := ReadECDF("timing_err_ecdf.dat", openData(t, "timing_err_ecdf.dat"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.cum) != 1606 || d.value[0] < 0.0035 || d.value[len(d.value)-1] > 1.58 {
		t.Fatalf("%d points %g..%g", len(d.cum), d.value[0], d.value[len(d.value)-1])
	}
	var at []time.Duration
	for i := range 4000 {
		at = append(at, time.Duration(10+15*i)*time.Second)
	}
	h := NewHandovers(at)
	p := h.Predicted(d, rngFor(1))
	q := h.Predicted(d, rngFor(1))
	if !slicesEqual(p.Times(), q.Times()) {
		t.Fatal("same seed, different schedules")
	}
	var sum, sum2 float64
	neg := 0
	for i, t0 := range h.Times() {
		e := (p.Times()[i] - t0).Seconds() // shifts < 7.5 s keep the order
		if e < 0 {
			neg++
		}
		sum += math.Abs(e)
		sum2 += e * e
	}
	n := float64(len(at))
	mean := sum / n
	se := math.Sqrt((sum2/n - mean*mean) / n)
	if math.Abs(mean-d.Mean()) > 3*se {
		t.Errorf("mean |shift| %.4f s, distribution's %.4f s (se %.4f)", mean, d.Mean(), se)
	}
	if frac := float64(neg) / n; math.Abs(frac-0.5) > 3*math.Sqrt(0.25/n) {
		t.Errorf("%.3f of the shifts early, want 0.5", frac)
	}
	if h.Next(10*time.Second) != 10*time.Second || h.Next(11*time.Second) != 25*time.Second || h.Next(time.Duration(1<<62)) != -1 {
		t.Error("Next")
	}
}

// LeoEM's handover interruption: in the synthetic log the first satellite
// changes every 15 s (first hop 10–20 ms), so the path is down for
// 3 × (old + new first-hop delay) at each change; after the NULL second,
// 3 × the new one. On the real BP log every interruption is a few ms.
func TestHandoverInterruption(t *testing.T) {
	pl := syntheticLog(200)
	d1 := func(i int) float64 { return 0.01 + 0.00001*float64(i%1000) }               // line i (1-based)
	if got, want := pl.Interruption[15], durationOf(3*(d1(15)+d1(16))); got != want { // line 16: satellite 701
		t.Errorf("interruption at 15 s: %v, want %v", got, want)
	}
	if got, want := pl.Interruption[101], durationOf(3*max(d1(102), 0.001)); got != want { // after NULL line 101
		t.Errorf("interruption after the NULL second: %v, want %v", got, want)
	}
	if pl.Interruption[16] != 0 || pl.Interruption[0] != 0 {
		t.Errorf("interruptions %v, %v where the route is unchanged", pl.Interruption[16], pl.Interruption[0])
	}
	_, out := pl.Delay(0, true)
	if !out.Down(15*time.Second) || out.Down(15*time.Second+pl.Interruption[15]) || !out.Down(100*time.Second+500*time.Millisecond) {
		t.Errorf("outages %v", out.Spans()[:3])
	}
	_, none := pl.Delay(0, false)
	if none.Down(15 * time.Second) {
		t.Error("interruption without asking for it")
	}
	real, err := ReadLeoEM("bp", openData(t, "Starlink_SD_NY_15_BP_path.log"))
	if err != nil {
		t.Fatal(err)
	}
	n, longest := 0, time.Duration(0)
	for _, d := range real.Interruption {
		if d > 0 {
			n++
			longest = max(longest, d)
		}
	}
	// first/last hops of the bent pipe are 0.8–3.3 ms: at most 3·2·3.3 ≈ 20 ms.
	if n < 100 || longest > 25*time.Millisecond {
		t.Errorf("%d interruptions, longest %v", n, longest)
	}
	t.Logf("BP: %d interruptions, longest %v", n, longest)
}
