package scenario_test

import (
	"strings"
	"testing"

	"github.com/leolab/leolab/scenario"
)

// scenarioWith is a small valid fixed-link scenario with the path's extra
// fields, the top-level lines and the flows given.
func scenarioWith(top, pathExtra, flows string) string {
	return "version: 1\nduration: 10s\n" + top + "path: {profile: fixed, rate: 100Mbps, rtt: 50ms" + pathExtra + "}\nflows: " + flows + "\n"
}

// TestBadNumbers: the numbers of issue 18 that slipped through validation
// and crashed, hung or lied; each is refused naming the field and what is
// allowed.
func TestBadNumbers(t *testing.T) {
	cubic := "[{cca: cubic}]"
	testBadInput(t, "bad.yaml", []badInput{
		{"NaN loss", scenarioWith("", ", loss: NaN", cubic), []string{"path.loss", "not a finite number"}},
		{"Inf loss", scenarioWith("", ", loss: .inf", cubic), []string{"path.loss"}},
		{"NaN reverse loss", scenarioWith("", ", reverse: {loss: nan}", cubic), []string{"path.reverse.loss", "finite"}},
		{"tiny rate", strings.Replace(scenarioWith("", "", cubic), "100Mbps", "1e-300bps", 1), []string{"path.rate", "allowed: 1kbps..1Tbps"}},
		{"overflowing rate", strings.Replace(scenarioWith("", "", cubic), "100Mbps", "1e300Tbps", 1), []string{"path.rate", "overflows after its unit"}},
		{"tiny reverse rate", scenarioWith("", ", reverse: {rate: 1e-300bps}", cubic), []string{"path.reverse.rate", "allowed: 1kbps..1Tbps"}},
		{"huge reverse rate", scenarioWith("", ", reverse: {rate: 1e300Tbps}", cubic), []string{"path.reverse.rate", "overflows"}},
		{"huge rtt", strings.Replace(scenarioWith("", "", cubic), "50ms", "1000000h", 1), []string{"path.rtt", "allowed: 0s..10m0s"}},
		{"huge cbr rate", scenarioWith("", "", "[{cca: cbr, rate: 1e300Tbps, packet_size: 1000}]"), []string{"flows[0].rate", "overflows"}},
		{"tiny cbr rate", scenarioWith("", "", "[{cca: cbr, rate: 1e-300bps, packet_size: 1000}]"), []string{"flows[0].rate", "allowed: 1kbps..1Tbps"}},
		{"huge extra rtt", scenarioWith("", "", "[{cca: cubic, extra_rtt: 100000h}]"), []string{"flows[0].extra_rtt", "allowed"}},
		{"NaN cc param", scenarioWith("", "", "[{cca: cubic, params: {hystart: NaN}}]"), []string{"flows[0].params.hystart", "finite"}},
		{"absurd cc gain", scenarioWith("", "", "[{cca: bbr3, params: {cwnd_gain: 1e308}}]"), []string{"bad.yaml:4:", "flows[0].params", "gains must be in (0, 100]"}},
		{"negative cc window", scenarioWith("", "", "[{cca: bbr3, params: {min_rtt_win_s: -1}}]"), []string{"flows[0].params", "out of range"}},
		{"NaN size", scenarioWith("", "", "[{cca: cubic, bytes: NaNMB}]"), []string{"flows[0].bytes", "not a size"}},
		{"NaN queue param", scenarioWith("", ", queue: {discipline: red, params: {max_p: NaN}}", cubic), []string{"path.queue.params.max_p", "finite"}},
		{"1ns interval", scenarioWith("interval: 1ns\n", "", cubic), []string{"interval", "1ns is out of range (allowed: 1ms..the duration 10s)"}},
		{"interval beyond the run", scenarioWith("interval: 1m\n", "", cubic), []string{"interval", "allowed: 1ms"}},
		{"too many flows in all", scenarioWith("", "", "["+strings.Repeat("{cca: cubic, count: 10000}, ", 9)+"{cca: cubic, count: 10000}]"),
			[]string{"flows", "100000 flows in all", "at most 10000"}},
		{"a year", strings.Replace(scenarioWith("", "", cubic), "10s", "8760h", 1), []string{"duration", "must be in (0, 168h0m0s]"}},
	})
}

func TestBudgetRefusesRunsThatCannotFit(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       string // "" = within budget
	}{
		{"the dumbbell", scenarioWith("", "", "[{cca: cubic}]"), ""},
		{"10000 flows for 10 s", scenarioWith("", "", "[{cca: cubic, count: 10000}]"), ""},
		// 1 h of 1 ms records of one flow: 3.6 M records, ~18 GB.
		{"1 ms for an hour", strings.Replace(scenarioWith("interval: 1ms\n", "", "[{cca: cubic}]"), "10s", "1h", 1), "of memory"},
		// 1000 flows, 1 ms, 10 s: 10 M records.
		{"1000 flows at 1 ms", scenarioWith("interval: 1ms\n", "", "[{cca: cubic, count: 1000}]"), "of memory"},
		{"recorded line-rate probe", strings.Replace(scenarioWith("", "", "[{cca: cbr, rate: 10Gbps, packet_size: 100, record: true}]"), "10s", "60s", 1), "of memory"},
		// a week at 1 Tbit/s: 7.6·10¹³ packets
		{"a week at 1 Tbit/s", strings.Replace(strings.Replace(scenarioWith("interval: 1h\n", "", "[{cca: cubic}]"), "10s", "168h", 1), "100Mbps", "1Tbps", 1), "packets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenario.Parse("run.yaml", []byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			err = s.CheckBudget(true)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckBudget = %v, want within budget (estimate %+v)", err, s.Budget())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--force") {
				t.Fatalf("CheckBudget = %v, want a refusal about %q offering --force (estimate %+v)", err, tc.want, s.Budget())
			}
		})
	}
}

// TestBudgetMatchesMeasuredMemory pins the estimate to the measurement
// it comes from: 10 bbr1 flows × 20 000 intervals of 1 ms peaked at 973 MB.
func TestBudgetMatchesMeasuredMemory(t *testing.T) {
	s, err := scenario.Parse("m.yaml", []byte(strings.Replace(scenarioWith("interval: 1ms\n", "", "[{cca: bbr1, count: 10}]"), "10s", "20s", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Budget().Bytes; got < 0.8e9 || got > 1.3e9 {
		t.Fatalf("estimate %.2f GB, measured 0.97 GB", got/1e9)
	}
}
