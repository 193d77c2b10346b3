package campaign

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

// synthetic flows: one per (city, cca) with throughput = base[cca] · scale[city].
func syntheticFlows(kind, dir string, base map[string]float64, cities map[string]float64) []FlowRow {
	var out []FlowRow
	for city, s := range cities {
		for cca, b := range base {
			for seed := range 2 {
				out = append(out, FlowRow{RunID: city + cca, Kind: kind, Direction: dir, City: city, Label: cca, CCA: RegistryName(cca),
					Seed: int64(seed), ThroughputMbps: b * s * float64(1+seed), RetransPerGB: 100, RTTInflation: 1.5})
			}
		}
	}
	return out
}

func TestCompareAndSpearman(t *testing.T) {
	real, err := RealData()
	if err != nil {
		t.Fatal(err)
	}
	// Simulated throughput = the real ranking of downlink dedicated, per
	// city; the reverse of the real ranking for uplink dedicated.
	var flows []FlowRow
	for _, dir := range []string{"downlink", "uplink"} {
		for _, city := range []string{"sydney", "london", "tokyo"} {
			for _, cca := range DatasetNames() {
				v := real[Key{Dedicated, dir, city, cca}].ThroughputMbps
				if city == "tokyo" {
					v = 1
				}
				if dir == "uplink" {
					v = 1000 - v
				}
				flows = append(flows, FlowRow{RunID: city + cca, Kind: Dedicated, Direction: dir, City: city, Label: cca, ThroughputMbps: v, RTTInflation: 1})
			}
		}
	}
	rows := Compare(flows, real)
	if len(rows) != 2*3*9 {
		t.Fatalf("%d rows, want 54", len(rows))
	}
	for _, r := range rows {
		if (r.City == "tokyo") != (r.Real.N == 0) || r.Sim.N != 1 {
			t.Fatalf("row %+v: Tokyo (only) lacks real data", r)
		}
	}
	avg := Average(rows, Dedicated, "downlink")
	if len(avg) != 9 || avg[0].CCA != "bbr" || avg[0].City != "mean" || avg[0].Sim.N != 2 {
		t.Fatalf("average %+v", avg)
	}
	fid := Spearman(rows)
	if len(fid) != 4 {
		t.Fatalf("%d fidelities", len(fid))
	}
	for _, f := range fid {
		want := math.NaN()
		switch {
		case f.Kind == Dedicated && f.Direction == "downlink":
			want = 1
		case f.Kind == Dedicated && f.Direction == "uplink":
			want = -1
		}
		if math.IsNaN(want) != math.IsNaN(f.Rho) || (!math.IsNaN(want) && math.Abs(f.Rho-want) > 1e-9) {
			t.Errorf("%s: rho %v, want %v", f, f.Rho, want)
		}
		if !math.IsNaN(want) && (len(f.CCAs) != 8 || strings.Contains(strings.Join(f.CCAs, " "), "ccp")) {
			t.Errorf("%s: want the 8 CCAs without ccp", f)
		}
	}
}

// Simulated means average seeds; concurrent flows are keyed by their label.
func TestCompareAveragesSeeds(t *testing.T) {
	flows := syntheticFlows(Concurrent, "uplink", map[string]float64{"cubic": 10, "bbr3": 50}, map[string]float64{"ohio": 1})
	rows := Compare(flows, map[Key]Metrics{})
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		want := map[string]float64{"cubic": 15, "bbr": 75}[r.CCA]
		if r.Sim.N != 2 || r.Sim.ThroughputMbps != want || !math.IsNaN(r.Real.ThroughputMbps) {
			t.Errorf("row %+v: want sim mean %v over 2 seeds and no real value", r, want)
		}
	}
}

// results.csv has exactly the agreed columns and empty real cells for Tokyo.
func TestResultsTableCSV(t *testing.T) {
	rows := []Row{
		{Key: Key{Dedicated, "downlink", "tokyo", "bbr"}, Sim: Metrics{100, 2000, 1.2, 1}, Real: missing()},
		{Key: Key{Dedicated, "downlink", "sydney", "bbr"}, Sim: Metrics{200, 3000, 1.3, 1}, Real: Metrics{240, 3500, 1.6, 5}},
	}
	tab := ResultsTable("r", "results", rows)
	var buf bytes.Buffer
	if err := report.WriteCSV(&buf, &tab); err != nil {
		t.Fatal(err)
	}
	want := "kind,direction,city,cca,sim_throughput_mbps,sim_retrans_per_gb,sim_rtt_inflation,real_throughput_mbps,real_retrans_per_gb,real_rtt_inflation\n" +
		"dedicated,downlink,tokyo,bbr,100,2000,1.2,,,\n" +
		"dedicated,downlink,sydney,bbr,200,3000,1.3,240,3500,1.6\n"
	if buf.String() != want {
		t.Fatalf("csv:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// Without real data (Tokyo only, a fixed path) the mean is over the
// simulated cities and the real side is missing.
func TestAverageWithoutReal(t *testing.T) {
	flows := syntheticFlows(Dedicated, "", map[string]float64{"reno": 10}, map[string]float64{"": 1})
	flows = append(flows, syntheticFlows(Dedicated, "downlink", map[string]float64{"reno": 10}, map[string]float64{"tokyo": 1, "ohio": 3})...)
	rows := Compare(flows, map[Key]Metrics{{Dedicated, "downlink", "ohio", "reno"}: {ThroughputMbps: 7, N: 1}})
	a := Average(rows, Dedicated, "")
	if len(a) != 1 || a[0].Sim.ThroughputMbps != 15 || a[0].Real.N != 0 {
		t.Fatalf("fixed path: %+v", a)
	}
	a = Average(rows, Dedicated, "downlink")
	if len(a) != 1 || a[0].Sim.ThroughputMbps != 45 || a[0].Real.ThroughputMbps != 7 {
		t.Fatalf("ohio only (where real exists): %+v", a)
	}
	if p := pairs(rows); len(p) != 2 || p[0] != [2]string{Dedicated, ""} {
		t.Fatalf("pairs %v", p)
	}
}
