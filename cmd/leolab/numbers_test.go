package main

import (
	"strings"
	"testing"
)

// poolRow is one row of a learn pool (JSONL).
const poolRow = `{"location":"sydney","stream":"s","flow":"f","i":0,"t_s":1,"throughput_bps":1e8,"retransmits":0,"cwnd_bytes":100000,"rwnd_bytes":0,"rtt_ms":30,"rttvar_ms":2,"phase":"UP","utilization":0.9,"action":1.25,"reward":1,"mapped_gain":1.05,"mapped_reward":1}`

// TestBadNumbersExit2: issue 18's numbers that slipped through (NaN/Inf
// loss, 1e-300bps, 1e300Tbps, 1 ns intervals, flows without a total cap,
// runs that cannot fit in memory) exit 2 through every way in, naming the
// field or flag and the allowed range; none runs.
func TestBadNumbersExit2(t *testing.T) {
	file := func(body string) string {
		return writeFile(t, "s.yaml", "version: 1\nduration: 5s\n"+body)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"sim --loss NaN", []string{"sim", "--loss", "NaN", "--duration", "1s"}, []string{"--loss", "[0, 1)"}},
		{"sim --rate 1e-300bps", []string{"sim", "--rate", "1e-300bps", "--duration", "1s"}, []string{"--rate", "1kbps..1Tbps"}},
		{"sim --rate 1e300Tbps", []string{"sim", "--rate", "1e300Tbps", "--duration", "1s"}, []string{"--rate", "overflows after its unit"}},
		{"sim --interval 1ns", []string{"sim", "--interval", "1ns", "--duration", "1s"}, []string{"--interval", "allowed: 1ms"}},
		{"sim over budget", []string{"sim", "--interval", "1ms", "--duration", "2h"}, []string{"of memory", "--force"}},
		{"sim -f reverse NaN", []string{"sim", "-f", file("path: {profile: fixed, rate: 10Mbps, rtt: 10ms, reverse: {loss: NaN}}\nflows: [{cca: cubic}]\n")},
			[]string{"s.yaml:3", "path.reverse.loss"}},
		{"sim -f reverse 1e-300bps", []string{"sim", "-f", file("path: {profile: fixed, rate: 10Mbps, rtt: 10ms, reverse: {rate: 1e-300bps}}\nflows: [{cca: cubic}]\n")},
			[]string{"path.reverse.rate", "1kbps..1Tbps"}},
		{"sim -f 10 × 10000 flows", []string{"sim", "-f", file("path: {profile: fixed, rate: 10Mbps, rtt: 10ms}\nflows: [" +
			strings.TrimSuffix(strings.Repeat("{cca: cubic, count: 10000},", 10), ",") + "]\n")}, []string{"flows", "at most 10000"}},
		{"sim -f overrides 1e300Tbps", []string{"sim", "-f", file("path: {profile: starlink, overrides: {downlink.alloc.base: 1e300Tbps}}\nflows: [{cca: cubic}]\n")},
			[]string{"downlink.alloc.base", "allowed"}},
		{"emu --rate 1e300Tbps", []string{"emu", "--rate", "1e300Tbps"}, []string{"--rate", "overflows"}},
		{"emu --loss Inf", []string{"emu", "--loss", "Inf"}, []string{"--loss", "[0, 1)"}},
		{"learn train --l2 NaN", []string{"learn", "train", writeFile(t, "pool.jsonl", poolRow+"\n"), "--l2", "NaN"}, []string{"--l2", "NaN", "allowed: 0..1e+06"}},
		{"learn train --rate Inf", []string{"learn", "train", writeFile(t, "pool.jsonl", poolRow+"\n"), "--rate", "Inf"}, []string{"--rate"}},
		{"probe absurd timestamp", []string{"probe", writeFile(t, "r.json", `{"engine":"sim","flows":[{"id":0,"cca":"cbr","packets":[{"seq":0,"sent_s":0,"owd_ms":1},{"seq":1,"sent_s":1e300,"owd_ms":1}]}]}`)},
			[]string{"packets[1]: sent_s 1e+300", "want a time in"}},
		{"probe absurd delay", []string{"probe", writeFile(t, "d.txt", "14\n1e300\n")}, []string{"d.txt:2:", "want a number in [0, 600000]"}},
		{"emu --cca nosuch", []string{"emu", "--cca", "nosuch", "--duration", "1s"}, []string{"nosuch", "the kernel refuses it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(tc.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}
