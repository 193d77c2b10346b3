package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/result"
)

// --iperf3-json writes one iperf3 log per flow that the iperf3 reader reads
// back with the run's bytes and retransmits.
func TestSimIperf3JSON(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, "s.yaml", okScenario)
	code, out, errOut := runCLI("sim", "-f", file, "--json", "--iperf3-json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res result.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(logs) != len(res.Flows) {
		t.Fatalf("%d iperf3 logs for %d flows", len(logs), len(res.Flows))
	}
	for _, f := range res.Flows {
		var found bool
		for _, l := range logs {
			run, err := iperf.ReadFile(l)
			if err != nil {
				t.Fatal(err)
			}
			got := run.Flows()[0]
			if got.BytesAcked == f.BytesAcked && got.Retransmits == f.Retransmits {
				found = true
			}
		}
		if !found {
			t.Errorf("flow %d (%s, %d bytes, %d retransmits) not found in the iperf3 logs", f.ID, f.CCA, f.BytesAcked, f.Retransmits)
		}
	}
}
