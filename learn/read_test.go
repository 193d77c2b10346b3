package learn

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc/lmbbr"
)

// poolLine is one JSONL pool row as WriteJSONL writes it.
const poolLine = `{"location":"sydney","stream":"s","flow":"f","i":0,"t_s":1,"throughput_bps":1e8,"retransmits":0,"cwnd_bytes":100000,"rwnd_bytes":0,"rtt_ms":30,"rttvar_ms":2,"phase":"UP","utilization":0.9,"action":1.25,"reward":1,"mapped_gain":1.05,"mapped_reward":1}`

// TestReadJSONLBounds: values that overflow a Duration or lie about their
// unit are refused with the line and the field.
func TestReadJSONLBounds(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{`"t_s":1`, `"t_s":1e300`, "line 1: t_s: 1e+300 is out of range"},
		{`"t_s":1`, `"t_s":-5`, "t_s: -5 is out of range"},
		{`"rtt_ms":30`, `"rtt_ms":1e300`, "rtt_ms"},
		{`"rttvar_ms":2`, `"rttvar_ms":-1`, "rttvar_ms"},
		{`"throughput_bps":1e8`, `"throughput_bps":-1e8`, "throughput_bps"},
		{`"cwnd_bytes":100000`, `"cwnd_bytes":-1`, "cwnd_bytes"},
	} {
		_, err := ReadJSONL(strings.NewReader(strings.Replace(poolLine, tc.from, tc.to, 1) + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.to, err, tc.want)
		}
	}
	rows, err := ReadJSONL(strings.NewReader(poolLine + "\n\n" + poolLine + "\n"))
	if err != nil || len(rows) != 2 {
		t.Fatalf("good pool: %d rows, %v", len(rows), err)
	}
}

// TestTrainRefusesBadHyperparameters: issue 18 — `learn train --l2 NaN`
// trained (NaN < 0 is false). Each bad value is refused naming the flag
// and the allowed range.
func TestTrainRefusesBadHyperparameters(t *testing.T) {
	for _, tc := range []struct {
		cfg  TrainConfig
		want string
	}{
		{TrainConfig{Iterations: 10, Rate: 0.5, L2: math.NaN()}, "--l2: NaN is out of range (allowed: 0..1e+06)"},
		{TrainConfig{Iterations: 10, Rate: 0.5, L2: math.Inf(1)}, "--l2"},
		{TrainConfig{Iterations: 10, Rate: 0.5, L2: -1}, "--l2"},
		{TrainConfig{Iterations: 10, Rate: 0.5, L2: 10}, "--rate 0.5 × --l2 10 = 5: gradient descent diverges"},
		{TrainConfig{Iterations: 10, Rate: math.NaN(), L2: 0}, "--rate: NaN"},
		{TrainConfig{Iterations: 10, Rate: 0, L2: 0}, "--rate"},
		{TrainConfig{Iterations: 0, Rate: 0.5, L2: 0}, "--iterations 0"},
		{TrainConfig{Iterations: 1 << 40, Rate: 0.5, L2: 0}, "--iterations"},
	} {
		_, err := Train(nil, tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
	}
	if err := DefaultTrainConfig().Validate(); err != nil {
		t.Fatalf("the default config: %v", err)
	}
}

// FuzzReadJSONL: no pool panics the reader, the feature pipeline or a
// short training, rows are bounded by the input's lines, and what trains
// is a model lmbbr accepts.
func FuzzReadJSONL(f *testing.F) {
	down := strings.NewReplacer(`"phase":"UP"`, `"phase":"DOWN"`, `"mapped_gain":1.05`, `"mapped_gain":0.9`).Replace(poolLine)
	f.Add([]byte(poolLine + "\n" + down + "\n"))
	f.Add([]byte(poolLine + "\n" + strings.Replace(down, `"rtt_ms":30`, `"rtt_ms":0`, 1) + "\n"))
	f.Add([]byte(strings.Replace(poolLine, `"t_s":1`, `"t_s":1e300`, 1)))
	f.Add([]byte(strings.Replace(poolLine, `"phase":"UP"`, `"phase":"SIDEWAYS"`, 1)))
	f.Add([]byte(`{"phase":"CRUISE"}` + "\n" + `{`))
	f.Add([]byte(strings.Repeat("x", 2<<20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadJSONL(bytes.NewReader(data))
		if err != nil {
			return
		}
		if lines := bytes.Count(data, []byte("\n")) + 1; len(rows) > lines {
			t.Fatalf("%d rows from %d lines", len(rows), lines)
		}
		m, err := Train(Examples(rows), TrainConfig{Iterations: 3, Rate: 0.5, L2: 1e-3})
		if err != nil {
			return
		}
		data, err = MarshalModel(m, TrainingInfo{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lmbbr.ParseModel(data); err != nil {
			t.Fatalf("trained an invalid model: %v", err)
		}
	})
}
