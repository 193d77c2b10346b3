package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc/lmbbr"
)

const learnTraces = "../../../shared/data/starlink-iperf3/traces"

func needTraces(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(learnTraces); err != nil {
		t.Skipf("skipping: real Starlink traces not available: %v", err)
	}
}

// learnPool runs `learn pool args...` and returns its stdout.
func learnPool(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	c := newLearnCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	if err := execCmd(t, c, append([]string{"pool"}, args...)...); err != nil {
		t.Fatalf("learn pool %v: %v\nstderr: %s", args, err, errb.String())
	}
	return out.String()
}

func TestLearnPoolCSV(t *testing.T) {
	needTraces(t)
	// The directory holds Sydney downlink bbr and cubic and uplink bbr,
	// 300 one-second intervals each: the two BBR traces give 600 rows.
	text := learnPool(t, learnTraces)
	if again := learnPool(t, learnTraces); again != text {
		t.Error("two runs on the same input differ: the pool must be deterministic")
	}
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+600 {
		t.Fatalf("%d CSV records, want header + 600", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, need := range []string{"location", "stream", "flow", "t_s", "throughput_bps", "retransmits", "cwnd_bytes",
		"rwnd_bytes", "rtt_ms", "rttvar_ms", "phase", "utilization", "action", "reward"} {
		if _, ok := col[need]; !ok {
			t.Fatalf("header %v lacks %q", recs[0], need)
		}
	}
	streams := map[string]int{}
	for _, r := range recs[1:] {
		streams[r[col["stream"]]]++
		if r[col["location"]] != "sydney" || strings.Contains(r[col["flow"]], "cubic") {
			t.Fatalf("row %v: want Sydney BBR flows only", r)
		}
	}
	if streams["downlink-sequential"] != 300 || streams["uplink-sequential"] != 300 {
		t.Errorf("rows per stream %v, want 300 downlink-sequential and 300 uplink-sequential", streams)
	}
}

func TestLearnPoolAllJSONLToFile(t *testing.T) {
	needTraces(t)
	out := filepath.Join(t.TempDir(), "pool.jsonl")
	if s := learnPool(t, learnTraces, "--all", "--jsonl", "--out", out); s != "" {
		t.Errorf("stdout %q with --out", s)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, cubic := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row struct {
			Flow   string  `json:"flow"`
			Phase  string  `json:"phase"`
			Action float64 `json:"action"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		if strings.Contains(row.Flow, "cubic") {
			cubic++
		}
	}
	// --all adds the CUBIC trace's 300 rows.
	if n != 900 || cubic != 300 {
		t.Errorf("%d rows, %d CUBIC, want 900 and 300", n, cubic)
	}
}

func TestLearnPoolBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"start": `), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file with only a CUBIC flow: nothing to pool without --all.
	res := filepath.Join(dir, "cubic.json")
	doc := `{"engine":"sim","scenario":"s","flows":[{"id":0,"cca":"cubic","intervals":[` +
		`{"t":1,"bytes":1000},{"t":2,"bytes":2000},{"t":3,"bytes":1500}]}]}`
	if err := os.WriteFile(res, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	// A BBR flow whose interval times go backwards.
	back := filepath.Join(dir, "back.json")
	doc = `{"engine":"sim","scenario":"s","flows":[{"id":0,"cca":"bbr","intervals":[` +
		`{"t":1,"bytes":1000},{"t":3,"bytes":2000},{"t":2,"bytes":1500}]}]}`
	if err := os.WriteFile(back, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // the file or problem the message must name
	}{
		{[]string{"pool"}, "no PATH"},
		{[]string{"pool", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"pool", bad}, "bad.json"},
		{[]string{"pool", res}, "no BBR flows"},
		{[]string{"pool", back}, "back.json"},
	} {
		cmd := newLearnCmd()
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := execCmd(t, cmd, c.args...)
		if !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %T %v, want a usage error naming %q", c.args, err, err, c.want)
		}
	}
	// The CUBIC result is accepted with --all.
	if s := learnPool(t, res, "--all"); strings.Count(s, "\n") != 4 {
		t.Errorf("--all on a 3-interval CUBIC result: %q, want header + 3 rows", s)
	}
}

// learnTrain runs `learn train args...` and returns stdout and stderr.
func learnTrain(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	c := newLearnCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	err := execCmd(t, c, append([]string{"train"}, args...)...)
	return out.String(), errb.String(), err
}

// syntheticPool writes dir/pool.jsonl: n records for each of two cities
// (sydney, tokyo), UP steps whose gain follows the throughput, DOWN steps
// at 0.9; reward adds the mapped_reward the sequence policy trains on.
func syntheticPool(t *testing.T, dir string, n int, reward bool) string {
	t.Helper()
	var pool strings.Builder
	for _, loc := range []string{"sydney", "tokyo"} {
		for i := range n {
			phase, gain, tput := "CRUISE", 1.0, 2e8
			switch i % 10 {
			case 3:
				phase, gain, tput = "UP", 1.05, 3e8
			case 6:
				phase, gain, tput = "UP", 1.15, 1.2e8
			case 4:
				phase, gain, tput = "DOWN", 0.9, 1e8
			}
			rec := map[string]any{"location": loc, "stream": "downlink-sim", "flow": loc + " bbr", "i": i,
				"t_s": float64(i + 1), "throughput_bps": tput, "retransmits": i % 3, "rtt_ms": 30 + float64(i%5),
				"phase": phase, "mapped_gain": gain, "action": gain}
			if reward {
				rec["mapped_reward"] = 0.5
			}
			b, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			pool.Write(append(b, '\n'))
		}
	}
	in := filepath.Join(dir, "pool.jsonl")
	if err := os.WriteFile(in, []byte(pool.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// A pool of two locations: train on one, hold the other out, and get a
// model lmbbr accepts, deterministically, with per-phase accuracy on stderr.
func TestLearnTrainHoldout(t *testing.T) {
	dir := t.TempDir()
	in := syntheticPool(t, dir, 40, false)
	outPath := filepath.Join(dir, "model.json")
	if _, stderr, err := learnTrain(t, in, "--holdout", "tokyo", "--out", outPath); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	} else if !strings.Contains(stderr, "held-out tokyo UP: 8 rows") || !strings.Contains(stderr, "train DOWN: 4 rows") ||
		!strings.Contains(stderr, "held-out tokyo UP: cross-entropy ") || !strings.Contains(stderr, "(training label prior ") {
		t.Errorf("stderr:\n%s", stderr)
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lmbbr.ParseModel(data)
	if err != nil {
		t.Fatal(err)
	}
	// The two UP situations are separable by the rate feature.
	if g := m.Predict(lmbbr.PhaseUp, lmbbr.Features(lmbbr.Inputs{Rate: 1, MaxRate: 1})); g != 1.05 {
		t.Errorf("UP at full rate: %g, want 1.05", g)
	}
	if stdout, _, err := learnTrain(t, in, "--holdout", "tokyo"); err != nil || stdout != string(data) {
		t.Errorf("stdout differs from --out (err %v): training must be deterministic", err)
	}
	if _, _, err := learnTrain(t, in, "--holdout", "perth"); err == nil {
		t.Error("a holdout with no rows was accepted")
	}
	if _, _, err := learnTrain(t); err == nil {
		t.Error("no pool was accepted")
	}
}
