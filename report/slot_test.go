package report

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestSlotBarsTileTheSecond(t *testing.T) {
	// n profiles share each one-second column without overlap, inside it.
	for _, n := range []int{1, 2, 3, 9} {
		ps := make([]SlotProfile, n)
		for j := range ps {
			ps[j] = SlotProfile{Name: "p" + strconv.Itoa(j), Key: "cubic"}
			ps[j].Throughput[0] = 1
		}
		bs, err := slotBars(SlotThroughput, ps)
		if err != nil {
			t.Fatal(err)
		}
		prevEnd := 0.0
		j := 0
		for _, b := range bs {
			if b.offset < prevEnd-1e-12 || b.offset+b.width > 1+1e-12 {
				t.Errorf("n=%d bar %d spans [%v, %v), overlaps or leaves the second", n, j, b.offset, b.offset+b.width)
			}
			if want := j > 0; b.hollow != want {
				t.Errorf("n=%d bar %d hollow=%v, want %v (same colour key)", n, j, b.hollow, want)
			}
			prevEnd = b.offset + b.width
			j++
		}
		if j != n {
			t.Errorf("n=%d: %d bar sets", n, j)
		}
		if got, want := prevEnd, 1-(1-slotGroup)/2; math.Abs(got-want) > 1e-12 {
			t.Errorf("n=%d: last bar ends at %v, want %v", n, got, want)
		}
	}
}

func TestSlotPlotRealSydneyDownlink(t *testing.T) {
	var ps []SlotProfile
	for _, cca := range []string{"bbr", "cubic"} {
		p, err := slotFromTrace("../../shared/data/starlink-iperf3/traces/downlink_Sydney_" + cca + "_run1.csv")
		if err != nil {
			t.Skipf("real trace unavailable: %v", err)
		}
		p.Name, p.Key = cca+" (run 1)", cca
		ps = append(ps, p)
	}
	// The Starlink signature (DESIGN.md; ../shared/data/README.md): bbr's
	// downlink retransmissions peak in the second that ends at a boundary,
	// which SlotPlot draws as the rightmost column.
	peak := 0
	for i, v := range ps[0].Retransmits {
		if v > ps[0].Retransmits[peak] {
			peak = i
		}
	}
	if peak != SlotSeconds-1 {
		t.Errorf("bbr retransmissions peak in second %d of the slot, want %d: %v", peak, SlotSeconds-1, ps[0].Retransmits)
	}
	for _, m := range []SlotMetric{SlotRetransmits, SlotThroughput} {
		lab, _ := m.label()
		f, err := SlotPlot("Sydney downlink by second of the 15 s slot: "+lab, m, ps)
		if err != nil {
			t.Fatal(err)
		}
		renderBoth(t, f, "0", "7", "15", lab)
	}
}

func TestSlotPlotRejects(t *testing.T) {
	var p SlotProfile
	p.Retransmits[3] = math.NaN()
	if _, err := SlotPlot("x", SlotRetransmits, []SlotProfile{p}); err == nil || !strings.Contains(err.Error(), "second 3") {
		t.Errorf("NaN: err = %v, want one naming second 3", err)
	}
	if _, err := SlotPlot("x", SlotMetric(7), []SlotProfile{p}); err == nil {
		t.Error("unknown metric: want an error")
	}
	if _, err := SlotPlot("x", SlotThroughput, nil); err == nil {
		t.Error("no profiles: want an error")
	}
}

// slotFromTrace folds a trace CSV of ../shared/data into a slot profile.
// Both Sydney downlink logs start at :31 UTC, so the boundaries (:42, :57,
// :12, :27) fall 11 s after the start, then every 15 s; interval [s, e)
// belongs to second floor(s - 11) mod 15 of its slot.
func slotFromTrace(path string) (SlotProfile, error) {
	const firstBoundary = 11.0
	fh, err := os.Open(path)
	if err != nil {
		return SlotProfile{}, err
	}
	defer fh.Close()
	var p SlotProfile
	var n [SlotSeconds]float64
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		c := strings.Split(sc.Text(), ",")
		if len(c) < 6 {
			continue
		}
		start, err1 := strconv.ParseFloat(c[0], 64)
		bps, err2 := strconv.ParseFloat(c[4], 64)
		retr, err3 := strconv.ParseFloat(c[5], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		k := int(math.Floor(math.Mod(math.Mod(start+1e-3-firstBoundary, SlotSeconds)+SlotSeconds, SlotSeconds)))
		p.Throughput[k] += bps / 1e6
		p.Retransmits[k] += retr
		n[k]++
	}
	for k := range n {
		if n[k] > 0 {
			p.Throughput[k] /= n[k]
			p.Retransmits[k] /= n[k]
		}
	}
	return p, sc.Err()
}
