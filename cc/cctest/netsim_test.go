package cctest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/reno"
	_ "github.com/leolab/leolab/cc/vegas"
)

// Two Reno flows on a 20 Mbit/s, 40 ms dumbbell with a one-BDP buffer
// (67 packets of 1500 B) for 20 s: together they deliver no more than the
// link and, as AIMD with a one-BDP buffer never drains it, at least 90% of
// it; the queue adds at most the buffer's 40 ms to the RTT.
func TestDumbbellRun(t *testing.T) {
	d := cctest.Dumbbell{Name: "cctest-reno", Mbps: 20, RTT: 40 * time.Millisecond, Limit: 67,
		Duration: 20 * time.Second, CCAs: []string{"reno", "reno"}}
	res, err := d.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Flows) != 2 {
		t.Fatalf("%d flows, want 2", len(res.Flows))
	}
	sum := res.Flows[0].ThroughputMbps + res.Flows[1].ThroughputMbps
	t.Logf("reno ×2: %.2f + %.2f Mbit/s, mean RTT %.1f ms", res.Flows[0].ThroughputMbps,
		res.Flows[1].ThroughputMbps, res.Flows[0].MeanRTTMs)
	if sum > 20 || sum < 0.9*20 {
		t.Errorf("total %.2f Mbit/s on a 20 Mbit/s link, want 18–20", sum)
	}
	for i, f := range res.Flows {
		if f.MinRTTMs < 40 || f.MeanRTTMs > 40+40+5 {
			t.Errorf("flow %d: RTT min %.1f mean %.1f ms, want in [40, 85]", i, f.MinRTTMs, f.MeanRTTMs)
		}
	}
}

func TestDumbbellYAML(t *testing.T) {
	y := cctest.Dumbbell{Name: "x", Mbps: 12.5, RTT: 60 * time.Millisecond, Limit: 250,
		Duration: 90 * time.Second, CCAs: []string{"cubic"}}.YAML()
	for _, want := range []string{"rate: 12.5Mbps", "rtt: 60ms", "limit_packets: 250", "duration: 1m30s",
		"interval: 1s", "- {cca: cubic, start: 0s}"} {
		if !strings.Contains(y, want) {
			t.Errorf("YAML lacks %q:\n%s", want, y)
		}
	}
}

func TestRunYAMLErrors(t *testing.T) {
	_, _, err := cctest.RunYAML("version: 1\nname: bad\n")
	if err == nil || !strings.HasPrefix(err.Error(), "cctest: ") {
		t.Errorf("error %v, want one wrapped by cctest", err)
	}
	d := cctest.Dumbbell{Name: "unknown", Mbps: 10, RTT: 10 * time.Millisecond, Limit: 10,
		Duration: time.Second, CCAs: []string{"no-such-cca"}}
	if _, err := d.Run(); err == nil {
		t.Error("unknown controller accepted")
	}
}

// FixedLink: Reno alone on 50 Mbit/s, 60 ms with a one-BDP buffer never
// drains the queue after a halving (AIMD with a one-BDP buffer), so it uses
// more than the 80% the helper asks for, and its RTT lies between the base
// 60 ms and the base plus the full 60 ms buffer.
func TestFixedLink(t *testing.T) {
	f := cctest.FixedLink(t, "reno")
	if f.CCA != "reno" || f.ThroughputMbps > 50 || f.ThroughputMbps < 0.9*50 {
		t.Errorf("%s: %.2f Mbit/s, want reno at 45–50", f.CCA, f.ThroughputMbps)
	}
	if f.MinRTTMs < 60 || f.MeanRTTMs > 60+60+5 {
		t.Errorf("RTT min %.1f mean %.1f ms, want in [60, 125]", f.MinRTTMs, f.MeanRTTMs)
	}
}

// FixedLinkLowDelay: Vegas holds only α–β = 2–4 segments in the queue, a
// few ms at 50 Mbit/s, far under the 12 ms (20% of 60 ms) the helper
// allows, and reports the same flow as FixedLink.
func TestFixedLinkLowDelay(t *testing.T) {
	f := cctest.FixedLinkLowDelay(t, "vegas")
	if q := f.MeanRTTMs - f.MinRTTMs; f.CCA != "vegas" || q < 0 || q > 5 {
		t.Errorf("%s: queueing delay %.1f ms, want vegas at 0–5 ms", f.CCA, q)
	}
}
