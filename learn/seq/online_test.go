package seq

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/scenario"
)

// saveRandom writes a model of cfg with random weights to dir and
// returns its path.
func saveRandom(t testing.TB, dir string, cfg Config, gpt2 string) string {
	t.Helper()
	m, err := NewModel(cfg, 1, gpt2)
	if err != nil {
		t.Fatal(err)
	}
	randomize(t, m, 3)
	m.Target = 0.4
	p := filepath.Join(dir, "m.safetensors")
	if err := m.SaveModel(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The online policy's steps are iperf3's intervals: 1448-byte ACKs every
// 115.84 µs are 100 Mbit/s in each closed second, with the smoothed RTT.
func TestOnlineSteps(t *testing.T) {
	g, err := LoadGainModel(saveRandom(t, t.TempDir(), DefaultConfig(), ""))
	if err != nil {
		t.Fatal(err)
	}
	f, err := g.Forward()
	if err != nil {
		t.Fatal(err)
	}
	o := NewOnline(f, true)
	rs := cc.RateSample{AckedBytes: 1448, RTT: 50 * time.Millisecond, SRTT: 50 * time.Millisecond}
	gap := time.Duration(1448 * 8 * 1e9 / 100e6) // 115.84 µs
	for now := time.Duration(0); now < 2500*time.Millisecond; now += gap {
		o.ObserveAck(now, &rs, 200_000)
	}
	if o.n != 2 || math.Abs(o.last.Throughput/100e6-1) > 1e-3 || o.last.RTT != 50*time.Millisecond || o.last.CWnd != 200_000 {
		t.Errorf("after 2.5 s: %d steps, last %+v; want 2 steps of 100 Mbit/s, 50 ms, cwnd 200000", o.n, o.last)
	}
}

// lmbbr runs a sequence model named in a scenario: the policy is asked,
// answers feasible gains, and the run is deterministic.
func TestSeqModelInScenario(t *testing.T) {
	dir := t.TempDir()
	saveRandom(t, dir, DefaultConfig(), "")
	text := "version: 1\nname: seq\nduration: 20s\nseed: 2\ninterval: 1s\n" +
		"path: {profile: fixed, rate: 100Mbps, rtt: 50ms, queue: {limit_packets: 417}}\n" +
		"flows: [{cca: lmbbr, params: {model: m.safetensors, downlink: 1}}]\n"
	sc := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(sc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := simtest.RunFile(t, sc).Flows[0], simtest.RunFile(t, sc).Flows[0]
	last := a.Intervals[len(a.Intervals)-1].CC
	t.Logf("seq lmbbr: %.1f Mbit/s, %d retransmits; UP %g calls mean %.3f, DOWN %g calls mean %.3f", a.ThroughputMbps,
		a.Retransmits, last["lm_up_calls"], last["lm_up_gain_mean"], last["lm_down_calls"], last["lm_down_gain_mean"])
	if last["lm_up_calls"] == 0 || last["lm_down_calls"] == 0 {
		t.Fatalf("the policy was not asked: %v", last)
	}
	if g := last["lm_up_gain_mean"]; g < 1.05-1e-9 || g > 1.25+1e-9 {
		t.Errorf("mean UP gain %g outside [1.05, 1.25]", g)
	}
	if g := last["lm_down_gain_mean"]; g < 0.90-1e-9 || g > 0.98+1e-9 {
		t.Errorf("mean DOWN gain %g outside [0.90, 0.98]", g)
	}
	if a.ThroughputMbps != b.ThroughputMbps || a.Retransmits != b.Retransmits || a.MeanRTTMs != b.MeanRTTMs {
		t.Errorf("two runs differ: %.6f/%d/%.6f vs %.6f/%d/%.6f", a.ThroughputMbps, a.Retransmits, a.MeanRTTMs,
			b.ThroughputMbps, b.Retransmits, b.MeanRTTMs)
	}
}

// A sequence model file of another version, a checkpoint, a missing or
// misshapen tensor: the scenario's error, naming the file.
func TestSeqModelFileRejects(t *testing.T) {
	dir := t.TempDir()
	good := saveRandom(t, dir, tinyConfig(), "")
	f, err := ReadSafetensorsFile(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, edit func(meta map[string]string, ts map[string]STensor)) {
		meta, ts := map[string]string{}, map[string]STensor{}
		for k, v := range f.Meta {
			meta[k] = v
		}
		for k, v := range f.Tensors {
			ts[k] = v
		}
		edit(meta, ts)
		fh, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		if err := WriteSafetensors(fh, meta, ts); err != nil {
			t.Fatal(err)
		}
	}
	write("v2.safetensors", func(m map[string]string, _ map[string]STensor) { m["version"] = "2" })
	write("ckpt.safetensors", func(m map[string]string, _ map[string]STensor) { m["kind"] = kindCkpt })
	write("nohead.safetensors", func(_ map[string]string, ts map[string]STensor) { delete(ts, "/head/bias") })
	write("shape.safetensors", func(_ map[string]string, ts map[string]STensor) {
		ts["/head/bias"] = F32Tensor(make([]float32, 3), 3)
	})
	write("extra.safetensors", func(_ map[string]string, ts map[string]STensor) {
		ts["/head/extra"] = F32Tensor(make([]float32, 3), 3)
	})
	for _, tc := range []struct{ file, want string }{
		{"v2.safetensors", `v2.safetensors: leolab-seq file version "2", this leolab reads version 1`},
		{"ckpt.safetensors", "ckpt.safetensors: a seq checkpoint file, want a model"},
		{"nohead.safetensors", "nohead.safetensors: no tensor /head/bias"},
		{"shape.safetensors", "shape.safetensors: tensor /head/bias is F32[3], want F32[11]"},
		{"extra.safetensors", "extra.safetensors: tensor /head/extra is not part of a model"},
	} {
		text := "version: 1\nname: s\nduration: 5s\npath: {profile: fixed, rate: 10Mbps, rtt: 20ms}\n" +
			"flows: [{cca: lmbbr, params: {model: " + tc.file + "}}]\n"
		sc := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(sc, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := scenario.Load(sc); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.file, err, tc.want)
		}
	}
	if _, err := lmbbr.LoadFile(good); err != nil {
		t.Errorf("the good file: %v", err)
	}
}

// VarShapes, which loading checks files against without gomlx, lists
// exactly the variables the graph creates.
func TestVarShapes(t *testing.T) {
	for _, tc := range backboneModels(t) {
		m := tc.m
		want := VarShapes(m.Config)
		n := 0
		for v := range m.ctx.IterVariables() {
			k := varKey(v)
			if !isModelVar(k) {
				continue
			}
			n++
			if !slices.Equal(want[k], v.Shape().Dimensions) {
				t.Errorf("%s: %s: graph %v, VarShapes %v", tc.name, k, v.Shape().Dimensions, want[k])
			}
		}
		if n != len(want) {
			t.Errorf("%s: graph has %d variables, VarShapes %d", tc.name, n, len(want))
		}
	}
}

// newSeqController is lmbbr driven by a random model of cfg.
func newSeqController(t testing.TB, cfg Config, gpt2 string) cc.Controller {
	c, err := cc.New("lmbbr", cc.Config{Files: map[string]string{lmbbr.ParamModel: saveRandom(t, t.TempDir(), cfg, gpt2)}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The per-ACK path with the sequence policy allocates nothing: the
// observation, the step closing every second and the decisions.
func TestSeqAckPathAllocs(t *testing.T) {
	c := newSeqController(t, DefaultConfig(), "")
	ack := cctest.SteadyAcks(c)
	if a := testing.AllocsPerRun(100_000, ack); a != 0 {
		t.Errorf("%g allocations per ACK", a)
	}
	if m := c.(cc.Inspector).Inspect(); m["lm_up_calls"] == 0 || m["lm_down_calls"] == 0 {
		t.Errorf("the policy was not asked in 100000 ACKs: %v", m)
	}
}

// Loading a sequence model file never panics, and a model that loads
// makes a policy that answers a feasible gain.
func FuzzGainModel(f *testing.F) {
	good, err := os.ReadFile(saveRandom(f, f.TempDir(), tinyConfig(), ""))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := lmbbr.Load("fuzz", data)
		if err != nil {
			return
		}
		p, err := m.NewPolicy(lmbbr.FlowInfo{Downlink: true})
		if err != nil {
			return
		}
		g := p.Gain(bbr.GainState{Phase: bbr.GainUp, MaxBw: 1e6, RoundBw: 9e5})
		if g < bbr.UpGainMin || g > bbr.UpGainMax {
			t.Fatalf("UP gain %g", g)
		}
	})
}
