package analyze

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/iperf"
)

func TestSummaryFlow(t *testing.T) {
	// Downlink row of run1_summary.csv (London bbr): receiver columns are 0.
	s := iperf.Summary{CCA: "bbr", Seconds: 300.265288, SenderBytes: 5305925632, SenderBps: 141366340.87387419,
		Retransmits: 38375, MinRTT: 256533 * time.Microsecond, MeanRTT: 274033 * time.Microsecond}
	f := summaryFlow(s)
	if f.BytesAcked != 5305925632 || math.Abs(f.ThroughputMbps-141.36634087) > 1e-6 {
		t.Errorf("bytes %d throughput %v", f.BytesAcked, f.ThroughputMbps)
	}
	// 38375 / 5.305925632 GB = 7232.49 per GB; 274.033 / 256.533 = 1.06822.
	if math.Abs(f.RetransPerGB-38375/5.305925632) > 1e-6 || math.Abs(f.RTTInflation-274.033/256.533) > 1e-9 {
		t.Errorf("retrans/GB %v inflation %v", f.RetransPerGB, f.RTTInflation)
	}
	// An uplink receiver-only row falls back to the receiver's totals.
	r := summaryFlow(iperf.Summary{CCA: "cubic", Seconds: 10, RecvBytes: 1e6, RecvBps: 8e5})
	if r.BytesAcked != 1e6 || r.ThroughputMbps != 0.8 || r.RTTInflation != 0 {
		t.Errorf("receiver row: %+v", r)
	}
}

func TestAssignGroups(t *testing.T) {
	flows := []Flow{
		{File: "d/downlink-competitive-logs/London/bbr_London__REV_run2.json", Meta: ParseName("d/downlink-competitive-logs/London/bbr_London__REV_run2.json")},
		{File: "d/downlink-competitive-logs/London/cubic_London__REV_run2.json", Meta: ParseName("d/downlink-competitive-logs/London/cubic_London__REV_run2.json")},
		{File: "d/downlink-competitive-logs/London/cubic_London__REV_run3.json", Meta: ParseName("d/downlink-competitive-logs/London/cubic_London__REV_run3.json")},
		{File: "d/uplink-sequential-logs/Ohio/vegas_Ohio__FWD_run1.json", Meta: ParseName("d/uplink-sequential-logs/Ohio/vegas_Ohio__FWD_run1.json")},
		{File: "sim/out/flow0_cubic.json"}, {File: "sim/out/flow1_reno.json"},
		{File: "one/flow0_bbr3.json"},
		{File: "x.json", Group: "already"},
		{File: "plain.json"},
	}
	assignGroups(flows)
	want := []struct {
		group      string
		concurrent bool
	}{
		{"downlink/london/competitive/run2", true}, {"downlink/london/competitive/run2", true},
		{"downlink/london/competitive/run3", true}, {"uplink/ohio/sequential", false},
		{"out/", true}, {"out/", true}, {"one/", false}, {"already", false}, {"iperf3", false},
	}
	for i, w := range want {
		if flows[i].Group != w.group || flows[i].Concurrent != w.concurrent {
			t.Errorf("%s: group %q concurrent %v, want %q %v", flows[i].File, flows[i].Group, flows[i].Concurrent, w.group, w.concurrent)
		}
	}
}

func summaryRow() iperf.Summary {
	return iperf.Summary{CCA: "vegas", City: "Sydney", Direction: "downlink", Run: 1, Seconds: 300,
		SenderBytes: 3e8, SenderBps: 8e6, Retransmits: 30, MinRTT: 25 * time.Millisecond, MeanRTT: 30 * time.Millisecond}
}
