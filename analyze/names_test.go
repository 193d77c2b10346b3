package analyze

import "testing"

func TestParseName(t *testing.T) {
	cases := []struct {
		path string
		want Meta
	}{
		{"downlink-competitive-logs/London/bbr1_London__REV_run1.json",
			Meta{CCA: "bbr1", City: "london", Direction: Downlink, Kind: KindCompetitive, Run: 1}},
		{"downlink-sequential-logs/Sydney/iperf3-downlink-sequential-logs/bbr_Sydney__REV_run10.json",
			Meta{CCA: "bbr", City: "sydney", Direction: Downlink, Kind: KindSequential, Run: 10}},
		{"uplink-sequential-logs/SaoPaulo/cubic_SaoPaulo__FWD_run3.json",
			Meta{CCA: "cubic", City: "saopaulo", Direction: Uplink, Kind: KindSequential, Run: 3}},
		{"traces/downlink_Sydney_cubic_run1.csv", Meta{CCA: "cubic", City: "sydney", Direction: Downlink, Run: 1}},
		{"out/flow0_cubic.json", Meta{CCA: "cubic"}},
		{"mylog.json", Meta{}},
		{"runaway_reno.json", Meta{CCA: "reno"}}, // "runaway" is not a run number
	}
	for _, c := range cases {
		if got := ParseName(c.path); got != c.want {
			t.Errorf("ParseName(%q) = %+v, want %+v", c.path, got, c.want)
		}
	}
}
