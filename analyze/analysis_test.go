package analyze

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// constFlow is a flow of n 1 s intervals at rate bits/s with the given srtt
// per interval (cycled).
func constFlow(cca string, n int, rate float64, srtt ...float64) result.Flow {
	f := result.Flow{CCA: cca}
	for i := range n {
		f.Intervals = append(f.Intervals, result.Interval{T: float64(i + 1), Bytes: int64(rate / 8),
			Retransmits: int64(i % 2), SRTTMs: srtt[i%len(srtt)]})
	}
	return f
}

// Two concurrent flows at 30 and 10 Mbit/s: Jain (ΣT)²/(NΣT²) = 40²/(2·1000)
// = 0.8, shares 0.75/0.25, max–min 1/3, PF = (2·0.75)(2·0.25) = 0.75, fair
// share 20 Mbit/s.
func TestAnalyzeFairness(t *testing.T) {
	flows := []Flow{
		{Label: "a", Group: "g", Concurrent: true, Data: constFlow("cubic", 20, 30e6, 40)},
		{Label: "solo", Group: "h", Data: constFlow("vegas", 20, 5e6, 30)},
		{Label: "b", Group: "g", Concurrent: true, Data: constFlow("bbr3", 20, 10e6, 50)},
	}
	a := Analyze(flows)
	if len(a.Groups) != 2 || a.Flows[1].Label != "b" || a.Flows[2].Label != "solo" {
		t.Fatalf("groups %+v flows %v %v %v: want g(a,b) then h(solo)", a.Groups, a.Flows[0].Label, a.Flows[1].Label, a.Flows[2].Label)
	}
	g := a.Groups[0]
	near := func(what string, got, want float64) {
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("jain", g.Jain, 0.8)
	near("max-min", g.MinMax, 1.0/3)
	near("pf", g.PF, 0.75)
	near("total", g.TotalMbps, 40)
	near("share a", a.Flows[0].Share, 0.75)
	near("share b", a.Flows[1].Share, 0.25)
	near("fair share", a.Flows[1].FairShareMbps, 20)
	if s := a.Flows[2]; s.Share != 0 || s.FairShareMbps != 0 || a.Groups[1].Concurrent {
		t.Errorf("dedicated flow got fairness figures: %+v", s)
	}
}

// Figures from intervals: 10 s at 8 Mbit/s with srtt 20,30,…: bytes 10 MB,
// retransmits 5 (every other interval) → 500 per GB; mean srtt over
// {20,30,40,50,60} cycled = 40 ms; p95 (nearest rank, 10 values) = 60 ms;
// min RTT: the reported per-ACK 15 ms wins over the least srtt 20 ms.
func TestFlowMetricsFromIntervals(t *testing.T) {
	d := constFlow("cubic", 10, 8e6, 20, 30, 40, 50, 60)
	d.MinRTTMs, d.BytesAcked = 15, 12345
	m, _ := flowMetrics(Flow{Data: d})
	if m.From != FromIntervals || m.Bytes != 10e6 || m.Retransmits != 5 || m.DurationS != 10 {
		t.Fatalf("%+v", m)
	}
	if m.ThroughputMbps != 8 || m.RetransPerGB != 500 || m.MeanRTTMs != 40 || m.P95RTTMs != 60 || m.MinRTTMs != 15 {
		t.Errorf("Mbit/s %v retrans/GB %v mean %v p95 %v min %v", m.ThroughputMbps, m.RetransPerGB, m.MeanRTTMs, m.P95RTTMs, m.MinRTTMs)
	}
	if math.Abs(m.RTTInflation-40.0/15) > 1e-12 || m.Reported.Bytes != 12345 || m.PeakRetransS != -1 {
		t.Errorf("inflation %v reported %+v peak %d", m.RTTInflation, m.Reported, m.PeakRetransS)
	}
	// Without a reported minimum the least srtt is the minimum.
	d.MinRTTMs = 0
	if m, _ := flowMetrics(Flow{Data: d}); m.MinRTTMs != 20 {
		t.Errorf("min RTT %v, want 20", m.MinRTTMs)
	}
}

// The Sydney downlink traces show their retransmission peak in the second
// before each reconfiguration boundary (seed 001's 15 s schedule): slot bin 14.
func TestSydneyDownlinkSlotPeak(t *testing.T) {
	dir := sharedData(t, "starlink-iperf3/traces")
	in, errs := Load([]string{filepath.Join(dir, "downlink_Sydney_bbr_run1.csv"), filepath.Join(dir, "downlink_Sydney_cubic_run1.csv")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, m := range Analyze(in.Flows).Flows {
		if m.PeakRetransS != 14 {
			t.Errorf("%s: retransmission peak in second %d of the slot, want 14", m.Label, m.PeakRetransS)
		}
		if m.QueuePkts <= 0 || m.QueuePkts > saturationQueue() {
			t.Errorf("%s: mean M/G/1 queue %v packets, want in (0, %v]", m.Label, m.QueuePkts, saturationQueue())
		}
	}
}

const twoFlowScenario = `version: 1
name: analyze-same-table
duration: 20s
seed: 7
path: {profile: fixed, rate: 20Mbps, rtt: 40ms, queue: {limit_packets: 100}}
flows:
  - {cca: cubic}
  - {cca: cubic, start: 2s}
`

// tableRows is the text table without group headings and the flow column
// (a result's flows are "r.json#0", the iperf3 files "flow0_cubic.json"):
// the flows' rows and the fairness line of each concurrent group.
func tableRows(t *testing.T, a *Analysis) []string {
	t.Helper()
	var b bytes.Buffer
	if err := a.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(b.String(), "\n") {
		f := strings.Fields(l)
		if len(f) < 10 || f[0] == "flow" {
			continue
		}
		rows = append(rows, strings.Join(f[1:], " "))
	}
	return rows
}

// Acceptance: a leolab sim result and the same run's --iperf3-json output
// give the same table.
func TestSimResultAndIperfSameTable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	_, spec, err := scenario.ParseSpec("same.yaml", []byte(twoFlowScenario))
	if err != nil {
		t.Fatal(err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	resFile := filepath.Join(dir, "r.json")
	if err := os.WriteFile(resFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := iperf.WriteDir(filepath.Join(dir, "iperf"), *res); err != nil {
		t.Fatal(err)
	}
	fromRes, errs := Load([]string{resFile})
	fromIperf, errs2 := Load([]string{filepath.Join(dir, "iperf")})
	if len(errs)+len(errs2) > 0 {
		t.Fatal(errs, errs2)
	}
	a, b := Analyze(fromRes.Flows), Analyze(fromIperf.Flows)
	ra, rb := tableRows(t, a), tableRows(t, b)
	if len(ra) != 3 || strings.Join(ra, "\n") != strings.Join(rb, "\n") {
		t.Errorf("tables differ:\nresult:\n%s\niperf3:\n%s", strings.Join(ra, "\n"), strings.Join(rb, "\n"))
	}
	if a.Groups[0].Jain != b.Groups[0].Jain || !a.Groups[0].Concurrent || !b.Groups[0].Concurrent {
		t.Errorf("fairness differs: %+v vs %+v", a.Groups[0], b.Groups[0])
	}
	if a.Flows[0].Bytes == 0 || a.Flows[0].MeanRTTMs < 40 {
		t.Errorf("implausible sim flow: %+v", a.Flows[0])
	}
}

func BenchmarkAnalyzeTraces(b *testing.B) {
	in, errs := Load([]string{sharedData(b, "starlink-iperf3/traces")})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	b.ReportAllocs()
	for b.Loop() {
		Analyze(in.Flows)
	}
}
