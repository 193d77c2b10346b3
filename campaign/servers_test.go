package campaign

import (
	"strings"
	"testing"
	"time"
)

// The built-in seed-000 campaign runs the dataset's limited servers in
// exactly the cells of DatasetServerLimits, each with the credit its idle
// gap earned or the bbr2 hosts' 4 MiB send buffer, and nowhere else.
func TestSeed000DatasetServers(t *testing.T) {
	c, _, err := Seed000(Seed000Options{})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	limited := 0
	for _, r := range runs {
		// Every flow gets its direction's receiver ceiling, and pcc is the
		// hosts' PCC-Kernel module.
		rwnd := "rwnd: 11862016"
		if r.Direction == "uplink" {
			rwnd = "rwnd: 4784128"
		}
		if n := strings.Count(r.Scenario, "rwnd: "); n != len(r.CCAs) || strings.Count(r.Scenario, rwnd) != n {
			t.Errorf("run %s: %d rwnd fields in %q, want %q on each of its %d flows", r.Name(), n, r.Scenario, rwnd, len(r.CCAs))
		}
		if pk := strings.Count(r.Scenario, "cca: pcc-kernel"); pk != strings.Count(strings.Join(r.CCAs, " ")+" ", "pcc ") || strings.Contains(r.Scenario, "cca: pcc\n") {
			t.Errorf("run %s: %d pcc-kernel flows for CCAs %v", r.Name(), pk, r.CCAs)
		}
		if buf := strings.Contains(r.Scenario, "sndbuf: 4194304"); buf != (r.Kind == Dedicated && r.Direction == "downlink" && r.CCAs[0] == "bbr2" && r.City != "tokyo") {
			t.Errorf("run %s: sndbuf 4 MiB in the scenario %v, want it on the calibration cities' dedicated downlink bbr2 only", r.Name(), buf)
		}
		has := strings.Contains(r.Scenario, "max_rate:")
		want := r.Kind == Dedicated && datasetServerLimit(&r, r.CCAs[0]).RateBps > 0
		if has != want {
			t.Errorf("run %s: max_rate in the scenario %v, want %v", r.Name(), has, want)
		}
		if has {
			limited++
			if !strings.Contains(r.Scenario, "max_rate: 64Mbps") || !strings.Contains(r.Scenario, "max_rate_burst: ") {
				t.Errorf("run %s: flows %q, want max_rate 64Mbps with a burst", r.Name(), r.Scenario[strings.Index(r.Scenario, "flows:"):])
			}
		}
	}
	if limited != 5 {
		t.Errorf("%d rate-limited runs, want 5 (one seed, one per cell)", limited)
	}
	for _, l := range DatasetServerLimits() {
		if l.RateBps == 0 {
			continue
		}
		// The five runs of a block are 300 s each, started 5 min 15 s to
		// 5 min 22 s apart: 14–22 s idle, 112–176 MB of credit at 64 Mbit/s.
		if l.Idle < 14*time.Second || l.Idle > 22*time.Second {
			t.Errorf("%s %s: idle %v between runs, want 14–22 s", l.City, l.CCA, l.Idle)
		}
		if b := l.BurstBytes(); b != int64(8e6*l.Idle.Seconds()) {
			t.Errorf("%s %s: burst %d bytes, want 64 Mbit/s over %v", l.City, l.CCA, b, l.Idle)
		}
	}
}

// A campaign file asks for the dataset's servers with dataset_servers; a
// value that is not a boolean is an error naming the field.
func TestParseDatasetServers(t *testing.T) {
	const file = "version: 1\nduration: 60s\naxes: {cca: [leocc], city: [mumbai, london], direction: [downlink]}\ndataset_servers: %s\n"
	c, err := Parse("c.yaml", []byte(strings.Replace(file, "%s", "true", 1)))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || !strings.Contains(runs[0].Scenario, "max_rate") || strings.Contains(runs[1].Scenario, "max_rate") {
		t.Fatalf("runs %d, max_rate in mumbai's %v and london's %v; want 2, true, false",
			len(runs), strings.Contains(runs[0].Scenario, "max_rate"), len(runs) > 1 && strings.Contains(runs[1].Scenario, "max_rate"))
	}
	c, err = Parse("c.yaml", []byte(strings.Replace(file, "%s", "false", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if runs, err = c.Expand(); err != nil || strings.Contains(runs[0].Scenario, "max_rate") {
		t.Fatalf("dataset_servers false: err %v, max_rate present; want neither", err)
	}
	_, err = Parse("c.yaml", []byte(strings.Replace(file, "%s", "true", 1)+"engine: emu\n"))
	if err == nil || !strings.Contains(err.Error(), "dataset_servers") || !strings.Contains(err.Error(), "engine sim") {
		t.Fatalf("dataset_servers with engine emu: error %v, want one naming the field and engine sim", err)
	}
	_, err = Parse("c.yaml", []byte(strings.Replace(file, "%s", "maybe", 1)))
	if err == nil || !strings.Contains(err.Error(), "dataset_servers") || !strings.Contains(err.Error(), "true or false") || !strings.Contains(err.Error(), "c.yaml:4") {
		t.Fatalf("dataset_servers: maybe: error %v, want one naming c.yaml:4, the field and true or false", err)
	}
}
